// The mock server is driven with plain fetch (not the SDK) so that these
// tests pin down the wire format itself.
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_MOCK_MODELS,
  MOCK_API_KEY,
  generateChatReply,
  startMockServer,
} from '../src/testing';
import { countTokens, splitTokens } from '../src/testing/model';
import type { MockServer, MockServerOptions } from '../src/testing';
import { useMockServer } from './support/mock-server';
import { Client, NotFoundError } from '../src/index';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const { server } = useMockServer({}, { each: true });
let extraServers: MockServer[] = [];

afterEach(async () => {
  await Promise.all(extraServers.map((s) => s.close()));
  extraServers = [];
});

async function start(options: MockServerOptions): Promise<MockServer> {
  const s = await startMockServer(options);
  extraServers.push(s);
  return s;
}

function auth(key = MOCK_API_KEY): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

function get(path: string, key?: string, s: MockServer = server): Promise<Response> {
  return fetch(`${s.url}${path}`, { headers: auth(key) });
}

function post(path: string, body: unknown, options: { key?: string; server?: MockServer; signal?: AbortSignal } = {}): Promise<Response> {
  const init: RequestInit = {
    method: 'POST',
    headers: { ...auth(options.key), 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
  if (options.signal !== undefined) init.signal = options.signal;
  return fetch(`${(options.server ?? server).url}${path}`, init);
}

/** Splits a raw SSE body into its `data:` payloads, checking the framing as it goes. */
function sseData(text: string): string[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return block.slice('data: '.length);
    });
}

const chatBody = { model: 'mock/echo', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello there,  world!' }] };

describe('models', () => {
  it('lists every model with every field of the spec', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(server.apiKey).toBe(MOCK_API_KEY);
    const res = await get('/models');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toBe('req_1');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const list = (await res.json()) as Json;
    expect(list['object']).toBe('list');
    expect(list['data'].map((m: Json) => m['id'])).toEqual(['mock/echo', 'mock/reasoner', 'mock/sleeping']);
    expect(list['data'][0]).toEqual({
      id: 'mock/echo',
      object: 'model',
      owned_by: 'mock',
      created: expect.any(Number),
      name: 'Mock Echo',
      context_length: 8192,
      max_output_length: 4096,
      input_modalities: ['text'],
      output_modalities: ['text'],
      supported_features: ['tools'],
      pricing: [{ prompt: '0.10', completion: '0.40', input_cache_read: '0.025' }],
      is_ready: true,
    });
    expect(list['data'][1]['supported_features']).toEqual(['reasoning']);
    expect(list['data'][2]['is_ready']).toBe(false);
    for (const model of list['data'] as Json[]) {
      for (const price of model['pricing'] as Json[]) {
        for (const value of Object.values(price)) expect(value).toMatch(/^\d+(\.\d+)?$/);
      }
    }
  });

  it('fills defaults for terse custom models', async () => {
    const s = await start({ models: [{ id: 'acme/base' }] });
    const res = await get('/models/acme/base', s.apiKey, s);
    expect(await res.json()).toEqual({
      id: 'acme/base',
      object: 'model',
      owned_by: 'acme',
      created: expect.any(Number),
      name: 'base',
      context_length: 8192,
      max_output_length: 4096,
      input_modalities: ['text'],
      output_modalities: ['text'],
      supported_features: [],
      pricing: [{ prompt: '0', completion: '0', input_cache_read: '0' }],
      is_ready: true,
    });
  });

  it('retrieves a model by a slug with a slash, plain or percent-encoded', async () => {
    const s = await start({ models: [{ id: 'acme/big model' }, ...DEFAULT_MOCK_MODELS] });
    for (const path of ['/models/mock/echo', '/models/mock%2Fecho', '/models/%6Dock/echo']) {
      const res = await get(path, s.apiKey, s);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Json)['id']).toBe('mock/echo');
    }
    const res = await get(`/models/${encodeURIComponent('acme')}/${encodeURIComponent('big model')}`, s.apiKey, s);
    expect(((await res.json()) as Json)['id']).toBe('acme/big model');
  });

  it('answers an unknown model with the short error shape', async () => {
    const res = await get('/models/nope/missing');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { message: 'The model `nope/missing` is not available on this API.', type: 'invalid_request_error' },
    });
  });
});

