/**
 * The client's own hint on a 404 whose base URL ends in an endpoint (`…/v1/chat/completions`, as
 * copied from a curl example): any server 404s the doubled path, and the error says the base URL
 * ends in /v1. Against a loopback server that answers every path with a plain 404, as Express,
 * nginx or a gateway would; a right base URL's 404 gets no hint.
 */
import { describe, expect, it } from 'vitest';
import { Client, NotFoundError } from '../src/index';
import { startMockServer } from '../src/testing';
import { useFaultServers } from './support/fault-server';

const { faultServer } = useFaultServers();

describe('a 404 on a base URL that ends in an endpoint', () => {
  it('says the base URL ends in /v1, with the URL meant; a right base URL gets no hint', async () => {
    const server = await faultServer((req, res) => {
      // As Express's own 404, which quotes the path (and so speaks of /v1).
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`Cannot ${req.method} ${req.url}`);
    });
    const client = (baseURL: string) => new Client({ apiKey: 'sk-hint-test', baseURL, maxRetries: 0, logLevel: 'off' });
    const messages = [{ role: 'user' as const, content: 'hi' }];
    for (const endpoint of ['/chat/completions', '/chat/completions/', '/completions']) {
      const error = await client(`${server.url}${endpoint}`).chat.completions.create({ model: 'm', messages }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as Error).message).toContain(
        `(the base URL ${server.url}${endpoint.replace(/\/$/, '')} ends in an endpoint, not /v1: did you mean ${server.url}?)`,
      );
    }
    const right = await client(server.url).chat.completions.create({ model: 'm', messages }).catch((e: unknown) => e);
    expect(right).toBeInstanceOf(NotFoundError);
    expect((right as Error).message).toBe('404 POST /v1/chat/completions: Cannot POST /v1/chat/completions');
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/chat/completions/chat/completions',
      '/v1/chat/completions/chat/completions',
      '/v1/completions/chat/completions',
      '/v1/chat/completions',
    ]);
  });

  it('is said once: a server whose 404 already names the base URL (the mock server) gets no hint of the client', async () => {
    const mock = await startMockServer();
    try {
      const client = new Client({ apiKey: mock.apiKey, baseURL: `${mock.url}/chat/completions`, maxRetries: 0, logLevel: 'off' });
      const error = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
      expect((error as Error).message).toBe(
        `404 POST /v1/chat/completions/chat/completions: Unknown request URL: POST /v1/chat/completions/chat/completions. The base URL ends in /v1, not in an endpoint: use ${mock.url} as the base URL.`,
      );
    } finally {
      await mock.close();
    }
  });
});
