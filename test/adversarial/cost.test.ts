// The exact cost sums of docs/models.md ("Adding costs up") and their TSDoc: sumCosts(),
// CostTracker, streamUsage(), estimatePromptTokens() and estimateTextTokens(), at their word:
// "No float is used anywhere in a sum", "nothing is added" on a bad count, "Never throws".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CostEstimateError, CostTracker, InferenceError, estimatePromptTokens, estimateTextTokens, streamUsage, sumCosts, type CompletionUsage } from '../../src/index';
import { chunk, clientOf, event, rejection, serve, sse, sseHead, textChunks, type TestServer } from './support';

const usage = (prompt_tokens: number, completion_tokens: number, cached?: number): CompletionUsage =>
  ({ prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens, ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }) }) as CompletionUsage;
const priced = (id: string, prompt = '0.000001', completion = '0.000002', unit?: string) => ({ id, pricing: [{ prompt, completion, input_cache_read: '0', ...(unit ? { unit } : {}) }] }) as never;

describe('sumCosts()', () => {
  it("adds the docs' example exactly, and 100 000 calls of 0.0000001 to exactly 0.01", () => {
    expect(sumCosts('0.0000825', '0.00001')).toBe('0.0000925');
    expect(sumCosts(...Array.from({ length: 100_000 }, () => '0.0000001'))).toBe('0.01');
  });

  it('numbers are read as the decimals they print as: 0.1 + 0.2 is 0.3, 0.0000825 + 0.00001 is 0.0000925', () => {
    expect(sumCosts(0.1, 0.2)).toBe('0.3');
    expect(sumCosts(0.0000825, 0.00001)).toBe('0.0000925');
  });

  it('numbers JavaScript prints with an exponent (1e21, 1e-7) are read exactly', () => {
    expect(sumCosts(1e21, 1)).toBe('1000000000000000000001');
    expect(sumCosts(1e-7, '0')).toBe('0.0000001');
  });

  it('no amounts is 0; -0 is 0', () => {
    expect(sumCosts()).toBe('0');
    expect(sumCosts('-0')).toBe('0');
    expect(sumCosts(-0)).toBe('0');
  });

  it('the bounds of the docs: 400 digits and exponents of ±400 are read; beyond, an InferenceError', () => {
    expect(() => sumCosts('1e400')).not.toThrow();
    expect(() => sumCosts('1e-400')).not.toThrow();
    expect(() => sumCosts('9'.repeat(400))).not.toThrow();
    for (const bad of ['1e401', '1e-401', '9'.repeat(401)]) expect(() => sumCosts(bad)).toThrow(InferenceError);
  });

  it.each([['NaN'], [''], [NaN], [Infinity], [-Infinity], [{}], [null], [undefined], ['0x10'], ['1,5'], [10n]])('%s is an InferenceError, never a wrong sum', (bad) => {
    expect(() => sumCosts('1', bad as never)).toThrow(InferenceError);
  });
});

