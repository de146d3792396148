/**
 * The generated normalizer (src/generated/normalize.gen.ts) against the zod schemas generated from
 * the same spec (src/generated/zod.gen.ts, test/generated/wire.gen.ts). For every response the SDK reads:
 * - it accepts exactly what the wire schema accepts (the same decision, and an issue where the
 *   schema has one);
 * - what it returns is the contract: the contract schema accepts it;
 * - it keeps every field the schema does not declare, with its value as sent;
 * - it is idempotent: reading a normalized value again changes nothing (so a value that went
 *   through `toReadableStream()` and back, or the mock server, reads the same).
 * Checked on generated values with the quirks real servers send (in any key order, with vendor
 * extras), on the same with one thing changed anywhere, and on every JSON body and stream event
 * of ../shared/corpus and ../shared/corpus2.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as N from '../src/generated/normalize.gen';
import * as Z from '../src/generated/zod.gen';
import * as W from './generated/wire.gen';
import { corpusPresent, isLegacy, loadManifest } from './support/corpus';

fc.configureGlobal({ endOnFailure: true });

type Normalize = (value: unknown, cx: N.NormalizeContext) => unknown;
interface Schema {
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } };
}

const ROOTS: readonly (readonly [string, Normalize, Schema, Schema])[] = [
  ['ChatCompletionChunk', N.normalizeChatCompletionChunk, W.zChatCompletionChunkWire, Z.zChatCompletionChunk],
  ['ChatCompletion', N.normalizeChatCompletion, W.zChatCompletionWire, Z.zChatCompletion],
  ['Completion', N.normalizeCompletion, W.zCompletionWire, Z.zCompletion],
  ['Model', N.normalizeModel, W.zModelWire, Z.zModel],
  ['ModelList', N.normalizeModelList, W.zModelListWire, Z.zModelList],
];

const clone = <T,>(value: T): T => structuredClone(value);

/** The declared keys of a zod object schema, and the schema of each (to walk a value alongside it). */
function shapeOf(schema: unknown): Record<string, unknown> | undefined {
  let def = (schema as { _zod?: { def: Record<string, unknown> } })?._zod?.def;
  while (def && (def['type'] === 'optional' || def['type'] === 'nullable')) def = (def['innerType'] as { _zod: { def: Record<string, unknown> } })._zod.def;
  return def?.['type'] === 'object' ? (def['shape'] as Record<string, unknown>) : undefined;
}
function elementOf(schema: unknown): unknown {
  let def = (schema as { _zod?: { def: Record<string, unknown> } })?._zod?.def;
  while (def && (def['type'] === 'optional' || def['type'] === 'nullable')) def = (def['innerType'] as { _zod: { def: Record<string, unknown> } })._zod.def;
  return def?.['type'] === 'array' ? def['element'] : undefined;
}

/** Every key of `input` the schema does not declare is in `output` with the same value (objects walked alongside). */
function keepsUnknown(schema: unknown, input: unknown, output: unknown, path = ''): void {
  if (Array.isArray(input) && Array.isArray(output)) {
    const element = elementOf(schema);
    if (element === undefined || input.length !== output.length) return;
    // Arrays sorted by index: pair items by their index (their position when they had none).
    const indexed = (items: unknown[]) => items.map((item, i) => ({ item, key: Number.isSafeInteger((item as { index?: unknown })?.index) ? ((item as { index: number }).index) : i }));
    const sorted = (items: unknown[]) => (shapeOf(element)?.['index'] ? indexed(items).sort((x, y) => x.key - y.key).map((x) => x.item) : items);
    const a = sorted(input);
    const b = sorted(output);
    a.forEach((item, i) => keepsUnknown(element, item, b[i], `${path}[${i}]`));
    return;
  }
  const shape = shapeOf(schema);
  if (!shape || typeof input !== 'object' || input === null || typeof output !== 'object' || output === null) return;
  for (const key of Object.keys(input)) {
    const value = (input as Record<string, unknown>)[key];
    if (key in shape) keepsUnknown(shape[key], value, (output as Record<string, unknown>)[key], `${path}.${key}`);
    else expect((output as Record<string, unknown>)[key], `${path}.${key} is kept`).toEqual(value);
  }
}

