/**
 * Faults (first filed as issue 13), against a real loopback server and through the public API:
 * redirects, baseURL, retried POSTs that are safe to retry, and a local server as strict as the
 * service about /v1. docs/reliability.md lists these cases with their outcomes.
 */
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  InferenceError,
  NotFoundError,
} from '../src/index';
import { useMockServer } from './support/mock-server';
import { startFaultServer, useFaultServers } from './support/fault-server';
import { outcome } from './support/settle';
import { KEY, messages, completionBody, client } from './support/faults';

const { server: mock } = useMockServer({ apiKeys: { [KEY]: 'all' } });

const { faultServer } = useFaultServers(() => {
  mock.clear();
});

describe('4. redirects', () => {
  it('no credential header is sent to another origin; same-origin redirects keep them', async () => {
    const other = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [] }));
    });
    const first = await faultServer((req, res) => {
      if (req.url === '/v1/models') {
        res.writeHead(302, { location: '/v1/models-moved' }); // same origin
      } else {
        res.writeHead(307, { location: `${other.url}/models` });
      }
      res.end();
    });
    const c = client(first.url, { defaultHeaders: { 'x-api-key': KEY, 'api-key': KEY, 'x-auth-token': 't', 'x-team': 'kept' } });
    await c.models.list();
    expect(first.requests[1]?.url).toBe('/v1/models-moved');
    expect(first.requests[1]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(first.requests[1]?.headers['x-api-key']).toBe(KEY);
    const crossed = other.requests[0]!.headers;
    expect(crossed.authorization).toBeUndefined();
    expect(crossed['x-api-key']).toBeUndefined();
    expect(crossed['api-key']).toBeUndefined();
    expect(crossed['x-auth-token']).toBeUndefined();
    expect(crossed['x-team']).toBe('kept');
  });

  it('a POST answered with 303 is followed with a GET; 307 keeps the method and body', async () => {
    const server = await faultServer((req, res) => {
      if (req.url === '/v1/chat/completions') res.writeHead(307, { location: '/v1/again' });
      else if (req.url === '/v1/again') res.writeHead(303, { location: '/v1/result' });
      else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completionBody('moved')));
        return;
      }
      res.end();
    });
    const completion = await client(server.url).chat.completions.create({ model: 'm', messages });
    expect(completion.choices[0]?.message?.content).toBe('moved');
    expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body ? 'body' : ''}`.trim())).toEqual([
      'POST /v1/chat/completions body',
      'POST /v1/again body',
      'GET /v1/result',
    ]);
  });

  it('an https → http redirect is refused with a typed error, and nothing reaches the http server', async () => {
    const plain = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [] }));
    });
    // The https side answers from a fetch double: a TLS server would need a certificate the runtime trusts.
    const secureFetch: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.startsWith('https://secure.test/')) return new Response(null, { status: 301, headers: { location: `${plain.url}/models` } });
      return fetch(input, init);
    };
    const error = await outcome(() => client('https://secure.test/v1', { fetch: secureFetch }).models.list());
    expect(error).toBeInstanceOf(APIError);
    expect((error as Error).message).toMatch(/https.*http/);
    expect((error as APIError).status).toBe(301);
    expect(plain.requests).toHaveLength(0);
  });

  it('a redirect loop ends with a typed error', async () => {
    const server = await faultServer((_req, res) => {
      res.writeHead(302, { location: '/v1/models' });
      res.end();
    });
    const error = await outcome(() => client(server.url).models.list());
    expect(error).toBeInstanceOf(APIError);
    expect((error as Error).message).toMatch(/redirect/i);
    expect(server.requests.length).toBeLessThanOrEqual(21);
  });
});

describe('5. baseURL', () => {
  it('keeps its query string (Azure api-version) for every request, under default and per-request queries', async () => {
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [] }));
    });
    const c = client(`${server.url}/?api-version=2024-10-21`, { defaultQuery: { team: 'a' } });
    await c.models.list();
    await c.models.list({ query: { 'api-version': '2025-01-01' } });
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/models?api-version=2024-10-21&team=a', '/v1/models?api-version=2025-01-01&team=a']);
  });

  it('with a fragment is an error at construction', () => {
    expect(() => client('https://api.test/v1#section')).toThrow(InferenceError);
    expect(() => client('https://api.test/v1#')).toThrow(/fragment/);
  });
});


describe('9. retried POSTs are safe to retry', () => {
  const fail = { status: 500, headers: { 'retry-after-ms': '0' }, body: { error: { message: 'x' } } };

  it('every POST carries one Idempotency-Key for all its attempts, a new one per call', async () => {
    mock.enqueue(fail, fail);
    const c = client(mock.url);
    await c.chat.completions.create({ model: 'mock/echo', messages });
    await c.completions.create({ model: 'mock/echo', prompt: 'x' });
    const keys = mock.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^[\w-]{16,}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).toMatch(/^[\w-]{16,}$/);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('GETs carry none', async () => {
    await client(mock.url).models.list();
    expect(mock.requests[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('an option sets it, or turns it off per request or per client', async () => {
    const c = client(mock.url);
    await c.chat.completions.create({ model: 'mock/echo', messages }, { idempotencyKey: 'order-42' });
    await c.chat.completions.create({ model: 'mock/echo', messages }, { idempotencyKey: false });
    await client(mock.url, { idempotencyKeys: false }).chat.completions.create({ model: 'mock/echo', messages });
    expect(mock.requests.map((r) => r.headers['idempotency-key'])).toEqual(['order-42', undefined, undefined]);
  });
});


describe('11. the local server is as strict as the service about /v1', () => {
  it('answers only under /v1; a 404 on a base URL without /v1 says so', async () => {
    const origin = mock.url.replace(/\/v1$/, '');
    const error = await outcome(() => client(origin).models.list());
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(/\/v1/);
    expect((error as Error).message).toContain(`${origin}/v1`);
    await expect(client(mock.url).models.list()).resolves.toMatchObject({ object: 'list' });
  });

  it('connection errors name host and port', async () => {
    const closed = await startFaultServer(() => {});
    await closed.close();
    const error = await outcome(() => client(closed.url, { maxRetries: 0 }).models.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain(closed.origin.replace('http://', ''));
  });
});
