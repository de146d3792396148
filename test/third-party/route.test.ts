// model-inference-sdk/proxy with the packages people use around it: the official `openai` client
// reading the route, the route inside a Hono app, and the docs' Redis store (docs/route.md) on a
// real redis-server from Debian, started here on a loopback port (skipped, saying so, when the
// binary is not installed: `apt-get install -y redis-server`; .ci/run installs it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import OpenAI from 'openai';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/index';
import { createProxy, toNodeListener, type ProxyStore, type ProxyUsage } from '../../src/proxy/index';
import { startMockServer } from '../../src/testing';
import type { MockServer } from '../../src/testing';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(async () => {
  await mock.close();
});

const upstream = () => ({ apiKey: mock.apiKey, baseURL: mock.url, maxRetries: 0, logLevel: 'off' as const });

describe('the official openai client against the route', () => {
  let server: Server;
  let baseURL: string;
  beforeAll(async () => {
    const handler = createProxy({ models: ['mock/echo', 'mock/reasoner'], upstream: upstream(), budget: { cost: '50' }, maxTokens: 20 });
    // A second route, with a budget smaller than one request, under its own path.
    const tight = createProxy({ models: ['mock/echo'], upstream: upstream(), budget: { cost: '0.5' }, basePath: '/tight/v1' });
    server = createServer(toNodeListener((request) => (new URL(request.url).pathname.startsWith('/tight/') ? tight(request) : handler(request))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/inference/v1`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  // The route needs no key from its callers; openai insists on one, and it is not sent on.
  const openai = () => new OpenAI({ apiKey: 'not-a-key', baseURL, maxRetries: 0 });

  it('lists, retrieves, chats and streams', async () => {
    const ids: string[] = [];
    for await (const model of openai().models.list()) ids.push(model.id);
    expect(ids).toEqual(['mock/echo', 'mock/reasoner']);
    expect((await openai().models.retrieve('mock/echo')).id).toBe('mock/echo');
    const chat = await openai().chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hello' }] });
    expect(chat.choices[0]?.message.content).toBe('You said: Hello');
    expect(chat._request_id).toMatch(/\S/);
    const stream = await openai().chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hello stream' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('You said: Hello stream');
    expect(usage?.total_tokens).toBeGreaterThan(0);
  });

  it("gives openai's error classes for the route's refusals", async () => {
    await expect(openai().models.retrieve('mock/sleeping')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const system = await openai()
      .chat.completions.create({ model: 'mock/echo', messages: [{ role: 'system', content: 'New rules.' }, { role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(system).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(system).toMatchObject({ status: 403, code: 'role_not_allowed', param: 'messages[0].role' });
    const budget = await new OpenAI({ apiKey: 'not-a-key', baseURL: baseURL.replace('/api/inference/v1', '/tight/v1'), maxRetries: 0 })
      .chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(budget).toBeInstanceOf(OpenAI.RateLimitError);
    expect(budget).toMatchObject({ status: 429, code: 'insufficient_quota', type: 'insufficient_quota' });
  });
});

describe('the route in a Hono app', () => {
  const app = new Hono();
  beforeAll(() => {
    const handler = createProxy({ models: ['mock/echo'], upstream: upstream(), identify: (request) => request.headers.get('x-user') });
    app.get('/health', (c) => c.text('ok'));
    // As docs/route.md shows it: the raw web Request in, the Response out.
    app.all('/api/inference/v1/*', (c) => handler(c.req.raw));
  });

  // The package's Client, with the app's own fetch standing in for the network.
  const client = (user?: string) =>
    new Client({
      apiKey: 'unused',
      baseURL: 'http://app.test/api/inference/v1',
      maxRetries: 0,
      logLevel: 'off',
      ...(user ? { defaultHeaders: { 'x-user': user } } : {}),
      fetch: async (input, init) => app.fetch(new Request(input, init)),
    });

  it('serves the endpoints under the app routes, and streams', async () => {
    expect(await (await app.fetch(new Request('http://app.test/health'))).text()).toBe('ok');
    expect((await client('u1').models.list()).data.map((m) => m.id)).toEqual(['mock/echo']);
    const stream = await client('u1').chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'via hono' }], stream: true });
    expect(await stream.finalContent()).toBe('You said: via hono');
    await expect(client().models.list()).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
  });
});

// --- Redis ------------------------------------------------------------------------------------

const redisBinary = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
if (!redisBinary) console.warn('route.test.ts: SKIPPED the Redis store tests: redis-server is not installed (apt-get install -y redis-server)');

/** The Redis store of docs/route.md, as written there. */
function redisStore(redis: ReturnType<typeof createClient>): ProxyStore {
  return {
    async increment(key, amount, ttlMs) {
      const [total] = await redis.multi().incrBy(key, amount).pExpire(key, ttlMs, 'NX').exec();
      return Number(total);
    },
  };
}

describe.skipIf(!redisBinary)('the Redis store of docs/route.md, on a real redis-server', () => {
  let child: ChildProcess;
  let redis: ReturnType<typeof createClient>;
  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: 'ignore' });
    redis = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: (retries) => (retries > 50 ? new Error('redis-server did not start') : 100) } });
    redis.on('error', () => {});
    await redis.connect();
  }, 30_000);
  afterAll(async () => {
    await redis?.quit().catch(() => {});
    child?.kill('SIGTERM');
  });

  it('adds atomically, expires each counter once, and settles with negative amounts', async () => {
    const store = redisStore(redis);
    expect(await store.increment('t:a', 5, 10_000)).toBe(5);
    expect(await store.increment('t:a', -2, 60_000)).toBe(3);
    const ttl = await redis.pTTL('t:a');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(10_000); // NX: the later increment did not extend it
    const totals = await Promise.all(Array.from({ length: 50 }, () => store.increment('t:b', 1, 10_000)));
    expect(totals.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('holds the budget across two instances of the route racing one user', async () => {
    const used: ProxyUsage[] = [];
    const options = {
      models: [{ id: 'mock/echo', pricing: [{ prompt: '0.001', completion: '0.001', input_cache_read: '0' }] }],
      upstream: upstream(),
      budget: { cost: '0.5' },
      maxTokens: 100,
      storePrefix: `race-${Date.now()}:`,
      onUsage: (u: ProxyUsage) => void used.push(u),
    };
    // Two app instances (two servers), one store.
    const a = createProxy({ ...options, store: redisStore(redis) });
    const b = createProxy({ ...options, store: redisStore(redis) });
    const body = JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] });
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b)(new Request('http://app.test/api/inference/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body })),
      ),
    );
    const ok = responses.filter((r) => r.status === 200).length;
    // Each request reserves 100 completion tokens and its prompt (≈ 0.11): at most 4 fit in 0.5 at once.
    expect(ok).toBeGreaterThanOrEqual(4);
    expect(responses.filter((r) => r.status === 429).length).toBe(30 - ok);
    for (const response of responses) await response.body?.cancel();
    const keys = await redis.keys(`${options.storePrefix}cost:*`);
    expect(keys).toHaveLength(1);
    // Settled to what was used (the mock's replies are short), so more fit than the reservations alone.
    const spent = Number(await redis.get(keys[0]!)) / 1e9;
    expect(spent).toBeLessThanOrEqual(0.5 + 0.11);
  });
});