/** The properties, for one JSON value. */
function holds(name: string, normalize: Normalize, wire: Schema, contract: Schema, input: unknown): void {
  const before = clone(input);
  const cx: N.NormalizeContext = { issues: [] };
  const output = normalize(input, cx);
  const accepted = wire.safeParse(before);
  expect(cx.issues.length === 0, `${name}: normalizer ${cx.issues.length ? `rejects (${JSON.stringify(cx.issues[0])})` : 'accepts'}, wire schema ${accepted.success ? 'accepts' : `rejects (${JSON.stringify(accepted.error?.issues[0])})`}: ${JSON.stringify(before).slice(0, 400)}`).toBe(accepted.success);
  if (!accepted.success) return;
  const result = contract.safeParse(output);
  expect(result.success, `${name}: the contract rejects ${JSON.stringify(output).slice(0, 400)}: ${JSON.stringify(result.error?.issues[0])}`).toBe(true);
  keepsUnknown(contract, before, output);
  const again = clone(output);
  const cx2: N.NormalizeContext = { issues: [] };
  normalize(again, cx2);
  expect(cx2.issues).toEqual([]);
  expect(JSON.stringify(again), `${name}: reading a normalized value again changes nothing`).toBe(JSON.stringify(output));
}

// -----------------------------------------------------------------------------------------------
// Arbitraries: what real servers send, in any key order, with extras

const str = fc.oneof(fc.constantFrom('', 'chatcmpl-1', 'assistant', 'stop', 'tool_calls', 'eos', 'model_length', 'text', 'thinking'), fc.string({ maxLength: 6 }));
const int = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer(), fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53, -0));
const num = fc.oneof(int, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1_700_000_000, 1_700_000_000.5, 1_700_000_000_000, 1e300));
const nullable = <T,>(arb: fc.Arbitrary<T>) => fc.oneof(arb, fc.constant(null));
/** Keys kept beyond the declared ones: vendors' extras, and names that trip object code. */
const extraKey = fc.constantFrom('x_groq', 'provider', 'obfuscation', 'p', 'citations', 'native_finish_reason', 'stop_reason', 'channel', 'constructor', 'toString', '0', 'seed');
const extraFields = fc.dictionary(extraKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 });

/** An object of `fields` (each present or not), extras mixed in, keys in random order. */
function loose(fields: Record<string, fc.Arbitrary<unknown>>, required: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.record(fields, { requiredKeys: required }), extraFields)
    .chain(([own, more]) => {
      const entries = [...Object.entries(more).filter(([k]) => !(k in fields)), ...Object.entries(own)];
      return fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length });
    })
    .map((entries) => Object.fromEntries(entries));
}

const usage = loose(
  {
    prompt_tokens: int,
    completion_tokens: int,
    total_tokens: nullable(int),
    prompt_tokens_details: nullable(loose({ cached_tokens: nullable(int), audio_tokens: int })),
    completion_tokens_details: nullable(loose({ reasoning_tokens: nullable(int), audio_tokens: int, accepted_prediction_tokens: int, rejected_prediction_tokens: int })),
  },
  ['prompt_tokens', 'completion_tokens'],
);
const bytes = nullable(fc.array(int, { maxLength: 3 }));
const tokenLogprob = loose({ token: str, logprob: num, bytes, top_logprobs: fc.array(loose({ token: str, logprob: num, bytes }, ['token', 'logprob']), { maxLength: 2 }) }, ['token', 'logprob']);
const choiceLogprobs = nullable(loose({ content: nullable(fc.array(tokenLogprob, { maxLength: 2 })), refusal: nullable(fc.array(tokenLogprob, { maxLength: 1 })) }));
const part = fc.oneof(
  loose({ type: fc.constant('text'), text: str }, ['type', 'text']),
  loose({ type: fc.constant('thinking'), thinking: fc.oneof(str, fc.array(loose({ type: fc.constant('text'), text: str }), { maxLength: 2 })) }, ['type']),
  loose({ type: str }, ['type']),
);
const content = nullable(fc.oneof(str, fc.array(part, { maxLength: 3 })));
const details = nullable(fc.array(loose({ type: fc.constantFrom('reasoning.text', 'reasoning.summary', 'reasoning.encrypted'), text: nullable(str), summary: nullable(str), data: str }), { maxLength: 2 }));
const annotations = fc.array(loose({ type: str, url_citation: loose({ url: str, title: str, start_index: int, end_index: int }) }, ['type']), { maxLength: 2 });
const finish = nullable(fc.oneof(str, fc.constantFrom('', 'eos', 'eos_token', 'model_length', 'length', 'content_filter', 'error')));

