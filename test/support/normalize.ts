/**
 * Shared by the test/normalize-*.test.ts files: the response roots with their normalizer and their
 * wire and contract schemas, the properties checked on one JSON value, and fast-check generators of
 * the values real servers send (and of the same with one thing changed anywhere).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import * as N from '../../src/generated/normalize.gen';
import * as Z from '../../src/generated/zod.gen';
import * as W from '../generated/wire.gen';

export type Normalize = (value: unknown, cx: N.NormalizeContext) => unknown;
export interface Schema {
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } };
}

export const ROOTS: readonly (readonly [string, Normalize, Schema, Schema])[] = [
  ['ChatCompletionChunk', N.normalizeChatCompletionChunk, W.zChatCompletionChunkWire, Z.zChatCompletionChunk],
  ['ChatCompletion', N.normalizeChatCompletion, W.zChatCompletionWire, Z.zChatCompletion],
  ['Completion', N.normalizeCompletion, W.zCompletionWire, Z.zCompletion],
  ['Model', N.normalizeModel, W.zModelWire, Z.zModel],
  ['ModelList', N.normalizeModelList, W.zModelListWire, Z.zModelList],
];

export const clone = <T,>(value: T): T => structuredClone(value);

/** The declared keys of a zod object schema, and the schema of each (to walk a value alongside it). */
export function shapeOf(schema: unknown): Record<string, unknown> | undefined {
  let def = (schema as { _zod?: { def: Record<string, unknown> } })?._zod?.def;
  while (def && (def['type'] === 'optional' || def['type'] === 'nullable')) def = (def['innerType'] as { _zod: { def: Record<string, unknown> } })._zod.def;
  return def?.['type'] === 'object' ? (def['shape'] as Record<string, unknown>) : undefined;
}
export function elementOf(schema: unknown): unknown {
  let def = (schema as { _zod?: { def: Record<string, unknown> } })?._zod?.def;
  while (def && (def['type'] === 'optional' || def['type'] === 'nullable')) def = (def['innerType'] as { _zod: { def: Record<string, unknown> } })._zod.def;
  return def?.['type'] === 'array' ? def['element'] : undefined;
}

/** Every key of `input` the schema does not declare is in `output` with the same value (objects walked alongside). */
export function keepsUnknown(schema: unknown, input: unknown, output: unknown, path = ''): void {
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
export function holds(name: string, normalize: Normalize, wire: Schema, contract: Schema, input: unknown): void {
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

export const str = fc.oneof(fc.constantFrom('', 'chatcmpl-1', 'assistant', 'stop', 'tool_calls', 'eos', 'model_length', 'text', 'thinking'), fc.string({ maxLength: 6 }));
export const int = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer(), fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53, -0));
export const num = fc.oneof(int, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1_700_000_000, 1_700_000_000.5, 1_700_000_000_000, 1e300));
export const nullable = <T,>(arb: fc.Arbitrary<T>) => fc.oneof(arb, fc.constant(null));
/** Keys kept beyond the declared ones: vendors' extras, and names that trip object code. */
export const extraKey = fc.constantFrom('x_groq', 'provider', 'obfuscation', 'p', 'citations', 'native_finish_reason', 'stop_reason', 'channel', 'constructor', 'toString', '0', 'seed');
export const extraFields = fc.dictionary(extraKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 });

/** An object of `fields` (each present or not), extras mixed in, keys in random order. */
export function loose(fields: Record<string, fc.Arbitrary<unknown>>, required: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.record(fields, { requiredKeys: required }), extraFields)
    .chain(([own, more]) => {
      const entries = [...Object.entries(more).filter(([k]) => !(k in fields)), ...Object.entries(own)];
      return fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length });
    })
    .map((entries) => Object.fromEntries(entries));
}

