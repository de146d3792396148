/**
 * Retries, timeouts and aborts against a real loopback server: attempts are counted where they
 * arrive, not where they leave.
 */
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
  ResponseValidationError,
  BadRequestError,
} from '../src/index';
import { MAX_RETRY_AFTER_MS, retryAfterMs, retryDelay, isRetryableStatus } from '../src/core/retry';
import { sleep } from '../src/util/wait';
import { useMockServer } from './support/mock-server';

// `client(options)`: a client of the mock server with these options.
const { server, client } = useMockServer({}, { reset: 'requests' });
const attempts = () => server.requests.length;
/** A scripted failure that asks for an immediate retry, so tests do not wait for backoff. */
const fail = (status: number, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'retry-after-ms': '0', ...headers },
  body: { error: { message: `failure ${status}`, type: 'server_error' } },
});

describe('retry policy (pure)', () => {
  it('retries 408, 409, 429 and 5xx, and nothing else', () => {
    const none = new Headers();
    expect([408, 409, 429, 500, 502, 503, 504].every((s) => isRetryableStatus(s, none))).toBe(true);
    expect([400, 401, 403, 404, 422].some((s) => isRetryableStatus(s, none))).toBe(false);
  });

  it('lets x-should-retry override the status', () => {
    expect(isRetryableStatus(400, new Headers({ 'x-should-retry': 'true' }))).toBe(true);
    expect(isRetryableStatus(503, new Headers({ 'x-should-retry': 'false' }))).toBe(false);
  });

  it('backs off exponentially with jitter, up to a cap', () => {
    const none = new Headers();
    expect(retryDelay(1, none, () => 0)).toBe(500);
    expect(retryDelay(2, none, () => 0)).toBe(1000);
    expect(retryDelay(3, none, () => 0.5)).toBe(2000 * 0.875);
    expect(retryDelay(20, none, () => 0)).toBe(8000);
  });

  it('reads retry-after-ms, retry-after seconds and retry-after dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': '-5' }), now)).toBeUndefined();
  });

  it('stops instead of waiting when the server asks for more than the cap', () => {
    expect(retryDelay(1, new Headers({ 'retry-after': String(MAX_RETRY_AFTER_MS / 1000 + 1) }))).toBeUndefined();
    expect(retryDelay(1, new Headers({ 'retry-after': '1' }))).toBe(1000);
  });

  it('sleep rejects with the reason as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});

describe('retries seen by the server', () => {
  it('retries a 500 up to maxRetries (default 2), then throws', async () => {
    server.enqueue(fail(500), fail(500), fail(500));
    await expect(client().models.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(attempts()).toBe(3);
  });

  it('succeeds when a retry succeeds', async () => {
    server.enqueue(fail(503), fail(429));
    const list = await client().models.list();
    expect(list.data.length).toBeGreaterThan(0);
    expect(attempts()).toBe(3);
  });

  it('retries POST chat completions too (nothing was generated)', async () => {
    server.enqueue(fail(502));
    const completion = await client().chat.completions.create({
      model: 'mock/echo',
      messages: [{ role: 'user', content: 'again' }],
    });
    expect(completion.choices[0]?.message?.content).toBe('You said: again');
    expect(attempts()).toBe(2);
    // Both attempts carried the same body.
    expect(server.requests[0]!.body).toEqual(server.requests[1]!.body);
  });

  it.each([408, 409, 429])('retries %i', async (status) => {
    server.enqueue(fail(status));
    await client().models.list();
    expect(attempts()).toBe(2);
  });

  it('does not retry a 400', async () => {
    server.enqueue(fail(400));
    await expect(client().models.list()).rejects.toBeInstanceOf(BadRequestError);
    expect(attempts()).toBe(1);
  });

  it('obeys x-should-retry: false on a 503 and x-should-retry: true on a 400', async () => {
    server.enqueue(fail(503, { 'x-should-retry': 'false' }));
    await expect(client().models.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(attempts()).toBe(1);
    server.requests.length = 0;
    server.enqueue(fail(400, { 'x-should-retry': 'true' }));
    await client().models.list();
    expect(attempts()).toBe(2);
  });

  it('honours maxRetries per client and per request', async () => {
    server.enqueue(fail(500));
    await expect(client({ maxRetries: 0 }).models.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(attempts()).toBe(1);
    server.requests.length = 0;
    server.enqueue(fail(500), fail(500), fail(500), fail(500), fail(500));
    await expect(client().models.list({ maxRetries: 4 })).rejects.toBeInstanceOf(InternalServerError);
    expect(attempts()).toBe(5);
  });

  it('waits as long as retry-after asks', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'slow down' } } });
    const started = performance.now();
    await client().models.list();
    expect(attempts()).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('does not retry when retry-after is beyond the cap, and keeps the header on the error', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '3600' }, body: { error: { message: 'quota' } } });
    const error = (await client().models.list().then(
      () => undefined,
      (e: unknown) => e,
    )) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.headers?.get('retry-after')).toBe('3600');
    expect(attempts()).toBe(1);
  });

  it('retries a connection reset, then reports APIConnectionError', async () => {
    server.enqueue({ reset: true }, { reset: true }, { reset: true });
    const error = await client({ maxRetries: 2 }).models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(attempts()).toBe(3);
  });

  it('retries a 200 whose body is an error object with a retryable code', async () => {
    server.enqueue({ status: 200, headers: { 'retry-after-ms': '0' }, body: { error: { message: 'Provider returned error', code: 502 } } });
    await client().models.list();
    expect(attempts()).toBe(2);
  });

  it('never retries a ResponseValidationError', async () => {
    server.enqueue({ status: 200, body: { object: 'list' } });
    await expect(client().models.list()).rejects.toBeInstanceOf(ResponseValidationError);
    expect(attempts()).toBe(1);
  });
});

describe('timeouts and aborts', () => {
  it('a stall past the timeout is APIConnectionTimeoutError, retried, and counted at the server', async () => {
    server.enqueue({ stall: true }, { stall: true });
    const error = await client({ timeout: 200, maxRetries: 1 }).models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).not.toBeInstanceOf(APIUserAbortError);
    expect((error as Error).message).toBe('Request timed out after 200 ms: GET /v1/models');
    expect(attempts()).toBe(2);
  });

  it('a per-request timeout overrides the client', async () => {
    server.enqueue({ stall: true });
    await expect(client({ maxRetries: 0 }).models.list({ timeout: 100 })).rejects.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('a user abort is APIUserAbortError, not a timeout, and is not retried', async () => {
    server.enqueue({ stall: true });
    const controller = new AbortController();
    const pending = client().models.list({ signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect(attempts()).toBe(1);
  });

  it('an abort during the backoff sleep ends it at once', async () => {
    server.enqueue({ status: 503, headers: { 'retry-after': '30' }, body: { error: { message: 'busy' } } });
    const controller = new AbortController();
    const pending = client().models.list({ signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(performance.now() - started).toBeLessThan(15_000); // far below the 30 s asked for
    expect(attempts()).toBe(1);
  });

  it('an already aborted signal sends nothing', async () => {
    await expect(client().models.list({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(attempts()).toBe(0);
  });

  it('one signal reused for many requests collects no listeners', async () => {
    const controller = new AbortController();
    const c = client();
    const { getEventListeners } = await import('node:events').then((m) => m.default ?? m);
    for (let i = 0; i < 50; i++) await c.models.list({ signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