const toolCallFragment = loose({
  index: int,
  id: nullable(str),
  type: nullable(str),
  function: loose({ name: nullable(str), arguments: nullable(fc.oneof(str, fc.jsonValue({ maxDepth: 1 }))) }),
});
const delta = loose({
  role: nullable(str),
  content,
  refusal: nullable(str),
  tool_calls: nullable(fc.array(toolCallFragment, { maxLength: 2 })),
  reasoning_content: nullable(str),
  reasoning: nullable(str),
  annotations,
  reasoning_details: details,
});
const chunk = loose({
  id: nullable(str),
  object: str,
  created: nullable(num),
  model: nullable(str),
  choices: nullable(fc.array(loose({ index: int, delta, finish_reason: finish, logprobs: choiceLogprobs }), { maxLength: 3 })),
  usage: nullable(usage),
  system_fingerprint: nullable(str),
  service_tier: nullable(str),
});

const messageToolCall = loose({ id: nullable(str), type: nullable(str), function: loose({ name: str, arguments: nullable(fc.oneof(str, fc.jsonValue({ maxDepth: 1 }))) }, ['name']) }, ['function']);
const message = loose({
  role: nullable(str),
  content,
  refusal: nullable(str),
  tool_calls: nullable(fc.array(messageToolCall, { maxLength: 2 })),
  reasoning_content: nullable(str),
  reasoning: nullable(str),
  annotations: nullable(annotations),
  reasoning_details: details,
});
const chatCompletion = loose(
  {
    id: nullable(str),
    object: str,
    created: nullable(num),
    model: nullable(str),
    choices: fc.array(loose({ index: int, message: nullable(message), finish_reason: finish, logprobs: choiceLogprobs }), { maxLength: 3 }),
    usage: nullable(usage),
    system_fingerprint: nullable(str),
    service_tier: nullable(str),
  },
  ['choices'],
);

const legacyLogprobs = nullable(
  loose({
    tokens: nullable(fc.array(str, { maxLength: 2 })),
    token_logprobs: nullable(fc.array(nullable(num), { maxLength: 2 })),
    top_logprobs: nullable(fc.array(nullable(fc.dictionary(str, num, { maxKeys: 2 })), { maxLength: 2 })),
    text_offset: nullable(fc.array(int, { maxLength: 2 })),
  }),
);
const completion = loose(
  {
    id: nullable(str),
    object: str,
    created: nullable(num),
    model: nullable(str),
    choices: fc.array(loose({ index: int, text: nullable(str), finish_reason: finish, logprobs: legacyLogprobs }), { maxLength: 3 }),
    usage: nullable(usage),
    system_fingerprint: nullable(str),
  },
  ['choices'],
);

const price = fc.oneof(fc.constantFrom('0.15', '0.000003'), num);
const pricing = loose({ prompt: price, completion: price, input_cache_read: price, input: price, output: price, cache_read: price, cache_write: price, unit: str });
const model = loose(
  {
    id: str,
    object: nullable(str),
    created: nullable(num),
    owned_by: nullable(str),
    name: str,
    context_length: int,
    max_model_len: int,
    max_output_length: int,
    input_modalities: fc.array(str, { maxLength: 2 }),
    supported_features: fc.array(str, { maxLength: 2 }),
    pricing: nullable(fc.oneof(pricing, fc.array(pricing, { maxLength: 2 }))),
    is_ready: fc.boolean(),
  },
  ['id'],
);
const modelList = loose({ object: nullable(str), data: fc.array(model, { maxLength: 3 }) }, ['data']);

