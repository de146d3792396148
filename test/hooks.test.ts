// Hooks (the `hooks` option, client and per request) through the public entry, against the mock
// server on 127.0.0.1: what each hook gets, their order, what they change on the wire, retries,
// the key kept from them, a throwing hook, and the summary at the end of JSON calls and streams.
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  AuthenticationError,
  Client,
  HookError,
  InferenceError,
  RateLimitError,
  type CallSummary,
  type ClientOptions,
  type HookInfo,
  type Hooks,
  type RetryInfo,
} from '../src/index';
import { startMockServer, type MockServer } from '../src/testing';

const KEY = 'sk-hooks-SECRET-0123456789';

let server: MockServer;
beforeEach(async () => {
  server = await startMockServer({ apiKeys: { [KEY]: 'all' } });
});
afterEach(async () => {
  await server.close();
});

const client = (options: ClientOptions = {}) => new Client({ apiKey: KEY, baseURL: server.url, logLevel: 'off', maxRetries: 0, ...options });
const chat = (content: string) => ({ model: 'mock/echo', messages: [{ role: 'user' as const, content }] });

/** A hooks object that records every call: `[hook, ...arguments]`, the Request as a plain object. */
function recorder(name?: string) {
  const calls: { hook: string; args: unknown[] }[] = [];
  const push = (hook: string, ...args: unknown[]) => void calls.push({ hook, args });
  const hooks: Hooks = {
    ...(name === undefined ? {} : { name }),
    beforeRequest: (request, info) => push('beforeRequest', request, { ...info }, info),
    afterResponse: (response, info) => push('afterResponse', response, { ...info }, info),
    beforeRetry: (info) => push('beforeRetry', { ...info }, info),
    onChunk: (chunk, info) => push('onChunk', chunk, info),
    onError: (error, info) => push('onError', error, info),
    onEnd: (summary, info) => push('onEnd', summary, info),
  };
  const of = (hook: string) => calls.filter((c) => c.hook === hook);
  return { hooks, calls, of, names: () => calls.map((c) => c.hook) };
}

describe('each hook and what it gets', () => {
  it('a JSON chat call: beforeRequest (the Request), afterResponse, onEnd (the summary), one info object', async () => {
    const r = recorder();
    const body = { ...chat('Hello'), temperature: 0.5 };
    const completion = await client({ hooks: r.hooks }).chat.completions.create(body);
    expect(r.names()).toEqual(['beforeRequest', 'afterResponse', 'onEnd']);

    const [request, info, infoObject] = r.of('beforeRequest')[0]!.args as [Request, HookInfo, HookInfo];
    expect(request).toBeInstanceOf(Request);
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`${server.url}/chat/completions`);
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('accept')).toBe('application/json');
    expect(request.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.headers.has('authorization')).toBe(false);
    expect(await request.clone().json()).toEqual(body);
    expect(info).toEqual({ operation: 'chat', model: 'mock/echo', stream: false, body, attempt: 1, startTime: expect.any(Number), queueTime: 0 });
    expect(info.body).toBe(body);
    expect(Math.abs(info.startTime - Date.now())).toBeLessThan(10_000);

    const [response] = r.of('afterResponse')[0]!.args as [Response];
    expect(response.status).toBe(200);

    const [summary, endInfo] = r.of('onEnd')[0]!.args as [CallSummary, HookInfo];
    expect(summary).toEqual({
      outcome: 'ok',
      error: undefined,
      duration: expect.any(Number),
      attempts: 1,
      queueTime: 0,
      status: 200,
      id: completion.id,
      model: 'mock/echo',
      usage: completion.usage,
      finishReasons: ['stop'],
      data: completion,
      chunks: undefined,
      timeToFirstChunk: undefined,
    });
    expect(summary.data).toBe(completion);
    expect(summary.duration).toBeGreaterThan(0);
    // Every hook of the call got the same info object.
    expect(endInfo).toBe(infoObject);
    expect(r.of('afterResponse')[0]!.args[2]).toBe(infoObject);
  });

  it('names the operation and model of every call', async () => {
    const r = recorder();
    const c = client({ hooks: r.hooks });
    await c.models.list();
    await c.models.retrieve('mock/echo');
    await c.completions.create({ model: 'mock/echo', prompt: 'Once upon a time', max_tokens: 2 });
    await c.chat.completions.create(chat('Hi'));
    const infos = r.of('onEnd').map((call) => call.args[1] as HookInfo);
    expect(infos.map(({ operation, model, stream }) => ({ operation, model, stream }))).toEqual([
      { operation: 'models.list', model: undefined, stream: false },
      { operation: 'models.retrieve', model: 'mock/echo', stream: false },
      { operation: 'completions', model: 'mock/echo', stream: false },
      { operation: 'chat', model: 'mock/echo', stream: false },
    ]);
    expect(infos[0]!.body).toBeUndefined();
    const requests = r.of('beforeRequest').map((call) => call.args[0] as Request);
    expect(requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'GET /v1/models',
      'GET /v1/models/mock/echo',
      'POST /v1/completions',
      'POST /v1/chat/completions',
    ]);
    const summaries = r.of('onEnd').map((call) => call.args[0] as CallSummary);
    // The legacy completion's summary is read like a chat's; models have no usage or id.
    expect(summaries[2]).toMatchObject({ outcome: 'ok', model: 'mock/echo', finishReasons: ['length'], usage: { completion_tokens: 2 } });
    expect(summaries[2]!.id).toMatch(/^cmpl-/);
    expect(summaries[1]).toMatchObject({ outcome: 'ok', id: undefined, usage: undefined, finishReasons: [], data: { id: 'mock/echo' } });
  });

  it('an error: afterResponse sees the status, then onError and onEnd get the error the caller gets', async () => {
    const r = recorder();
    server.enqueue({ error: { status: 429, message: 'Slow down.' } });
    const error = await client({ hooks: r.hooks }).chat.completions.create(chat('Hi')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(r.names()).toEqual(['beforeRequest', 'afterResponse', 'onError', 'onEnd']);
    expect((r.of('afterResponse')[0]!.args[0] as Response).status).toBe(429);
    expect(r.of('onError')[0]!.args[0]).toBe(error);
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'error', error, status: 429, attempts: 1, data: undefined });
  });

  it('an error before anything is sent (a failing apiKey function): onError and onEnd, no request hook', async () => {
    const r = recorder();
    const failing = client({
      hooks: r.hooks,
      apiKey: () => {
        throw new Error('vault unreachable');
      },
    });
    const error = await failing.models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InferenceError);
    expect(r.names()).toEqual(['onError', 'onEnd']);
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'error', error, status: undefined, attempts: 0 });
    expect(server.requests).toHaveLength(0);
  });

  it('asResponse(): the call ends at the headers', async () => {
    const r = recorder();
    const response = await client({ hooks: r.hooks }).models.list().asResponse();
    expect(r.names()).toEqual(['beforeRequest', 'afterResponse', 'onEnd']);
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'ok', status: 200, data: undefined });
    expect((await response.json()).object).toBe('list');
  });
});

