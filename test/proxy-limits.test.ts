// model-inference-sdk/proxy: who may ask, and how much. identify(), the per-user rate limits and
// cost budget (reserved before sending, settled after), their races, a stream cut off mid-way
// when it passes the budget, and the memory store's bounds.
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { APIError, Client, estimateCost, estimatePromptTokens, sumCosts } from '../src/index';
import { createProxy, memoryStore, type ProxyOptions, type ProxyStore, type ProxyUsage } from '../src/proxy/index';
import { startMockServer, type MockServer } from '../src/testing';
import { ask, call, errorOf, serveRoute, startUpstream } from './support/proxy';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(async () => {
  await mock.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const upstreamOf = (url: string, apiKey = mock.apiKey) => ({ apiKey, baseURL: url, maxRetries: 0, logLevel: 'off' as const });
const route = (options: Partial<ProxyOptions> = {}) =>
  createProxy({ models: ['mock/echo'], upstream: upstreamOf(mock.url), ...options });

const PRICED = { id: 'acme/chat', pricing: [{ prompt: '0.000001', completion: '0.000002', input_cache_read: '0' }] };

/** An upstream that always uses every token it is allowed (`max_tokens`), after `delayMs`. */
async function greedyUpstream(delayMs: number) {
  return startUpstream((_req, res, raw) => {
    const body = JSON.parse(raw) as { max_tokens: number; messages: unknown[] };
    const usage = { prompt_tokens: estimatePromptTokens(body), completion_tokens: body.max_tokens, total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_greedy' });
      res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'acme/chat', choices: [{ index: 0, message: { role: 'assistant', content: 'word '.repeat(10) }, finish_reason: 'length' }], usage }));
    }, delayMs);
  });
}

describe('identify()', () => {
  it('refuses with 401 when it gives no user or throws (the app is told of the throw), answers with its Response', async () => {
    const errors: unknown[] = [];
    const who = { value: undefined as unknown };
    const handler = route({
      identify: () => {
        if (who.value instanceof Error) throw who.value;
        return who.value as string;
      },
      onError: (error) => void errors.push(error),
    });
    for (const value of [undefined, null, '', 'x'.repeat(257), new Error('bad token')]) {
      who.value = value;
      const { status, error } = await errorOf(await call(handler, '/models'));
      expect(status).toBe(401);
      expect(error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
    }
    expect(errors.map((e) => (e as Error).message)).toEqual(['identify() gave a user id longer than 256 characters', 'bad token']);
    who.value = new Response('see /login', { status: 302, headers: { location: '/login' } });
    expect((await call(handler, '/models')).status).toBe(302);
    who.value = 'user-1';
    expect((await call(handler, '/models')).status).toBe(200);
    expect(mock.requests.filter((r) => r.path === '/models')).toHaveLength(1);
  });

  it('an identify() or system function that never settles fails after 10 s as if it had thrown (401, 500), the app told', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const errors: unknown[] = [];
    const never = () => new Promise<never>(() => {});
    for (const [options, status] of [[{ identify: never }, 401], [{ system: never }, 500]] as const) {
      const handler = route({ ...options, onError: (e) => void errors.push(e) });
      const answer = call(handler, '/chat/completions', { body: ask('hi') });
      await vi.advanceTimersByTimeAsync(10_000);
      expect((await errorOf(await answer)).status).toBe(status);
    }
    expect(errors.map(String)).toEqual(['Error: identify() did not settle within 10 s', 'Error: the `system` function did not settle within 10 s']);
  });
});

