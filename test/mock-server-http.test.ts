// The mock server is driven with plain fetch (not the SDK) so that these tests pin down the wire
// format itself: models, authentication, routing and CORS, request recording, a base URL copied
// with its endpoint.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MOCK_MODELS, MOCK_API_KEY, startMockServer } from '../src/testing';
import { Client, NotFoundError } from '../src/index';
import { type Json, extraServers, useWireServer, server, start, auth, get, post, chatBody } from './support/mock-server-wire';

useWireServer();

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