describe('CostTracker', () => {
  it('counts tokens and cost in all and per model; a model without prices is counted in unpricedCalls', () => {
    const tracker = new CostTracker();
    expect(tracker.add(usage(1000, 500), priced('acme/a'))?.total).toBe('0.002');
    expect(tracker.add(usage(10, 5), { id: 'other/b' })).toBeUndefined();
    const report = tracker.report();
    expect(report.calls).toBe(2);
    expect(report.unpricedCalls).toBe(1);
    expect(report.tokens).toEqual({ prompt: 1010, completion: 505, cached: 0, total: 1515 });
    expect(report.cost.total).toBe('0.002');
    expect(Object.keys(report.models)).toEqual(['acme/a', 'other/b']);
    expect(report.models['other/b']?.tokens.total).toBe(15);
  });

  it.each([NaN, -1, 1.5, Infinity, '5', 2 ** 53])('a token count of %s: CostEstimateError, nothing added', (bad) => {
    const tracker = new CostTracker();
    tracker.add(usage(10, 10), priced('acme/a'));
    const before = JSON.stringify(tracker.report());
    expect(() => tracker.add(usage(bad as number, 1), priced('acme/a'))).toThrow(CostEstimateError);
    expect(() => tracker.add(usage(1, bad as number), { id: 'acme/b' })).toThrow(CostEstimateError);
    expect(JSON.stringify(tracker.report())).toBe(before);
  });

  it('totals that would pass 2^53: CostEstimateError, nothing added', () => {
    const tracker = new CostTracker();
    tracker.add(usage(Number.MAX_SAFE_INTEGER - 10, 0), { id: 'acme/a' });
    const before = JSON.stringify(tracker.report());
    expect(() => tracker.add(usage(20, 0), { id: 'acme/a' })).toThrow(CostEstimateError);
    expect(JSON.stringify(tracker.report())).toBe(before);
  });

  it('prices in another currency than those added: CostEstimateError, nothing added', () => {
    const tracker = new CostTracker();
    tracker.add(usage(1_000_000, 0), priced('p/usd', '1', '1', 'usd_per_1m_tokens'));
    const before = JSON.stringify(tracker.report());
    expect(() => tracker.add(usage(1_000_000, 0), priced('p/eur', '1', '1', 'eur_per_1m_tokens'))).toThrow(CostEstimateError);
    expect(JSON.stringify(tracker.report())).toBe(before);
  });

  it('report() is a new object each time: changing one changes nothing kept', () => {
    const tracker = new CostTracker();
    tracker.add(usage(10, 10), priced('acme/a'));
    const first = tracker.report();
    first.tokens.total = -1;
    first.models['acme/a']!.tokens.prompt = -1;
    first.models['acme/a']!.cost.total = 'x';
    const second = tracker.report();
    expect(second.tokens.total).toBe(20);
    expect(second.models['acme/a']!.tokens.prompt).toBe(10);
    expect(second.models['acme/a']!.cost.total).not.toBe('x');
  });

  // Model ids come from servers (`completion.model`); a hostile or odd one is still just a name.
  const countedUnderItsName = (id: string) => {
    const tracker = new CostTracker();
    tracker.add(usage(3, 4), priced(id));
    tracker.add(usage(3, 4), priced(id));
    const report = tracker.report();
    expect(report.calls).toBe(2);
    expect(Object.keys(report.models)).toEqual([id]);
    expect(Object.getOwnPropertyDescriptor(report.models, id)?.value).toMatchObject({ calls: 2, tokens: { total: 14 } });
    expect(JSON.parse(JSON.stringify(report)).models[id].calls).toBe(2);
  };
  it.each(['constructor', 'toString', 'hasOwnProperty'])('a model id of %s is counted under its own name', countedUnderItsName);
  // Was a fault (F9): the `__proto__` setter swallowed the id.
  it('a model id of __proto__ is counted under its own name', () => countedUnderItsName('__proto__'));

  it('a cache count above prompt_tokens is capped at it', () => {
    const tracker = new CostTracker();
    tracker.add(usage(10, 0, 50), priced('acme/a'));
    expect(tracker.report().tokens.cached).toBe(10);
  });
});