describe('authentication', () => {
  it('rejects a missing or wrong key with 401 and the short shape', async () => {
    const missing = await fetch(`${server.url}/models`);
    expect(missing.status).toBe(401);
    const missingBody = (await missing.json()) as Json;
    expect(Object.keys(missingBody['error']).sort()).toEqual(['message', 'type']);
    expect(missingBody['error']['type']).toBe('authentication_error');

    const wrong = await get('/models', 'not-a-key');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: { message: expect.any(String), type: 'authentication_error' } });

    const chat = await post('/chat/completions', chatBody, { key: 'wrong' });
    expect(chat.status).toBe(401);
  });

  it('shows each key only its own models', async () => {
    const s = await start({ apiKeys: { 'key-all': 'all', 'key-echo': ['mock/echo'] } });
    expect(s.apiKey).toBe('key-all');
    const all = (await (await get('/models', 'key-all', s)).json()) as Json;
    expect(all['data']).toHaveLength(3);
    const limited = (await (await get('/models', 'key-echo', s)).json()) as Json;
    expect(limited['data'].map((m: Json) => m['id'])).toEqual(['mock/echo']);

    expect((await get('/models/mock/reasoner', 'key-echo', s)).status).toBe(404);
    expect((await get('/models/mock/reasoner', 'key-all', s)).status).toBe(200);
    const chat = await post('/chat/completions', { ...chatBody, model: 'mock/reasoner' }, { key: 'key-echo', server: s });
    expect(chat.status).toBe(404);
    expect((await get('/models', MOCK_API_KEY, s)).status).toBe(401);
  });

  it('refuses to start without any key', async () => {
    await expect(startMockServer({ apiKeys: {} })).rejects.toThrow(TypeError);
  });
});

