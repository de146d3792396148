/**
 * The limiter reads each rate-limit header family real servers send (docs/errors-and-retries.md,
 * "Limits"): a response that says nothing is left holds the next call until the reset; a 429's
 * `retry-after` holds every call; hostile values (huge, negative, NaN, years away, absurdly
 * long) hold nothing. Through the public API, against a loopback server that answers the first
 * request with the headers under test and every later one with a plain completion.
 */
import { describe, expect, it } from 'vitest';
import { Client, RateLimitError, type CallSummary, type ClientOptions } from '../src/index';
import { useFaultServers } from './support/fault-server';

const { faultServer } = useFaultServers();
const model = 'acme/chat-1';
const messages = [{ role: 'user' as const, content: 'hi' }];
const completion = JSON.stringify({
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
});

/**
 * Two calls one after the other: the first answered with `status` and `headers`, the second with
 * a 200. What the client knew after the first, how long the second waited in the queue, and how
 * long after the first the server saw it.
 */
async function twoCalls(headers: Record<string, string> | (() => Record<string, string>), status = 200, options: ClientOptions = {}) {
  const seen: number[] = [];
  const server = await faultServer((_req, res) => {
    seen.push(performance.now());
    if (seen.length === 1) {
      res.writeHead(status, { 'content-type': 'application/json', ...(typeof headers === 'function' ? headers() : headers) });
      res.end(status === 200 ? completion : JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error' } }));
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(completion);
    }
  });
  const ends: CallSummary[] = [];
  const client = new Client({
    apiKey: 'sk-test',
    baseURL: server.url,
    logLevel: 'off',
    maxRetries: 0,
    hooks: { onEnd: (summary) => void ends.push(summary) },
    ...options,
  });
  const first = await client.chat.completions.create({ model, messages }).catch((error: unknown) => error);
  const known = client.rateLimits();
  const knownAt = Date.now();
  await client.chat.completions.create({ model, messages });
  return { first, known, knownAt, queued: ends[1]!.queueTime, gap: seen[1]! - seen[0]!, requests: seen.length };
}

describe('each family holds the next call until its reset', () => {
  it("OpenAI's x-ratelimit-*-requests and -tokens, the reset a duration", async () => {
    const { known, queued, gap } = await twoCalls({
      'x-ratelimit-limit-requests': '10',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '400ms',
      'x-ratelimit-limit-tokens': '40000',
      'x-ratelimit-remaining-tokens': '39000',
      'x-ratelimit-reset-tokens': '1m30.5s',
    });
    const limits = known.models[model]!;
    expect(limits.requests).toMatchObject({ limit: 10, remaining: 0 });
    expect(limits.requests!.resetAt! - Date.now()).toBeLessThanOrEqual(400);
    expect(limits.tokens).toMatchObject({ limit: 40_000, remaining: 39_000 });
    // 1 min 30.5 s from the response (a minute and a half, give or take the test's own time).
    expect(limits.tokens!.resetAt! - Date.now()).toBeGreaterThan(85_000);
    expect(queued).toBeGreaterThan(0);
    expect(gap).toBeGreaterThanOrEqual(350);
  });

  it.each([
    ['a delay in seconds', () => '0.4'],
    ['epoch seconds', () => String((Date.now() + 1400) / 1000)],
    ['epoch milliseconds', () => String(Date.now() + 400)],
  ])('the common x-ratelimit-*, the reset as %s', async (_, reset) => {
    const { known, queued, gap } = await twoCalls(() => ({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset() }));
    expect(known.models[model]!.requests).toMatchObject({ limit: 60, remaining: 0 });
    expect(queued).toBeGreaterThan(0);
    expect(gap).toBeGreaterThanOrEqual(350);
  });

  it.each([
    ['drafts 8 and later: "policy";r=;t=', { ratelimit: '"default";r=0;t=0.4', 'ratelimit-policy': '"default";q=100;w=60' }, 100],
    ['the same with policy names as tokens', { ratelimit: 'default;r=0;t=0.4', 'ratelimit-policy': 'default;q=100;w=60' }, 100],
    ['the tightest of several policies', { ratelimit: '"day";r=500;t=80000, "burst";r=0;t=0.4', 'ratelimit-policy': '"day";q=1000;w=86400, "burst";q=10;w=1' }, 10],
    ['draft 7: limit=, remaining=, reset=', { ratelimit: 'limit=10, remaining=0, reset=0.4', 'ratelimit-policy': '10;w=1' }, 10],
    ['drafts 6 and before: RateLimit-Limit, -Remaining, -Reset', { 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '0.4' }, 10],
  ])('the IETF RateLimit fields, %s', async (_, headers, limit) => {
    const { known, queued, gap } = await twoCalls(headers);
    expect(known.models[model]!.requests).toMatchObject({ limit, remaining: 0 });
    expect(queued).toBeGreaterThan(0);
    expect(gap).toBeGreaterThanOrEqual(350);
  });

  it('a policy counted in another unit than requests holds nothing', async () => {
    const { known, queued } = await twoCalls({ ratelimit: '"bytes";r=0;t=5', 'ratelimit-policy': '"bytes";q=1000;w=10;qu="content-bytes"' });
    expect(known.models[model]!.requests).toBeUndefined();
    expect(queued).toBe(0);
  });

  it.each([
    ['retry-after-ms', () => ({ 'retry-after-ms': '400' })],
    ['retry-after in seconds', () => ({ 'retry-after': '1' })],
    ['retry-after as an HTTP date', () => ({ 'retry-after': new Date(Date.now() + 2000).toUTCString() })],
  ])('a 429 with %s holds every call of the model (maxRetries: 0: its own call fails)', async (_, headers) => {
    const { first, known, knownAt, queued, gap } = await twoCalls(headers, 429);
    expect(first).toBeInstanceOf(RateLimitError);
    expect(known.models[model]!.retryAt! - knownAt).toBeGreaterThan(0);
    expect(queued).toBeGreaterThan(0);
    expect(gap).toBeGreaterThanOrEqual(350);
  });

  it('a 503 with retry-after too', async () => {
    const { queued, gap } = await twoCalls({ 'retry-after-ms': '400' }, 503);
    expect(queued).toBeGreaterThan(0);
    expect(gap).toBeGreaterThanOrEqual(350);
  });

  it('requests left: nothing holds the next call', async () => {
    const { known, queued } = await twoCalls({ 'x-ratelimit-limit-requests': '10', 'x-ratelimit-remaining-requests': '9', 'x-ratelimit-reset-requests': '6s' });
    expect(known.models[model]!.requests).toMatchObject({ limit: 10, remaining: 9 });
    expect(queued).toBe(0);
  });

  it('respectRateLimits: false reads nothing and holds nothing', async () => {
    const { known, queued, requests } = await twoCalls({ 'retry-after-ms': '5000' }, 429, { respectRateLimits: false });
    expect(known.models[model]?.retryAt).toBeUndefined();
    expect(queued).toBe(0);
    expect(requests).toBe(2);
  });
});

describe('hostile values hold nothing', () => {
  const long = '9'.repeat(2_000);
  const yearsAway = Date.now() + 10 * 365 * 86_400_000;
  it.each([
    ['a reset years away (OpenAI)', { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '87600h' }],
    ['a negative reset', { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '-1s' }],
    ['a NaN reset', { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': 'NaN' }],
    ['a reset of 1e309 seconds', { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1e309' }],
    ['an absurdly long reset', { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': `${long}ms` }],
    ['a reset that is no duration', { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1x2s' }],
    ['a negative remaining', { 'x-ratelimit-remaining-requests': '-1', 'x-ratelimit-reset-requests': '1s' }],
    ['a remaining of NaN', { 'x-ratelimit-remaining-requests': 'NaN', 'x-ratelimit-reset-requests': '1s' }],
    ['an epoch reset years away (common)', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(yearsAway / 1000)) }],
    ['an epoch-ms reset in the past', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.now() - 600_000) }],
    ['a huge reset number', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999999999999999' }],
    ['an IETF t of hours', { ratelimit: '"p";r=0;t=7200' }],
    ['an IETF t that is negative', { ratelimit: '"p";r=0;t=-3' }],
    ['an IETF r that is NaN', { ratelimit: '"p";r=NaN;t=1' }],
    ['an IETF field of 2,000 characters', { ratelimit: `"p";r=0;t=1;x="${long}"` }],
    ['an IETF field that is no structured field', { ratelimit: ';;;,,,=="' }],
  ])('%s', async (_, headers) => {
    const { queued, requests } = await twoCalls(headers);
    expect(queued).toBe(0);
    expect(requests).toBe(2);
  });

  // Numbers as HTTP writes them (digits, a fraction at most): what only Number() reads is none.
  const notNumbers = ['0x10', '1e3', '+5', '5.', '.5', 'Infinity', '-1', 'x 2030', '5 5'];
  it.each(
    notNumbers.flatMap((v) => [
      [`OpenAI's remaining ${v}`, { 'x-ratelimit-remaining-requests': v, 'x-ratelimit-reset-requests': '1s' }],
      [`OpenAI's reset ${v}`, { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': v }],
      [`the common remaining ${v}`, { 'x-ratelimit-remaining': v, 'x-ratelimit-reset': '1' }],
      [`the common reset ${v}`, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': v }],
      [`a list as the common reset (${v}, 1)`, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': `${v}, 1` }],
      [`the IETF r=${v}`, { ratelimit: `"p";r=${v};t=1` }],
      [`the IETF t=${v}`, { ratelimit: `"p";r=0;t=${v}` }],
      [`draft 7's remaining=${v}`, { ratelimit: `limit=10, remaining=${v}, reset=1` }],
    ] as const),
  )('%s: no window read, nothing held', async (_, headers) => {
    const { known, queued, requests } = await twoCalls(headers);
    expect(known.models[model]?.requests).toBeUndefined();
    expect(queued).toBe(0);
    expect(requests).toBe(2);
  });

  it.each(notNumbers)('a limit of %s is no limit (the window still read)', async (v) => {
    const { known } = await twoCalls({ 'x-ratelimit-limit-requests': v, 'x-ratelimit-remaining-requests': '5', 'x-ratelimit-reset-requests': '1s' });
    expect(known.models[model]!.requests).toMatchObject({ limit: undefined, remaining: 5 });
  });

  it('a huge remaining is bounded, not Infinity', async () => {
    const { known, queued } = await twoCalls({ 'x-ratelimit-remaining-requests': '1'.repeat(400), 'x-ratelimit-reset-requests': '1s' });
    expect(known.models[model]!.requests!.remaining).toBe(Number.MAX_SAFE_INTEGER);
    expect(queued).toBe(0);
  });

  it.each([
    ['an hour', { 'retry-after': '3600' }],
    ['an hour, in ms', { 'retry-after-ms': '3600000' }],
    ['1e308 seconds', { 'retry-after': '1e308' }],
    ['a negative wait', { 'retry-after': '-5', 'retry-after-ms': '-5' }],
    ['NaN', { 'retry-after-ms': 'NaN' }],
    ['a date years away', { 'retry-after': new Date(yearsAway).toUTCString() }],
    ['a date in the past', { 'retry-after': new Date(Date.now() - 600_000).toUTCString() }],
    ['2,000 digits', { 'retry-after': long }],
  ])('a 429 asking to wait %s: the next call is not held', async (_, headers) => {
    const { first, known, queued, requests } = await twoCalls(headers, 429);
    expect(first).toBeInstanceOf(RateLimitError);
    expect(known.models[model]!.retryAt).toBeUndefined();
    expect(queued).toBe(0);
    expect(requests).toBe(2);
  });

  it('a 429 asking to wait an hour fails at once, even with retries left (as before the limiter)', async () => {
    const { first, requests } = await twoCalls({ 'retry-after': '3600' }, 429, { maxRetries: 2 });
    expect(first).toBeInstanceOf(RateLimitError);
    expect(requests).toBe(2);
  });
});
