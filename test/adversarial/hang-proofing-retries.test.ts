// "Nothing hangs" (docs/reliability.md, Guarantees and the fault table): retries and their waits
// (README "Retries", docs/errors-and-retries.md). Each check bounds a wait generously (seconds where
// the SDK is given milliseconds) and never asserts how fast anything is.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIUserAbortError, APIError } from '../../src/index';
import { clientOf, delay, json, rejection, serve, sse, textChunks, USER, within, type TestServer } from './support';

let server: TestServer;
beforeAll(async () => {
  server = await serve((_req, res) => json(res, { object: 'list', data: [] }));
});
afterAll(() => server.close());

describe('retries and their waits (README "Retries", docs/errors-and-retries.md)', () => {
  let tags = 0;
  /**
   * Answers the first `n` requests carrying this check's tag (a query value) with `first`, then
   * 200; requests without it (a straggler of an earlier check) get 200 and are not counted.
   */
  function failFirst(
    n: number,
    first: (res: ServerResponse) => void,
  ): { query: { t: string }; count: () => number } {
    const t = `check-${tags++}`;
    let count = 0;
    server.handle((req, res) => {
      if (!req.url?.includes(`t=${t}`)) return json(res, { object: 'list', data: [] });
      return ++count <= n ? first(res) : json(res, { object: 'list', data: [] });
    });
    return { query: { t }, count: () => count };
  }

  it('retry-after above 60 s: the error at once, header on error.headers, one attempt', async () => {
    const { query, count } = failFirst(5, (res) =>
      json(res, { error: { message: 'slow down' } }, 429, { 'retry-after': '3600' }),
    );
    const result = await within(
      rejection(() => clientOf(server.baseURL, { maxRetries: 3 }).models.list({ query })),
      15_000,
    );
    const err = (result as { value: APIError }).value;
    expect(err).toBeInstanceOf(APIError);
    expect(err.status).toBe(429);
    expect(err.headers?.get('retry-after')).toBe('3600');
    expect(count()).toBe(1);
  });

  it.each([['61'], ['99999999999999999999999'], ['Wed, 21 Oct 2999 07:28:00 GMT']])(
    'retry-after %s: the error at once, not a wait',
    async (value) => {
      const { query, count } = failFirst(5, (res) =>
        json(res, { error: { message: 'slow down' } }, 429, { 'retry-after': value }),
      );
      const result = await within(
        rejection(() => clientOf(server.baseURL, { maxRetries: 3 }).models.list({ query })),
        15_000,
      );
      expect(result).not.toBe('pending');
      expect((result as { value: APIError }).value.status).toBe(429);
      expect(count()).toBe(1);
    },
  );

  it('retry-after-ms 0, negative or unreadable: retried (at once, or with the normal backoff)', async () => {
    for (const value of ['0', '-5', 'soon', 'NaN']) {
      const { query, count } = failFirst(1, (res) =>
        json(res, { error: { message: 'busy' } }, 503, { 'retry-after-ms': value }),
      );
      const result = await within(
        clientOf(server.baseURL, { maxRetries: 1 }).models.list({ query }),
        20_000,
      );
      expect(result).toEqual({ value: expect.objectContaining({ object: 'list' }) });
      expect(count()).toBe(2);
    }
  });

  it('x-should-retry: false on a 500 is not retried; true on a 400 is', async () => {
    const no = failFirst(5, (res) =>
      json(res, { error: { message: 'no' } }, 500, {
        'x-should-retry': 'false',
        'retry-after-ms': '0',
      }),
    );
    await rejection(() =>
      clientOf(server.baseURL, { maxRetries: 2 }).models.list({ query: no.query }),
    );
    expect(no.count()).toBe(1);
    const yes = failFirst(1, (res) =>
      json(res, { error: { message: 'no' } }, 400, {
        'x-should-retry': 'true',
        'retry-after-ms': '0',
      }),
    );
    await clientOf(server.baseURL, { maxRetries: 2 }).models.list({ query: yes.query });
    expect(yes.count()).toBe(2);
  });

  it('an abort during the wait between attempts ends it at once with APIUserAbortError', async () => {
    const { query } = failFirst(5, (res) =>
      json(res, { error: { message: 'busy' } }, 503, { 'retry-after': '50' }),
    );
    const controller = new AbortController();
    const call = rejection(() =>
      clientOf(server.baseURL, { maxRetries: 2 }).models.list({ query, signal: controller.signal }),
    );
    await delay(200);
    controller.abort();
    expect(await within(call, 10_000)).toEqual({ value: expect.any(APIUserAbortError) });
  });

  it('a POST retried carries the same Idempotency-Key on every attempt', async () => {
    const mine: string[] = [];
    server.handle((req, res) => {
      if (!req.url?.includes('t=idem')) return json(res, { object: 'list', data: [] });
      mine.push(String(req.headers['idempotency-key']));
      return mine.length < 3
        ? json(res, { error: { message: 'busy' } }, 500, { 'retry-after-ms': '0' })
        : sse(res, textChunks(['ok']));
    });
    const stream = await clientOf(server.baseURL, { maxRetries: 3 }).chat.completions.create(
      { model: 'acme/chat-1', messages: USER, stream: true },
      { query: { t: 'idem' } },
    );
    expect(await stream.finalContent()).toBe('ok');
    const keys = mine;
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBeTruthy();
  });

  it('a 200 whose body is {"error": {"code": 503}}: retried as a 503', async () => {
    const { query, count } = failFirst(1, (res) =>
      json(res, { error: { message: 'overloaded', code: 503 } }),
    );
    await clientOf(server.baseURL, { maxRetries: 1 }).models.list({ query });
    expect(count()).toBe(2);
  });
});