describe('estimateTextTokens() and estimatePromptTokens()', () => {
  it("give the docs' numbers", () => {
    expect(estimateTextTokens('Hello, world!')).toBe(4);
    expect(estimatePromptTokens({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hello, world!' }] })).toBe(12);
  });

  it('err high: never fewer tokens than a quarter of the ASCII characters, one per other UTF-16 unit', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens('😀')).toBe(2);
    expect(estimateTextTokens('日本語')).toBe(3);
    expect(estimateTextTokens('a'.repeat(4_000_001))).toBe(1_000_001);
    expect(estimateTextTokens('\ud800')).toBe(1); // a lone surrogate is a unit too
  });

  it('a legacy prompt, a string or a list of strings, counts at least its text', () => {
    expect(estimatePromptTokens({ model: 'm', prompt: 'a'.repeat(400) })).toBeGreaterThanOrEqual(100);
    expect(estimatePromptTokens({ model: 'm', prompt: ['a'.repeat(400), 'b'.repeat(400)] })).toBeGreaterThanOrEqual(200);
  });

  // "Never throws: a body the estimate cannot read at all is 0 tokens". "Anything it cannot read
  // counts as its JSON text" must not mean JSON.stringify throwing at a cycle or a BigInt.
  it.each([
    ['a cycle in a content part', () => {
      const part: Record<string, unknown> = { type: 'image_url', image_url: { url: 'data:,' } };
      part['self'] = part;
      return { model: 'm', messages: [{ role: 'user', content: [part] }] };
    }],
    ['a BigInt in a tool definition', () => ({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f', parameters: { max: 10n } } }] })],
    ['a content nested 100 000 deep', () => {
      let deep: unknown = 'x';
      for (let i = 0; i < 100_000; i++) deep = [deep];
      return { model: 'm', messages: [{ role: 'user', content: deep }] };
    }],
    ['null, a number, a string', () => null],
  ])('never throws on %s', neverThrows);

  // Was a fault (F10): a getter's or a Proxy's error came through.
  it.each([
    ['a getter that throws', () => ({ model: 'm', get messages(): never { throw new Error('no'); } })],
    ['a Proxy that throws on every access', () => new Proxy({}, { get: () => { throw new Error('no'); }, ownKeys: () => { throw new Error('no'); } })],
  ])('never throws on %s', neverThrows);
});

function neverThrows(_name: string, make: () => unknown): void {
    const body = make();
    let n: unknown;
    expect(() => (n = estimatePromptTokens(body))).not.toThrow();
    expect(Number.isInteger(n) && (n as number) >= 0).toBe(true);
    expect(() => estimatePromptTokens(42)).not.toThrow();
    expect(() => estimatePromptTokens('text')).not.toThrow();
}

describe('streamUsage()', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve((_req, res) => sse(res, textChunks(['a'])));
  });
  afterAll(() => server.close());
  const body = { model: 'acme/chat-1', messages: [{ role: 'user' as const, content: 'Tell me a story' }], stream: true as const };

  it("the server's usage when it sent one: exact, estimated false", async () => {
    server.handle((_req, res) => sse(res, [...textChunks(['once']), { ...chunk({}), choices: [], usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 } }]));
    const stream = await clientOf(server.baseURL).chat.completions.create(body);
    for await (const _ of stream) {
      // read
    }
    expect(streamUsage(stream, body)).toEqual({ usage: expect.objectContaining({ prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 }), estimated: false });
  });

  it('a stream cut off: an estimate from the prompt and the text so far that errs high, estimated true, and a tracker counts it', async () => {
    const text = 'x'.repeat(400);
    server.handle((_req, res) => {
      sseHead(res);
      event(res, chunk({ role: 'assistant', content: text }));
      setTimeout(() => res.destroy(), 100); // cut after the first chunk
    });
    const stream = await clientOf(server.baseURL).chat.completions.create(body);
    await rejection(async () => {
      for await (const _ of stream) {
        // read until cut
      }
    });
    const { usage: u, estimated } = streamUsage(stream, body);
    expect(estimated).toBe(true);
    expect(u.completion_tokens).toBeGreaterThanOrEqual(100);
    expect(u.prompt_tokens).toBeGreaterThanOrEqual(estimateTextTokens('Tell me a story'));
    expect(u.total_tokens).toBe(u.prompt_tokens + u.completion_tokens);
    const tracker = new CostTracker();
    tracker.add(u, priced('acme/chat-1'), { estimated });
    expect(tracker.report().estimatedCalls).toBe(1);
  });

  it('a stream never read: the prompt estimated, no completion tokens, never a throw', () => {
    const stream = clientOf(server.baseURL).chat.completions.stream(body);
    const { usage: u, estimated } = streamUsage(stream, body);
    expect(estimated).toBe(true);
    expect(u.completion_tokens).toBe(0);
    expect(u.prompt_tokens).toBeGreaterThan(0);
    stream.abort();
  });
});
