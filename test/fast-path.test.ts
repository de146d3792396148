/**
 * The fast paths (src/fast/) against the generated zod schemas they stand in for. The rule: when
 * a fast path returns a value, the schema accepts the input and returns the same value, down to
 * the order of the keys; when it returns `undefined`, the schema decides (and `validate()`,
 * which composes the two, behaves exactly as the schema alone). Checked on generated chunk-like
 * values (valid ones with every quirk the spec's descriptions name, and the same with one
 * mutation anywhere), on every JSON object in ../shared/corpus, and on the quirks one by one.
 * A fast path that declined everything would pass the rule, so coverage is checked too.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodMiniType } from 'zod/mini';
import { streamCall } from '../src/call';
import { ResponseValidationError } from '../src/errors';
import { fastChatCompletion, fastChatCompletionChunk } from '../src/fast/chat';
import { fastCompletion } from '../src/fast/completion';
import type { FastPath } from '../src/fast/schemas';
import { chatCompletionChunkSchema, chatCompletionSchema, completionSchema, modelListSchema } from '../src/fast/schemas';
import { zChatCompletion, zChatCompletionChunk, zCompletion, zModelList } from '../src/generated/zod.gen';
import { Log } from '../src/log';
import { resolveClientOptions } from '../src/options';
import type { RequestContext } from '../src/request';
import { Stream } from '../src/stream';
import { startMockServer, type MockServer } from '../src/testing';
import { checker, validate, type Schema, type ValidationContext } from '../src/validate';
import { CORPUS, corpusPresent, loadManifest } from './support/corpus';

fc.configureGlobal({ endOnFailure: true });

const PAIRS = [
  ['ChatCompletionChunk', zChatCompletionChunk, fastChatCompletionChunk],
  ['ChatCompletion', zChatCompletion, fastChatCompletion],
  ['Completion', zCompletion, fastCompletion],
] as const satisfies readonly (readonly [string, ZodMiniType<unknown>, FastPath<unknown>])[];

/** Values as a test sees them: key order, `undefined` and `-0` included (JSON.stringify would hide them). */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return { array: value.map(shape) };
  if (typeof value === 'object' && value !== null) return { object: Object.keys(value).map((k) => [k, shape((value as Record<string, unknown>)[k])]) };
  if (Object.is(value, -0)) return '-0';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value === undefined ? '<undefined>' : value;
}

const ctx = (mode: ValidationContext['mode'] = 'error'): ValidationContext => ({
  mode,
  log: new Log('off', console),
  target: { method: 'POST', path: '/v1/chat/completions' },
  status: 200,
});

/** The rule, for one value. Returns whether the fast path decided. */
function agree(schema: ZodMiniType<unknown>, fast: FastPath<unknown>, value: unknown): boolean {
  const full = schema.safeParse(value);
  const quick = fast(value);
  if (quick !== undefined) {
    expect(full.success, 'the fast path accepted what the schema rejects').toBe(true);
    expect(shape(quick)).toEqual(shape(full.data));
  }
  // validate() = fast path, then the schema: the same value, or the same error.
  let composed: unknown;
  let error: unknown;
  try {
    composed = validate(schema, value, ctx(), fast);
  } catch (caught) {
    error = caught;
  }
  if (full.success) {
    expect(error).toBeUndefined();
    expect(shape(composed)).toEqual(shape(full.data));
  } else {
    expect(error).toBeInstanceOf(ResponseValidationError);
  }
  return quick !== undefined;
}

// -----------------------------------------------------------------------------------------------
// Arbitraries: valid values with the quirks of real servers, in any key order, with extras

const str = fc.oneof(fc.constantFrom('', 'chatcmpl-1', 'chat.completion.chunk', 'assistant', 'stop', 'tool_calls'), fc.string({ maxLength: 6 }));
const int = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer(), fc.constantFrom(Number.MAX_SAFE_INTEGER, -0));
const num = fc.oneof(int, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(1_700_000_000));
const nullable = <T,>(arb: fc.Arbitrary<T>) => fc.oneof(arb, fc.constant(null));
/** Keys a loose object keeps beyond its own: vendors' extras, and names that trip object code. */
const extraKey = fc.constantFrom('x_groq', 'provider', 'obfuscation', 'p', 'citations', 'native_finish_reason', 'stop_reason', 'token_ids', 'channel', 'index', 'message', 'constructor', 'toString', '__proto__', '0', '', 'delta', 'choices');
const extras = fc.dictionary(extraKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 });

