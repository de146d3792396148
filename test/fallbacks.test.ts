/**
 * Fallbacks before the first chunk (issue 32, item 2), through the public API against a loopback
 * server that fails each model its own way: every failure kind moves the call to the next model,
 * a failure after content reached the caller does not, and neither does one another model would
 * have too (a bad request, a wrong key, the caller's abort). docs/errors-and-retries.md,
 * "Fallbacks".
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  Client,
  type CallSummary,
  type ClientOptions,
  type HookInfo,
} from '../src/index';
import { useFaultServers } from './support/fault-server';

const { faultServer } = useFaultServers();
const messages = [{ role: 'user' as const, content: 'hi' }];

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
const chunk = (model: string, delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const completion = (model: string) => ({
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content: `from ${model}` }, finish_reason: 'stop' }],
});

/** Each model fails (or answers) its own way; `ok/*` models answer, naming themselves. */
async function models() {
  const seen: string[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse, body: string): unknown => {
    if (req.method === 'GET') {
      const slug = decodeURIComponent(req.url!.replace('/v1/models/', ''));
      return json(res, 200, { id: slug, object: 'model', created: 1, owned_by: 'x', max_output_length: slug === 'small/limits' ? 10 : 10_000 });
    }
    const { model, stream, messages: asked } = JSON.parse(body) as { model: string; stream?: boolean; messages: Array<{ role: string }> };
    seen.push(model);
    switch (model) {
      case 'ok/tools': {
        // Calls the tool `now` until it has its result, then answers.
        if (asked.at(-1)?.role === 'tool') break;
        const call = { id: 't1', type: 'function', function: { name: 'now', arguments: '{}' } };
        if (!stream) return json(res, 200, { ...completion(model), choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }] });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return res.end(`${chunk(model, { role: 'assistant', tool_calls: [{ index: 0, ...call }] })}${chunk(model, {}, 'tool_calls')}data: [DONE]\n\n`);
      }
      case 'gone/404':
        return json(res, 404, { error: { message: `The model \`${model}\` is not available on this API.`, type: 'invalid_request_error' } });
      case 'gone/400':
        return json(res, 400, { error: { message: 'The model does not exist', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } });
      case 'busy/429':
        return json(res, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '3600' });
      case 'busy/429-30s':
        return json(res, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after-ms': '30000' });
      case 'broken/500':
        return json(res, 500, { error: { message: 'boom' } });
      case 'loading/503':
        return json(res, 503, { error: { message: 'Model is loading' } });
      case 'slow/timeout':
        return; // never answers
      case 'dead/reset':
        return req.socket.destroy();
      case 'bad/request':
        return json(res, 400, { error: { message: 'messages: must not be empty', type: 'invalid_request_error' } });
      case 'bad/key':
        return json(res, 401, { error: { message: 'Incorrect API key provided' } });
      case 'stream/in-band-error':
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return res.end(`${chunk(model, { role: 'assistant', content: '' })}data: {"error":{"message":"upstream overloaded","code":"overloaded"}}\n\n`);
      case 'stream/cut':
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk(model, { role: 'assistant', content: '' }));
        return setTimeout(() => res.destroy(), 20);
      case 'stream/html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html><title>Gateway login</title></html>');
      case 'stream/after-content':
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk(model, { role: 'assistant', content: '' }) + chunk(model, { content: 'Hel' }));
        return setTimeout(() => res.destroy(), 50);
    }
    if (!stream) return json(res, 200, completion(model));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    return res.end(`${chunk(model, { role: 'assistant', content: '' })}${chunk(model, { content: `from ${model}` })}${chunk(model, {}, 'stop')}data: [DONE]\n\n`);
  };
  const server = await faultServer((req, res, body) => void handle(req, res, body));
  const client = (options: ClientOptions = {}) => new Client({ apiKey: 'sk-test', baseURL: server.url, logLevel: 'off', maxRetries: 0, timeout: 2_000, ...options });
  return { seen, client };
}

