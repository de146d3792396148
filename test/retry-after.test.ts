/**
 * `retry-after` and `retry-after-ms` read strictly (core/limits/retry-after.ts), through the
 * public API: a 429 (or 503) with the header under test, and the delay the SDK chose as
 * `beforeRetry` is told it (the hook then aborts the call, so nothing waits). A value HTTP writes
 * (digits, with a fraction as real servers send; an HTTP date) is honoured; one that only
 * JavaScript's `Number()` or `Date.parse()` would read is ignored, as if absent: the normal
 * backoff (375 to 500 ms before the first retry). No wall clock: the delay is what the SDK says.
 */
import { describe, expect, it } from 'vitest';
import { APIUserAbortError, Client, RateLimitError, type ClientOptions } from '../src/index';
import { useFaultServers } from './support/fault-server';

const { faultServer } = useFaultServers();
const messages = [{ role: 'user' as const, content: 'hi' }];
const error = JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error' } });

/**
 * One call whose first attempt is answered with `status` and `headers` (by a loopback server, or
 * by `fetch` for what a socket cannot carry): the delays `beforeRetry` was told, what the call
 * ended with, and the attempts made.
 */
async function firstDelay(headers: Record<string, string>, status = 429, via: 'server' | 'fetch' = 'server') {
  let attempts = 0;
  const options: ClientOptions = {};
  if (via === 'fetch') {
    options.fetch = async () => (attempts++, new Response(error, { status, headers: { 'content-type': 'application/json', ...headers } }));
  } else {
    const server = await faultServer((_req, res) => {
      attempts++;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(error);
    });
    options.baseURL = server.url;
  }
  const controller = new AbortController();
  const delays: number[] = [];
  const client = new Client({
    apiKey: 'sk-test',
    baseURL: 'http://127.0.0.1:9/v1',
    logLevel: 'off',
    maxRetries: 2,
    hooks: {
      beforeRetry({ delay }) {
        delays.push(delay);
        controller.abort();
      },
    },
    ...options,
  });
  const outcome = await client.chat.completions.create({ model: 'acme/chat-1', messages }, { signal: controller.signal }).catch((e: unknown) => e);
  return { delays, outcome, attempts };
}

const backoff = (delays: number[]) => {
  expect(delays).toHaveLength(1);
  expect(delays[0]).toBeGreaterThanOrEqual(375);
  expect(delays[0]).toBeLessThanOrEqual(500);
};

describe('retry-after and retry-after-ms: what a server sends is honoured', () => {
  /** 30 s from now, to the second below (an HTTP date has no milliseconds). */
  const inThirty = () => new Date(Date.now() + 30_000);
  const rfc850 = (d: Date) => d.toUTCString().replace(/^(\w+), (\d\d) (\w+) \d\d(\d\d)/, (_, day: string, dd: string, mon: string, yy: string) => `${{ Sun: 'Sunday', Mon: 'Monday', Tue: 'Tuesday', Wed: 'Wednesday', Thu: 'Thursday', Fri: 'Friday', Sat: 'Saturday' }[day]}, ${dd}-${mon}-${yy}`);

  it.each([
    ['retry-after: 2', { 'retry-after': '2' }, 2000],
    ['retry-after: 1.5 (a fraction, as some servers send)', { 'retry-after': '1.5' }, 1500],
    ['retry-after-ms: 250', { 'retry-after-ms': '250' }, 250],
    ['retry-after-ms: 100.0', { 'retry-after-ms': '100.0' }, 100],
    ['retry-after: " 5\t" (the spaces and tabs around a field value are not part of it)', { 'retry-after': ' 5\t' }, 5000],
    ['retry-after-ms before retry-after', { 'retry-after-ms': '300', 'retry-after': '7' }, 300],
    ['an unreadable retry-after-ms falls back to retry-after', { 'retry-after-ms': '1e3', 'retry-after': '3' }, 3000],
  ])('%s', async (_, headers, delay) => {
    const { delays, outcome } = await firstDelay(headers);
    expect(delays).toEqual([delay]);
    expect(outcome).toBeInstanceOf(APIUserAbortError);
  });

  it.each([
    ['an IMF-fixdate', () => inThirty().toUTCString()],
    ['an RFC 850 date', () => rfc850(inThirty())],
  ])('retry-after as %s 30 s away', async (_, date) => {
    const { delays } = await firstDelay({ 'retry-after': date() });
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(20_000); // not the backoff; the date has no milliseconds, and a loaded machine is slow
    expect(delays[0]).toBeLessThanOrEqual(30_000);
  });

  it('retry-after as an asctime date 30 s away, read as GMT whatever the time zone (Date.parse reads it as local time)', async () => {
    const zone = process.env['TZ'];
    process.env['TZ'] = 'Asia/Tokyo'; // 9 hours east: read as local time, the date was 9 hours ago
    try {
      const d = inThirty();
      const asctime = d.toUTCString().replace(/^(\w+), (\d\d) (\w+) (\d{4}) ([\d:]+) GMT$/, (_, day: string, dd: string, mon: string, year: string, time: string) => `${day} ${mon} ${dd.replace(/^0/, ' ')} ${time} ${year}`);
      expect(asctime).toMatch(/^\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/);
      const { delays } = await firstDelay({ 'retry-after': asctime });
      expect(delays).toHaveLength(1);
      expect(delays[0]).toBeGreaterThan(20_000);
      expect(delays[0]).toBeLessThanOrEqual(30_000);
    } finally {
      if (zone === undefined) delete process.env['TZ'];
      else process.env['TZ'] = zone;
    }
  });

  it('a 503 too', async () => {
    expect((await firstDelay({ 'retry-after': '1.5' }, 503)).delays).toEqual([1500]);
  });

  it.each(['9999999999999999999999', '2030'])('retry-after: %s (seconds, beyond the cap): the error at once, not retried, as for an hour', async (value) => {
    const { delays, outcome, attempts } = await firstDelay({ 'retry-after': value });
    expect(delays).toEqual([]);
    expect(outcome).toBeInstanceOf(RateLimitError);
    expect(attempts).toBe(1);
  });
});

describe('what only JavaScript reads as a number or a date is ignored: the normal backoff', () => {
  const values = ['0x10', '1e3', '1, 1', 'x 2030', '+5', '5.', '.5', 'Infinity', 'NaN', '-1', '-0.5', '12/31/2030', '2030-01-01', '5s', '1_000'];

  it.each(values)('retry-after: %s', async (value) => {
    const { delays, outcome } = await firstDelay({ 'retry-after': value });
    backoff(delays);
    expect(outcome).toBeInstanceOf(APIUserAbortError);
  });

  it.each(['0x10', '1e3', '1, 1', 'x 2030', '+5', '5.', '.5', 'Infinity', 'NaN', '-1', '100ms'])('retry-after-ms: %s', async (value) => {
    backoff((await firstDelay({ 'retry-after-ms': value })).delays);
  });

  it.each([
    ['a vertical tab before the digits (Number() skips it)', { 'retry-after': '\v5' }],
    ['a control character after them', { 'retry-after-ms': '5\u0001' }],
    ['100 KB of digits and a letter', { 'retry-after': `${'9'.repeat(100_000)}x` }],
    ['100 KB of a date-like text', { 'retry-after': `Sun, ${'06 Nov '.repeat(15_000)}` }],
  ])('%s, through fetch (no socket carries it)', async (_, headers) => {
    backoff((await firstDelay(headers, 429, 'fetch')).delays);
  });
});