describe('chat completions', () => {
  it('answers JSON deterministically with usage', async () => {
    const res = await post('/chat/completions', chatBody);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'mock/echo',
      choices: [{ index: 0, message: { role: 'assistant', content: 'You said: Hello there,  world!' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
    });
    expect(Math.abs(body['created'] - Date.now() / 1000)).toBeLessThan(60);
    const again = (await (await post('/chat/completions', chatBody)).json()) as Json;
    expect(again['id']).toBe('chatcmpl-2');
    expect(again['choices']).toEqual(body['choices']);
  });

  it('greets when there is no user text, and reads content parts', async () => {
    const greet = (await (await post('/chat/completions', { model: 'mock/echo', messages: [{ role: 'system', content: 'x' }] })).json()) as Json;
    expect(greet['choices'][0]['message']['content']).toBe('Hello from the mock model.');
    const parts = (await (
      await post('/chat/completions', { model: 'mock/echo', messages: [{ role: 'user', content: [{ type: 'text', text: 'a b' }] }] })
    ).json()) as Json;
    expect(parts['choices'][0]['message']['content']).toBe('You said: a b');
  });

  it('streams the spec order and rebuilds the JSON text exactly', async () => {
    const json = (await (await post('/chat/completions', chatBody)).json()) as Json;
    const res = await post('/chat/completions', { ...chatBody, stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const data = sseData(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as Json);
    for (const chunk of chunks) {
      expect(chunk['id']).toBe('chatcmpl-2');
      expect(chunk['object']).toBe('chat.completion.chunk');
      expect(chunk['model']).toBe('mock/echo');
      expect(chunk['choices']).toHaveLength(1);
    }
    expect(chunks[0]?.['choices'][0]).toEqual({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null });
    const last = chunks.at(-1)?.['choices'][0];
    expect(last).toEqual({ index: 0, delta: {}, finish_reason: 'stop' });
    const middle = chunks.slice(1, -1);
    expect(middle).toHaveLength(5);
    for (const c of middle) {
      expect(Object.keys(c['choices'][0]['delta'])).toEqual(['content']);
      expect(c['choices'][0]['finish_reason']).toBeNull();
    }
    const text = chunks.map((c) => (c['choices'][0]['delta']['content'] as string | undefined) ?? '').join('');
    expect(text).toBe(json['choices'][0]['message']['content']);
    expect(chunks.some((c) => 'usage' in c)).toBe(false);
  });

  it('adds a usage trailer with include_usage', async () => {
    const res = await post('/chat/completions', { ...chatBody, stream: true, stream_options: { include_usage: true } });
    const data = sseData(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const trailer = JSON.parse(data.at(-2) ?? '') as Json;
    expect(trailer['choices']).toEqual([]);
    expect(trailer['usage']).toEqual({ prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 });
    expect((JSON.parse(data.at(-3) ?? '') as Json)['choices'][0]['finish_reason']).toBe('stop');
  });

  it('truncates at max_tokens / max_completion_tokens with finish_reason length', async () => {
    const json = (await (await post('/chat/completions', { ...chatBody, max_tokens: 3 })).json()) as Json;
    expect(json['choices'][0]).toEqual({ index: 0, message: { role: 'assistant', content: 'You said: Hello' }, finish_reason: 'length' });
    expect(json['usage']).toEqual({ prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 });

    const newer = (await (await post('/chat/completions', { ...chatBody, max_tokens: 100, max_completion_tokens: 1 })).json()) as Json;
    expect(newer['choices'][0]['message']['content']).toBe('You');

    const data = sseData(await (await post('/chat/completions', { ...chatBody, max_tokens: 3, stream: true })).text());
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as Json);
    expect(chunks.map((c) => c['choices'][0]['delta']['content'] ?? '').join('')).toBe('You said: Hello');
    expect(chunks.at(-1)?.['choices'][0]['finish_reason']).toBe('length');

    const bad = await post('/chat/completions', { ...chatBody, max_tokens: 0 });
    expect(bad.status).toBe(400);
  });

  it('caps output at the model max_output_length and rejects over-long prompts', async () => {
    const s = await start({ models: [{ id: 'acme/tiny', context_length: 4, max_output_length: 2 }] });
    const short = (await (await post('/chat/completions', { model: 'acme/tiny', messages: [{ role: 'user', content: 'hi' }] }, { server: s, key: s.apiKey })).json()) as Json;
    expect(short['choices'][0]['finish_reason']).toBe('length');
    expect(short['choices'][0]['message']['content']).toBe('You said:');
    const long = await post('/chat/completions', { model: 'acme/tiny', messages: [{ role: 'user', content: 'one two three four five' }] }, { server: s, key: s.apiKey });
    expect(long.status).toBe(400);
    expect(((await long.json()) as Json)['error']['type']).toBe('invalid_request_error');
  });

  it('returns n choices', async () => {
    const json = (await (await post('/chat/completions', { ...chatBody, n: 2 })).json()) as Json;
    expect(json['choices'].map((c: Json) => c['index'])).toEqual([0, 1]);
    expect(json['usage']['completion_tokens']).toBe(10);
  });

  it('rejects bad bodies with 400 and unknown models with 404 (short shape)', async () => {
    for (const body of ['{not json', JSON.stringify({ messages: [] }), JSON.stringify({ model: 'mock/echo' }), JSON.stringify({ model: 'mock/echo', messages: ['x'] })]) {
      const res = await post('/chat/completions', body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error' } });
    }
    const unknown = await post('/chat/completions', { ...chatBody, model: 'nope/x' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { message: 'The model `nope/x` is not available on this API.', type: 'invalid_request_error' },
    });
  });
});

describe('legacy completions', () => {
  it('answers with a text_completion', async () => {
    const res = await post('/completions', { model: 'mock/echo', prompt: 'Once upon a time' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: 'cmpl-1',
      object: 'text_completion',
      created: expect.any(Number),
      model: 'mock/echo',
      choices: [{ text: 'You said: Once upon a time', index: 0, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 },
    });
  });

  it('streams text fragments then [DONE]', async () => {
    const res = await post('/completions', { model: 'mock/echo', prompt: 'Once upon a time', stream: true, max_tokens: 4 });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const data = sseData(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as Json);
    for (const c of chunks) {
      expect(c['object']).toBe('text_completion');
      expect(c['id']).toBe('cmpl-1');
    }
    expect(chunks.map((c) => c['choices'][0]['text']).join('')).toBe('You said: Once upon');
    expect(chunks.at(-1)?.['choices'][0]).toEqual({ text: '', index: 0, logprobs: null, finish_reason: 'length' });
  });

  it('answers an unknown model with the extended error shape', async () => {
    const res = await post('/completions', { model: 'nope/missing', prompt: 'x' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: {
        message: 'The model `nope/missing` is not available on this API.',
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    });
  });
});

describe('routing and CORS', () => {
  it('answers unknown paths with 404 and wrong methods with 405', async () => {
    const unknown = await get('/nothing/here');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error' } });
    const wrong = await fetch(`${server.url}/models`, { method: 'DELETE', headers: auth() });
    expect(wrong.status).toBe(405);
    expect(((await wrong.json()) as Json)['error']['type']).toBe('invalid_request_error');
    expect((await get('/chat/completions')).status).toBe(405);
  });

  it('answers a CORS preflight without a key', async () => {
    const res = await fetch(`${server.url}/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'http://example.test', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, *');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('x-request-id')).toMatch(/^req_\d+$/);
  });
});

describe('scripted replies', () => {
  it('sends scripted status, headers and body, in order, then falls back', async () => {
    server.enqueue(
      { status: 429, headers: { 'retry-after': '2' }, body: { error: { message: 'slow down', type: 'rate_limit_error' } } },
      { status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>bad gateway</h1>' },
    );
    const first = await post('/chat/completions', chatBody, { key: 'not-checked' });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(first.headers.get('x-request-id')).toBe('req_1');
    expect(await first.json()).toEqual({ error: { message: 'slow down', type: 'rate_limit_error' } });
    const second = await get('/models');
    expect(second.status).toBe(502);
    expect(second.headers.get('content-type')).toBe('text/html');
    expect(await second.text()).toBe('<h1>bad gateway</h1>');
    expect((await get('/models')).status).toBe(200);
  });

  it('matches scripted replies by path', async () => {
    server.enqueue({ path: '/v1/chat/completions', status: 500, body: { error: { message: 'boom', type: 'server_error' } } });
    expect((await get('/models')).status).toBe(200);
    expect((await post('/chat/completions', chatBody)).status).toBe(500);
    expect((await post('/chat/completions', chatBody)).status).toBe(200);
  });

  it('sends scripted events and raw streams', async () => {
    server.enqueue(
      { events: [{ choices: [{ index: 0, delta: { content: 'hi' } }] }, '[DONE]'] },
      { raw: 'data: {"a":1}\r\n\r\n: comment\n\ndata: [DONE]\n\n' },
    );
    const events = await post('/chat/completions', { ...chatBody, stream: true });
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    expect(await events.text()).toBe('data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n');
    const raw = await post('/chat/completions', { ...chatBody, stream: true });
    expect(raw.headers.get('content-type')).toBe('text/event-stream');
    expect(await raw.text()).toBe('data: {"a":1}\r\n\r\n: comment\n\ndata: [DONE]\n\n');
  });

  it('waits delayMs before answering', async () => {
    server.enqueue({ delayMs: 150, body: { ok: true } });
    const started = Date.now();
    const res = await get('/models');
    expect(await res.json()).toEqual({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('resets the connection', async () => {
    server.enqueue({ reset: true });
    await expect(post('/chat/completions', chatBody)).rejects.toThrow();
    expect((await post('/chat/completions', chatBody)).status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it('stalls until the client aborts', async () => {
    server.enqueue({ stall: true });
    const started = Date.now();
    await expect(post('/chat/completions', chatBody, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000); // a stall never ends by itself
    expect((await get('/models')).status).toBe(200);
  });

  it('close() resolves while a stalled request is open', async () => {
    const s = await startMockServer();
    s.enqueue({ stall: true });
    const pending = post('/chat/completions', chatBody, { server: s }).then(
      () => 'answered',
      () => 'failed',
    );
    while (s.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await s.close();
    expect(await pending).toBe('failed');
    await s.close(); // idempotent
  });

  it('stops streaming when the client goes away mid-stream', async () => {
    const s = await start({ chunkDelayMs: 30 });
    const controller = new AbortController();
    const res = await post('/chat/completions', { ...chatBody, stream: true }, { server: s, signal: controller.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"role":"assistant"');
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    // The server keeps serving afterwards.
    expect((await get('/models', s.apiKey, s)).status).toBe(200);
  });
});

describe('request recording', () => {
  it('records every request with headers and parsed body', async () => {
    server.enqueue({ path: '/completions', status: 503 });
    await fetch(`${server.url}/models?limit=2`);
    await post('/chat/completions', chatBody);
    await post('/completions', 'raw text body');
    expect(server.requests).toHaveLength(3);
    const [list, chat, legacy] = server.requests;
    expect(list).toMatchObject({ method: 'GET', path: '/models', url: `${server.url}/models?limit=2`, body: undefined });
    expect(list?.headers['authorization']).toBeUndefined();
    expect(chat).toMatchObject({ method: 'POST', path: '/chat/completions', body: chatBody });
    expect(chat?.headers['authorization']).toBe(`Bearer ${MOCK_API_KEY}`);
    expect(chat?.headers['content-type']).toBe('application/json');
    expect(legacy).toMatchObject({ method: 'POST', path: '/completions', body: 'raw text body' });
  });
});

describe('built-in model', () => {
  it('splits tokens so that they rebuild the text', () => {
    const text = '  Hello big\nworld  ';
    expect(splitTokens(text)).toEqual(['  Hello ', 'big\n', 'world  ']);
    expect(splitTokens(text).join('')).toBe(text);
    expect(splitTokens('')).toEqual([]);
    expect(countTokens(text)).toBe(3);
  });

  it('is deterministic and honours the limit', () => {
    const messages = [{ role: 'user', content: ' one two ' }];
    expect(generateChatReply(messages)).toEqual(generateChatReply(messages));
    expect(generateChatReply(messages)).toMatchObject({ text: 'You said: one two', promptTokens: 2, completionTokens: 4, finishReason: 'stop' });
    expect(generateChatReply(messages, 4).finishReason).toBe('stop');
    expect(generateChatReply(messages, 3)).toMatchObject({ text: 'You said: one', finishReason: 'length', completionTokens: 3 });
  });
});

describe('mock/reasoner reasons, as its name says', () => {
  const reasonerBody = { model: 'mock/reasoner', messages: [{ role: 'user', content: 'why not' }] };
  const thought = 'The user said "why not". I will repeat it.';

  it('sends reasoning_content before the answer, counted in completion_tokens, as JSON and as a stream', async () => {
    const json = (await (await post('/chat/completions', reasonerBody)).json()) as Json;
    expect(json['choices'][0]['message']).toEqual({ role: 'assistant', content: 'You said: why not', reasoning_content: thought });
    // 4 tokens of answer, 9 of reasoning.
    expect(json['usage']).toEqual({ prompt_tokens: 2, completion_tokens: 13, total_tokens: 15 });

    const data = sseData(await (await post('/chat/completions', { ...reasonerBody, stream: true })).text());
    const deltas = data.filter((d) => d !== '[DONE]').map((d) => (JSON.parse(d) as Json)['choices'][0]['delta'] as Json);
    const reasoning = deltas.filter((d) => 'reasoning_content' in d);
    expect(reasoning.map((d) => d['reasoning_content']).join('')).toBe(thought);
    // All of the reasoning comes before the first piece of content.
    const firstContent = deltas.findIndex((d) => typeof d['content'] === 'string' && d['content'] !== '');
    expect(deltas.findIndex((d) => 'reasoning_content' in d)).toBeLessThan(firstContent);
    expect(deltas.slice(firstContent).some((d) => 'reasoning_content' in d)).toBe(false);
  });

  it('a scripted reply says whether it reasons; a model without the feature never does', async () => {
    server.enqueue({ reply: { content: 'Plain.' } });
    const scripted = (await (await post('/chat/completions', reasonerBody)).json()) as Json;
    expect(scripted['choices'][0]['message']).toEqual({ role: 'assistant', content: 'Plain.' });
    server.enqueue({ reply: { content: 'Yes.', reasoning: 'Mine.' } });
    expect(((await (await post('/chat/completions', reasonerBody)).json()) as Json)['choices'][0]['message']['reasoning_content']).toBe('Mine.');
    const echo = (await (await post('/chat/completions', { ...reasonerBody, model: 'mock/echo' })).json()) as Json;
    expect(echo['choices'][0]['message']).toEqual({ role: 'assistant', content: 'You said: why not' });
  });

  it('generateChatReply({ reasoning: true }) gives the same reasoning, for replies and tool calls', () => {
    const messages = [{ role: 'user', content: 'why not' }];
    expect(generateChatReply(messages, undefined, { reasoning: true })).toMatchObject({ text: 'You said: why not', completionTokens: 13 });
    expect(generateChatReply(messages, undefined, { reasoning: true }).reasoning.join('')).toBe(thought);
    expect(generateChatReply(messages).reasoning).toEqual([]);
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    expect(generateChatReply(messages, undefined, { tools, reasoning: true }).reasoning.join('')).toBe('The request offers a tool. I will call get_weather.');
    expect(generateChatReply([{ role: 'user', content: ' ' }], undefined, { reasoning: true }).reasoning.join('')).toBe('There is no user text. I will greet.');
    expect(generateChatReply([...messages, { role: 'tool', content: '21' }], undefined, { reasoning: true }).reasoning.join('')).toBe('The tool returned its result. I will pass it on.');
  });
});

describe('a base URL copied with its endpoint', () => {
  it('gets a 404 that says the base URL ends in /v1, not in an endpoint', async () => {
    const server = await startMockServer();
    extraServers.push(server);
    const hint = `The base URL ends in /v1, not in an endpoint: use ${server.url} as the base URL.`;
    for (const endpoint of ['/chat/completions', '/completions']) {
      const client = new Client({ apiKey: server.apiKey, baseURL: `${server.url}${endpoint}`, maxRetries: 0 });
      const error = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as Error).message).toContain(hint);
      await expect(client.models.list()).rejects.toThrow(hint);
    }
    // An unknown path that is no doubled endpoint gets no such hint.
    const other = new Client({ apiKey: server.apiKey, baseURL: `${server.url}/extra`, maxRetries: 0 });
    const error = await other.models.list().catch((e: unknown) => e);
    expect((error as Error).message).not.toContain('not in an endpoint');
  });
});