describe('order', () => {
  it('runs every hook of every object in order: the client’s, then the request’s, each awaited', async () => {
    const order: string[] = [];
    const tagged = (tag: string, delay = 0): Hooks => ({
      async beforeRequest() {
        await new Promise((resolve) => setTimeout(resolve, delay));
        order.push(`${tag}.beforeRequest`);
      },
      afterResponse: () => void order.push(`${tag}.afterResponse`),
      onEnd: () => void order.push(`${tag}.onEnd`),
    });
    const c = client({ hooks: [tagged('a', 20), tagged('b')] });
    await c.models.list({ hooks: tagged('c') });
    expect(order).toEqual(['a.beforeRequest', 'b.beforeRequest', 'c.beforeRequest', 'a.afterResponse', 'b.afterResponse', 'c.afterResponse', 'a.onEnd', 'b.onEnd', 'c.onEnd']);

    order.length = 0;
    await c.models.list({ hooks: [tagged('d'), tagged('e')] });
    expect(order.filter((o) => o.endsWith('onEnd'))).toEqual(['a.onEnd', 'b.onEnd', 'd.onEnd', 'e.onEnd']);

    // A single object works as well as an array; withOptions() keeps the client's hooks.
    order.length = 0;
    await client({ hooks: tagged('solo') }).withOptions({ timeout: 5_000 }).models.list();
    expect(order).toEqual(['solo.beforeRequest', 'solo.afterResponse', 'solo.onEnd']);
  });

  it('request hooks alone, on a client without any', async () => {
    const r = recorder();
    const c = client();
    await c.models.list({ hooks: [r.hooks] });
    expect(r.names()).toEqual(['beforeRequest', 'afterResponse', 'onEnd']);
    // The next call, without hooks, runs none.
    await c.models.list();
    expect(r.calls).toHaveLength(3);
  });
});

