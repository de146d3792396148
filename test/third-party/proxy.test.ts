// docs/proxy.md, tested: the SDK through a real forward proxy on 127.0.0.1, with undici's
// ProxyAgent passed as `fetchOptions.dispatcher` (Node's own fetch), or with undici's fetch as a
// custom `fetch`. The proxy records every CONNECT and every request it forwards, so each test
// proves the request went through it (and, for the control, that it did not).
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { EnvHttpProxyAgent, ProxyAgent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APIConnectionError, Client } from '../../src/index';
import { startMockServer, type MockServer } from '../../src/testing';

interface Seen {
  /** `CONNECT host:port` (a tunnel) or `GET http://host:port/path` (a forwarded request). */
  line: string;
  headers: IncomingHttpHeaders;
}

/** A minimal HTTP forward proxy: CONNECT tunnels and absolute-form requests, nothing else. */
async function startProxy(options: { requireAuth?: string } = {}) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const denied = (headers: IncomingHttpHeaders) =>
    options.requireAuth !== undefined && headers['proxy-authorization'] !== options.requireAuth;
  const server: Server = createServer((req, res) => {
    seen.push({ line: `${req.method} ${req.url}`, headers: req.headers });
    if (denied(req.headers)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(target, { method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push({ line: `CONNECT ${req.url}`, headers: req.headers });
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (denied(req.headers)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

let mock: MockServer;
let proxy: Awaited<ReturnType<typeof startProxy>>;
const agents: { close(): Promise<void> }[] = [];
/** `host:port` of the mock server, as a tunnel names it. */
const target = () => new URL(mock.url).host;
const hello = [{ role: 'user' as const, content: 'Hello through the proxy' }];

beforeAll(async () => {
  mock = await startMockServer();
  proxy = await startProxy();
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  proxy.seen.length = 0;
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

function track<T extends { close(): Promise<void> }>(agent: T): T {
  agents.push(agent);
  return agent;
}

describe('undici ProxyAgent as fetchOptions.dispatcher (Node fetch)', () => {
  it('tunnels every request through the proxy, streams included, and keeps the key inside the tunnel', async () => {
    const dispatcher = track(new ProxyAgent(proxy.url));
    const client = new Client({ apiKey: mock.apiKey, baseURL: mock.url, maxRetries: 0, fetchOptions: { dispatcher } });

    const { data } = await client.models.list();
    expect(data.map((m) => m.id)).toContain('mock/echo');
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages: hello, stream: true });
    let text = '';
    for await (const delta of stream.textStream()) text += delta;
    expect(text).toBe('You said: Hello through the proxy');

    // The proxy opened tunnels to the mock server, and the mock server got both requests.
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(proxy.seen.every((s) => s.line === `CONNECT ${target()}`)).toBe(true);
    expect(mock.requests.slice(-2).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /models', 'POST /chat/completions']);
    // What the proxy can read of a tunnel is its CONNECT request: no API key there.
    expect(JSON.stringify(proxy.seen)).not.toContain(mock.apiKey);
  });

  it('sends proxy credentials to the proxy only, and a refusing proxy is a connection error', async () => {
    const guarded = track(await startProxy({ requireAuth: 'Basic dXNlcjpwYXNz' }));
    const withAuth = track(new ProxyAgent({ uri: guarded.url, token: 'Basic dXNlcjpwYXNz' }));
    const client = new Client({ apiKey: mock.apiKey, baseURL: mock.url, maxRetries: 0, fetchOptions: { dispatcher: withAuth } });
    const model = await client.models.retrieve('mock/echo');
    expect(model.id).toBe('mock/echo');
    expect(guarded.seen.at(-1)).toMatchObject({ line: `CONNECT ${target()}`, headers: { 'proxy-authorization': 'Basic dXNlcjpwYXNz' } });
    expect(mock.requests.at(-1)?.headers?.['proxy-authorization']).toBeUndefined();

    const withoutAuth = track(new ProxyAgent(guarded.url));
    const refused = new Client({ apiKey: mock.apiKey, baseURL: mock.url, maxRetries: 0, fetchOptions: { dispatcher: withoutAuth } });
    const error = await refused.models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(String(error)).not.toContain(mock.apiKey);
  });

  it('forwards plain-HTTP requests without a tunnel when asked (proxyTunnel: false)', async () => {
    const dispatcher = track(new ProxyAgent({ uri: proxy.url, proxyTunnel: false }));
    const client = new Client({ apiKey: mock.apiKey, baseURL: mock.url, maxRetries: 0, fetchOptions: { dispatcher } });
    const completion = await client.chat.completions.create({ model: 'mock/echo', messages: hello });
    expect(completion.choices[0]?.message?.content).toBe('You said: Hello through the proxy');
    expect(proxy.seen.map((s) => s.line)).toEqual([`POST ${mock.url}/chat/completions`]);
  });

  it('EnvHttpProxyAgent follows HTTP_PROXY and NO_PROXY', async () => {
    const viaEnv = track(new EnvHttpProxyAgent({ httpProxy: proxy.url, noProxy: '' }));
    const client = new Client({ apiKey: mock.apiKey, baseURL: mock.url, maxRetries: 0, fetchOptions: { dispatcher: viaEnv } });
    await client.models.list();
    expect(proxy.seen.map((s) => s.line)).toEqual([`CONNECT ${target()}`]);

    const bypass = track(new EnvHttpProxyAgent({ httpProxy: proxy.url, noProxy: '127.0.0.1' }));
    const direct = new Client({ apiKey: mock.apiKey, baseURL: mock.url, maxRetries: 0, fetchOptions: { dispatcher: bypass } });
    await direct.models.list();
    expect(proxy.seen).toHaveLength(1); // the second client went straight to the server
  });

  it('without a dispatcher, requests do not touch the proxy (the control)', async () => {
    const client = new Client({ apiKey: mock.apiKey, baseURL: mock.url, maxRetries: 0 });
    await client.models.list();
    expect(proxy.seen).toEqual([]);
  });
});

describe('a custom fetch', () => {
  it('wraps the global fetch and adds the dispatcher to each call', async () => {
    const dispatcher = track(new ProxyAgent(proxy.url));
    const client = new Client({
      apiKey: mock.apiKey,
      baseURL: mock.url,
      maxRetries: 0,
      fetch: (url, init) => fetch(url, { ...init, dispatcher } as RequestInit),
    });
    const completion = await client.completions.create({ model: 'mock/echo', prompt: 'Once upon a time' });
    expect(completion.choices[0]?.text).toBe('You said: Once upon a time');
    expect(proxy.seen.map((s) => s.line)).toEqual([`CONNECT ${target()}`]);
  });

  it("uses undici's own fetch with the dispatcher bound", async () => {
    const dispatcher = track(new ProxyAgent(proxy.url));
    const client = new Client({
      apiKey: mock.apiKey,
      baseURL: mock.url,
      maxRetries: 0,
      // The SDK calls fetch(url: string, init); undici's types differ from the DOM's in details.
      fetch: (url, init) => undiciFetch(String(url), { ...(init as object), dispatcher }) as unknown as Promise<Response>,
    });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages: hello, stream: true });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message?.content).toBe('You said: Hello through the proxy');
    expect(proxy.seen.map((s) => s.line)).toEqual([`CONNECT ${target()}`]);
  });
});