const VALID: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  ChatCompletionChunk: chunk,
  ChatCompletion: chatCompletion,
  Completion: completion,
  Model: model,
  ModelList: modelList,
};

/** Every (object or array, key) inside `value`. */
function slots(value: unknown, out: [Record<string, unknown>, string][] = []): [Record<string, unknown>, string][] {
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) {
      out.push([value as Record<string, unknown>, key]);
      slots((value as Record<string, unknown>)[key], out);
    }
  }
  return out;
}

/** One JSON value of each type: a field of the wrong type gets one of these. */
const swap = fc.oneof(fc.constantFrom<unknown>('x', '', 0, 1.5, -1, true, false, [], {}, ['x'], [{}], { type: 1 }, 2 ** 60), fc.jsonValue({ maxDepth: 2 }));

/** `valid` with one JSON-possible change at a random spot: null, another type, the key removed, a key added. */
function mutated(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  const op = fc.constantFrom('null', 'null', 'swap', 'swap', 'swap', 'delete', 'delete', 'add');
  return fc.tuple(valid, fc.nat(), op, swap).map(([value, pick, operation, other]) => {
    const all = slots(value);
    if (all.length === 0) return value;
    const [target, key] = all[pick % all.length]!;
    if (operation === 'null') target[key] = null;
    else if (operation === 'swap') target[key] = other;
    else if (operation === 'delete') {
      if (Array.isArray(target)) target.splice(Number(key), 1);
      else delete target[key];
    }
    else target[`extra_${key}`] = other;
    return value;
  });
}

describe('the normalizer and the zod schemas agree', () => {
  for (const [name, normalize, wire, contract] of ROOTS) {
    it(`${name}: on values with the quirks of real servers, extras and any key order`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(VALID[name]!, (value) => {
          holds(name, normalize, wire, contract, value);
          if (wire.safeParse(value).success) accepted++;
        }),
        { numRuns: 400 },
      );
      // Not a vacuous pass: most generated values are readable.
      expect(accepted).toBeGreaterThan(100);
    });

    it(`${name}: on values with one thing changed anywhere`, () => {
      fc.assert(
        fc.property(mutated(VALID[name]!), (value) => holds(name, normalize, wire, contract, value)),
        { numRuns: 600 },
      );
    });

    it(`${name}: on values that are not objects`, () => {
      fc.assert(fc.property(fc.jsonValue({ maxDepth: 1 }).filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)), (value) => holds(name, normalize, wire, contract, value)));
    });
  }
});

describe.skipIf(!corpusPresent)('on every body and stream event of both corpora', () => {
  const entries = loadManifest();

  it('JSON bodies', () => {
    let checked = 0;
    for (const entry of entries.filter((e) => e.kind === 'json')) {
      const body: unknown = JSON.parse(readFileSync(entry.path, 'utf8'));
      const root = /models/.test(entry.endpoint) ? (Array.isArray((body as { data?: unknown }).data) ? 'ModelList' : 'Model') : isLegacy(entry) ? 'Completion' : 'ChatCompletion';
      const [name, normalize, wire, contract] = ROOTS.find(([n]) => n === root)!;
      holds(`${entry.id} (${name})`, normalize, wire, contract, body);
      // Every recorded body is readable.
      expect(wire.safeParse(JSON.parse(readFileSync(entry.path, 'utf8'))).success, entry.id).toBe(true);
      checked++;
    }
    expect(checked).toBe(99);
  });

  it('stream events', () => {
    let events = 0;
    for (const entry of entries.filter((e) => e.kind === 'stream')) {
      const [name, normalize, wire, contract] = ROOTS.find(([n]) => n === (isLegacy(entry) ? 'Completion' : 'ChatCompletionChunk'))!;
      for (const line of readFileSync(entry.path, 'utf8').split(/\r\n|\r|\n/)) {
        const data = /^data: ?(.*)$/.exec(line)?.[1]?.trim();
        if (!data || data === '[DONE]' || data === 'null') continue;
        let value: unknown;
        try {
          value = JSON.parse(data);
        } catch {
          continue;
        }
        if (typeof value === 'object' && value !== null && 'error' in value) continue; // an in-band error, not a chunk
        holds(`${entry.id} (${name})`, normalize, wire, contract, value);
        events++;
      }
    }
    expect(events).toBeGreaterThan(10_000);
  });
});

