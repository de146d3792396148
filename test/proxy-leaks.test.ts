// model-inference-sdk/proxy: nothing leaks. An upstream on loopback that misbehaves every way a
// browser could learn something from: it echoes the key in its errors, its ids, its content and
// its headers; it fails with pages that name its address. What the browser gets (body and every
// header) never holds the key or the upstream's address, and says what kind of failure it was.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy } from '../src/proxy/index';
import { ask, call, startUpstream, type Upstream } from './support/proxy';

const KEY = 'sk-live-0123456789abcdefSECRET';
let upstream: Upstream;
let script: (res: ServerResponse, body: Record<string, unknown>) => void;

beforeAll(async () => {
  upstream = await startUpstream((_req, res, raw) => script(res, JSON.parse(raw || '{}') as Record<string, unknown>));
});
afterAll(async () => {
  await upstream.close();
});

const errors: unknown[] = [];
const route = () =>
  createProxy({
    models: ['acme/chat'],
    upstream: { apiKey: KEY, baseURL: upstream.url, maxRetries: 0, logLevel: 'off', timeout: 2_000 },
    legacyCompletions: true,
    onError: (error) => void errors.push(error),
  });

/** Everything the browser can read of a response. */
async function seen(response: Response): Promise<string> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => headers.push(`${name}: ${value}`));
  return `${response.status}\n${headers.join('\n')}\n\n${await response.text()}`;
}

