// Hooks (the `hooks` option, client and per request) through the public entry, against the mock
// server on 127.0.0.1: what each hook gets, their order, and what they change on the wire.
import { describe, expect, it } from 'vitest';
import { InferenceError, RateLimitError, type CallSummary, type HookInfo, type Hooks } from '../src/index';
import { KEY, useHooksServer, server, client, chat, recorder } from './support/hooks';

useHooksServer();

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