describe('what hooks change on the wire', () => {
  it('a header set in beforeRequest reaches the server, after the previous hooks’ and with the key added', async () => {
    const hooks: Hooks[] = [
      { beforeRequest: (request) => request.headers.set('x-tenant-id', 'acme') },
      { beforeRequest: (request) => request.headers.set('x-signature', `sig:${request.headers.get('x-tenant-id')}`) },
    ];
    await client({ hooks }).chat.completions.create(chat('Hi'));
    const sent = server.requests[0]!;
    expect(sent.headers['x-tenant-id']).toBe('acme');
    expect(sent.headers['x-signature']).toBe('sig:acme');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a Request returned by beforeRequest is sent instead: its URL, method, headers and body', async () => {
    const seen: Request[] = [];
    const hooks: Hooks[] = [
      {
        async beforeRequest(request) {
          const body = (await request.clone().json()) as { messages: { content: string }[] };
          body.messages[0]!.content = 'rewritten';
          return new Request(`${request.url}?tenant=acme`, { method: request.method, headers: request.headers, body: JSON.stringify(body) });
        },
      },
      { beforeRequest: (request) => void seen.push(request) },
    ];
    const completion = await client({ hooks }).chat.completions.create(chat('original'));
    expect(completion.choices[0]!.message.content).toBe('You said: rewritten');
    const sent = server.requests[0]!;
    expect(sent.url).toBe(`${server.url}/chat/completions?tenant=acme`);
    expect(sent.body).toMatchObject({ messages: [{ content: 'rewritten' }] });
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    // The next hook got the new request.
    expect(seen[0]!.url).toContain('?tenant=acme');
  });

  it('a hook may set its own credentials: they are sent instead of the key', async () => {
    await client({ hooks: { beforeRequest: (request) => request.headers.set('authorization', `Bearer ${KEY}`) } }).models.list();
    await client({ apiKey: 'sk-wrong-key-000', hooks: { beforeRequest: (request) => request.headers.set('authorization', `Bearer ${KEY}`) } }).models.list();
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
  });

  it('a Response returned by afterResponse is used instead', async () => {
    const replaced = { object: 'list', data: [{ id: 'cache/hit', object: 'model', owned_by: 'cache', created: 0 }] };
    const list = await client({ hooks: { afterResponse: () => Response.json(replaced) } }).models.list();
    expect(list.data.map((m) => m.id)).toEqual(['cache/hit']);
  });
});

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