function expectClean(text: string): void {
  expect(text).not.toContain(KEY);
  expect(text).not.toContain('0123456789abcdef');
  expect(text).not.toContain(upstream.origin.replace('http://', ''));
  expect(text).not.toContain('127.0.0.1');
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('upstream errors', () => {
  const cases: Array<[string, (res: ServerResponse) => void, number, string | undefined]> = [
    ['a 401 that quotes the key', (res) => json(res, 401, { error: { message: `Incorrect API key provided: ${KEY}. See ${upstream.url}`, type: 'invalid_request_error', code: 'invalid_api_key' } }), 502, 'upstream_auth'],
    ['a 400 whose code and param are the key', (res) => json(res, 400, { error: { message: `bad key ${KEY}`, type: 'invalid_request_error', code: KEY, param: KEY } }), 400, undefined],
    ['a 400 with a plain code', (res) => json(res, 400, { error: { message: `context too long for ${upstream.url}`, code: 'context_length_exceeded', param: 'messages' } }), 400, 'context_length_exceeded'],
    ['a 500 HTML page naming the host', (res) => res.writeHead(500, { 'content-type': 'text/html' }).end(`<h1>Error at ${upstream.origin} key=${KEY}</h1>`), 502, 'upstream_error'],
    ['a 404', (res) => json(res, 404, { error: { message: `no model at ${upstream.url}` } }), 404, 'model_not_found'],
    ['a 429 that asks to wait', (res) => json(res, 429, { error: { message: `slow down ${KEY}` } }, { 'retry-after': '7' }), 429, undefined],
    ['a 200 that is not JSON', (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`oops ${KEY}`), 502, 'upstream_invalid'],
    ['a request id that echoes the key', (res) => json(res, 503, { error: { message: 'down' } }, { 'x-request-id': `req-${KEY}` }), 502, 'upstream_error'],
  ];
  for (const [name, answer, status, code] of cases) {
    it(`${name}: ${status} in the service's shape, without the detail`, async () => {
      script = answer;
      const response = await call(route(), '/chat/completions', { body: ask('hi', { model: 'acme/chat' }) });
      const text = await seen(response.clone());
      expectClean(text);
      expect(response.status).toBe(status);
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(Object.keys(body)).toEqual(['error']);
      expect(typeof body.error['message']).toBe('string');
      expect(typeof body.error['type']).toBe('string');
      expect(body.error['code']).toBe(code ?? (status === 429 ? undefined : body.error['code']));
      if (status === 429) expect(response.headers.get('retry-after')).toBe('7');
    });
  }

  it('tells the app the upstream error, with its detail and the key masked', () => {
    const quoted = errors.map((e) => String((e as Error).message)).join('\n');
    expect(quoted).toMatch(/Incorrect API key provided: \*\*\*/);
    expect(quoted).not.toContain(KEY);
  });

  it('an upstream that cannot be reached: 502, no address', async () => {
    const down = createProxy({ models: ['acme/chat'], upstream: { apiKey: KEY, baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, logLevel: 'off' } });
    const response = await call(down, '/chat/completions', { body: ask('hi', { model: 'acme/chat' }) });
    const text = await seen(response);
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain(KEY);
    expect(response.status).toBe(502);
    expect(text).toContain('upstream_unavailable');
  });
});

describe('upstream answers that echo the key', () => {
  it('in a completion: its id, its content and its request id are masked', async () => {
    script = (res) =>
      json(res, 200, { id: KEY, object: 'chat.completion', created: 1, model: 'acme/chat', choices: [{ index: 0, message: { role: 'assistant', content: `The key is ${KEY}.` }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }, { 'x-request-id': KEY });
    const response = await call(route(), '/chat/completions', { body: ask('hi', { model: 'acme/chat' }) });
    const text = await seen(response.clone());
    expectClean(text);
    const completion = (await response.json()) as { id: string; choices: Array<{ message: { content: string } }> };
    expect(completion.id).toBe('***');
    expect(completion.choices[0]?.message.content).toBe('The key is ***.');
    expect(response.headers.get('x-request-id')).toBe('***');
  });

  it('in a stream: every chunk masked, and an in-band error mapped', async () => {
    script = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object) => `data: ${JSON.stringify({ id: `chatcmpl-${KEY}`, object: 'chat.completion.chunk', created: 1, model: 'acme/chat', choices: [{ index: 0, delta }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: '' }));
      res.write(chunk({ content: `key: ${KEY}` }));
      res.end(`data: ${JSON.stringify({ error: { message: `upstream broke at ${upstream.url} with ${KEY}`, type: 'server_error', code: 502 } })}\n\n`);
    };
    const response = await call(route(), '/chat/completions', { body: ask('hi', { model: 'acme/chat', stream: true }) });
    const text = await seen(response);
    expectClean(text);
    expect(text).toContain('"id":"chatcmpl-***"');
    expect(text).toContain('key: ***');
    expect(text).toMatch(/data: \{"error":\{"message":"The model service failed\.","type":"server_error","code":"upstream_error"\}\}\n\n$/);
  });

  // The forms errors and logs mask (util/mask.ts secretForms): an upstream gateway quoting the
  // credential it got as base64 (Basic) in a completion and a header, or percent-encoded.
  it('in another form (inside base64, percent-encoded): masked', async () => {
    const basic = btoa(`user:${KEY}`);
    script = (res) =>
      json(res, 200, { id: 'c', object: 'chat.completion', created: 1, model: 'acme/chat', choices: [{ index: 0, message: { role: 'assistant', content: `Basic ${basic} or ${encodeURIComponent(`Bearer ${KEY}`)}` }, finish_reason: 'stop' }] }, { 'x-request-id': basic });
    const response = await call(route(), '/chat/completions', { body: ask('hi', { model: 'acme/chat' }) });
    const text = await seen(response.clone());
    expectClean(text);
    expect(text).not.toContain(basic.slice(8, 30));
    const completion = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    expect(completion.choices[0]?.message.content).toMatch(/^Basic \S*\*\*\*\S* or \*\*\*$/);
  });

  it('in the model list and a model: masked', async () => {
    script = (res) => json(res, 200, { object: 'list', data: [{ id: 'acme/chat', object: 'model', created: 1, owned_by: KEY }, { id: 'acme/other', object: 'model', created: 1, owned_by: 'x' }] });
    const response = await call(route(), '/models');
    const text = await seen(response.clone());
    expectClean(text);
    const list = (await response.json()) as { data: Array<{ id: string; owned_by: string }> };
    expect(list.data).toEqual([expect.objectContaining({ id: 'acme/chat', owned_by: '***' })]);
  });

  it('the browser never sees the upstream key sent, nor can it send its own upstream', async () => {
    script = (res) => json(res, 200, { id: 'c', object: 'text_completion', created: 1, model: 'acme/chat', choices: [{ index: 0, text: 'ok', finish_reason: 'stop' }] });
    const response = await call(route(), '/completions', { body: { model: 'acme/chat', prompt: 'hi' }, headers: { authorization: 'Bearer browser-key', 'x-api-key': 'browser-key' } });
    expect(response.status).toBe(200);
    const last = upstream.requests.at(-1)!;
    expect(last.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(last.headers['x-api-key']).toBeUndefined();
    expect(JSON.stringify(last.headers)).not.toContain('browser-key');
  });
});