/** An object of `fields` (each present or not), extras mixed in, keys in random order. */
function loose(fields: Record<string, fc.Arbitrary<unknown>>, required: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.record(fields, { requiredKeys: required }), extras)
    .chain(([own, more]) => {
      const entries = [...Object.entries(more).filter(([k]) => !(k in fields)), ...Object.entries(own)];
      return fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length });
    })
    .map((entries) => {
      const out: Record<string, unknown> = {};
      // defineProperty, so that a `__proto__` key is an own key, as JSON.parse makes it.
      for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    });
}

const usage = loose(
  {
    prompt_tokens: int,
    completion_tokens: int,
    total_tokens: int,
    prompt_tokens_details: nullable(loose({ cached_tokens: int, audio_tokens: int })),
    completion_tokens_details: nullable(loose({ reasoning_tokens: int, audio_tokens: int, accepted_prediction_tokens: int, rejected_prediction_tokens: int })),
  },
  ['prompt_tokens', 'completion_tokens', 'total_tokens'],
);
const bytes = nullable(fc.array(int, { maxLength: 3 }));
const tokenLogprob = loose(
  { token: str, logprob: num, bytes, top_logprobs: fc.array(loose({ token: str, logprob: num, bytes }), { maxLength: 2 }) },
  ['token', 'logprob'],
);
const choiceLogprobs = nullable(loose({ content: nullable(fc.array(tokenLogprob, { maxLength: 2 })), refusal: nullable(fc.array(tokenLogprob, { maxLength: 1 })) }));
const parts = fc.array(loose({ type: str, text: str }, ['type']), { maxLength: 2 });
const content = nullable(fc.oneof(str, parts));
const typedList = fc.array(loose({ type: str, text: str }), { maxLength: 2 });

const toolCallFragment = loose({
  index: int,
  id: nullable(str),
  type: nullable(str),
  function: loose({ name: nullable(str), arguments: nullable(str) }),
});
const delta = loose({
  role: nullable(str),
  content,
  refusal: nullable(str),
  tool_calls: nullable(fc.array(toolCallFragment, { maxLength: 2 })),
  reasoning_content: nullable(str),
  reasoning: nullable(str),
  annotations: typedList,
  reasoning_details: typedList,
});
const chunkChoice = loose({ index: int, delta, finish_reason: nullable(str), logprobs: choiceLogprobs }, ['index', 'delta']);
const chunk = loose(
  {
    id: str,
    object: str,
    created: num,
    model: str,
    choices: nullable(fc.array(chunkChoice, { maxLength: 2 })),
    usage: nullable(usage),
    system_fingerprint: nullable(str),
    service_tier: nullable(str),
  },
  ['choices'],
);

const messageToolCall = loose({ id: str, type: str, function: loose({ name: str, arguments: str }, ['name']) }, ['id', 'function']);
const message = loose({
  role: str,
  content,
  refusal: nullable(str),
  tool_calls: nullable(fc.array(messageToolCall, { maxLength: 2 })),
  reasoning_content: nullable(str),
  reasoning: nullable(str),
  annotations: nullable(typedList),
  reasoning_details: typedList,
});
const chatCompletion = loose(
  {
    id: str,
    object: str,
    created: num,
    model: str,
    choices: fc.array(loose({ index: int, message, finish_reason: nullable(str), logprobs: choiceLogprobs }, ['index']), { maxLength: 2 }),
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
    id: str,
    object: str,
    created: num,
    model: str,
    choices: fc.array(loose({ index: int, text: str, finish_reason: nullable(str), logprobs: legacyLogprobs }, ['index', 'text']), { maxLength: 2 }),
    usage: nullable(usage),
    system_fingerprint: nullable(str),
  },
  ['choices'],
);

/** Anything a broken server might put somewhere: wrong types, odd numbers, odd objects. */
const oddValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, null, NaN, Infinity, -Infinity, 1.5, -0, 2 ** 53, -(2 ** 53), '', [], {}, [null], [{}], true),
  fc.constant(Object.create(null) as object),
  fc.constant(new Date(0)),
  fc.constant(new (class Chunk {
    choices = [];
  })()),
);

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

