/**
 * One client keeps to the server's limits (issue 31, item 1), through the public API against
 * real loopback servers: a 429 storm against a token bucket (and the off switch), and waiting in
 * the queue (FIFO order, waits that do not use up `maxRetries`, the call's `timeout` and `signal`
 * while it waits, with nothing left behind). docs/errors-and-retries.md, "Limits".
 */
import { getEventListeners, setMaxListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  RateLimitError,
  type CallSummary,
  type RetryInfo,
} from '../src/index';
import { useFaultServers } from './support/fault-server';
import { type Family } from './support/rate-limited-server';
import { model, ask, completion, useBuckets, bucket, clientOf } from './support/limits';

const { faultServer } = useFaultServers();

useBuckets();

describe('a 429 storm', () => {
  it.each<Family>(['openai', 'common', 'ietf', 'ietf-old'])(
    '60 calls at once against 20 requests/s, burst 5 (%s headers): none fails, and the server sees about one request per call',
    async (family) => {
      const server = await bucket({ rate: 20, burst: 5, family });
      const client = clientOf(server.url);
      const results = await Promise.allSettled(
        Array.from({ length: 60 }, (_, i) => client.chat.completions.create(ask(`${i}`))),
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      // About one request per call: without the limiter, 180 (every call retrying on its own).
      // The headers a call reads can be stale by the answers in flight beside it, more so on a
      // loaded machine (one more 429 seen at 67 with another test suite running beside this
      // one); the bench holds the issue's own target (66 for 60 calls) on a quiet machine.
      expect(server.requests).toBeLessThanOrEqual(72);
      expect(client.rateLimits()).toMatchObject({ inFlight: 0, queued: 0 });
    },
    30_000,
  );

  it('a server that sends only retry-after: none fails, and the calls do not retry in lockstep', async () => {
    const server = await bucket({ rate: 20, burst: 5, family: 'none' });
    const client = clientOf(server.url);
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => client.chat.completions.create(ask(`${i}`))),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    // Without the limiter: every call retries on its own, 3 attempts each, most of them 429s.
    // With it: the 8 calls of the first contact, then one more with each answer, then a pace:
    // about 80 (before the slow start followed the first contact, 120: a 429 for every call).
    expect(server.requests).toBeLessThanOrEqual(90);
  }, 30_000);

  it('streams too; and respectRateLimits: false is the openai behaviour: each call retries on its own, many fail', async () => {
    const server = await bucket({ rate: 20, burst: 5 });
    const client = clientOf(server.url);
    const texts = await Promise.all(
      Array.from({ length: 30 }, async (_, i) =>
        (await client.chat.completions.create({ ...ask(`${i}`), stream: true })).finalContent(),
      ),
    );
    expect(texts.every((text) => text === 'ok')).toBe(true);
    expect(server.requests).toBeLessThanOrEqual(36);

    const eager = await bucket({ rate: 20, burst: 5, latency: 20 });
    const off = clientOf(eager.url, { respectRateLimits: false, maxRetries: 1 });
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => off.chat.completions.create(ask(`${i}`))),
    );
    expect(results.filter((r) => r.status === 'rejected').length).toBeGreaterThan(0);
    expect(eager.requests).toBeGreaterThan(40);
  }, 30_000);
});

