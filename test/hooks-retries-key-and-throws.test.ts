// Hooks (the `hooks` option, client and per request) through the public entry, against the mock
// server on 127.0.0.1: retries, the key kept from them, and a throwing hook.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  HookError,
  InferenceError,
  RateLimitError,
  type CallSummary,
  type ClientOptions,
  type HookInfo,
  type Hooks,
  type RetryInfo,
} from '../src/index';
import { KEY, useHooksServer, server, client, chat, recorder } from './support/hooks';

useHooksServer();

describe('retries', () => {
  it('beforeRetry sees each retry: the attempt about to be made, the error, the delay; beforeRequest each attempt', async () => {
    const r = recorder();
    server.enqueue({ error: { status: 429, retryAfter: 0 } }, { error: { status: 503 } });
    const completion = await client({ hooks: r.hooks, maxRetries: 2 }).chat.completions.create(chat('Hi'));
    expect(completion.choices[0]!.message.content).toBe('You said: Hi');
    expect(r.names()).toEqual(['beforeRequest', 'afterResponse', 'beforeRetry', 'beforeRequest', 'afterResponse', 'beforeRetry', 'beforeRequest', 'afterResponse', 'onEnd']);

    const retries = r.of('beforeRetry').map((call) => call.args[0] as RetryInfo);
    expect(retries.map((info) => [info.attempt, info.error.status])).toEqual([
      [2, 429],
      [3, 503],
    ]);
    expect(retries[0]!.error).toBeInstanceOf(RateLimitError);
    expect(retries[0]!.delay).toBe(0); // retry-after: 0
    // Backoff for the second retry: 1 s less up to 25 % jitter.
    expect(retries[1]!.delay).toBeGreaterThanOrEqual(750);
    expect(retries[1]!.delay).toBeLessThanOrEqual(1000);
    expect(r.of('beforeRequest').map((call) => (call.args[1] as HookInfo).attempt)).toEqual([1, 2, 3]);
    // The retry's error and delay are on the call's info only while beforeRetry runs.
    expect(r.of('beforeRetry')[0]!.args[1]).toBe(r.of('onEnd')[0]!.args[1]);
    expect(r.of('onEnd')[0]!.args[1]).not.toHaveProperty('error');
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'ok', attempts: 3, status: 200 });
    // Each attempt was its own request with the same idempotency key.
    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(1);
    expect(keys).toHaveLength(3);
  }, 10_000);

  it('a beforeRetry hook that throws stops the retries', async () => {
    server.enqueue({ error: { status: 503 } });
    const ends: CallSummary[] = [];
    const error = await client({ maxRetries: 3, hooks: { beforeRetry: () => { throw new Error('no retries today'); }, onEnd: (summary) => void ends.push(summary) } })
      .models.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(error).toMatchObject({ hook: 'beforeRetry', source: 'client hooks[0]' });
    expect((error as HookError).message).toBe('models.list: the beforeRetry hook of client hooks[0] threw: no retries today');
    expect(server.requests).toHaveLength(1);
    expect(ends).toMatchObject([{ outcome: 'error', error, attempts: 1, status: 503 }]);
  });
});

