/** Model utilities through the public API: exact cost estimates and waiting for readiness. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APIUserAbortError, Client, estimateCost, InferenceError, ModelNotReadyError, NotFoundError, PreflightError, type Logger, type Model } from '../src/index';
import { formatDecimal, parseDecimal, add, multiply } from '../src/cost/decimal';
import { startMockServer } from '../src/testing';
import { useMockServer } from './support/mock-server';

const model = (pricing: NonNullable<Model['pricing']>): Model => ({ id: 'acme/chat', object: 'model', pricing });

describe('estimateCost', () => {
  it('prices prompt, completion and cached tokens exactly (no float error)', () => {
    const cost = estimateCost(
      { prompt_tokens: 1000, completion_tokens: 3, total_tokens: 1003, prompt_tokens_details: { cached_tokens: 400 } },
      model([{ prompt: '0.1', completion: '0.2', input_cache_read: '0.01' }]),
    );
    // 600 × 0.1 = 60; 3 × 0.2 = 0.6; 400 × 0.01 = 4 → 64.6 (0.1 * 600 + 0.2 * 3 in floats is 60.60000000000001)
    expect(cost).toEqual({ prompt: '60', completion: '0.6', cacheRead: '4', total: '64.6', currency: undefined });
  });

  it('keeps tiny per-token prices exact', () => {
    const cost = estimateCost({ prompt_tokens: 7, completion_tokens: 11, total_tokens: 18 }, model([{ prompt: '0.00000015', completion: '0.0000006', input_cache_read: '0.000000075' }]));
    expect(cost.total).toBe('0.00000765');
  });

  it("reads DeepSeek's prompt_cache_hit_tokens", () => {
    const usage = { prompt_tokens: 10, completion_tokens: 0, total_tokens: 10, prompt_cache_hit_tokens: 4 }; // as DeepSeek sends it
    const cost = estimateCost(usage, model([{ prompt: '1', completion: '1', input_cache_read: '0.5' }]));
    expect(cost).toMatchObject({ prompt: '6', cacheRead: '2', total: '8' });
  });

  it('prices cached tokens at the prompt price when no cache price is given', () => {
    const cost = estimateCost({ prompt_tokens: 10, completion_tokens: 0, total_tokens: 10, prompt_tokens_details: { cached_tokens: 5 } }, model([{ prompt: '2', completion: '1' }]));
    expect(cost.total).toBe('20');
  });

  it("reads Perplexity's numeric prices per million tokens in USD, as the client returns them", async () => {
    const server = await startMockServer();
    try {
      const body = { id: 'anthropic/claude', object: 'model', created: 0, pricing: { input: 10, output: 50, cache_read: 1, cache_write: 12.5, unit: 'usd_per_1m_tokens' } };
      server.enqueue({ status: 200, body: JSON.stringify(body) });
      const read = await new Client({ apiKey: server.apiKey, baseURL: server.url }).models.retrieve('anthropic/claude');
      expect(read.pricing).toEqual([{ prompt: '10', completion: '50', input_cache_read: '1', input_cache_write: '12.5', unit: 'usd_per_1m_tokens', input: 10, output: 50, cache_read: 1, cache_write: 12.5 }]);
      const cost = estimateCost({ prompt_tokens: 1_000_000, completion_tokens: 2, total_tokens: 1_000_002 }, read);
      expect(cost).toEqual({ prompt: '10', completion: '0.0001', cacheRead: '0', total: '10.0001', currency: 'usd' });
    } finally {
      await server.close();
    }
  });

  it('says clearly when prices are missing or not numbers', () => {
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    expect(() => estimateCost(usage, { id: 'x/y' })).toThrow(/has no pricing/);
    expect(() => estimateCost(usage, model([{ prompt: 'free', completion: '1' }]))).toThrow(/prompt price .* not a number/);
    expect(() => estimateCost(usage, model([{ completion: '1' }]))).toThrow(InferenceError);
  });

  it('decimal arithmetic agrees with exact rational arithmetic (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 10 ** 7 }), (units, scale, tokens) => {
        const text = formatDecimal({ units, scale });
        const parsed = parseDecimal(text)!;
        // value × tokens, computed on scaled integers, formats back to the same digits.
        const product = multiply(parsed, tokens);
        expect(product.units * 10n ** BigInt(scale) ).toBe(units * BigInt(tokens) * 10n ** BigInt(parsed.scale));
        expect(formatDecimal(add(parsed, { units: 0n, scale: 0 }))).toBe(text);
      }),
    );
    expect(formatDecimal(parseDecimal(1e-7)!)).toBe('0.0000001');
    expect(formatDecimal(parseDecimal('2.5E3')!)).toBe('2500');
    expect(parseDecimal('abc')).toBeUndefined();
  });
});

describe('models.waitUntilReady', () => {
  const { server, client } = useMockServer();

  const asleep = { id: 'mock/echo', object: 'model', is_ready: false };
  const awake = { id: 'mock/echo', object: 'model', is_ready: true };

  it('polls until is_ready is true, then returns the model', async () => {
    server.requests.length = 0;
    server.enqueue({ path: '/models/mock/echo', body: asleep }, { path: '/models/mock/echo', body: asleep }, { path: '/models/mock/echo', body: awake });
    const ready = await client.models.waitUntilReady('mock/echo', { pollInterval: 20 });
    expect(ready.is_ready).toBe(true);
    expect(server.requests.map((r) => r.path)).toEqual(['/models/mock/echo', '/models/mock/echo', '/models/mock/echo']);
  });

  it('gives up with ModelNotReadyError after its timeout', async () => {
    const error = await client.models.waitUntilReady('mock/sleeping', { timeout: 150, pollInterval: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelNotReadyError);
    expect(error).toMatchObject({ name: 'ModelNotReadyError', model: 'mock/sleeping' });
  });

  it('stops at once when its signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(client.models.waitUntilReady('mock/sleeping', { signal: controller.signal, pollInterval: 10_000 })).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('throws the request error for an unknown model', async () => {
    await expect(client.models.waitUntilReady('acme/nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('treats a model without is_ready (other servers) as ready', async () => {
    server.enqueue({ path: '/models/mock/echo', body: { id: 'mock/echo', object: 'model' } });
    await expect(client.models.waitUntilReady('mock/echo')).resolves.toMatchObject({ id: 'mock/echo' });
  });
});

describe('preflight option', () => {
  const { server, client: clientOf } = useMockServer();
  const make = (preflight: 'off' | 'warn' | 'error', logger?: Logger) =>
    clientOf({ logLevel: logger ? 'warn' : 'off', preflight, ...(logger ? { logger } : {}) });
  const body = (max_tokens: number) => ({ model: 'mock/echo', messages: [{ role: 'user' as const, content: 'hi' }], max_tokens });

  it("'error' rejects a max_tokens above max_output_length before sending the completion", async () => {
    server.requests.length = 0;
    const limit = (await make('off').models.retrieve('mock/echo')).max_output_length!;
    server.requests.length = 0;
    const error = await make('error').chat.completions.create(body(limit + 1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreflightError);
    expect(error).toMatchObject({ model: 'mock/echo', param: 'max_tokens', requested: limit + 1, limit });
    expect(server.requests.map((r) => r.path)).toEqual(['/models/mock/echo']); // the limits, never the completion
  });

  it('fetches the limits once per model and lets requests within them through', async () => {
    server.requests.length = 0;
    const client = make('error');
    await client.chat.completions.create(body(5));
    await client.completions.create({ model: 'mock/echo', prompt: 'hi', max_tokens: 5 });
    expect(server.requests.map((r) => r.path)).toEqual(['/models/mock/echo', '/chat/completions', '/completions']);
  });

  it("'warn' logs and sends", async () => {
    const lines: string[] = [];
    const logger = { error: () => {}, warn: (m: string) => void lines.push(m), info: () => {}, debug: () => {} };
    const limit = (await make('off').models.retrieve('mock/echo')).max_output_length!;
    await expect(make('warn', logger).chat.completions.create(body(limit + 1))).resolves.toBeDefined();
    expect(lines.join('\n')).toMatch(/max_tokens is \d+, but "mock\/echo" generates at most/);
  });

  it("'off' (the default) sends no extra request", async () => {
    server.requests.length = 0;
    await make('off').chat.completions.create(body(5));
    expect(server.requests.map((r) => r.path)).toEqual(['/chat/completions']);
  });

  it('skips the check when the server cannot describe the model', async () => {
    server.requests.length = 0;
    server.enqueue({ path: '/models/mock/echo', status: 404, body: { error: { message: 'no' } } });
    // The limits could not be read, so the request goes out and the server decides.
    await make('error').chat.completions.create(body(10_000_000));
    expect(server.requests.map((r) => r.path)).toEqual(['/models/mock/echo', '/chat/completions']);
  });
});
