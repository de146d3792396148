// model-inference-sdk/proxy: who may ask, and how much. identify(), and the per-user rate limits
// and their races.
import type { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { createProxy, memoryStore, type ProxyStore, type ProxyUsage } from '../src/proxy/index';
import { ask, call, errorOf, startUpstream } from './support/proxy';
import { useUpstreamMock, mock, upstreamOf, route, PRICED, greedyUpstream } from './support/proxy-limits';

useUpstreamMock();

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