describe('streams', () => {
  const streamed = (content: string) => ({ ...chat(content), stream: true as const, stream_options: { include_usage: true } });

  it('a finished stream: every chunk to onChunk, then onEnd with the summary', async () => {
    const r = recorder();
    const stream = await client({ hooks: r.hooks }).chat.completions.create(streamed('one two three'));
    const chunks: unknown[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(r.names()).toEqual(['beforeRequest', 'afterResponse', ...chunks.map(() => 'onChunk'), 'onEnd']);
    expect(r.of('onChunk').map((call) => call.args[0])).toEqual(chunks);
    const [summary, info] = r.of('onEnd')[0]!.args as [CallSummary, HookInfo];
    expect(info).toMatchObject({ operation: 'chat', model: 'mock/echo', stream: true });
    expect(summary).toMatchObject({ outcome: 'ok', error: undefined, attempts: 1, status: 200, model: 'mock/echo', finishReasons: ['stop'], chunks: chunks.length, data: undefined });
    expect(summary.id).toBe((chunks[0] as { id: string }).id);
    expect(summary.usage).toEqual((chunks.at(-1) as { usage: unknown }).usage);
    expect(summary.usage?.completion_tokens).toBeGreaterThan(0);
    expect(summary.timeToFirstChunk).toBeGreaterThan(0);
    expect(summary.timeToFirstChunk).toBeLessThanOrEqual(summary.duration);
    // The accumulation of ChatCompletionStream still works with hooks following the stream.
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('You said: one two three');
  });

  it('finalChatCompletion() and textStream() with hooks; a legacy completion stream', async () => {
    const r = recorder();
    const c = client({ hooks: r.hooks });
    const stream = await c.chat.completions.create(streamed('abc'));
    expect((await stream.finalChatCompletion()).choices[0]!.message.content).toBe('You said: abc');
    const legacy = await c.completions.create({ model: 'mock/echo', prompt: 'Once upon a time', max_tokens: 2, stream: true });
    let text = '';
    for await (const part of legacy) text += part.choices[0]?.text ?? '';
    expect(text.length).toBeGreaterThan(0);
    const summaries = r.of('onEnd').map((call) => call.args[0] as CallSummary);
    expect(summaries.map((s) => [s.outcome, s.finishReasons])).toEqual([
      ['ok', ['stop']],
      ['ok', ['length']],
    ]);
    expect((r.of('onEnd')[1]!.args[1] as HookInfo).operation).toBe('completions');
    expect(summaries[1]!.chunks).toBe(r.of('onChunk').filter((call) => (call.args[1] as HookInfo).operation === 'completions').length);
  });

  it('a stream that fails mid-way: onError, then onEnd with the error and the chunks so far', async () => {
    const r = recorder();
    server.enqueue({ reply: { content: 'a long enough reply to cut' }, fault: { kind: 'reset', after: 3 } });
    const stream = await client({ hooks: r.hooks }).chat.completions.create(streamed('x'));
    let received = 0;
    const error = await (async () => {
      for await (const _ of stream) received++;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(received).toBe(3);
    expect(r.names().slice(-2)).toEqual(['onError', 'onEnd']);
    expect(r.of('onError')[0]!.args[0]).toBe(error);
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'error', error, chunks: 3, finishReasons: [], usage: undefined });
  });

  it('a stream left with break: onEnd with outcome closed, once; the request is aborted', async () => {
    const r = recorder();
    const stream = await client({ hooks: r.hooks }).chat.completions.create({ ...streamed('a b c d e f g h'), model: 'mock/echo' });
    let received = 0;
    for await (const _ of stream) {
      if (++received === 2) break;
    }
    expect(r.names().filter((n) => n === 'onEnd' || n === 'onError')).toEqual(['onEnd']);
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'closed', error: undefined, chunks: 2 });
    await expect(stream.finalChatCompletion()).rejects.toThrow(/closed before it ended/);
    expect(r.of('onEnd')).toHaveLength(1);
  });

  it('an onChunk hook that throws ends the stream with a HookError; the hooks are told', async () => {
    const r = recorder();
    let seen = 0;
    const hooks: Hooks[] = [
      {
        name: 'counter',
        onChunk: () => {
          if (++seen === 2) throw new Error('quota exceeded');
        },
      },
      r.hooks,
    ];
    const stream = await client({ hooks }).chat.completions.create(streamed('a b c d e f'));
    let received = 0;
    const error = await (async () => {
      for await (const _ of stream) received++;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(error).toMatchObject({ hook: 'onChunk', source: '"counter"', message: 'chat: the onChunk hook of "counter" threw: quota exceeded' });
    expect(received).toBe(1);
    expect(r.of('onError')[0]!.args[0]).toBe(error);
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'error', error, chunks: 2 });
  });

  it('an async onChunk hook is awaited before the chunk is handed over, and the hooks after it run in order', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hooks: Hooks[] = [
      {
        name: 'slow',
        async onChunk() {
          order.push('slow:start');
          await gate;
          order.push('slow:end');
        },
      },
      { name: 'fast', onChunk: () => void order.push('fast') },
    ];
    const stream = await client({ hooks }).chat.completions.create(streamed('a b'));
    const iterator = stream[Symbol.asyncIterator]();
    const first = iterator.next().then(() => order.push('chunk'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(['slow:start']);
    release();
    await first;
    expect(order).toEqual(['slow:start', 'slow:end', 'fast', 'chunk']);
    await iterator.return?.();
  });

  it('an async onChunk hook that rejects ends the stream with a HookError naming it', async () => {
    const hooks: Hooks = { name: 'remote', onChunk: () => Promise.reject(new Error('collector down')) };
    const stream = await client({ hooks }).chat.completions.create(streamed('a b c'));
    const error = await (async () => {
      for await (const _ of stream);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(error).toMatchObject({ hook: 'onChunk', source: '"remote"', message: 'chat: the onChunk hook of "remote" threw: collector down' });
  });

  it('the helpers’ calls run the hooks too: a parse() stream, each request of a runTools() loop', async () => {
    const r = recorder();
    const c = client({ hooks: r.hooks });
    server.enqueue({ reply: { json: { city: 'Paris' } } });
    const parsed = await c.chat.completions.parse({ ...chat('Weather?'), stream: true });
    for await (const _ of parsed);
    server.enqueue({ reply: { tool_calls: [{ name: 'now', arguments: {} }] } }, { reply: { content: 'It is noon.' } });
    const runner = c.chat.completions.runTools({
      ...chat('What time is it?'),
      tools: [{ type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} }, function: () => '12:00' } }],
    });
    expect(await runner.finalContent()).toBe('It is noon.');
    const ends = r.of('onEnd').map((call) => [(call.args[1] as HookInfo).stream, (call.args[0] as CallSummary).outcome, (call.args[0] as CallSummary).finishReasons]);
    expect(ends).toEqual([
      [true, 'ok', ['stop']],
      [false, 'ok', ['tool_calls']],
      [false, 'ok', ['stop']],
    ]);
  });

  it('a stream that fails before its first chunk is the attempt’s: retried, one onEnd', async () => {
    const r = recorder();
    server.enqueue({ reset: true });
    const stream = await client({ hooks: r.hooks, maxRetries: 1 }).chat.completions.create(streamed('x'));
    for await (const _ of stream);
    expect(r.of('beforeRetry')).toHaveLength(1);
    expect(r.of('onEnd')).toHaveLength(1);
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'ok', attempts: 2 });
    expect(r.of('onError')).toHaveLength(0);
  }, 10_000);
});
