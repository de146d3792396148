/**
 * One client keeps to the server's limits (issue 31, item 1), through the public API against
 * real loopback servers: `maxConcurrency` (a stream counted until it ends), `rateLimits()`,
 * `withOptions()` copies sharing one limiter, token budgets. docs/errors-and-retries.md, "Limits".
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { RateLimitError, type CallSummary } from '../src/index';
import { startFaultServer, useFaultServers } from './support/fault-server';
import { model, ask, completion, useBuckets, bucket, clientOf } from './support/limits';

const { faultServer } = useFaultServers();

useBuckets();

describe('maxConcurrency', () => {
  it('caps the calls in flight; they go in order', async () => {
    const server = await bucket({ rate: 1000, burst: 1000, family: 'none', latency: 30 });
    const client = clientOf(server.url, { maxConcurrency: 3 });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => client.chat.completions.create(ask(`${i}`))),
    );
    expect(server.maxInFlight).toBe(3);
    expect(server.order).toEqual(Array.from({ length: 12 }, (_, i) => `${i}`));
  });

  it('a stream holds its place until it ends: read to its end, left with break, or aborted', async () => {
    const server = await bucket({ rate: 1000, burst: 1000, family: 'none' });
    const client = clientOf(server.url, { maxConcurrency: 1 });
    const a = await client.chat.completions.create({ ...ask('a'), stream: true });
    const b = client.chat.completions.create({ ...ask('b'), stream: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.rateLimits()).toMatchObject({ inFlight: 1, queued: 1 });
    for await (const _ of a) break;
    const second = await b;
    expect(client.rateLimits()).toMatchObject({ inFlight: 1, queued: 0 });
    second.controller.abort();
    const third = await client.chat.completions.create({ ...ask('c'), stream: true });
    expect(await third.finalContent()).toBe('ok');
    expect(client.rateLimits()).toMatchObject({ inFlight: 0, queued: 0 });
    expect(server.order).toEqual(['a', 'b', 'c']);
  });

  it('a stream dropped unread gives its place back once it is garbage-collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const server = await bucket({ rate: 1000, burst: 1000, family: 'none' });
    const client = clientOf(server.url, { maxConcurrency: 1 });
    await (async () => {
      await client.chat.completions.create({ ...ask('dropped'), stream: true });
    })();
    expect(client.rateLimits().inFlight).toBe(1);
    for (let i = 0; i < 200 && client.rateLimits().inFlight > 0; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(client.rateLimits().inFlight).toBe(0);
    expect(
      await (await client.chat.completions.create({ ...ask('next'), stream: true })).finalContent(),
    ).toBe('ok');
  });

  it('a stream being read is never taken for dropped: only its iterator held, collections between chunks', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const server = await startFaultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      let i = 0;
      const timer = setInterval(() => {
        if (i < 5) res.write(chunk({ content: `${i++}` }));
        else {
          clearInterval(timer);
          res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
        }
      }, 30);
      res.once('close', () => clearInterval(timer));
    });
    const client = clientOf(server.url, { maxConcurrency: 1 });
    const iterator = (await client.chat.completions.create({ ...ask('read'), stream: true }))[
      Symbol.asyncIterator
    ]();
    let text = '';
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) {
      text += r.value.choices[0]?.delta.content ?? '';
      gc();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(text).toBe('01234');
    await server.close();
  });

  it.each([0, 1.5, -1, NaN, '4'])('%s is refused at construction', (cap) => {
    expect(() => clientOf('http://127.0.0.1:9/v1', { maxConcurrency: cap as number })).toThrow(
      /maxConcurrency/,
    );
  });
});

describe('rateLimits()', () => {
  it('a model named __proto__, constructor or toString is a model of its own, and the snapshot stays a plain object', async () => {
    const server = await faultServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-ratelimit-limit-requests': '10',
        'x-ratelimit-remaining-requests': '5',
        'x-ratelimit-reset-requests': '10s',
      });
      res.end(completion);
    });
    const client = clientOf(server.url);
    for (const name of ['__proto__', 'constructor', 'toString'])
      await client.chat.completions.create({ ...ask('x'), model: name });
    const { models } = client.rateLimits();
    expect(Object.getPrototypeOf(models)).toBe(Object.prototype);
    expect(Object.keys(models)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getOwnPropertyDescriptor(models, '__proto__')?.value).toMatchObject({
      requests: { limit: 10 },
    });
    expect(JSON.stringify(models)).toMatch(/^\{"__proto__":\{"requests":\{"limit":10,/);
  });
});

describe('withOptions() copies share one limiter', () => {
  it('a limit learned by one holds the other; the snapshot is the same', async () => {
    const server = await bucket({ rate: 2, burst: 1 });
    const client = clientOf(server.url);
    const copy = client.withOptions({ timeout: 30_000 });
    await client.chat.completions.create(ask('a'));
    const ends: CallSummary[] = [];
    await copy.chat.completions.create(ask('b'), { hooks: { onEnd: (s) => void ends.push(s) } });
    expect(ends[0]!.queueTime).toBeGreaterThan(0);
    expect(server.limited).toBe(0);
    expect(copy.rateLimits()).toEqual(client.rateLimits());
  });

  it('a copy without its own maxConcurrency shares the cap; one with its own counts apart', async () => {
    const server = await bucket({ rate: 1000, burst: 1000, family: 'none', latency: 40 });
    const client = clientOf(server.url, { maxConcurrency: 2 });
    const same = client.withOptions({ maxRetries: 1 });
    const own = client.withOptions({ maxConcurrency: 3 });
    await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => client.chat.completions.create(ask(`c${i}`))),
      ...Array.from({ length: 4 }, (_, i) => same.chat.completions.create(ask(`s${i}`))),
    ]);
    expect(server.maxInFlight).toBe(2);
    server.maxInFlight = 0;
    await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => client.chat.completions.create(ask(`c${i}`))),
      ...Array.from({ length: 6 }, (_, i) => own.chat.completions.create(ask(`o${i}`))),
    ]);
    expect(server.maxInFlight).toBe(5);
    expect(own.rateLimits().maxConcurrency).toBe(3);
    expect(same.rateLimits().maxConcurrency).toBe(2);
  });

  it('a copy for another server or key has its own', async () => {
    const server = await bucket({ rate: 2, burst: 1 });
    const client = clientOf(server.url);
    await client.chat.completions.create(ask('a'));
    expect(client.rateLimits().models[model]).toBeDefined();
    expect(client.withOptions({ apiKey: 'sk-other' }).rateLimits().models).toEqual({});
    expect(client.withOptions({ baseURL: 'http://127.0.0.1:9/v1' }).rateLimits().models).toEqual(
      {},
    );
  });
});

describe('token limits', () => {
  it('a call whose estimate exceeds the tokens left waits for the reset instead of drawing a 429', async () => {
    // 1,000 tokens a second; the first call spends 1,500 of the 60,000: full again in 1.5 s.
    const server = await bucket({ rate: 1000, burst: 1000, tokensPerMinute: 60_000 });
    const client = clientOf(server.url);
    await client.chat.completions.create({ ...ask('small'), max_tokens: 1_500 });
    expect(client.rateLimits().models[model]!.tokens).toMatchObject({ limit: 60_000 });
    // 58,500 left: this one (59,000 and its prompt) waits for the reset.
    const ends: CallSummary[] = [];
    await client.chat.completions.create(
      { ...ask('big'), max_tokens: 59_000 },
      { hooks: { onEnd: (s) => void ends.push(s) } },
    );
    expect(ends[0]!.queueTime).toBeGreaterThan(0);
    expect(server.limited).toBe(0);
    expect(server.requests).toBe(2);
  }, 20_000);

  it('a call larger than the whole limit is sent, for the server to answer', async () => {
    const server = await bucket({ rate: 1000, burst: 1000, tokensPerMinute: 1_000 });
    const client = clientOf(server.url, { maxRetries: 0 });
    await client.chat.completions.create({ ...ask('small'), max_tokens: 10 });
    const error = await client.chat.completions
      .create({ ...ask('huge'), max_tokens: 100_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(server.requests).toBe(2);
  });
});