/** One value of each JSON type: a field of the wrong type gets one of these. */
const swap = fc.constantFrom<unknown>('x', '', 0, 1.5, -1, true, false, [], {}, ['x'], [{}], { type: 1 });

/**
 * `valid` with one change at a random spot (every key of every object and array is as likely):
 * null (the commonest quirk), a value of another type, an odd value, the key removed or set to
 * `undefined`, a key added, or the containing object given a null prototype.
 */
function mutated(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  const op = fc.constantFrom('null', 'null', 'null', 'swap', 'swap', 'swap', 'odd', 'delete', 'delete', 'add', 'undefined', 'null-prototype');
  return fc.tuple(valid, fc.nat(), op, swap, oddValue).map(([value, pick, operation, other, odd]) => {
    const all = slots(value);
    if (all.length === 0) return value;
    const [target, key] = all[pick % all.length]!;
    if (operation === 'null') target[key] = null;
    else if (operation === 'swap') target[key] = other;
    else if (operation === 'odd') target[key] = odd;
    else if (operation === 'delete') delete target[key];
    else if (operation === 'add') target[`extra_${key}`] = odd;
    else if (operation === 'undefined') target[key] = undefined;
    else if (!Array.isArray(target)) Object.setPrototypeOf(target, null);
    return value;
  });
}

// -----------------------------------------------------------------------------------------------

describe('fast paths agree with the generated schemas', () => {
  const valid = { ChatCompletionChunk: chunk, ChatCompletion: chatCompletion, Completion: completion };

  for (const [name, schema, fast] of PAIRS) {
    it(`${name}: on valid values with quirks, extras and any key order, and decides nearly all of them`, () => {
      let decided = 0;
      let runs = 0;
      fc.assert(
        fc.property(valid[name], (value) => {
          runs++;
          if (agree(schema, fast, value)) decided++;
        }),
        { numRuns: 1500 },
      );
      // What the fast path leaves to zod on valid input: Completion's per-token maps.
      expect(decided / runs).toBeGreaterThan(0.75);
    });

    it(`${name}: on values with one thing wrong (or odd) anywhere`, () => {
      fc.assert(
        fc.property(mutated(valid[name]), (value) => void agree(schema, fast, value)),
        { numRuns: 3000 },
      );
    });

    it(`${name}: on values that are not objects at all`, () => {
      fc.assert(fc.property(oddValue, (value) => void agree(schema, fast, value)), { numRuns: 300 });
    });
  }

  it('decides the usual shapes themselves (or it would not be a fast path)', () => {
    const common = {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'acme/chat-1',
      system_fingerprint: 'fp_1', // OpenAI's order: before `choices`
      choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, logprobs: null, finish_reason: null }],
      obfuscation: 'xyz',
    };
    expect(fastChatCompletionChunk(common)).toEqual(zChatCompletionChunk.parse(common));
    const completed = { id: 'c', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
    expect(fastChatCompletion(completed)).toEqual(zChatCompletion.parse(completed));
    const legacy = { id: 'cmpl-1', object: 'text_completion', choices: [{ index: 0, text: 'Hi', finish_reason: null, logprobs: null }] };
    expect(fastCompletion(legacy)).toEqual(zCompletion.parse(legacy));
  });
});

