// model-inference-sdk/proxy: how much a user may spend. The per-user cost budget (reserved before
// sending, settled after), its races, a stream cut off mid-way when it passes the budget, and the
// memory store's bounds; a store that answers after the 10 s bound.
import type { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { APIError, Client, estimateCost, estimatePromptTokens, sumCosts } from '../src/index';
import { createProxy, memoryStore, type ProxyOptions, type ProxyStore, type ProxyUsage } from '../src/proxy/index';
import { ask, call, errorOf, serveRoute, startUpstream } from './support/proxy';
import { useUpstreamMock, mock, upstreamOf, route, PRICED, greedyUpstream } from './support/proxy-limits';

useUpstreamMock();

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