export const usage = loose(
  {
    prompt_tokens: int,
    completion_tokens: int,
    total_tokens: nullable(int),
    prompt_tokens_details: nullable(loose({ cached_tokens: nullable(int), audio_tokens: int })),
    completion_tokens_details: nullable(loose({ reasoning_tokens: nullable(int), audio_tokens: int, accepted_prediction_tokens: int, rejected_prediction_tokens: int })),
  },
  ['prompt_tokens', 'completion_tokens'],
);
export const bytes = nullable(fc.array(int, { maxLength: 3 }));
export const tokenLogprob = loose({ token: str, logprob: num, bytes, top_logprobs: fc.array(loose({ token: str, logprob: num, bytes }, ['token', 'logprob']), { maxLength: 2 }) }, ['token', 'logprob']);
export const choiceLogprobs = nullable(loose({ content: nullable(fc.array(tokenLogprob, { maxLength: 2 })), refusal: nullable(fc.array(tokenLogprob, { maxLength: 1 })) }));
export const part = fc.oneof(
  loose({ type: fc.constant('text'), text: str }, ['type', 'text']),
  loose({ type: fc.constant('thinking'), thinking: fc.oneof(str, fc.array(loose({ type: fc.constant('text'), text: str }), { maxLength: 2 })) }, ['type']),
  loose({ type: str }, ['type']),
);
export const content = nullable(fc.oneof(str, fc.array(part, { maxLength: 3 })));
export const details = nullable(fc.array(loose({ type: fc.constantFrom('reasoning.text', 'reasoning.summary', 'reasoning.encrypted'), text: nullable(str), summary: nullable(str), data: str }), { maxLength: 2 }));
export const annotations = fc.array(loose({ type: str, url_citation: loose({ url: str, title: str, start_index: int, end_index: int }) }, ['type']), { maxLength: 2 });
export const finish = nullable(fc.oneof(str, fc.constantFrom('', 'eos', 'eos_token', 'model_length', 'length', 'content_filter', 'error')));

export const toolCallFragment = loose({
  index: int,
  id: nullable(str),
  type: nullable(str),
  function: loose({ name: nullable(str), arguments: nullable(fc.oneof(str, fc.jsonValue({ maxDepth: 1 }))) }),
});
export const delta = loose({
  role: nullable(str),
  content,
  refusal: nullable(str),
  tool_calls: nullable(fc.array(toolCallFragment, { maxLength: 2 })),
  reasoning_content: nullable(str),
  reasoning: nullable(str),
  annotations,
  reasoning_details: details,
});
export const chunk = loose({
  id: nullable(str),
  object: str,
  created: nullable(num),
  model: nullable(str),
  choices: nullable(fc.array(loose({ index: int, delta, finish_reason: finish, logprobs: choiceLogprobs }), { maxLength: 3 })),
  usage: nullable(usage),
  system_fingerprint: nullable(str),
  service_tier: nullable(str),
});

export const messageToolCall = loose({ id: nullable(str), type: nullable(str), function: loose({ name: str, arguments: nullable(fc.oneof(str, fc.jsonValue({ maxDepth: 1 }))) }, ['name']) }, ['function']);
export const message = loose({
  role: nullable(str),
  content,
  refusal: nullable(str),
  tool_calls: nullable(fc.array(messageToolCall, { maxLength: 2 })),
  reasoning_content: nullable(str),
  reasoning: nullable(str),
  annotations: nullable(annotations),
  reasoning_details: details,
});
export const chatCompletion = loose(
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

export const legacyLogprobs = nullable(
  loose({
    tokens: nullable(fc.array(str, { maxLength: 2 })),
    token_logprobs: nullable(fc.array(nullable(num), { maxLength: 2 })),
    top_logprobs: nullable(fc.array(nullable(fc.dictionary(str, num, { maxKeys: 2 })), { maxLength: 2 })),
    text_offset: nullable(fc.array(int, { maxLength: 2 })),
  }),
);
export const completion = loose(
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

export const price = fc.oneof(fc.constantFrom('0.15', '0.000003'), num);
export const pricing = loose({ prompt: price, completion: price, input_cache_read: price, input: price, output: price, cache_read: price, cache_write: price, unit: str });
export const model = loose(
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
export const modelList = loose({ object: nullable(str), data: fc.array(model, { maxLength: 3 }) }, ['data']);

export const VALID: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  ChatCompletionChunk: chunk,
  ChatCompletion: chatCompletion,
  Completion: completion,
  Model: model,
  ModelList: modelList,
};

/** Every (object or array, key) inside `value`. */
export function slots(value: unknown, out: [Record<string, unknown>, string][] = []): [Record<string, unknown>, string][] {
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) {
      out.push([value as Record<string, unknown>, key]);
      slots((value as Record<string, unknown>)[key], out);
    }
  }
  return out;
}

/** One JSON value of each type: a field of the wrong type gets one of these. */
export const swap = fc.oneof(fc.constantFrom<unknown>('x', '', 0, 1.5, -1, true, false, [], {}, ['x'], [{}], { type: 1 }, 2 ** 60), fc.jsonValue({ maxDepth: 2 }));

/** `valid` with one JSON-possible change at a random spot: null, another type, the key removed, a key added. */
export function mutated(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
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