describe('the key', () => {
  it('never reaches a hook: not in the Request, the info, a response, an error, a summary', async () => {
    const received: unknown[] = [];
    const keep = (...values: unknown[]) => {
      for (const value of values) {
        if (value instanceof Request) received.push(value.url, value.method, [...value.headers]);
        else if (value instanceof Response) received.push(value.status, [...value.headers]);
        else received.push(value);
      }
    };
    const hooks: Hooks = {
      beforeRequest: keep,
      afterResponse: keep,
      beforeRetry: keep,
      onChunk: keep,
      onError: keep,
      onEnd: keep,
    };
    const c = client({ hooks, maxRetries: 1, defaultHeaders: { 'x-api-key': KEY } });
    // A server that echoes the key in its error, a retry, a stream, and a key function.
    server.enqueue({ status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' } } });
    const error = await c.models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    server.enqueue({ error: { status: 503, message: `overloaded for ${KEY}` } });
    await c.chat.completions.create(chat('Hi'));
    const stream = await c.chat.completions.create({ ...chat('Hi'), stream: true, stream_options: { include_usage: true } });
    for await (const _ of stream);
    await client({ hooks, apiKey: async () => KEY }).models.retrieve('mock/echo');

    expect(received.length).toBeGreaterThan(20);
    const everything = inspect(received, { depth: 20, showHidden: true, getters: true });
    expect(everything).not.toContain(KEY);
    expect(everything).toContain('***'); // the echoed key, masked
    // The credential headers went out all the same.
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(server.requests.map(() => `Bearer ${KEY}`));
    expect(server.requests.slice(0, -1).map((r) => r.headers['x-api-key'])).toEqual(server.requests.slice(0, -1).map(() => KEY));
  });
});

describe('a hook that throws', () => {
  it('beforeRequest: a HookError naming the hook, nothing sent, never retried', async () => {
    const cause = new TypeError('signing key missing');
    const c = client({ maxRetries: 2, hooks: [{ name: 'ok' }, { name: 'signer', beforeRequest: () => { throw cause; } }] });
    const error = await c.chat.completions.create(chat('Hi')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(error).toBeInstanceOf(InferenceError);
    expect(error).toMatchObject({ name: 'HookError', hook: 'beforeRequest', source: '"signer"', cause });
    expect((error as Error).message).toBe('chat: the beforeRequest hook of "signer" threw: signing key missing');
    expect(server.requests).toHaveLength(0);
  });

  it('afterResponse, onEnd and onError: a HookError, every hook still run; the original error in the message', async () => {
    const ran: string[] = [];
    const afterResponse = await client({ hooks: { afterResponse: () => { throw new Error('bad'); } } })
      .models.list()
      .catch((e: unknown) => e);
    expect(afterResponse).toMatchObject({ hook: 'afterResponse', source: 'client hooks[0]' });

    const onEnd = await client({ hooks: [{ onEnd: () => { throw new Error('metrics down'); } }, { onEnd: () => void ran.push('second onEnd') }] })
      .models.list()
      .catch((e: unknown) => e);
    expect(onEnd).toMatchObject({ hook: 'onEnd', message: 'models.list: the onEnd hook of client hooks[0] threw: metrics down' });
    expect(ran).toEqual(['second onEnd']);

    server.enqueue({ error: { status: 404, message: 'No such model.' } });
    const onError = await client({ hooks: { onError: () => { throw new Error('pager down'); }, onEnd: () => void ran.push('onEnd') } })
      .models.list({ hooks: { name: 'request', onError: () => void ran.push('request onError') } })
      .catch((e: unknown) => e);
    expect(onError).toBeInstanceOf(HookError);
    expect((onError as Error).message).toBe('models.list: the onError hook of client hooks[0] threw: pager down; the call had failed: 404 GET /v1/models: No such model.');
    expect(ran).toEqual(['second onEnd', 'request onError', 'onEnd']);
  });

  it('a hook that returns something else than a Request or a Response', async () => {
    const error = await client({ hooks: { beforeRequest: () => 'nope' as unknown as Request } }).models.list().catch((e: unknown) => e);
    expect(error).toMatchObject({ hook: 'beforeRequest', message: 'models.list: the beforeRequest hook of client hooks[0] returned a string; expected a Request or nothing' });
    const bad = await client({ hooks: { afterResponse: () => ({}) as Response } }).models.list().catch((e: unknown) => e);
    expect(bad).toMatchObject({ hook: 'afterResponse', message: 'models.list: the afterResponse hook of client hooks[0] returned an object of another kind; expected a Response or nothing' });
  });

  it('bad hooks are a clear InferenceError at the first call', async () => {
    const cases: [ClientOptions['hooks'], string][] = [
      [{ beforeRequst() {} } as Hooks, 'new Client({ hooks }): unknown hook `beforeRequst`. Did you mean `beforeRequest`? Hooks: beforeRequest, afterResponse, beforeRetry, onChunk, onError, onEnd.'],
      [{ onend() {} } as Hooks, 'new Client({ hooks }): unknown hook `onend`. Did you mean `onEnd`?'],
      [{ onEnd: 'log' } as unknown as Hooks, 'new Client({ hooks }): `onEnd` must be a function; got a string.'],
      [[{}, null] as unknown as Hooks[], 'new Client({ hooks }): hooks must be an object of hook functions, or an array of them; got null at [1].'],
      [{ name: 3 } as unknown as Hooks, 'new Client({ hooks }): `name` must be a string; got a number.'],
    ];
    for (const [hooks, message] of cases) {
      const error = await client({ hooks }).models.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InferenceError);
      expect((error as Error).message).toContain(message);
    }
    const request = await client().models.list({ hooks: 'x' as unknown as Hooks }).catch((e: unknown) => e);
    expect((request as Error).message).toBe('The request option `hooks`: hooks must be an object of hook functions, or an array of them; got a string.');
    expect(server.requests).toHaveLength(0);
  });
});
