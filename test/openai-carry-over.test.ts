/**
 * Code written for the official `openai` client carries over (issue 23), through the public API
 * against the local server: the error classes as statics of the client (`OpenAI.APIError`), a
 * body typed as one form of `ChatCompletionCreateParams` picking its overload, the deprecated
 * `function_call` of a reply and of a delta, and `_request_id` on a response. The type side is in
 * test/types-openai-compat.test-d.ts and test/types-openai-carry-over.test-d.ts;
 * test/third-party/carry-over.test.ts compiles and runs openai-style files against both clients.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as sdk from '../src/index';
import {
  Client,
  Client as OpenAI,
  ResponseValidationError,
  type WithRequestID,
  type ChatCompletionChunk,
  type ChatCompletionCreateParams,
  type ChatCompletionCreateParamsNonStreaming,
  type ChatCompletionCreateParamsStreaming,
} from '../src/index';
import { useMockServer } from './support/mock-server';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'all' });

const messages = [{ role: 'user' as const, content: 'Hello' }];

/** A chat completion body as a server sends it, with `message` as its one choice's message. */
const completionWith = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'mock/echo',
  choices: [{ index: 0, message, finish_reason: 'function_call', logprobs: null }],
  ...extra,
});

describe('the error classes as statics of the client (item 1)', () => {
  const names = [
    'APIError',
    'APIConnectionError',
    'APIConnectionTimeoutError',
    'APIUserAbortError',
    'NotFoundError',
    'ConflictError',
    'RateLimitError',
    'BadRequestError',
    'AuthenticationError',
    'InternalServerError',
    'PermissionDeniedError',
    'UnprocessableEntityError',
  ] as const;

  it("are the package's own classes, under openai's names", () => {
    for (const name of names) expect(Client[name], name).toBe(sdk[name]);
  });

  it('catch the errors the client throws: `err instanceof OpenAI.NotFoundError`', async () => {
    const error = await client.models.retrieve('nope/missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as OpenAI.APIError).status).toBe(404);

    server.enqueue({ error: { status: 429, retryAfter: 0 } });
    await expect(client.chat.completions.create({ model: 'mock/echo', messages })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });

  it('are not instances: a client has no such fields', () => {
    expect(Object.keys(client)).not.toContain('APIError');
    expect((client as unknown as Record<string, unknown>)['APIError']).toBeUndefined();
  });
});

describe('a body typed as one form of ChatCompletionCreateParams (item 2)', () => {
  it('streaming: create() gives a stream to iterate', async () => {
    const params: ChatCompletionCreateParamsStreaming = { model: 'mock/echo', messages, stream: true };
    const stream = await client.chat.completions.create(params);
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: Hello');
  });

  it('without streaming: create() gives the completion', async () => {
    const params: ChatCompletionCreateParamsNonStreaming = { model: 'mock/echo', messages, stream: null };
    const completion = await client.chat.completions.create(params);
    expect(completion.choices[0]?.message.content).toBe('You said: Hello');
  });

  it('the union, told apart by `if (params.stream)`', async () => {
    const ask = async (params: ChatCompletionCreateParams): Promise<string> => {
      if (params.stream) {
        const parts: string[] = [];
        for await (const chunk of await client.chat.completions.create(params)) parts.push(chunk.choices[0]?.delta.content ?? '');
        return parts.join('');
      }
      return (await client.chat.completions.create(params)).choices[0]?.message.content ?? '';
    };
    expect(await ask({ model: 'mock/echo', messages, stream: true })).toBe('You said: Hello');
    expect(await ask({ model: 'mock/echo', messages })).toBe('You said: Hello');
  });
});

describe('the deprecated function_call of a reply and of a delta (item 7)', () => {
  it("a reply's function_call is typed and read", async () => {
    server.enqueue({ body: completionWith({ role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' } }) });
    const completion = await client.chat.completions.create({
      model: 'mock/echo',
      messages,
      functions: [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    const message = completion.choices[0]!.message;
    expect(message.function_call).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(JSON.parse(message.function_call!.arguments)).toEqual({ city: 'Paris' });
    expect(completion.choices[0]?.finish_reason).toBe('function_call');
  });

  it('read as the tool calls are: arguments left out are "{}", an object becomes its JSON text; null is kept', async () => {
    server.enqueue(
      { body: completionWith({ role: 'assistant', content: null, function_call: { name: 'now' } }) },
      { body: completionWith({ role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: { city: 'Paris' } } }) },
      { body: completionWith({ role: 'assistant', content: 'Hi', function_call: null }) },
    );
    const read = async () => (await client.chat.completions.create({ model: 'mock/echo', messages })).choices[0]!.message;
    expect((await read()).function_call).toEqual({ name: 'now', arguments: '{}' });
    expect((await read()).function_call).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    const plain = await read();
    expect(plain.function_call).toBeNull();
    expect('function_call' in plain).toBe(true);
  });

  it('a function_call that is not an object is a ResponseValidationError naming the field and the value', async () => {
    server.enqueue({ body: completionWith({ role: 'assistant', content: null, function_call: 'get_weather\u0000\u001b[31m' }) });
    const error = await client.chat.completions.create({ model: 'mock/echo', messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toContain('function_call');
    expect(JSON.stringify((error as ResponseValidationError).issues)).toContain('get_weather');
  });

  it("a stream's deltas carry the function call's fragments; a delta's null is left out", async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'mock/echo',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    server.enqueue({
      events: [
        chunk({ role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '' } }),
        chunk({ function_call: { arguments: '{"city":' } }),
        chunk({ function_call: { arguments: '"Paris"}' } }),
        chunk({ function_call: null }, 'function_call'),
        '[DONE]',
      ],
    });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const deltas: ChatCompletionChunk.Choice.Delta[] = [];
    for await (const c of stream) deltas.push(c.choices[0]!.delta);
    expect(deltas[0]?.function_call?.name).toBe('get_weather');
    expect(deltas.map((d) => d.function_call?.arguments ?? '').join('')).toBe('{"city":"Paris"}');
    expect(deltas[3]).toEqual({});
  });
});

describe('_request_id on a response (item 8)', () => {
  it("is the x-request-id header, on completions, legacy completions, models and parse()'s result", async () => {
    server.enqueue({ reply: { content: 'x' }, headers: { 'x-request-id': 'req_chat' } });
    expect((await client.chat.completions.create({ model: 'mock/echo', messages }))._request_id).toBe('req_chat');
    server.enqueue({ reply: { content: 'x' }, headers: { 'x-request-id': 'req_legacy' } });
    expect((await client.completions.create({ model: 'mock/echo', prompt: 'p' }))._request_id).toBe('req_legacy');
    expect((await client.models.retrieve('mock/echo'))._request_id).toMatch(/.+/);
    expect((await client.models.list())._request_id).toMatch(/.+/);
    server.enqueue({ reply: { content: 'x' }, headers: { 'x-request-id': 'req_parse' } });
    expect((await client.chat.completions.parse({ model: 'mock/echo', messages }))._request_id).toBe('req_parse');
  });

  it('is the same id withResponse() gives, and null when the server sent none', async () => {
    const { data, request_id } = await client.models.retrieve('mock/echo').withResponse();
    const model: WithRequestID<typeof data> = data; // withResponse()'s data is typed T, as in openai
    expect(model._request_id).toBe(request_id);
    server.enqueue({ body: completionWith({ role: 'assistant', content: 'Hi' }) });
    const fetchWithout: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const headers = new Headers(response.headers);
      headers.delete('x-request-id');
      return new Response(response.body, { status: response.status, headers });
    };
    const bare = new Client({ apiKey: server.apiKey, baseURL: server.url, maxRetries: 0, fetch: fetchWithout });
    const completion = await bare.chat.completions.create({ model: 'mock/echo', messages });
    expect(completion._request_id).toBeNull();
    expect(Object.getOwnPropertyDescriptor(completion, '_request_id')).toMatchObject({ value: null, enumerable: false });
  });

  it('changes nothing JSON, keys, spreads or deep equality see', async () => {
    const body = completionWith({ role: 'assistant', content: 'Hi', refusal: null }, { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
    server.enqueue({ body, headers: { 'x-request-id': 'req_1' } });
    const completion = await client.chat.completions.create({ model: 'mock/echo', messages });
    expect(completion._request_id).toBe('req_1');
    expect(JSON.parse(JSON.stringify(completion))).toStrictEqual(body);
    expect(Object.keys(completion)).toEqual(Object.keys(body));
    expect(completion).toStrictEqual(body);
    expect(isDeepStrictEqual(completion, body)).toBe(true);
    expect({ ...completion }).not.toHaveProperty('_request_id');
    expect(structuredClone(completion)).not.toHaveProperty('_request_id');
  });

  it("keeps a `_request_id` field the server sent, and sets none on streams", async () => {
    server.enqueue({ body: completionWith({ role: 'assistant', content: 'Hi' }, { _request_id: 'from-the-body' }), headers: { 'x-request-id': 'req_header' } });
    const completion = await client.chat.completions.create({ model: 'mock/echo', messages });
    expect(completion._request_id).toBe('from-the-body');
    expect(JSON.stringify(completion)).toContain('"_request_id":"from-the-body"');

    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    expect(Object.getOwnPropertyNames(stream)).not.toContain('_request_id');
    for await (const chunk of stream) expect(Object.getOwnPropertyNames(chunk)).not.toContain('_request_id');
  });
});
