/**
 * Exact cost sums (issue 31, item 3): `sumCosts()`, `CostTracker` and `streamUsage()`, through the
 * public entry, against the mock server on loopback where a stream is involved.
 */
import { describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  CostEstimateError,
  CostTracker,
  estimateCost,
  estimatePromptTokens,
  estimateTextTokens,
  InferenceError,
  streamUsage,
  sumCosts,
  type CompletionUsage,
} from '../src/index';
import { useMockServer } from './support/mock-server';

const usage = (prompt: number, completion: number, cached?: number): CompletionUsage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
});
const cheap = { id: 'acme/cheap', pricing: [{ prompt: '0.0000001', completion: '0.0000004', input_cache_read: '0.00000001' }] };
const dear = { id: 'acme/dear', pricing: [{ prompt: '0.000003', completion: '0.000015', input_cache_read: '0.0000003' }] };

describe('sumCosts', () => {
  it('adds decimal strings exactly, where + on strings concatenates and on numbers rounds', () => {
    expect('0.0000825' + '0.00001').toBe('0.00008250.00001');
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumCosts('0.0000825', '0.00001')).toBe('0.0000925');
    expect(sumCosts('0.1', '0.2')).toBe('0.3');
    expect(sumCosts('1.5e-7', 2, '-0.5')).toBe('1.50000015');
    expect(sumCosts()).toBe('0');
  });

  it('stays exact over a hundred thousand small amounts', () => {
    const amounts = Array.from({ length: 100_000 }, () => '0.0000001');
    expect(sumCosts(...amounts)).toBe('0.01');
    let float = 0;
    for (let i = 0; i < 100_000; i++) float += 0.0000001;
    expect(float).not.toBe(0.01);
  });

  it.each([['NaN'], [''], ['1e999999'], ['9'.repeat(2_000)], [Number.NaN], [{}], [null], ['1,5']])(
    'refuses %j with an InferenceError that quotes it',
    (bad) => {
      const error = (() => {
        try {
          sumCosts('1', bad as string);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(InferenceError);
      expect((error as Error).message).toMatch(/^sumCosts: amount 1 is /);
    },
  );
  it.each([
    [Number.NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
  ])('quotes the number %s as it is, not as JSON writes it (null)', (bad, quoted) => {
    expect(() => sumCosts('1', bad)).toThrow(`sumCosts: amount 1 is not a number: ${quoted}.`);
    expect(() => estimateCost(usage(bad, 1), cheap)).toThrow(`usage.prompt_tokens is not a whole number of tokens (0 or more): ${quoted}.`);
    expect(() => new CostTracker().add(usage(1, bad), { id: 'other/server' })).toThrow(
      `usage.completion_tokens is not a whole number of tokens (0 or more): ${quoted}.`,
    );
  });
});

describe('CostTracker', () => {
  it('adds calls across models, in total and per model, exactly', () => {
    const tracker = new CostTracker();
    const first = tracker.add(usage(1000, 200, 400), cheap);
    tracker.add(usage(10, 5), dear);
    tracker.add(usage(1000, 200, 400), cheap);
    expect(first).toEqual(estimateCost(usage(1000, 200, 400), cheap));
    const report = tracker.report();
    expect(report.calls).toBe(3);
    expect(report.tokens).toEqual({ prompt: 2010, completion: 405, cached: 800, total: 2415 });
    // cheap: 600 × 1e-7 + 200 × 4e-7 + 400 × 1e-8 = 0.000144 each; dear: 10 × 3e-6 + 5 × 1.5e-5 = 0.000105
    expect(report.cost.total).toBe(sumCosts('0.000144', '0.000144', '0.000105'));
    expect(report.cost.total).toBe('0.000393');
    expect(report.cost).toEqual({ prompt: '0.00015', completion: '0.000235', cacheRead: '0.000008', total: '0.000393' });
    expect(Object.keys(report.models)).toEqual(['acme/cheap', 'acme/dear']);
    expect(report.models['acme/cheap']?.cost.total).toBe('0.000288');
    expect(report.models['acme/dear']?.tokens.total).toBe(15);
    expect(report.currency).toBeUndefined();
  });

  it('counts the tokens of a model without usable prices, and says how many calls were unpriced', () => {
    const tracker = new CostTracker();
    expect(tracker.add(usage(5, 5), { id: 'other/server' })).toBeUndefined();
    expect(tracker.add(usage(5, 5), { id: 'acme/nan', pricing: [{ prompt: 'NaN', completion: '1', input_cache_read: '1' }] })).toBeUndefined();
    tracker.add(usage(1, 1), cheap);
    const report = tracker.report();
    expect(report).toMatchObject({ calls: 3, unpricedCalls: 2, tokens: { total: 22 }, cost: { total: '0.0000005' } });
    expect(report.models['other/server']).toMatchObject({ calls: 1, unpricedCalls: 1, cost: { total: '0' } });
  });

  it.each([
    ['negative', usage(-1, 1)],
    ['NaN', usage(Number.NaN, 1)],
    ['fractional', usage(1.5, 1)],
    ['huge', usage(2 ** 60, 1)],
    ['a string', { prompt_tokens: '10', completion_tokens: 1, total_tokens: 11 } as unknown as CompletionUsage],
    ['null usage', null as unknown as CompletionUsage],
    ['a bad cached count', usage(10, 1, -3)],
  ])('refuses a %s token count and adds nothing, priced or not', (_, bad) => {
    for (const model of [cheap, { id: 'other/server' }]) {
      const tracker = new CostTracker();
      tracker.add(usage(1, 1), model);
      expect(() => tracker.add(bad, model)).toThrow(CostEstimateError);
      expect(tracker.report()).toMatchObject({ calls: 1, tokens: { total: 2 } });
    }
  });

  it("names the count that is bad: DeepSeek's cache count by its own name, a null usage as the usage", () => {
    const tracker = new CostTracker();
    const deepseek = { ...usage(10, 1), prompt_cache_hit_tokens: 'abc' } as unknown as CompletionUsage;
    expect(() => tracker.add(deepseek, cheap)).toThrow(expect.objectContaining({ field: 'usage.prompt_cache_hit_tokens', raw: 'abc' }));
    // As estimateCost() names them.
    expect(() => estimateCost(deepseek, cheap)).toThrow(expect.objectContaining({ field: 'usage.prompt_cache_hit_tokens' }));
    expect(() => tracker.add(null as unknown as CompletionUsage, cheap)).toThrow(
      expect.objectContaining({ field: 'usage', message: expect.stringMatching(/usage is not a usage object/) }),
    );
    expect(tracker.report().calls).toBe(0);
  });

  it('refuses totals that would pass 2^53', () => {
    const tracker = new CostTracker();
    tracker.add(usage(2 ** 52, 0), cheap);
    expect(() => tracker.add(usage(2 ** 52, 0), cheap)).toThrow(/2\^53/);
    expect(tracker.report().calls).toBe(1);
  });

  it('refuses to add prices in another currency than the totals', () => {
    const tracker = new CostTracker();
    const usd = { id: 'pplx/sonar', pricing: [{ prompt: '1', completion: '1', input_cache_read: '1', unit: 'usd_per_1m_tokens' }] };
    const eur = { id: 'eu/model', pricing: [{ prompt: '1', completion: '1', input_cache_read: '1', unit: 'eur_per_1m_tokens' }] };
    tracker.add(usage(1_000_000, 0), usd as never);
    expect(tracker.report()).toMatchObject({ currency: 'usd', cost: { total: '1' } });
    expect(() => tracker.add(usage(1, 0), eur as never)).toThrow(/in eur, the totals in usd/);
    expect(() => tracker.add(usage(1, 0), cheap)).toThrow(CostEstimateError);
    expect(tracker.report().calls).toBe(1);
  });

  it('counts estimated calls apart', () => {
    const tracker = new CostTracker();
    tracker.add(usage(3, 4), cheap, { estimated: true });
    tracker.add(usage(3, 4), cheap);
    expect(tracker.report()).toMatchObject({ calls: 2, estimatedCalls: 1 });
  });
});

describe('token estimates', () => {
  it('err high: a quarter of ASCII characters, a token for each other character', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens('abcd')).toBe(1);
    expect(estimateTextTokens('abcde')).toBe(2);
    expect(estimateTextTokens('日本語')).toBe(3);
    expect(estimateTextTokens('👍')).toBe(2);
  });

  it('read chat messages, text parts, tools and legacy prompts, and never throw', () => {
    const text = { model: 'm', messages: [{ role: 'user', content: 'Hello, world!' }] };
    const parts = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello, world!' }] }] };
    expect(estimatePromptTokens(text)).toBe(12);
    expect(estimatePromptTokens(parts)).toBe(12);
    expect(estimatePromptTokens({ ...text, tools: [{ type: 'function', function: { name: 'f' } }] })).toBeGreaterThan(12);
    expect(estimatePromptTokens({ model: 'm', prompt: 'abcdefgh' })).toBe(2);
    expect(estimatePromptTokens({ model: 'm', prompt: ['abcd', 'abcd'] })).toBe(2);
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(estimatePromptTokens({ messages: [cycle, 7n, null] })).toBeGreaterThanOrEqual(0);
    expect(estimatePromptTokens(null)).toBe(0);
    expect(estimatePromptTokens('a string')).toBe(0);
  });
});

describe('streamUsage', () => {
  const { server, client } = useMockServer({ chunkDelayMs: 2 }, { client: { maxRetries: 0 }, reset: 'all' });
  const body = { model: 'mock/echo', messages: [{ role: 'user' as const, content: 'Say something long' }] };

  it("gives the server's usage when it sent one", async () => {
    server.enqueue({ reply: { content: 'one two three four' } });
    const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } });
    for await (const _ of stream);
    const { usage: used, estimated } = streamUsage(stream, body);
    expect(estimated).toBe(false);
    expect(used).toEqual((await stream.finalChatCompletion()).usage);
    expect(used.completion_tokens).toBeGreaterThan(0);
  });

  it('estimates from the prompt and the text so far when the stream is aborted before any usage', async () => {
    server.enqueue({ reply: { content: 'word '.repeat(100) } });
    const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } });
    let seen = '';
    await expect(
      (async () => {
        for await (const chunk of stream) {
          seen += chunk.choices[0]?.delta.content ?? '';
          if (seen.length >= 120) stream.abort();
        }
      })(),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    const { usage: used, estimated } = streamUsage(stream, body);
    expect(estimated).toBe(true);
    expect(used.prompt_tokens).toBe(estimatePromptTokens(body));
    expect(used.completion_tokens).toBe(estimateTextTokens(stream.currentChatCompletionSnapshot?.choices[0]?.message.content ?? ''));
    expect(used.completion_tokens).toBeGreaterThanOrEqual(30);
    expect(used.completion_tokens).toBeLessThan(100);
    const tracker = new CostTracker();
    tracker.add(used, await client.models.retrieve('mock/echo'), { estimated });
    expect(tracker.report()).toMatchObject({ calls: 1, estimatedCalls: 1 });
  });

  it('estimates the prompt alone for a stream that never produced a chunk', () => {
    const { usage: used, estimated } = streamUsage({ currentChatCompletionSnapshot: undefined }, body);
    expect(estimated).toBe(true);
    expect(used).toEqual({ prompt_tokens: estimatePromptTokens(body), completion_tokens: 0, total_tokens: estimatePromptTokens(body) });
  });
});