describe('waiting in the queue', () => {
  /** A server answering the first request with a 429 (retry-after-ms: `ms`), the rest with 200s; each request's content in order. */
  async function limitedOnce(ms: number, times = 1) {
    const order: string[] = [];
    const server = await faultServer((_req, res, body) => {
      order.push((JSON.parse(body) as { messages: { content: string }[] }).messages[0]!.content);
      if (order.length <= times) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': String(ms) });
        res.end('{"error":{"message":"slow down"}}');
      } else res.writeHead(200, { 'content-type': 'application/json' }).end(completion);
    });
    return { server, order };
  }

  it('calls held by a limit go in the order they came (first in, first out)', async () => {
    const { server, order } = await limitedOnce(1_500);
    // One at a time, so that the server sees them in the order they were let go.
    const client = clientOf(server.url, { maxConcurrency: 1 });
    const first = client.chat.completions.create(ask('first'));
    while (client.rateLimits().models[model]?.retryAt === undefined)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const calls = Array.from({ length: 10 }, (_, i) => client.chat.completions.create(ask(`${i}`)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.rateLimits().queued).toBe(11);
    await Promise.all([first, ...calls]);
    expect(order).toEqual(['first', 'first', ...Array.from({ length: 10 }, (_, i) => `${i}`)]);
  });

  it('a wait the server announced does not use up maxRetries; the hooks see it', async () => {
    const { server, order } = await limitedOnce(50, 4);
    const retries: RetryInfo[] = [];
    const ends: CallSummary[] = [];
    const client = clientOf(server.url, {
      maxRetries: 1,
      hooks: {
        beforeRetry: (info) => void retries.push({ ...info }),
        onEnd: (s) => void ends.push(s),
      },
    });
    const done = await client.chat.completions.create(ask('x'));
    expect(done.choices[0]?.message.content).toBe('ok');
    expect(order).toHaveLength(5);
    expect(retries.map((r) => [r.attempt, r.error.status])).toEqual([
      [2, 429],
      [3, 429],
      [4, 429],
      [5, 429],
    ]);
    expect(retries.every((r) => r.delay > 0 && r.delay <= 50)).toBe(true);
    expect(ends[0]).toMatchObject({ outcome: 'ok', attempts: 5 });
    expect(ends[0]!.queueTime).toBeGreaterThan(0);
  });

  it("a 503 storm with retry-after: once the server is back, the calls go at its speed (a 503's wait is no pace)", async () => {
    const start = Date.now();
    let inFlight = 0;
    let most = 0;
    const server = await faultServer(async (_req, res) => {
      if (Date.now() - start < 600) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after-ms': '200' });
        res.end('{"error":{"message":"overloaded"}}');
        return;
      }
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      res.writeHead(200, { 'content-type': 'application/json' }).end(completion);
    });
    const client = clientOf(server.url);
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => client.chat.completions.create(ask(`${i}`))),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    // Paced by the 503s' retry-after (one call every 200 ms, a twentieth faster with each answer),
    // the calls reached the server back one at a time, for about 7 s; with slow start alone, one
    // more each answer: many at once within a few round trips. Counted, not timed.
    expect(most).toBeGreaterThanOrEqual(4);
  }, 30_000);

  it('a server that keeps answering 429 cannot hold a call for ever: 8 free waits, then maxRetries', async () => {
    const { server, order } = await limitedOnce(5, 1000);
    const error = await clientOf(server.url, { maxRetries: 1 })
      .chat.completions.create(ask('x'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(order).toHaveLength(8 + 2);
  });

  it('a call whose timeout ends before the limit does fails at once with RateLimitError; so do the calls held behind it', async () => {
    const { server, order } = await limitedOnce(30_000);
    const client = clientOf(server.url);
    const own = await client.chat.completions
      .create(ask('a'), { timeout: 1_000 })
      .catch((e: unknown) => e);
    expect(own).toBeInstanceOf(RateLimitError);
    expect((own as RateLimitError).headers?.get('retry-after-ms')).toBe('30000');
    const held = await client.chat.completions
      .create(ask('b'), { timeout: 1_000 })
      .catch((e: unknown) => e);
    expect(held).toBeInstanceOf(RateLimitError);
    expect((held as Error).message).toMatch(
      /lets this call go in (29|30) s, after its timeout \(1000 ms\); it was not sent/,
    );
    expect((held as RateLimitError).headers?.get('retry-after-ms')).toBe('30000');
    expect(order).toEqual(['a']);
    expect(client.rateLimits().queued).toBe(0);
  });

  it('a waiting call aborted leaves the queue at once: no listener, no timer left (counted by the test file)', async () => {
    const { server, order } = await limitedOnce(5_000);
    const client = clientOf(server.url, { maxRetries: 0 });
    await client.chat.completions.create(ask('first')).catch(() => {});
    const controller = new AbortController();
    const waiting = client.chat.completions
      .create(ask('aborted'), { signal: controller.signal })
      .catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.rateLimits()).toMatchObject({ queued: 1 });
    expect(getEventListeners(controller.signal, 'abort').length).toBeGreaterThan(0);
    controller.abort();
    expect(await waiting).toBeInstanceOf(APIUserAbortError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(client.rateLimits()).toMatchObject({ queued: 0, inFlight: 0 });
    expect(order).toEqual(['first']);
  });

  it('20,000 waiting calls aborted by one signal leave at once: one drain for all, not one each (it took seconds)', async () => {
    const { server, order } = await limitedOnce(30_000);
    const client = clientOf(server.url, { maxRetries: 0 });
    await client.chat.completions.create(ask('first')).catch(() => {});
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    const waiting = Array.from({ length: 20_000 }, (_, i) =>
      client.chat.completions
        .create(ask(`${i}`), { signal: controller.signal, maxRetries: 2 })
        .catch((e: unknown) => e),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.rateLimits()).toMatchObject({ queued: 20_000 });
    // The listeners run inside abort(): a drain each walked the whole queue and re-armed its timer
    // (about 21 s here). One drain for all, after abort() returns: the timers set are counted.
    const timers = vi.spyOn(globalThis, 'setTimeout');
    controller.abort();
    expect(timers).not.toHaveBeenCalled();
    await Promise.resolve();
    await Promise.resolve();
    expect(timers.mock.calls.length).toBeLessThan(10);
    timers.mockRestore();
    expect(client.rateLimits()).toMatchObject({ queued: 0, inFlight: 0 });
    const errors = await Promise.all(waiting);
    expect(errors.every((e) => e instanceof APIUserAbortError)).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(order).toEqual(['first']);
  }, 60_000);

  it('a waiting call with a signal that is let go, and one that times out, leave no listener on it', async () => {
    const { server } = await limitedOnce(300);
    const client = clientOf(server.url, { maxRetries: 0 });
    await client.chat.completions.create(ask('first')).catch(() => {});
    const controller = new AbortController();
    const waited = client.chat.completions.create(ask('let go'), { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.rateLimits().queued).toBe(1);
    expect(getEventListeners(controller.signal, 'abort').length).toBeGreaterThan(0);
    await waited;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

    const slow = await faultServer(async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      res.writeHead(200, { 'content-type': 'application/json' }).end(completion);
    });
    const capped = clientOf(slow.url, { maxConcurrency: 1 });
    const first = capped.chat.completions.create(ask('a'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const timedOut = controller.signal;
    await expect(
      capped.chat.completions.create(ask('b'), { signal: timedOut, timeout: 50 }),
    ).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(getEventListeners(timedOut, 'abort')).toHaveLength(0);
    await first;
  });

  it('a call already aborted never queues', async () => {
    const { server } = await limitedOnce(5_000);
    const client = clientOf(server.url, { maxRetries: 0 });
    await client.chat.completions.create(ask('first')).catch(() => {});
    const error = await client.chat.completions
      .create(ask('x'), { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(client.rateLimits().queued).toBe(0);
  });

  it('a call waiting for a maxConcurrency slot past its timeout: APIConnectionTimeoutError, not sent', async () => {
    const server = await faultServer(async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      res.writeHead(200, { 'content-type': 'application/json' }).end(completion);
    });
    const client = clientOf(server.url, { maxConcurrency: 1 });
    const first = client.chat.completions.create(ask('a'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await client.chat.completions
      .create(ask('b'), { timeout: 100 })
      .catch((e: unknown) => e);
    expect(second).toBeInstanceOf(APIConnectionTimeoutError);
    expect((second as Error).message).toMatch(
      /Waited 100 ms \(timeout\) in the client's queue; not sent/,
    );
    await first;
    expect(server.requests).toHaveLength(1);
  });
});