describe('the quirks, one by one', () => {
  const chunkOf = (choice: Record<string, unknown>) => N.normalizeChatCompletionChunk({ choices: [choice] }, { issues: [] });

  it('fills what a chunk leaves out, and reads its finish reasons as the API does', () => {
    const chunk = N.normalizeChatCompletionChunk({ choices: null }, { issues: [] });
    expect(chunk).toEqual({ id: '', object: 'chat.completion.chunk', created: 0, model: '', choices: [] });
    expect(chunkOf({ delta: { content: 'a' }, finish_reason: '' }).choices[0]).toEqual({ index: 0, delta: { content: 'a' }, finish_reason: null });
    expect(chunkOf({ index: 0, delta: {}, finish_reason: 'eos' }).choices[0]?.finish_reason).toBe('stop');
    expect(chunkOf({ index: 0, delta: {}, finish_reason: 'model_length' }).choices[0]?.finish_reason).toBe('length');
    expect(chunkOf({ index: 0, finish_reason: 'error' }).choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'error' });
  });

  it('reads content parts as text and thinking as reasoning, keeping the parts', () => {
    const parts = [{ type: 'thinking', thinking: [{ type: 'text', text: 'Hmm.' }] }, { type: 'text', text: 'Hi' }, { type: 'reference', reference_ids: [1] }];
    const delta = chunkOf({ index: 0, delta: { role: 'assistant', content: parts } }).choices[0]!.delta;
    expect(delta).toEqual({ role: 'assistant', content: 'Hi', reasoning: 'Hmm.', content_parts: parts });
    // No text part: no content in a delta, `null` in a message.
    expect(chunkOf({ index: 0, delta: { content: [parts[0]] } }).choices[0]!.delta).toEqual({ reasoning: 'Hmm.', content_parts: [parts[0]] });
    const message = N.normalizeChatCompletion({ choices: [{ message: { content: [parts[0]] } }] }, { issues: [] }).choices[0]!.message;
    expect(message).toMatchObject({ role: 'assistant', content: null, refusal: null, reasoning: 'Hmm.' });
  });

  it('takes reasoning from one field only, in a fixed order', () => {
    const reasoningOf = (delta: Record<string, unknown>) => chunkOf({ index: 0, delta }).choices[0]!.delta.reasoning;
    expect(reasoningOf({ reasoning_content: 'a', reasoning: 'a' })).toBe('a'); // vLLM during its rename: the same text twice
    expect(reasoningOf({ reasoning: 'b', reasoning_details: [{ type: 'reasoning.text', text: 'b' }] })).toBe('b');
    expect(reasoningOf({ reasoning_details: [{ type: 'reasoning.text', text: 'c' }, { type: 'reasoning.encrypted', data: 'x' }] })).toBe('c');
    expect(reasoningOf({ reasoning_content: '' })).toBe('');
    expect(reasoningOf({ reasoning_content: null, content: 'x' })).toBeUndefined();
  });

  it('gives every message its role, content, refusal, and tool calls only when there are some', () => {
    const read = (message: unknown) => N.normalizeChatCompletion({ choices: [{ index: 0, message }] }, { issues: [] }).choices[0]!.message;
    expect(read(undefined)).toEqual({ role: 'assistant', content: null, refusal: null }); // Azure's filtered choice
    expect(read({ content: 'x', tool_calls: [], refusal: '' })).toEqual({ role: 'assistant', content: 'x', refusal: null });
    expect(read({ content: null, tool_calls: null })).toEqual({ role: 'assistant', content: null, refusal: null });
    expect(read({ tool_calls: [{ function: { name: 'f' } }] }).tool_calls).toEqual([{ id: '', type: 'function', function: { name: 'f', arguments: '{}' } }]);
    expect(read({ tool_calls: [{ id: 'c', type: 'tool', function: { name: 'f', arguments: { a: 1 } } }] }).tool_calls).toEqual([
      { id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
    ]);
  });

  it('orders choices by index and numbers those without one', () => {
    const completion = N.normalizeChatCompletion({ choices: [{ index: 1, message: { content: 'b' } }, { index: 0, message: { content: 'a' } }] }, { issues: [] });
    expect(completion.choices.map((c) => c.message.content)).toEqual(['a', 'b']);
    const legacy = N.normalizeCompletion({ choices: [{ text: 'x' }, { text: 'y' }] }, { issues: [] });
    expect(legacy.choices).toEqual([
      { index: 0, text: 'x', finish_reason: null, logprobs: null },
      { index: 1, text: 'y', finish_reason: null, logprobs: null },
    ]);
  });

  it('reads times in milliseconds or with fractions as whole seconds', () => {
    const created = (value: unknown) => N.normalizeChatCompletion({ created: value, choices: [] }, { issues: [] }).created;
    expect(created(1_757_876_416.566)).toBe(1_757_876_416); // SambaNova
    expect(created(1_726_531_200_000)).toBe(1_726_531_200); // watsonx, mistral.rs
    expect(created(null)).toBe(0);
  });

  it('reads prices as an array of exact decimal strings, under the service names', () => {
    const model = N.normalizeModel(
      { id: 'a/b', created: null, owned_by: null, max_model_len: 8192, pricing: { input: 10, output: 0.0000015, cache_read: 1e-7, cache_write: 12.5, unit: 'usd_per_1m_tokens' } },
      { issues: [] },
    );
    expect(model).toMatchObject({ id: 'a/b', object: 'model', context_length: 8192, pricing: [{ prompt: '10', completion: '0.0000015', input_cache_read: '0.0000001', input_cache_write: '12.5', unit: 'usd_per_1m_tokens' }] });
    expect('created' in model).toBe(false);
    expect('owned_by' in model).toBe(false);
  });

  it('fills total_tokens from its parts and reads null breakdowns as absent', () => {
    const usage = N.normalizeChatCompletion({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 3, prompt_tokens_details: null, completion_tokens_details: { reasoning_tokens: null, x: 1 } } }, { issues: [] }).usage;
    expect(usage).toEqual({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5, completion_tokens_details: { x: 1 } });
  });

  it('names the field and the value it cannot read', () => {
    const cx: N.NormalizeContext = { issues: [] };
    N.normalizeChatCompletion({ choices: [{ index: 0, message: { content: 42 } }] }, cx);
    expect(cx.issues).toEqual([{ path: ['choices', 0, 'message', 'content'], message: 'expected string, null or array, got number', received: 42 }]);
    const missing: N.NormalizeContext = { issues: [] };
    N.normalizeChatCompletion({ id: 'x' }, missing);
    expect(missing.issues).toEqual([{ path: ['choices'], message: 'required array is missing', received: undefined }]);
  });
});

describe('the rules, on their own', () => {
  it('decimal(): the exact decimal of a number, never in exponent form, reading back to the same number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const text = N.decimal(x);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(text)).toBe(x === 0 ? 0 : x);
      }),
      { numRuns: 2000 },
    );
    expect([1e-7, 12.5, 1e21, -1.5e-10, 0.1].map(N.decimal)).toEqual(['0.0000001', '12.5', '1000000000000000000000', '-0.00000000015', '0.1']);
  });

  it('seconds(): milliseconds and fractions as whole seconds, stable when read again', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e15, max: 1e15, noNaN: true }), (x) => {
        const s = N.seconds(x);
        if (s === undefined) return;
        expect(Number.isSafeInteger(s)).toBe(true);
        expect(N.seconds(s)).toBe(s);
      }),
    );
  });
});