describe('rate limits', () => {
  it('counts requests per user and window; past the limit, a 429 with retry-after', async () => {
    let user = 'a';
    const handler = route({ identify: () => user, rateLimit: { requests: 3, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await call(handler, '/models')).status).toBe(200);
    const over = await call(handler, '/models');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await errorOf(over)).error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
    user = 'b';
    expect((await call(handler, '/models')).status).toBe(200);
  });

  it('reserves tokens before sending; a request alone over the limit is refused for good (x-should-retry: false)', async () => {
    const handler = route({ rateLimit: { tokens: 500 }, maxTokens: 1000 });
    const response = await call(handler, '/chat/completions', { body: ask('hi') });
    expect(response.status).toBe(429);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect((await errorOf(response)).error).toMatchObject({ type: 'tokens', code: 'request_too_large' });
    expect((await call(handler, '/chat/completions', { body: ask('hi', { max_tokens: 100 }) })).status).toBe(200);
  });

  it('reserves the larger of max_tokens and max_completion_tokens: a server that reads only max_tokens cannot outspend the limit', async () => {
    const upstream = await greedyUpstream(50); // uses every token of max_tokens, as many servers read it
    try {
      const used: ProxyUsage[] = [];
      const handler = createProxy({ models: ['acme/chat'], upstream: upstreamOf(upstream.url), rateLimit: { tokens: 3_000 }, onUsage: (u) => void used.push(u) });
      const body = ask('hi', { model: 'acme/chat', max_completion_tokens: 1, max_tokens: 1_000 });
      const statuses = (await Promise.all(Array.from({ length: 10 }, () => call(handler, '/chat/completions', { body })))).map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(2); // 2 × (1 000 and the prompt) fit in 3 000, not 3
      expect(used.reduce((sum, u) => sum + u.usage.total_tokens, 0)).toBeLessThanOrEqual(3_000);
    } finally {
      await upstream.close();
    }
  });

  it('settles a reservation with the usage: the counter holds what was used, not the estimate', async () => {
    const increments: Array<[string, number]> = [];
    const inner = memoryStore();
    const store: ProxyStore = { increment: (key, amount, ttl) => (increments.push([key, amount]), inner.increment(key, amount, ttl)) };
    const handler = route({ store, maxTokens: 300 });
    const completion = (await (await call(handler, '/chat/completions', { body: ask('hello there') })).json()) as { usage: { total_tokens: number } };
    await vi.waitFor(() => expect(increments.filter(([key]) => key.includes('tokens'))).toHaveLength(2));
    const tokens = increments.filter(([key]) => key.includes('tokens')).map(([, n]) => n);
    expect(tokens[0]).toBeGreaterThanOrEqual(300); // the estimate: the prompt and max_tokens
    expect(tokens[0]! + tokens[1]!).toBe(completion.usage.total_tokens);
  });
  it('a store that fails while a stream reserves more: an in-band error, the upstream aborted, the app told, the counter right', async () => {
    let cut = false;
    const upstream = await startUpstream((_req, res: ServerResponse) => {
      res.on('close', () => (cut = !res.writableFinished));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'acme/chat', choices: [{ index: 0, delta: { content: 'word '.repeat(20) } }] })}\n\n`), 10);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const inner = memoryStore();
      let tokens = 0;
      let reservations = 0;
      const store: ProxyStore = {
        increment: (key, amount, ttl) => {
          if (!key.includes(':tokens:')) return inner.increment(key, amount, ttl);
          if (amount > 0 && reservations++ === 1) throw new Error('the store is down'); // the stream's first top-up
          return (tokens = inner.increment(key, amount, ttl) as number);
        },
      };
      const used: ProxyUsage[] = [];
      const errors: unknown[] = [];
      const handler = createProxy({ models: ['acme/chat'], upstream: upstreamOf(upstream.url), maxTokens: 5, store, onUsage: (u) => void used.push(u), onError: (e) => void errors.push(e) });
      const text = await (await call(handler, '/chat/completions', { body: ask('hi', { model: 'acme/chat', stream: true }) })).text();
      expect(text.trim().split('\n\n').at(-1)).toBe('data: {"error":{"message":"The route failed.","type":"server_error","code":"internal_error"}}');
      await vi.waitFor(() => expect(cut).toBe(true));
      expect(String(errors[0])).toBe('Error: the store is down');
      await vi.waitFor(() => expect(used).toHaveLength(1));
      expect(used[0]).toMatchObject({ outcome: 'error', estimated: true });
      await vi.waitFor(() => expect(tokens).toBe(used[0]!.usage.total_tokens)); // the failed top-up is not given back
    } finally {
      await upstream.close();
    }
  });

  it('a store that never settles (a client queueing while its server is down): a 500 after 10 s, the app told', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const errors: unknown[] = [];
    const store: ProxyStore = { increment: () => new Promise<number>(() => {}) };
    const handler = route({ store, onError: (e) => void errors.push(e) });
    const answer = call(handler, '/chat/completions', { body: ask('hi') });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const { status, error } = await errorOf(await answer);
    expect([status, error['code']]).toEqual([500, 'internal_error']);
    expect(String(errors[0])).toMatch(/^Error: the store's increment \(proxy:requests:60000:\d+:anonymous\) did not settle within 10 s$/);
  });

  it('a store that fails half-way through a reservation: a 500, and what was reserved before it given back', async () => {
    const inner = memoryStore();
    const totals = new Map<string, number>();
    const errors: unknown[] = [];
    const store: ProxyStore = {
      increment: (key, amount, ttl) => {
        if (key.includes(':cost:')) throw new Error('the cost counter is down');
        const total = inner.increment(key, amount, ttl) as number;
        totals.set(key.split(':')[1]!, total);
        return total;
      },
    };
    const handler = createProxy({ models: [PRICED], upstream: upstreamOf(mock.url), budget: { cost: '1' }, store, onError: (e) => void errors.push(e) });
    const { status, error } = await errorOf(await call(handler, '/chat/completions', { body: ask('hi', { model: 'acme/chat' }) }));
    expect([status, error['code']]).toEqual([500, 'internal_error']);
    expect(String(errors[0])).toContain('the cost counter is down');
    expect(totals.get('tokens')).toBe(0); // reserved, then given back: the user is charged nothing
  });
});

describe('the cost budget', () => {
  it('never lets concurrent requests of one user spend more than the budget plus one estimate', async () => {
    const upstream = await greedyUpstream(50);
    try {
      const body = ask('hello', { model: 'acme/chat', max_tokens: 100 });
      const estimate = estimateCost({ prompt_tokens: estimatePromptTokens({ ...body }), completion_tokens: 100, total_tokens: 0 }, PRICED).total;
      const used: ProxyUsage[] = [];
      // A store with a store's latency: every increment waits a little (as Redis would).
      const inner = memoryStore();
      const store: ProxyStore = { increment: async (key, amount, ttl) => (await new Promise((r) => setTimeout(r, Math.random() * 10)), inner.increment(key, amount, ttl)) };
      const budget = sumCosts(estimate, estimate, estimate, Number(estimate) / 2); // 3.5 requests
      const handler = createProxy({ models: [PRICED], upstream: upstreamOf(upstream.url), budget: { cost: budget }, store, onUsage: (u) => void used.push(u) });
      const responses = await Promise.all(Array.from({ length: 40 }, () => call(handler, '/chat/completions', { body })));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
      expect(statuses.filter((s) => s === 200).length + statuses.filter((s) => s === 429).length).toBe(40);
      const refused = responses.find((r) => r.status === 429)!;
      expect((await errorOf(refused)).error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
      await vi.waitFor(() => expect(used).toHaveLength(statuses.filter((s) => s === 200).length));
      const spent = sumCosts(...used.map((u) => u.cost!));
      expect(Number(spent)).toBeLessThanOrEqual(Number(sumCosts(budget, estimate)));
      expect(upstream.requests.length).toBe(used.length);
    } finally {
      await upstream.close();
    }
  });

  it("with the upstream's fallbacks: only models the route serves, counted at the price of the one that answered", async () => {
    const BIG = { id: 'acme/big', pricing: [{ prompt: '0.00001', completion: '0.00002', input_cache_read: '0' }] };
    expect(() => createProxy({ models: [PRICED], upstream: { ...upstreamOf(mock.url), fallbacks: ['acme/outside'] } })).toThrow(
      'createProxy: `upstream.fallbacks`: "acme/outside" is not one of `models` (the route serves only those).',
    );
    const usage = { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 };
    const upstream = await startUpstream((_req, res, raw) => {
      const { model, stream } = JSON.parse(raw) as { model: string; stream?: boolean };
      if (model === 'acme/chat') return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"gone"}}');
      if (!stream) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage }));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] })}\n\n`);
      res.end(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices: [], usage })}\n\ndata: [DONE]\n\n`);
    });
    try {
      const used: ProxyUsage[] = [];
      const inner = memoryStore();
      const costs: number[] = [];
      const store: ProxyStore = { increment: (key, amount, ttl) => (key.includes(':cost:') && costs.push(amount), inner.increment(key, amount, ttl)) };
      const handler = createProxy({ models: [PRICED, BIG], upstream: { ...upstreamOf(upstream.url), fallbacks: ['acme/big'] }, budget: { cost: '1' }, store, onUsage: (u) => void used.push(u) });
      const json = (await (await call(handler, '/chat/completions', { body: ask('hi', { model: 'acme/chat' }) })).json()) as { model: string };
      expect(json.model).toBe('acme/big');
      await (await call(handler, '/chat/completions', { body: ask('hi', { model: 'acme/chat', stream: true }) })).text();
      await vi.waitFor(() => expect(used).toHaveLength(2));
      const big = estimateCost(usage, BIG).total;
      expect(used.map((u) => [u.model, u.cost])).toEqual([['acme/big', big], ['acme/big', big]]);
      await vi.waitFor(() => expect(costs).toHaveLength(4)); // two reservations, two settlements
      expect([big, costs[0]! + costs[1]!]).toEqual(['0.002', 2_000_000]); // the budget holds the big model's cost, in nano-units
    } finally {
      await upstream.close();
    }
  });

  it('prices a model from the upstream when models gives no price; refuses with 503 a model it cannot price', async () => {
    const handler = route({ budget: { cost: '100' } }); // mock/echo: 0.10 a prompt token, 0.40 a completion token: 1024 cost 409.6
    const used: ProxyUsage[] = [];
    const priced = createProxy({ models: ['mock/echo'], upstream: upstreamOf(mock.url), budget: { cost: '1000' }, onUsage: (u) => void used.push(u) });
    const completion = (await (await call(priced, '/chat/completions', { body: ask('hi', { max_tokens: 10 }) })).json()) as { usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } };
    const echo = (await new Client(upstreamOf(mock.url)).models.retrieve('mock/echo'));
    expect(used[0]?.cost).toBe(estimateCost(completion.usage, echo).total);
    expect(Number(used[0]?.cost)).toBeCloseTo(completion.usage.prompt_tokens * 0.1 + completion.usage.completion_tokens * 0.4);
    expect((await call(handler, '/chat/completions', { body: ask('hi', { max_tokens: 10000 }) })).status).toBe(429);
    const unpriced = createProxy({ models: [{ id: 'mock/echo', pricing: [] }], upstream: upstreamOf(mock.url), budget: { cost: '1' } });
    const { status, error } = await errorOf(await call(unpriced, '/chat/completions', { body: ask('hi') }));
    expect([status, error['code']]).toEqual([503, 'model_not_priced']);
  });

  it('ends a stream that passes the budget mid-way with an in-band error, and aborts the upstream', async () => {
    let upstreamClosed = false;
    let sentChunks = 0;
    // An upstream that ignores max_tokens: it streams until it is stopped.
    const upstream = await startUpstream((_req, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'acme/chat', choices: [{ index: 0, delta }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: '' }));
      const timer = setInterval(() => {
        sentChunks++;
        res.write(chunk({ content: 'lorem ipsum dolor sit amet '.repeat(4) }));
      }, 5);
      res.on('close', () => {
        upstreamClosed = true;
        clearInterval(timer);
      });
    });
    try {
      const used: ProxyUsage[] = [];
      const handler = createProxy({ models: [PRICED], upstream: upstreamOf(upstream.url), maxTokens: 50, budget: { cost: '0.0005' }, onUsage: (u) => void used.push(u) });
      const served = await serveRoute(handler);
      try {
        const client = new Client({ apiKey: 'unused', baseURL: served.url, maxRetries: 0, logLevel: 'off' });
        const stream = await client.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'go on forever' }], stream: true });
        let text = '';
        const thrown = await (async () => {
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        })().catch((error: unknown) => error);
        expect(thrown).toBeInstanceOf(APIError);
        expect(thrown).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
        expect(text.length).toBeGreaterThan(0);
        await vi.waitFor(() => expect(upstreamClosed).toBe(true));
        await vi.waitFor(() => expect(used).toHaveLength(1));
        expect(used[0]).toMatchObject({ outcome: 'budget', estimated: true });
        // What the user was charged stays within the budget plus one top-up.
        expect(Number(used[0]!.cost)).toBeLessThan(0.0005 + 256 * 0.000002);
        expect(sentChunks).toBeLessThan(200);
      } finally {
        await served.close();
      }
    } finally {
      await upstream.close();
    }
  });
});

describe('memoryStore()', () => {
  it('drops expired windows, so memory follows the active users, not all users ever seen', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
    const store = memoryStore();
    let peak = 0;
    for (let window = 0; window < 20; window++) {
      for (let user = 0; user < 5_000; user++) store.increment(`req:${window}:u${window}-${user}`, 1, 1_000);
      peak = Math.max(peak, store.size);
      vi.setSystemTime((window + 1) * 1_000);
    }
    // 100 000 users in all, never more than two windows' worth held.
    expect(peak).toBeLessThanOrEqual(2 * 5_000 + 1_000);
    expect(store.increment('req:19:u19-1', 1, 1_000)).toBe(1); // expired: a new window's counter
  });

  it('adds atomically, negative amounts included', () => {
    const store = memoryStore();
    expect(store.increment('k', 5, 1_000)).toBe(5);
    expect(store.increment('k', -2, 1_000)).toBe(3);
  });
});

/**
 * A memory store whose chosen increments answer only when released, as a store's late answer
 * would: each lands in the counters at that moment, not before. `totals`: the last total per kind.
 */
function heldStore(hold: (key: string, amount: number, nth: number) => boolean) {
  const inner = memoryStore();
  const held: Array<() => void> = [];
  const totals = new Map<string, number>();
  const seen = new Map<string, number>();
  const store: ProxyStore = {
    increment(key, amount, ttl) {
      const kind = key.split(':')[1]!;
      const land = () => {
        const total = inner.increment(key, amount, ttl) as number;
        totals.set(kind, total);
        return total;
      };
      const nth = (seen.get(kind) ?? 0) + 1;
      seen.set(kind, nth);
      if (!hold(key, amount, nth)) return land();
      return new Promise<number>((resolve) => held.push(() => resolve(land())));
    },
  };
  return { store, totals, seen, held, release: () => held.splice(0).forEach((land) => land()) };
}

describe('a store that answers after the 10 s bound', () => {
  const priced = (store: ProxyStore, extra: Partial<ProxyOptions> = {}) =>
    createProxy({ models: [{ ...PRICED, id: 'mock/echo' }], upstream: upstreamOf(mock.url), rateLimit: { tokens: 10_000 }, budget: { cost: '1' }, store, onError: () => {}, ...extra });
  const body = ask('hi', { max_tokens: 20 });

  it('a reservation that lands late is given back: the failed request (a 500) is charged nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for (const kind of ['tokens', 'cost']) {
      const s = heldStore((key, amount) => key.includes(`:${kind}:`) && amount > 0);
      const answer = call(priced(s.store), '/chat/completions', { body });
      await vi.advanceTimersByTimeAsync(10_000);
      expect((await errorOf(await answer)).status).toBe(500);
      s.release(); // the store's answer comes at last: the reservation is in the counter now
      await vi.advanceTimersByTimeAsync(0);
      expect([kind, s.totals.get('tokens') ?? 0, s.totals.get('cost') ?? 0]).toEqual([kind, 0, 0]);
    }
  });

  it('a settlement of one counter that lands late does not keep the other from settling: both hold what was used', async () => {
    const exact = heldStore(() => false);
    expect((await call(priced(exact.store), '/chat/completions', { body })).status).toBe(200);
    await vi.waitFor(() => expect([exact.seen.get('tokens'), exact.seen.get('cost')]).toEqual([2, 2])); // reserved, settled
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const s = heldStore((key, _amount, nth) => key.includes(':tokens:') && nth === 2); // the tokens' settlement
    expect((await call(priced(s.store), '/chat/completions', { body })).status).toBe(200);
    await vi.waitFor(() => expect(s.held).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(10_000);
    s.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.totals).toEqual(exact.totals);
  });

  it('a stream\'s top-up that lands late, or after the browser went away, is not left in the counters', async () => {
    // An upstream that ignores max_tokens: it streams until it is stopped.
    const upstream = await startUpstream((_req, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'mock/echo', choices: [{ index: 0, delta }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: 'lorem ipsum dolor sit amet '.repeat(4) }));
      const timer = setInterval(() => res.write(chunk({ content: 'lorem ipsum' })), 5);
      res.on('close', () => clearInterval(timer));
    });
    try {
      for (const late of [true, false]) {
        if (late) vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        const used: ProxyUsage[] = [];
        const s = heldStore((key, _amount, nth) => key.includes(':tokens:') && nth === 2); // the first top-up
        const handler = priced(s.store, { upstream: upstreamOf(upstream.url), maxTokens: 10, onUsage: (u) => void used.push(u) });
        const response = await call(handler, '/chat/completions', { body: ask('go on', { stream: true }) });
        const reader = response.body!.getReader();
        const read = reader.read(); // the first chunk: taken only once its top-up is reserved
        await vi.waitFor(() => expect(s.held).toHaveLength(1));
        if (late) {
          await vi.advanceTimersByTimeAsync(10_000); // the stream ends with an in-band error, settled
          expect(new TextDecoder().decode((await read).value)).toContain('internal_error');
        } else await reader.cancel(); // settled while the top-up is on its way
        await vi.waitFor(() => expect(used).toHaveLength(1));
        s.release();
        vi.useRealTimers();
        await vi.waitFor(() => expect([late, s.seen.get('tokens')]).toEqual([late, late ? 4 : 3])); // (and the undo)
        expect([late, s.totals.get('tokens')]).toEqual([late, used[0]!.usage.total_tokens]);
      }
    } finally {
      await upstream.close();
    }
  });
});