describe('the quirks the spec names, one by one', () => {
  const chunkBase = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm' };
  const choice = (delta: object, extra: object = {}) => ({ index: 0, delta, finish_reason: null, ...extra });
  const quirks: [string, unknown][] = [
    ['a usage-only last chunk with choices: [] (OpenAI include_usage, xAI, DashScope)', { ...chunkBase, choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } }],
    ['a first chunk with choices: [] and only prompt_filter_results (Azure)', { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] }],
    ['id, created, object and model absent', { choices: [choice({ content: 'x' })] }],
    ["object 'chat.completion.done' and a full message next to the delta (Perplexity)", { ...chunkBase, object: 'chat.completion.done', choices: [choice({}, { finish_reason: 'stop', message: { role: 'assistant', content: 'all' } })] }],
    ['choices: null', { ...chunkBase, choices: null }],
    ['the whole tool call in one fragment (xAI, Groq, Ollama)', { ...chunkBase, choices: [choice({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] })] }],
    ['a tool call without index (Gemini compat, Mistral)', { ...chunkBase, choices: [choice({ tool_calls: [{ id: 'call_1', function: { name: 'f', arguments: '' } }] })] }],
    ["continuations with id '', name null or '' and no type (DashScope, TGI, Fireworks)", { ...chunkBase, choices: [choice({ tool_calls: [{ index: 1, id: '', type: null, function: { name: null, arguments: '{"a"' } }, { index: 2, function: { name: '', arguments: null } }] })] }],
    ['delta extras: channel, executed_tools (Groq), index (Mistral), function_call (legacy)', { ...chunkBase, choices: [choice({ content: 'x', channel: 'analysis', executed_tools: [], index: 0, function_call: null })] }],
    ['choice extras: native_finish_reason, stop_reason, token_ids, matched_stop, content_filter_results', { ...chunkBase, choices: [choice({}, { finish_reason: 'stop', native_finish_reason: 'STOP', stop_reason: 128009, token_ids: [1, 2], matched_stop: 2, content_filter_results: { hate: { filtered: false } } })] }],
    ['chunk extras: x_groq, provider, obfuscation, p, citations', { ...chunkBase, choices: [choice({ content: 'x' })], x_groq: { id: 'req_1' }, provider: 'Groq', obfuscation: 'a1', p: 'abc', citations: ['https://example.com'] }],
    ['reasoning_content and reasoning (DeepSeek, OpenRouter), reasoning_details', { ...chunkBase, choices: [choice({ reasoning_content: 'think', reasoning: 'think', reasoning_details: [{ type: 'reasoning.text', text: 'think' }] })] }],
    ['content as an array of parts', { ...chunkBase, choices: [choice({ content: [{ type: 'text', text: 'x' }] })] }],
    ['logprobs with tokens and top_logprobs', { ...chunkBase, choices: [choice({ content: 'x' }, { logprobs: { content: [{ token: 'x', logprob: -0.1, bytes: [120], top_logprobs: [{ token: 'x', logprob: -0.1, bytes: null }] }], refusal: null } })] }],
    ['usage with details and vendor extras (DeepSeek, OpenRouter)', { ...chunkBase, choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 9, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: null, prompt_cache_hit_tokens: 0, cost: 0.0001, is_byok: false } }],
  ];
  for (const [name, value] of quirks) {
    it(`ChatCompletionChunk: ${name}`, () => {
      expect(agree(zChatCompletionChunk, fastChatCompletionChunk, value)).toBe(true);
    });
  }

  const completionQuirks: [string, unknown][] = [
    ['content omitted on a tool call (Cerebras, Gemini compat)', { choices: [{ index: 0, message: { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, finish_reason: 'tool_calls' }] }],
    ['tool call extras (Ollama index, Gemini extra_content)', { choices: [{ index: 0, message: { tool_calls: [{ id: 'c1', function: { name: 'f' }, index: 0, extra_content: { google: { thought_signature: 'x' } } }] } }] }],
    ['annotations null, seed and vendor extras', { id: 'x', choices: [{ index: 0, message: { role: 'assistant', content: 'x', annotations: null }, seed: 2 ** 64 }], time_info: {}, request_id: 'r' }],
  ];
  for (const [name, value] of completionQuirks) {
    it(`ChatCompletion: ${name}`, () => {
      expect(agree(zChatCompletion, fastChatCompletion, value)).toBe(true);
    });
  }

  const legacyQuirks: [string, unknown][] = [
    ["object 'text.completion', id '' and a prompt extra (Together, TGI)", { id: '', object: 'text.completion', created: 1, model: 'm', prompt: [], choices: [{ index: 0, text: 'x', finish_reason: 'length' }] }],
    ['vLLM extras and logprobs', { choices: [{ index: 0, text: 'x', stop_reason: null, logprobs: { tokens: ['x'], token_logprobs: [null], top_logprobs: [null], text_offset: [0] } }], kv_transfer_params: null }],
  ];
  for (const [name, value] of legacyQuirks) {
    it(`Completion: ${name}`, () => {
      expect(agree(zCompletion, fastCompletion, value)).toBe(true);
    });
  }

  it('drops a `__proto__` key as zod does, without touching any prototype', () => {
    const poisoned = JSON.parse('{"choices":[],"__proto__":{"polluted":true},"x":1}') as unknown;
    expect(agree(zChatCompletionChunk, fastChatCompletionChunk, poisoned)).toBe(true);
    const out = fastChatCompletionChunk(poisoned) as object;
    expect(Object.keys(out)).toEqual(['choices', 'x']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("leaves Completion's per-token maps to the schema", () => {
    const maps = { choices: [{ index: 0, text: 'x', logprobs: { top_logprobs: [{ x: -1 }] } }] };
    expect(agree(zCompletion, fastCompletion, maps)).toBe(false);
  });
});

describe.skipIf(!corpusPresent)('fast paths on ../shared/corpus', () => {
  const entries = loadManifest();

  it('agree with the schemas on every event of every recorded stream, and decide every valid one', () => {
    let events = 0;
    for (const entry of entries.filter((e) => e.kind === 'stream')) {
      const legacy = entry.endpoint.endsWith('/completions') && !entry.endpoint.includes('chat');
      const [schema, fast] = legacy ? [zCompletion, fastCompletion] : [zChatCompletionChunk, fastChatCompletionChunk];
      const text = readFileSync(CORPUS + entry.file, 'utf8');
      for (const line of text.split(/\r?\n/)) {
        if (!line.startsWith('data:')) continue;
        let value: unknown;
        try {
          value = JSON.parse(line.slice(5));
        } catch {
          continue; // [DONE], comments and the like are the stream suite's
        }
        if (typeof value !== 'object' || value === null || 'error' in value) continue;
        events++;
        const decided = agree(schema, fast, value);
        if (schema.safeParse(value).success) expect(decided, `${entry.file}: a valid event the fast path left to zod`).toBe(true);
      }
    }
    expect(events).toBeGreaterThan(1000);
  });

  it('agree with the schemas on every recorded completion body', () => {
    let bodies = 0;
    for (const entry of entries.filter((e) => e.kind === 'json')) {
      const value = JSON.parse(readFileSync(CORPUS + entry.file, 'utf8')) as unknown;
      if (entry.endpoint.includes('chat')) {
        agree(zChatCompletion, fastChatCompletion, value);
        bodies++;
      } else if (entry.endpoint.endsWith('/completions')) {
        agree(zCompletion, fastCompletion, value);
        bodies++;
      }
    }
    expect(bodies).toBeGreaterThan(20);
  });
});

describe('lazy schemas (src/fast/schemas.ts)', () => {
  const good = { choices: [{ index: 0, delta: { content: 'x' } }] };
  const bad = { choices: [{ index: '0', delta: { content: 'x' } }] };

  it('decide the usual case at once, without loading zod', () => {
    let loads = 0;
    const check = checker({ fast: fastChatCompletionChunk, load: () => (loads++, chatCompletionChunkSchema.load()) }, ctx());
    expect(check(good)).toEqual(zChatCompletionChunk.parse(good));
    expect(loads).toBe(0);
  });

  it('load the schema when the fast path cannot decide, and fail with exactly the schema\'s error', async () => {
    const lazy = checker(chatCompletionChunkSchema, ctx());
    const eager = checker(zChatCompletionChunk, ctx());
    const pending = lazy(bad);
    expect(pending).toBeInstanceOf(Promise);
    const lazyError = await Promise.resolve(pending).catch((e: unknown) => e);
    let eagerError: unknown;
    try {
      eager(bad);
    } catch (e) {
      eagerError = e;
    }
    expect(lazyError).toBeInstanceOf(ResponseValidationError);
    expect((lazyError as ResponseValidationError).message).toBe((eagerError as ResponseValidationError).message);
    expect((lazyError as ResponseValidationError).issues).toEqual((eagerError as ResponseValidationError).issues);
    // Loaded once: the next odd value is checked at once.
    expect(() => lazy(bad)).toThrow(ResponseValidationError);
  });

  it("keep the validation modes: 'warn' returns the value as received, 'off' skips the check", async () => {
    expect(await checker(chatCompletionChunkSchema, ctx('warn'))(bad)).toBe(bad);
    expect(checker(chatCompletionChunkSchema, ctx('off'))(bad)).toBe(bad);
  });

  it('stand for the same schemas as the resources use', async () => {
    expect(await chatCompletionChunkSchema.load()).toBe(zChatCompletionChunk);
    expect(await chatCompletionSchema.load()).toBe(zChatCompletion);
    expect(await completionSchema.load()).toBe(zCompletion);
    expect(await modelListSchema.load()).toBe(zModelList);
  });
});

// The outlines of the generated schemas the fast paths were written against (see the last suite).
const USAGE_OUTLINE =
  'loose{prompt_tokens: int, completion_tokens: int, total_tokens: int, prompt_tokens_details: exactOptional(nullable(loose{cached_tokens: exactOptional(int), audio_tokens: exactOptional(int)})), completion_tokens_details: exactOptional(nullable(loose{reasoning_tokens: exactOptional(int), audio_tokens: exactOptional(int), accepted_prediction_tokens: exactOptional(int), rejected_prediction_tokens: exactOptional(int)}))}';
const TOKEN_LOGPROB_OUTLINE =
  'loose{token: string, logprob: number, bytes: exactOptional(nullable(array(int))), top_logprobs: exactOptional(array(loose{token: exactOptional(string), logprob: exactOptional(number), bytes: exactOptional(nullable(array(int)))}))}';
const CHOICE_LOGPROBS_OUTLINE = `exactOptional(nullable(loose{content: exactOptional(nullable(array(${TOKEN_LOGPROB_OUTLINE}))), refusal: exactOptional(nullable(array(${TOKEN_LOGPROB_OUTLINE})))}))`;
const CONTENT_OUTLINE = 'exactOptional(nullable(union(string | array(loose{type: string}))))';
const TYPED_LIST = 'array(loose{type: exactOptional(string)})';
const CHUNK_OUTLINE = `loose{id: exactOptional(string), object: exactOptional(string), created: exactOptional(number), model: exactOptional(string), choices: nullable(array(loose{index: int, delta: loose{role: exactOptional(nullable(string)), content: ${CONTENT_OUTLINE}, refusal: exactOptional(nullable(string)), tool_calls: exactOptional(nullable(array(loose{index: exactOptional(int), id: exactOptional(nullable(string)), type: exactOptional(nullable(string)), function: exactOptional(loose{name: exactOptional(nullable(string)), arguments: exactOptional(nullable(string))})}))), reasoning_content: exactOptional(nullable(string)), reasoning: exactOptional(nullable(string)), annotations: exactOptional(${TYPED_LIST}), reasoning_details: exactOptional(${TYPED_LIST})}, finish_reason: exactOptional(nullable(string)), logprobs: ${CHOICE_LOGPROBS_OUTLINE}})), usage: exactOptional(nullable(${USAGE_OUTLINE})), system_fingerprint: exactOptional(nullable(string)), service_tier: exactOptional(nullable(string))}`;
const COMPLETION_OUTLINE = `loose{id: exactOptional(string), object: exactOptional(string), created: exactOptional(number), model: exactOptional(string), choices: array(loose{index: int, message: exactOptional(loose{role: exactOptional(string), content: ${CONTENT_OUTLINE}, refusal: exactOptional(nullable(string)), tool_calls: exactOptional(nullable(array(loose{id: string, type: exactOptional(string), function: loose{name: string, arguments: exactOptional(string)}}))), reasoning_content: exactOptional(nullable(string)), reasoning: exactOptional(nullable(string)), annotations: exactOptional(nullable(${TYPED_LIST})), reasoning_details: exactOptional(${TYPED_LIST})}), finish_reason: exactOptional(nullable(string)), logprobs: ${CHOICE_LOGPROBS_OUTLINE}}), usage: exactOptional(nullable(${USAGE_OUTLINE})), system_fingerprint: exactOptional(nullable(string)), service_tier: exactOptional(nullable(string))}`;
const LEGACY_OUTLINE = `loose{id: exactOptional(string), object: exactOptional(string), created: exactOptional(number), model: exactOptional(string), choices: array(loose{index: int, text: string, finish_reason: exactOptional(nullable(string)), logprobs: exactOptional(nullable(loose{tokens: exactOptional(nullable(array(string))), token_logprobs: exactOptional(nullable(array(nullable(number)))), top_logprobs: exactOptional(nullable(array(nullable(record(string, number))))), text_offset: exactOptional(nullable(array(int)))}))}), usage: exactOptional(nullable(${USAGE_OUTLINE})), system_fingerprint: exactOptional(nullable(string))}`;

describe('the lazy schemas in a browser bundle', () => {
  it('keep zod out of what loads first, and the fast paths small (≤ 3 KiB gzip)', async () => {
    const result = await build({
      stdin: {
        contents: "import * as schemas from './src/fast/schemas'; console.log(schemas);",
        resolveDir: new URL('..', import.meta.url).pathname,
        loader: 'ts',
      },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify: true,
      splitting: true,
      outdir: '/virtual',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    const entry = Object.keys(outputs).find((file) => outputs[file]?.entryPoint !== undefined)!;
    const inputs = Object.keys(outputs[entry]!.inputs);
    expect(inputs.filter((file) => file.includes('node_modules/zod'))).toEqual([]);
    expect(inputs.filter((file) => file.includes('zod.gen'))).toEqual([]);
    const code = result.outputFiles.find((file) => file.path.endsWith(entry.replace(/^.*\//, '')))!;
    expect(gzipSync(code.contents).length).toBeLessThanOrEqual(3 * 1024);
    // …and zod is there, in a chunk of its own, for when the fast path cannot decide.
    expect(Object.values(outputs).some((output) => Object.keys(output.inputs).some((file) => file.includes('zod.gen')))).toBe(true);
  });
});

describe('a stream checked with a lazy schema', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer();
  });
  afterAll(() => server.close());

  const event = (content: unknown) => `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

  /** The chunks of one stream read with `schema`, and the error that ended it. */
  async function read(schema: Schema<unknown>) {
    server.enqueue({ raw: event('a') + event('b') + event(42) + event('never'), headers: { 'content-type': 'text/event-stream' } });
    const { resolved } = resolveClientOptions({ apiKey: server.apiKey, baseURL: server.url, logLevel: 'off', maxRetries: 0 });
    const ctx: RequestContext = { options: resolved, apiKey: () => Promise.resolve(server.apiKey), log: new Log('off', console) };
    const spec = { method: 'POST', path: '/chat/completions', body: { model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] } } as const;
    const items: unknown[] = [];
    try {
      const stream = await streamCall(ctx, spec, schema, (source, controller) => new Stream(source, controller));
      for await (const item of stream) items.push(item);
    } catch (error) {
      return { items, error };
    }
    return { items, error: undefined };
  }

  it('yields what the zod schema yields and fails at the same chunk with the same error', async () => {
    const lazy = await read(chatCompletionChunkSchema as Schema<unknown>);
    const eager = await read(zChatCompletionChunk);
    expect(lazy.items).toHaveLength(2);
    expect(lazy.items).toEqual(eager.items);
    expect(lazy.error).toBeInstanceOf(ResponseValidationError);
    expect((lazy.error as ResponseValidationError).message).toBe((eager.error as ResponseValidationError).message);
    expect((lazy.error as ResponseValidationError).issues[0]?.path).toBe('choices[0].delta.content');
  });
});

describe('the schemas the fast paths copy have not changed', () => {
  /** A readable outline of a zod/mini schema: the fast paths were written against this. */
  function outline(schema: unknown): string {
    const def = (schema as { _zod: { def: Record<string, unknown> } })._zod.def;
    switch (def['type']) {
      case 'object': {
        const shape = def['shape'] as Record<string, unknown>;
        const fields = Object.entries(shape).map(([k, v]) => `${k}: ${outline(v)}`);
        return `${def['catchall'] ? 'loose' : 'strict'}{${fields.join(', ')}}`;
      }
      case 'optional':
        return `exactOptional(${outline(def['innerType'])})`;
      case 'nullable':
        return `nullable(${outline(def['innerType'])})`;
      case 'array':
        return `array(${outline(def['element'])})`;
      case 'union':
        return `union(${(def['options'] as unknown[]).map(outline).join(' | ')})`;
      case 'record':
        return `record(${outline(def['keyType'])}, ${outline(def['valueType'])})`;
      case 'number':
        return (def['format'] as string | undefined) === 'safeint' ? 'int' : 'number';
      default:
        return String(def['type']);
    }
  }

  // When one of these fails, the spec (and so zod.gen.ts) changed: update src/fast/ to the new
  // outline first, then paste the new outline here. The property tests above check the rest.
  // (The test name takes only the name: a schema object is far too big to print.)
  it.each([
    ['ChatCompletionChunk', zChatCompletionChunk, CHUNK_OUTLINE],
    ['ChatCompletion', zChatCompletion, COMPLETION_OUTLINE],
    ['Completion', zCompletion, LEGACY_OUTLINE],
  ] as const)('%s', (_name, schema, expected) => {
    expect(outline(schema)).toBe(expected);
  });
});