describe('each failure before anything reached the caller moves to the next model', () => {
  it.each([
    ['404, not available', 'gone/404', {}],
    ['a 400 that says the model does not exist (model_not_found)', 'gone/400', {}],
    ['a 429 the limiter cannot wait out (retry-after: an hour)', 'busy/429', {}],
    ['a 429 whose wait is past the timeout', 'busy/429-30s', { maxRetries: 2 }],
    ['a 500, after its retries', 'broken/500', { maxRetries: 1 }],
    ['a 503 (not ready), after its retries', 'loading/503', { maxRetries: 1 }],
    ['a timeout', 'slow/timeout', { timeout: 300 }],
    ['a connection error', 'dead/reset', {}],
  ] as const)('%s (JSON)', async (_, failing, options) => {
    const { seen, client } = await models();
    const reply = await client(options).chat.completions.create({ model: failing, messages }, { fallbacks: ['ok/second'] });
    expect(reply.model).toBe('ok/second');
    expect(reply.choices[0]?.message.content).toBe('from ok/second');
    expect(seen.at(-1)).toBe('ok/second');
    expect(seen.filter((m) => m === failing).length).toBe(failing === 'broken/500' || failing === 'loading/503' ? 2 : 1);
  });

  it.each([
    ['an in-band error after the role chunk', 'stream/in-band-error'],
    ['a stream cut after the role chunk', 'stream/cut'],
    ['an HTML page where the stream was', 'stream/html'],
    ['a 404', 'gone/404'],
    ['a connection error', 'dead/reset'],
  ])('%s (stream): the caller gets the next model\'s stream, from its first chunk', async (_, failing) => {
    const { seen, client } = await models();
    const stream = await client().chat.completions.create({ model: failing, messages, stream: true }, { fallbacks: ['ok/second'] });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks.map((c) => c.model)).toEqual(['ok/second', 'ok/second', 'ok/second']);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('from ok/second');
    expect(seen).toEqual([failing, 'ok/second']);
  });

  it('a model its pre-flight check refuses (max_tokens over its max_output_length)', async () => {
    const { seen, client } = await models();
    const reply = await client({ preflight: 'error' }).chat.completions.create({ model: 'small/limits', messages, max_tokens: 100 }, { fallbacks: ['ok/second'] });
    expect(reply.model).toBe('ok/second');
    expect(seen).toEqual(['ok/second']);
  });

  it('down the list, in order, until one answers; legacy completions too', async () => {
    const { seen, client } = await models();
    const c = client({ fallbacks: ['gone/404', 'dead/reset', 'ok/third', 'ok/fourth'] });
    expect((await c.chat.completions.create({ model: 'broken/500', messages })).model).toBe('ok/third');
    expect(seen).toEqual(['broken/500', 'gone/404', 'dead/reset', 'ok/third']);
    const legacy = await c.completions.create({ model: 'gone/404', prompt: 'hi' });
    expect(legacy.model).toBe('ok/third');
  });

  it('the last model\'s error when every one fails', async () => {
    const { seen, client } = await models();
    const error = await client().chat.completions.create({ model: 'gone/404', messages }, { fallbacks: ['dead/reset'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(seen).toEqual(['gone/404', 'dead/reset']);
  });
  it('each model once: the one asked for, and a model the list names twice, are not asked again', async () => {
    const { seen, client } = await models();
    // A client's fallbacks that name the model a request asks for (a common list for every request).
    const c = client({ fallbacks: ['broken/500', 'gone/404', 'gone/404', 'broken/500', 'ok/third'] });
    expect((await c.chat.completions.create({ model: 'gone/404', messages })).model).toBe('ok/third');
    expect(seen).toEqual(['gone/404', 'broken/500', 'ok/third']);
    seen.length = 0;
    const error = await c.chat.completions.create({ model: 'gone/404', messages }, { fallbacks: ['gone/404', 'gone/404'] }).catch((e: unknown) => e);
    expect((error as { status?: number }).status).toBe(404);
    expect(seen).toEqual(['gone/404']);
  });
});

describe('runTools() with fallbacks', () => {
  it.each([false, true])('stream: %s. Once a fallback answers, the rest of the run starts at it: the failed model is not asked again each round', async (stream) => {
    const { seen, client } = await models();
    const tools = [{ type: 'function' as const, function: { name: 'now', parameters: { type: 'object', properties: {} }, function: () => 'noon' } }];
    // The client's fallbacks (the loop reads them from the client) for one, the request's for the other.
    const runner = stream
      ? client().chat.completions.runTools({ model: 'broken/500', messages, tools, stream }, { fallbacks: ['gone/404', 'ok/tools', 'ok/last'] })
      : client({ fallbacks: ['gone/404', 'ok/tools', 'ok/last'] }).chat.completions.runTools({ model: 'broken/500', messages, tools });
    expect(await runner.finalContent()).toBe('from ok/tools');
    expect(seen).toEqual(['broken/500', 'gone/404', 'ok/tools', 'ok/tools']);
    expect((await runner.allChatCompletions()).map((c) => c.model)).toEqual(['ok/tools', 'ok/tools']);
  });

  it('without fallbacks, or when the first model answers, every round asks the model of the body', async () => {
    const { seen, client } = await models();
    const tools = [{ type: 'function' as const, function: { name: 'now', parameters: { type: 'object', properties: {} }, function: () => 'noon' } }];
    await client().chat.completions.runTools({ model: 'ok/tools', messages, tools }, { fallbacks: ['ok/last'] }).done();
    await client().chat.completions.runTools({ model: 'ok/tools', messages, tools }).done();
    expect(seen).toEqual(['ok/tools', 'ok/tools', 'ok/tools', 'ok/tools']);
  });
});

describe('what does not move to the next model', () => {
  it('a stream that fails after content reached the caller: the caller gets the error', async () => {
    const { seen, client } = await models();
    const stream = await client().chat.completions.create({ model: 'stream/after-content', messages, stream: true }, { fallbacks: ['ok/second'] });
    let text = '';
    const error = await (async () => {
      for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    })().catch((e: unknown) => e);
    expect(text).toBe('Hel');
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(seen).toEqual(['stream/after-content']);
  });

  it.each([
    ['a bad request', 'bad/request', BadRequestError],
    ['a wrong key', 'bad/key', AuthenticationError],
  ])('%s: another model would refuse it too', async (_, failing, Class) => {
    const { seen, client } = await models();
    const error = await client().chat.completions.create({ model: failing, messages }, { fallbacks: ['ok/second'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(seen).toEqual([failing]);
  });

  it('the caller\'s abort', async () => {
    const { seen, client } = await models();
    const controller = new AbortController();
    const pending = client({ timeout: 10_000 }).chat.completions.create({ model: 'slow/timeout', messages }, { fallbacks: ['ok/second'], signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await pending.catch((e: unknown) => e)).toBeInstanceOf(APIUserAbortError);
    expect(seen).toEqual(['slow/timeout']);
  });

  it('a request\'s own fallbacks replace the client\'s; [] turns them off', async () => {
    const { seen, client } = await models();
    const c = client({ fallbacks: ['ok/client'] });
    expect((await c.chat.completions.create({ model: 'gone/404', messages }, { fallbacks: ['ok/request'] })).model).toBe('ok/request');
    await expect(c.chat.completions.create({ model: 'gone/404', messages }, { fallbacks: [] })).rejects.toThrow(/not available/);
    expect(seen).toEqual(['gone/404', 'ok/request', 'gone/404']);
  });

  it.each([['not-an-array'], [[1]], [['']], [[null]]])('fallbacks: %j is refused at the call site', async (fallbacks) => {
    const c = new Client({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' });
    await expect(c.chat.completions.create({ model: 'm', messages }, { fallbacks: fallbacks as string[] })).rejects.toThrow(/fallbacks/);
    expect(() => new Client({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1', fallbacks: fallbacks as string[] })).toThrow(/fallbacks/);
  });
});

describe('hooks see each attempt and its model', () => {
  it('beforeRequest for every attempt with the model it goes to, beforeRetry before each switch, one onEnd', async () => {
    const { client } = await models();
    const requests: [number, string | undefined, string][] = [];
    const retries: [number, string | undefined, number, number | undefined][] = [];
    const ends: [CallSummary, HookInfo][] = [];
    const c = client({
      maxRetries: 1,
      hooks: {
        async beforeRequest(request, info) {
          requests.push([info.attempt, info.model, ((await request.clone().json()) as { model: string }).model]);
        },
        beforeRetry: (info) => void retries.push([info.attempt, info.model, info.delay, info.error.status]),
        onEnd: (summary, info) => void ends.push([summary, info]),
      },
    });
    const reply = await c.chat.completions.create({ model: 'broken/500', messages }, { fallbacks: ['gone/404', 'ok/third'] });
    expect(reply.model).toBe('ok/third');
    expect(requests).toEqual([
      [1, 'broken/500', 'broken/500'],
      [2, 'broken/500', 'broken/500'],
      [3, 'gone/404', 'gone/404'],
      [4, 'ok/third', 'ok/third'],
    ]);
    expect(retries.map(([attempt, model, , status]) => [attempt, model, status])).toEqual([
      [2, 'broken/500', 500],
      [3, 'gone/404', 500],
      [4, 'ok/third', 404],
    ]);
    expect(retries[1]![2]).toBe(0); // a fallback does not wait
    expect(ends).toHaveLength(1);
    expect(ends[0]![0]).toMatchObject({ outcome: 'ok', attempts: 4, model: 'ok/third', status: 200 });
  });

  it('a stream: onChunk sees only the chunks of the model that answered', async () => {
    const { client } = await models();
    const models_: string[] = [];
    const c = client({ hooks: { onChunk: (chunk) => void models_.push((chunk as { model: string }).model) } });
    const stream = await c.chat.completions.create({ model: 'stream/cut', messages, stream: true }, { fallbacks: ['ok/second'] });
    expect(await stream.finalContent()).toBe('from ok/second');
    expect(models_).toEqual(['ok/second', 'ok/second', 'ok/second']);
  });
});
