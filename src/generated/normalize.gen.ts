// Generated from spec/openapi.yaml by `npm run generate` (scripts/generate.ts). Do not edit:
// change the spec (or the generator) and regenerate.

// The normalizer: reads a parsed response into the shape spec/openapi.yaml declares, in place,
// following its extensions (`x-default`, `x-convert`, ...). The runtime below is copied from
// scripts/generate/runtime.ts; the functions after it are generated, one per response object.
import type {
  ChatCompletion,
  ChatCompletionChunk,
  Completion,
  Model,
  ModelList,
} from './types.gen';

/** One problem found while reading a response: where, what, and the value found there. */
export interface NormalizeIssue {
  /** From the response's root, e.g. `['choices', 0, 'message', 'content']`. */
  path: (string | number)[];
  message: string;
  received: unknown;
}

/** What a normalization carries: the issues found so far (none on the fast path). */
export interface NormalizeContext {
  issues: NormalizeIssue[];
}

type Obj = Record<string, unknown>;

/** A JSON object (as `JSON.parse` makes them; arrays are not). */
function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Record that `key` holds `received` where `expected` was needed. */
function issue(
  cx: NormalizeContext,
  key: string | number,
  expected: string,
  received: unknown,
): void {
  const message =
    received === undefined
      ? `required ${expected} is missing`
      : `expected ${expected}, got ${typeName(received)}`;
  cx.issues.push({ path: [key], message, received });
}

/** Prefix `key` to the path of every issue recorded since `from` (they were found inside `key`). */
function at(cx: NormalizeContext, from: number, key: string | number): void {
  for (let i = from; i < cx.issues.length; i++) cx.issues[i]!.path.unshift(key);
}

/**
 * `number-decimal`: the exact decimal string of a JSON number as written (`12.5` → `"12.5"`,
 * `1e-7` → `"0.0000001"`). JavaScript's shortest round-trip form is the number's own digits.
 */
function decimal(value: number): string {
  const text = String(value);
  const e = text.indexOf('e');
  if (e < 0) return text;
  const sign = text.startsWith('-') ? '-' : '';
  const mantissa = text.slice(sign.length, e).replace('.', '');
  const point =
    (text.slice(sign.length, e).indexOf('.') + 1 || e - sign.length + 1) -
    1 +
    Number(text.slice(e + 1));
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${mantissa}`;
  if (point >= mantissa.length) return `${sign}${mantissa}${'0'.repeat(point - mantissa.length)}`;
  return `${sign}${mantissa.slice(0, point)}.${mantissa.slice(point)}`;
}

/**
 * `unix-seconds`: whole Unix seconds from a time a server sent in milliseconds (mistral.rs,
 * WebLLM, watsonx: from 1e11, which as seconds would be the year 5138) or with a fraction
 * (SambaNova). `undefined` from 1e14 (as milliseconds, the year 5138 again) and below
 * -2^53: no time a server means. The result is below 1e11, so reading it again keeps it.
 */
function seconds(value: number): number | undefined {
  if (value >= 1e14 || value < -Number.MAX_SAFE_INTEGER) return undefined;
  return Math.floor(value >= 1e11 ? value / 1000 : value);
}

/** `text-parts`: the text of the `text` parts of typed content, joined; `undefined` without one. */
function partsText(parts: unknown[]): string | undefined {
  let text: string | undefined;
  for (const part of parts) {
    if (isObj(part) && part['type'] === 'text' && typeof part['text'] === 'string')
      text = (text ?? '') + part['text'];
  }
  return text;
}

/** The content as sent when it is (or, read again, was) an array of typed parts. */
function partsOf(o: Obj): unknown[] | undefined {
  const content = o['content'];
  if (Array.isArray(content)) return content;
  const kept = o['content_parts'];
  return Array.isArray(kept) ? kept : undefined;
}

/** `x-derive: content-parts`: the typed parts a message or delta carried, kept whole. */
function contentParts(o: Obj): unknown[] | undefined {
  return partsOf(o);
}

/**
 * `x-derive: reasoning`: a message's or delta's reasoning, whichever field the server used:
 * `reasoning_content`, else `reasoning`, else Mistral's `thinking` parts, else OpenRouter's
 * `reasoning_details` text. One field only, never two joined: servers that send two (vLLM during
 * its rename, OpenRouter's `reasoning` beside `reasoning_details`) send the same text twice.
 */
function reasoning(o: Obj): string | undefined {
  const content = o['reasoning_content'];
  if (typeof content === 'string') return content;
  const plain = o['reasoning'];
  if (typeof plain === 'string') return plain;
  return thinkingText(partsOf(o)) ?? detailsText(o['reasoning_details']);
}

/**
 * `x-derive: reasoning-raw`: the server's own `reasoning`, when the rule of `reasoning` took
 * `reasoning_content` over it and their texts differ (a server that sent both), so that no
 * reasoning text is lost and a message sent back carries the fields the server sent. The same
 * text in both is kept once (`reasoning_content`): read again, a `reasoning` equal to
 * `reasoning_content` is the SDK's own copy, so only a different text can be told apart.
 * Read again (a final completion built from chunks), the value kept.
 */
function reasoningRaw(o: Obj): string | undefined {
  const kept = o['reasoning_raw'];
  if (typeof kept === 'string') return kept;
  const plain = o['reasoning'];
  const content = o['reasoning_content'];
  return typeof plain === 'string' && typeof content === 'string' && plain !== content
    ? plain
    : undefined;
}

/** Mistral Magistral: `{ type: 'thinking', thinking: [{ type: 'text', text }] }` (or a string). */
function thinkingText(parts: unknown[] | undefined): string | undefined {
  if (!parts) return undefined;
  let text: string | undefined;
  for (const part of parts) {
    if (!isObj(part) || part['type'] !== 'thinking') continue;
    const thinking = part['thinking'];
    text =
      (text ?? '') +
      (typeof thinking === 'string'
        ? thinking
        : Array.isArray(thinking)
          ? (partsText(thinking) ?? '')
          : '');
  }
  return text;
}

/** OpenRouter: `[{ type: 'reasoning.text', text }, { type: 'reasoning.summary', summary }, { type: 'reasoning.encrypted', data }]`. */
function detailsText(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  let text: string | undefined;
  for (const block of details) {
    if (!isObj(block)) continue;
    if (block['type'] === 'reasoning.text' && typeof block['text'] === 'string')
      text = (text ?? '') + block['text'];
    else if (block['type'] === 'reasoning.summary' && typeof block['summary'] === 'string')
      text = (text ?? '') + block['summary'];
  }
  return text;
}

/** `x-derive: total-tokens`: the server's total, or prompt plus completion when it sent none. */
function totalTokens(o: Obj): number | undefined {
  const total = o['total_tokens'];
  if (Number.isSafeInteger(total)) return total as number;
  if (total !== undefined && total !== null) return undefined;
  const prompt = o['prompt_tokens'];
  const completion = o['completion_tokens'];
  if (!Number.isSafeInteger(prompt) || !Number.isSafeInteger(completion)) return undefined;
  const sum = (prompt as number) + (completion as number);
  return Number.isSafeInteger(sum) ? sum : undefined;
}

/** `x-sort-by`: order `items` by their numeric `key`, stably, when they are not in order already. */
function sortBy(items: Obj[], key: string): void {
  for (let i = 1; i < items.length; i++) {
    if ((items[i]![key] as number) < (items[i - 1]![key] as number)) {
      items.sort((a, b) => (a[key] as number) - (b[key] as number));
      return;
    }
  }
}

// The field readers: each field of an object that is not on the stream's path (the
// `readChatCompletionChunk…` functions stay written out, field by field, for speed) is one call of
// `field()` with the check of its type; the code is the same as the written-out form, once.

/** The object reader of a schema, as generated: `pos` is the object's index in its array. */
type Reader = (o: Obj, cx: NormalizeContext, pos: number) => void;

/**
 * A check of the present, non-null value `x` of `o[key]`, which records an issue under `key`
 * (`want`: the type's name) or writes a converted value back; `a`, `b`, `c` are its own.
 */
type Check = (
  o: Obj,
  cx: NormalizeContext,
  key: string,
  x: unknown,
  want: string,
  a?: unknown,
  b?: unknown,
  c?: unknown,
) => void;

/**
 * Read `o[key]`. It is none when absent, `null` (unless `mode & 4`: the type allows null),
 * `''` (`mode & 8`) or `[]` (`mode & 16`): then, with `mode & 1`, `fill` is written (and, with
 * `mode & 32`, read as an object by `a`); with `mode & 2`, it is required (`fill`: the type's
 * name); else a present none is deleted. A value (not null) is checked by `check`.
 */
function field(
  o: Obj,
  cx: NormalizeContext,
  key: string,
  mode: number,
  fill: unknown,
  want: string,
  check: Check,
  a?: unknown,
  b?: unknown,
  c?: unknown,
): void {
  const x = o[key];
  if (
    x === undefined ||
    (x === null && !(mode & 4)) ||
    ((mode & 8) !== 0 && x === '') ||
    ((mode & 16) !== 0 && Array.isArray(x) && x.length === 0)
  ) {
    if (mode & 1) {
      o[key] = fill;
      if (mode & 32) (a as Reader)(fill as Obj, cx, 0);
    } else if (mode & 2) issue(cx, key, fill as string, undefined);
    else if (x !== undefined) delete o[key];
  } else if (x !== null) check(o, cx, key, x, want, a, b, c);
}

/** `x-fixed` (required): the field always holds `value`. */
function fixed(o: Obj, key: string, value: string): void {
  if (o[key] !== value) o[key] = value;
}

function str(_o: Obj, cx: NormalizeContext, key: string | number, x: unknown, want: string): void {
  if (typeof x !== 'string') issue(cx, key, want, x);
}

/** A string, or a number read as its `decimal()` string. */
function decimalStr(o: Obj, cx: NormalizeContext, key: string, x: unknown, want: string): void {
  if (typeof x !== 'string') {
    if (typeof x === 'number') o[key] = decimal(x);
    else issue(cx, key, want, x);
  }
}

/** A string, or any other value as its JSON text (`json-text`). */
function jsonStr(o: Obj, _cx: NormalizeContext, key: string, x: unknown): void {
  if (typeof x !== 'string') o[key] = JSON.stringify(x);
}

function int(_o: Obj, cx: NormalizeContext, key: string | number, x: unknown, want: string): void {
  if (!Number.isSafeInteger(x)) issue(cx, key, want, x);
}

/** An integer of Unix seconds, converted by `seconds()` from milliseconds or a fraction. */
function unix(o: Obj, cx: NormalizeContext, key: string, x: unknown, want: string): void {
  if (typeof x !== 'number') issue(cx, key, want, x);
  else if (!Number.isSafeInteger(x) || x >= 1e11) {
    const s = seconds(x);
    if (s === undefined) issue(cx, key, want, x);
    else o[key] = s;
  }
}

function num(_o: Obj, cx: NormalizeContext, key: string | number, x: unknown, want: string): void {
  if (typeof x !== 'number') issue(cx, key, want, x);
}

function bool(_o: Obj, cx: NormalizeContext, key: string | number, x: unknown, want: string): void {
  if (typeof x !== 'boolean') issue(cx, key, want, x);
}

/** Any value. */
function anyValue(): void {}

/** An object read by `read`; its issues go under `key`. */
function obj(
  _o: Obj,
  cx: NormalizeContext,
  key: string,
  x: unknown,
  want: string,
  read?: unknown,
): void {
  if (isObj(x)) {
    const n = cx.issues.length;
    (read as Reader)(x, cx, 0);
    if (cx.issues.length !== n) at(cx, n, key);
  } else issue(cx, key, want, x);
}

/**
 * An array of objects, each read by `read` (`item`: their type's name), with the issues under
 * the index, then `key`; without issues, ordered by `sort` (`x-sort-by`) when given.
 */
function objs(
  _o: Obj,
  cx: NormalizeContext,
  key: string,
  x: unknown,
  want: string,
  read?: unknown,
  item?: unknown,
  sort?: unknown,
): void {
  if (Array.isArray(x)) {
    const n = cx.issues.length;
    for (let i = 0; i < x.length; i++) {
      const y: unknown = x[i];
      if (isObj(y)) {
        const m = cx.issues.length;
        (read as Reader)(y, cx, i);
        if (cx.issues.length !== m) at(cx, m, i);
      } else issue(cx, i, item as string, y);
    }
    if (cx.issues.length !== n) at(cx, n, key);
    else if (sort !== undefined && x.length > 1) sortBy(x as Obj[], sort as string);
  } else issue(cx, key, want, x);
}

/** An array of values, each checked by `check` (`item`: their type's name), with the issues under the index, then `key`. */
function vals(
  o: Obj,
  cx: NormalizeContext,
  key: string,
  x: unknown,
  want: string,
  check?: unknown,
  item?: unknown,
): void {
  if (Array.isArray(x)) {
    const n = cx.issues.length;
    for (let i = 0; i < x.length; i++)
      (check as (o: Obj, cx: NormalizeContext, key: number, x: unknown, want: string) => void)(
        o,
        cx,
        i,
        x[i],
        item as string,
      );
    if (cx.issues.length !== n) at(cx, n, key);
  } else issue(cx, key, want, x);
}

// Used by the generated functions below; exported for the tests of the rules themselves.
// The field readers, used only by the generated functions (exported so that this file, linted on its own, uses them).
export { anyValue, bool, decimalStr, field, fixed, int, jsonStr, num, obj, objs, str, unix, vals };
export {
  at,
  contentParts,
  decimal,
  isObj,
  issue,
  partsText,
  reasoning,
  reasoningRaw,
  seconds,
  sortBy,
  totalTokens,
  typeName,
};

/** `x-synonyms` of `FinishReason`: the value a wire string is read as, or `undefined` for itself. */
function FinishReasonSynonym(value: string): string | null | undefined {
  switch (value) {
    case 'eos':
      return 'stop';
    case 'eos_token':
      return 'stop';
    case 'end_turn':
      return 'stop';
    case 'stop_sequence':
      return 'stop';
    case 'model_length':
      return 'length';
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case '':
      return null;
    default:
      return undefined;
  }
}

/** Read a parsed `ChatCompletion` response into its declared shape, in place; problems go to `cx.issues`. */
export function normalizeChatCompletion(value: unknown, cx: NormalizeContext): ChatCompletion {
  if (isObj(value)) readChatCompletion(value, cx, 0);
  else
    cx.issues.push({
      path: [],
      message: `expected object, got ${typeName(value)}`,
      received: value,
    });
  return value as ChatCompletion;
}

/** Read a parsed `ChatCompletionChunk` response into its declared shape, in place; problems go to `cx.issues`. */
export function normalizeChatCompletionChunk(
  value: unknown,
  cx: NormalizeContext,
): ChatCompletionChunk {
  if (isObj(value)) readChatCompletionChunk(value, cx, 0);
  else
    cx.issues.push({
      path: [],
      message: `expected object, got ${typeName(value)}`,
      received: value,
    });
  return value as ChatCompletionChunk;
}

/** Read a parsed `Completion` response into its declared shape, in place; problems go to `cx.issues`. */
export function normalizeCompletion(value: unknown, cx: NormalizeContext): Completion {
  if (isObj(value)) readCompletion(value, cx, 0);
  else
    cx.issues.push({
      path: [],
      message: `expected object, got ${typeName(value)}`,
      received: value,
    });
  return value as Completion;
}

/** Read a parsed `Model` response into its declared shape, in place; problems go to `cx.issues`. */
export function normalizeModel(value: unknown, cx: NormalizeContext): Model {
  if (isObj(value)) readModel(value, cx, 0);
  else
    cx.issues.push({
      path: [],
      message: `expected object, got ${typeName(value)}`,
      received: value,
    });
  return value as Model;
}

/** Read a parsed `ModelList` response into its declared shape, in place; problems go to `cx.issues`. */
export function normalizeModelList(value: unknown, cx: NormalizeContext): ModelList {
  if (isObj(value)) readModelList(value, cx, 0);
  else
    cx.issues.push({
      path: [],
      message: `expected object, got ${typeName(value)}`,
      received: value,
    });
  return value as ModelList;
}

function readChatCompletion(o: Obj, cx: NormalizeContext, _pos: number): void {
  // id
  field(o, cx, 'id', 1, '', 'string', str);
  // object
  fixed(o, 'object', 'chat.completion');
  // created
  field(o, cx, 'created', 1, 0, 'number', unix);
  // model
  field(o, cx, 'model', 1, '', 'string', str);
  // choices
  field(o, cx, 'choices', 2, 'array', 'array', objs, readChatCompletionChoice, 'object', 'index');
  // usage
  field(o, cx, 'usage', 5, null, 'object', obj, readCompletionUsage);
  // system_fingerprint
  field(o, cx, 'system_fingerprint', 4, 0, 'string', str);
  // service_tier
  field(o, cx, 'service_tier', 4, 0, 'string', str);
}

function readChatCompletionAnnotation(o: Obj, cx: NormalizeContext, _pos: number): void {
  // type
  field(o, cx, 'type', 2, 'string', 'string', str);
  // url_citation
  field(o, cx, 'url_citation', 0, 0, 'object', obj, readChatCompletionAnnotation_url_citation);
}

function readChatCompletionAnnotation_url_citation(
  o: Obj,
  cx: NormalizeContext,
  _pos: number,
): void {
  // url
  field(o, cx, 'url', 0, 0, 'string', str);
  // title
  field(o, cx, 'title', 0, 0, 'string', str);
  // start_index
  field(o, cx, 'start_index', 0, 0, 'integer', int);
  // end_index
  field(o, cx, 'end_index', 0, 0, 'integer', int);
}

function readChatCompletionChoice(o: Obj, cx: NormalizeContext, pos: number): void {
  let x: unknown;
  // index
  field(o, cx, 'index', 1, pos, 'integer', int);
  // message
  field(o, cx, 'message', 33, {}, 'object', obj, readChatCompletionMessage);
  // finish_reason
  x = o['finish_reason'];
  if (typeof x === 'string') {
    const s = FinishReasonSynonym(x);
    if (s !== undefined) {
      x = s;
      o['finish_reason'] = s;
    }
  }
  field(o, cx, 'finish_reason', 5, null, 'string', str);
  // logprobs
  field(o, cx, 'logprobs', 5, null, 'object', obj, readChatCompletionChoiceLogprobs);
}

function readChatCompletionChoiceLogprobs(o: Obj, cx: NormalizeContext, _pos: number): void {
  // content
  field(o, cx, 'content', 5, null, 'array', objs, readChatCompletionTokenLogprob, 'object');
  // refusal
  field(o, cx, 'refusal', 5, null, 'array', objs, readChatCompletionTokenLogprob, 'object');
}

function readChatCompletionChunk(o: Obj, cx: NormalizeContext, _pos: number): void {
  let x: unknown;
  let n: number;
  // id
  x = o['id'];
  if (x === undefined || x === null) {
    o['id'] = '';
  } else {
    if (typeof x !== 'string') {
      issue(cx, 'id', 'string', x);
    }
  }
  // object
  x = o['object'];
  if (x !== 'chat.completion.chunk') o['object'] = 'chat.completion.chunk';
  // created
  x = o['created'];
  if (x === undefined || x === null) {
    o['created'] = 0;
  } else {
    if (typeof x !== 'number') issue(cx, 'created', 'number', x);
    else if (!Number.isSafeInteger(x) || x >= 1e11) {
      const s = seconds(x);
      if (s === undefined) issue(cx, 'created', 'number', x);
      else o['created'] = s;
    }
  }
  // model
  x = o['model'];
  if (x === undefined || x === null) {
    o['model'] = '';
  } else {
    if (typeof x !== 'string') {
      issue(cx, 'model', 'string', x);
    }
  }
  // choices
  x = o['choices'];
  if (x === undefined || x === null) {
    o['choices'] = [];
  } else {
    if (Array.isArray(x)) {
      n = cx.issues.length;
      for (let i = 0; i < x.length; i++) {
        const y = x[i];
        if (isObj(y)) {
          const m = cx.issues.length;
          readChatCompletionChunkChoice(y, cx, i);
          if (cx.issues.length !== m) at(cx, m, i);
        } else issue(cx, i, 'object', y);
      }
      if (cx.issues.length !== n) at(cx, n, 'choices');
      else if (x.length > 1) sortBy(x as Obj[], 'index');
    } else issue(cx, 'choices', 'array', x);
  }
  // usage
  x = o['usage'];
  if (x !== undefined && x !== null) {
    if (isObj(x)) {
      n = cx.issues.length;
      readCompletionUsage(x, cx, 0);
      if (cx.issues.length !== n) at(cx, n, 'usage');
    } else issue(cx, 'usage', 'object', x);
  }
  // system_fingerprint
  x = o['system_fingerprint'];
  if (x !== undefined && x !== null) {
    if (typeof x !== 'string') {
      issue(cx, 'system_fingerprint', 'string', x);
    }
  }
  // service_tier
  x = o['service_tier'];
  if (x !== undefined && x !== null) {
    if (typeof x !== 'string') {
      issue(cx, 'service_tier', 'string', x);
    }
  }
}

function readChatCompletionChunkChoice(o: Obj, cx: NormalizeContext, pos: number): void {
  let x: unknown;
  let n: number;
  // index
  x = o['index'];
  if (x === undefined || x === null) {
    o['index'] = pos;
  } else {
    if (!Number.isSafeInteger(x)) issue(cx, 'index', 'integer', x);
  }
  // delta
  x = o['delta'];
  if (x === undefined || x === null) {
    const y: Obj = {};
    o['delta'] = y;
    readChatCompletionChunkDelta(y, cx, 0);
  } else {
    if (isObj(x)) {
      n = cx.issues.length;
      readChatCompletionChunkDelta(x, cx, 0);
      if (cx.issues.length !== n) at(cx, n, 'delta');
    } else issue(cx, 'delta', 'object', x);
  }
  // finish_reason
  x = o['finish_reason'];
  if (typeof x === 'string') {
    const s = FinishReasonSynonym(x);
    if (s !== undefined) {
      x = s;
      o['finish_reason'] = s;
    }
  }
  if (x === undefined) {
    o['finish_reason'] = null;
  } else if (x !== null) {
    if (typeof x !== 'string') {
      issue(cx, 'finish_reason', 'string', x);
    }
  }
  // logprobs
  x = o['logprobs'];
  if (x !== undefined && x !== null) {
    if (isObj(x)) {
      n = cx.issues.length;
      readChatCompletionChoiceLogprobs(x, cx, 0);
      if (cx.issues.length !== n) at(cx, n, 'logprobs');
    } else issue(cx, 'logprobs', 'object', x);
  }
}

function readChatCompletionChunkDelta(o: Obj, cx: NormalizeContext, _pos: number): void {
  let x: unknown;
  let n: number;
  // reasoning_content
  x = o['reasoning_content'];
  if (x !== undefined && x !== null) {
    if (typeof x !== 'string') {
      issue(cx, 'reasoning_content', 'string', x);
    }
  }
  // reasoning_details
  x = o['reasoning_details'];
  if (x !== undefined && x !== null) {
    if (Array.isArray(x)) {
      n = cx.issues.length;
      for (let i = 0; i < x.length; i++) {
        const y = x[i];
        if (isObj(y)) {
          const m = cx.issues.length;
          readReasoningDetail(y, cx, i);
          if (cx.issues.length !== m) at(cx, m, i);
        } else issue(cx, i, 'object', y);
      }
      if (cx.issues.length !== n) at(cx, n, 'reasoning_details');
    } else issue(cx, 'reasoning_details', 'array', x);
  }
  // reasoning: x-derive reasoning
  x = o['reasoning'];
  if (x !== undefined && x !== null && !(typeof x === 'string'))
    issue(cx, 'reasoning', 'string', x);
  const d0 = reasoning(o);
  // reasoning_raw: x-derive reasoning-raw
  x = o['reasoning_raw'];
  if (x !== undefined && x !== null && !(typeof x === 'string'))
    issue(cx, 'reasoning_raw', 'string', x);
  const d1 = reasoningRaw(o);
  // content_parts: x-derive content-parts
  x = o['content_parts'];
  if (x !== undefined && x !== null && !Array.isArray(x)) issue(cx, 'content_parts', 'array', x);
  const d2 = contentParts(o);
  // role
  x = o['role'];
  if (x === undefined || x === null || x === '') {
    if (x !== undefined) delete o['role'];
  } else if (x !== 'assistant') o['role'] = 'assistant';
  // content
  x = o['content'];
  if (x === undefined || x === null) {
    if (o['content'] !== undefined) delete o['content'];
  } else {
    if (Array.isArray(x)) {
      n = cx.issues.length;
      for (let i = 0; i < x.length; i++) {
        const y = x[i];
        if (isObj(y)) {
          const m = cx.issues.length;
          readChatCompletionResponseContentPart(y, cx, i);
          if (cx.issues.length !== m) at(cx, m, i);
        } else issue(cx, i, 'object', y);
      }
      if (cx.issues.length !== n) at(cx, n, 'content');
      else {
        const t = partsText(x);
        if (t === undefined) delete o['content'];
        else o['content'] = t;
      }
    } else if (typeof x !== 'string') issue(cx, 'content', 'string, null or array', x);
  }
  // refusal
  x = o['refusal'];
  if (x === undefined || x === null || x === '') {
    if (o['refusal'] !== undefined) delete o['refusal'];
  } else {
    if (typeof x !== 'string') {
      issue(cx, 'refusal', 'string', x);
    }
  }
  // tool_calls
  x = o['tool_calls'];
  if (x === undefined || x === null || (Array.isArray(x) && x.length === 0)) {
    if (o['tool_calls'] !== undefined) delete o['tool_calls'];
  } else {
    if (Array.isArray(x)) {
      n = cx.issues.length;
      for (let i = 0; i < x.length; i++) {
        const y = x[i];
        if (isObj(y)) {
          const m = cx.issues.length;
          readChatCompletionChunkToolCall(y, cx, i);
          if (cx.issues.length !== m) at(cx, m, i);
        } else issue(cx, i, 'object', y);
      }
      if (cx.issues.length !== n) at(cx, n, 'tool_calls');
    } else issue(cx, 'tool_calls', 'array', x);
  }
  // function_call
  x = o['function_call'];
  if (x === undefined || x === null) {
    if (o['function_call'] !== undefined) delete o['function_call'];
  } else {
    if (isObj(x)) {
      n = cx.issues.length;
      readChatCompletionChunkToolCallFunction(x, cx, 0);
      if (cx.issues.length !== n) at(cx, n, 'function_call');
    } else issue(cx, 'function_call', 'object', x);
  }
  // annotations
  x = o['annotations'];
  if (x === undefined || x === null) {
    if (o['annotations'] !== undefined) delete o['annotations'];
  } else {
    if (Array.isArray(x)) {
      n = cx.issues.length;
      for (let i = 0; i < x.length; i++) {
        const y = x[i];
        if (isObj(y)) {
          const m = cx.issues.length;
          readChatCompletionAnnotation(y, cx, i);
          if (cx.issues.length !== m) at(cx, m, i);
        } else issue(cx, i, 'object', y);
      }
      if (cx.issues.length !== n) at(cx, n, 'annotations');
    } else issue(cx, 'annotations', 'array', x);
  }
  if (d0 !== undefined) {
    if (o['reasoning'] !== d0) o['reasoning'] = d0;
  } else if (o['reasoning'] !== undefined) delete o['reasoning'];
  if (d1 !== undefined) {
    if (o['reasoning_raw'] !== d1) o['reasoning_raw'] = d1;
  } else if (o['reasoning_raw'] !== undefined) delete o['reasoning_raw'];
  if (d2 !== undefined) {
    if (o['content_parts'] !== d2) o['content_parts'] = d2;
  } else if (o['content_parts'] !== undefined) delete o['content_parts'];
}

function readChatCompletionChunkToolCall(o: Obj, cx: NormalizeContext, pos: number): void {
  let x: unknown;
  let n: number;
  // index
  x = o['index'];
  if (x === undefined || x === null) {
    o['index'] = pos;
  } else {
    if (!Number.isSafeInteger(x)) issue(cx, 'index', 'integer', x);
  }
  // id
  x = o['id'];
  if (x === undefined || x === null || x === '') {
    if (o['id'] !== undefined) delete o['id'];
  } else {
    if (typeof x !== 'string') {
      issue(cx, 'id', 'string', x);
    }
  }
  // type
  x = o['type'];
  if (x === undefined || x === null) {
    if (x !== undefined) delete o['type'];
  } else if (x !== 'function') o['type'] = 'function';
  // function
  x = o['function'];
  if (x === undefined || x === null) {
    if (o['function'] !== undefined) delete o['function'];
  } else {
    if (isObj(x)) {
      n = cx.issues.length;
      readChatCompletionChunkToolCallFunction(x, cx, 0);
      if (cx.issues.length !== n) at(cx, n, 'function');
    } else issue(cx, 'function', 'object', x);
  }
}

function readChatCompletionChunkToolCallFunction(o: Obj, cx: NormalizeContext, _pos: number): void {
  let x: unknown;
  // name
  x = o['name'];
  if (x === undefined || x === null || x === '') {
    if (o['name'] !== undefined) delete o['name'];
  } else {
    if (typeof x !== 'string') {
      issue(cx, 'name', 'string', x);
    }
  }
  // arguments
  x = o['arguments'];
  if (x === undefined || x === null) {
    if (o['arguments'] !== undefined) delete o['arguments'];
  } else {
    if (typeof x !== 'string') {
      o['arguments'] = JSON.stringify(x);
    }
  }
}

function readChatCompletionMessage(o: Obj, cx: NormalizeContext, _pos: number): void {
  let x: unknown;
  let n: number;
  // reasoning_content
  field(o, cx, 'reasoning_content', 4, 0, 'string', str);
  // reasoning_details
  field(o, cx, 'reasoning_details', 4, 0, 'array', objs, readReasoningDetail, 'object');
  // reasoning: x-derive reasoning
  x = o['reasoning'];
  if (x !== undefined && x !== null && !(typeof x === 'string'))
    issue(cx, 'reasoning', 'string', x);
  const d0 = reasoning(o);
  // reasoning_raw: x-derive reasoning-raw
  x = o['reasoning_raw'];
  if (x !== undefined && x !== null && !(typeof x === 'string'))
    issue(cx, 'reasoning_raw', 'string', x);
  const d1 = reasoningRaw(o);
  // content_parts: x-derive content-parts
  x = o['content_parts'];
  if (x !== undefined && x !== null && !Array.isArray(x)) issue(cx, 'content_parts', 'array', x);
  const d2 = contentParts(o);
  // role
  fixed(o, 'role', 'assistant');
  // content
  x = o['content'];
  if (x === undefined) {
    o['content'] = null;
  } else if (x !== null) {
    if (Array.isArray(x)) {
      n = cx.issues.length;
      for (let i = 0; i < x.length; i++) {
        const y = x[i];
        if (isObj(y)) {
          const m = cx.issues.length;
          readChatCompletionResponseContentPart(y, cx, i);
          if (cx.issues.length !== m) at(cx, m, i);
        } else issue(cx, i, 'object', y);
      }
      if (cx.issues.length !== n) at(cx, n, 'content');
      else {
        const t = partsText(x);
        o['content'] = t === undefined ? null : t;
      }
    } else if (typeof x !== 'string') issue(cx, 'content', 'string, null or array', x);
  }
  // refusal
  field(o, cx, 'refusal', 13, null, 'string', str);
  // tool_calls
  field(o, cx, 'tool_calls', 16, 0, 'array', objs, readChatCompletionMessageToolCall, 'object');
  // function_call
  field(o, cx, 'function_call', 4, 0, 'object', obj, readChatCompletionMessageToolCallFunction);
  // annotations
  field(o, cx, 'annotations', 0, 0, 'array', objs, readChatCompletionAnnotation, 'object');
  if (d0 !== undefined) {
    if (o['reasoning'] !== d0) o['reasoning'] = d0;
  } else if (o['reasoning'] !== undefined) delete o['reasoning'];
  if (d1 !== undefined) {
    if (o['reasoning_raw'] !== d1) o['reasoning_raw'] = d1;
  } else if (o['reasoning_raw'] !== undefined) delete o['reasoning_raw'];
  if (d2 !== undefined) {
    if (o['content_parts'] !== d2) o['content_parts'] = d2;
  } else if (o['content_parts'] !== undefined) delete o['content_parts'];
}

function readChatCompletionMessageToolCall(o: Obj, cx: NormalizeContext, _pos: number): void {
  // id
  field(o, cx, 'id', 1, '', 'string', str);
  // type
  fixed(o, 'type', 'function');
  // function
  field(o, cx, 'function', 2, 'object', 'object', obj, readChatCompletionMessageToolCallFunction);
}

function readChatCompletionMessageToolCallFunction(
  o: Obj,
  cx: NormalizeContext,
  _pos: number,
): void {
  // name
  field(o, cx, 'name', 2, 'string', 'string', str);
  // arguments
  field(o, cx, 'arguments', 9, '{}', 'string', jsonStr);
}

function readChatCompletionResponseContentPart(o: Obj, cx: NormalizeContext, _pos: number): void {
  // type
  field(o, cx, 'type', 2, 'string', 'string', str);
  // text
  field(o, cx, 'text', 0, 0, 'string', str);
}

function readChatCompletionTokenLogprob(o: Obj, cx: NormalizeContext, _pos: number): void {
  // token
  field(o, cx, 'token', 2, 'string', 'string', str);
  // logprob
  field(o, cx, 'logprob', 2, 'number', 'number', num);
  // bytes
  field(o, cx, 'bytes', 5, null, 'array', vals, int, 'integer');
  // top_logprobs
  field(o, cx, 'top_logprobs', 1, [], 'array', objs, readChatCompletionTopLogprob, 'object');
}

function readChatCompletionTopLogprob(o: Obj, cx: NormalizeContext, _pos: number): void {
  // token
  field(o, cx, 'token', 2, 'string', 'string', str);
  // logprob
  field(o, cx, 'logprob', 2, 'number', 'number', num);
  // bytes
  field(o, cx, 'bytes', 5, null, 'array', vals, int, 'integer');
}

function readCompletion(o: Obj, cx: NormalizeContext, _pos: number): void {
  // id
  field(o, cx, 'id', 1, '', 'string', str);
  // object
  fixed(o, 'object', 'text_completion');
  // created
  field(o, cx, 'created', 1, 0, 'number', unix);
  // model
  field(o, cx, 'model', 1, '', 'string', str);
  // choices
  field(o, cx, 'choices', 2, 'array', 'array', objs, readCompletionChoice, 'object', 'index');
  // usage
  field(o, cx, 'usage', 5, null, 'object', obj, readCompletionUsage);
  // system_fingerprint
  field(o, cx, 'system_fingerprint', 4, 0, 'string', str);
}

function readCompletionChoice(o: Obj, cx: NormalizeContext, pos: number): void {
  let x: unknown;
  // index
  field(o, cx, 'index', 1, pos, 'integer', int);
  // text
  field(o, cx, 'text', 1, '', 'string', str);
  // finish_reason
  x = o['finish_reason'];
  if (typeof x === 'string') {
    const s = FinishReasonSynonym(x);
    if (s !== undefined) {
      x = s;
      o['finish_reason'] = s;
    }
  }
  field(o, cx, 'finish_reason', 5, null, 'string', str);
  // logprobs
  field(o, cx, 'logprobs', 5, null, 'object', obj, readCompletionLogprobs);
}

function readCompletionLogprobs(o: Obj, cx: NormalizeContext, _pos: number): void {
  let x: unknown;
  let n: number;
  // tokens
  field(o, cx, 'tokens', 0, 0, 'array', vals, str, 'string');
  // token_logprobs
  x = o['token_logprobs'];
  if (x === undefined || x === null) {
    if (o['token_logprobs'] !== undefined) delete o['token_logprobs'];
  } else {
    if (Array.isArray(x)) {
      n = cx.issues.length;
      for (let i = 0; i < x.length; i++) {
        const y = x[i];
        if (y !== null && !(typeof y === 'number')) issue(cx, i, 'number or null', y);
      }
      if (cx.issues.length !== n) at(cx, n, 'token_logprobs');
    } else issue(cx, 'token_logprobs', 'array', x);
  }
  // top_logprobs
  x = o['top_logprobs'];
  if (x === undefined || x === null) {
    if (o['top_logprobs'] !== undefined) delete o['top_logprobs'];
  } else {
    if (Array.isArray(x)) {
      n = cx.issues.length;
      for (let i = 0; i < x.length; i++) {
        const y = x[i];
        if (
          y !== null &&
          !(isObj(y) && Object.values(y).every((z: unknown) => typeof z === 'number'))
        )
          issue(cx, i, 'object or null', y);
      }
      if (cx.issues.length !== n) at(cx, n, 'top_logprobs');
    } else issue(cx, 'top_logprobs', 'array', x);
  }
  // text_offset
  field(o, cx, 'text_offset', 0, 0, 'array', vals, int, 'integer');
}

function readCompletionTokensDetails(o: Obj, cx: NormalizeContext, _pos: number): void {
  // reasoning_tokens
  field(o, cx, 'reasoning_tokens', 0, 0, 'integer', int);
  // audio_tokens
  field(o, cx, 'audio_tokens', 0, 0, 'integer', int);
  // accepted_prediction_tokens
  field(o, cx, 'accepted_prediction_tokens', 0, 0, 'integer', int);
  // rejected_prediction_tokens
  field(o, cx, 'rejected_prediction_tokens', 0, 0, 'integer', int);
}

function readCompletionUsage(o: Obj, cx: NormalizeContext, _pos: number): void {
  let x: unknown;
  // total_tokens: x-derive total-tokens
  x = o['total_tokens'];
  if (x !== undefined && x !== null && !Number.isSafeInteger(x))
    issue(cx, 'total_tokens', 'integer', x);
  const d0 = totalTokens(o);
  // prompt_tokens
  field(o, cx, 'prompt_tokens', 2, 'integer', 'integer', int);
  // completion_tokens
  field(o, cx, 'completion_tokens', 2, 'integer', 'integer', int);
  // prompt_tokens_details
  field(o, cx, 'prompt_tokens_details', 0, 0, 'object', obj, readPromptTokensDetails);
  // completion_tokens_details
  field(o, cx, 'completion_tokens_details', 0, 0, 'object', obj, readCompletionTokensDetails);
  if (d0 !== undefined) {
    if (o['total_tokens'] !== d0) o['total_tokens'] = d0;
  } else if (o['total_tokens'] === undefined || o['total_tokens'] === null)
    issue(cx, 'total_tokens', 'integer', undefined);
}

function readModel(o: Obj, cx: NormalizeContext, _pos: number): void {
  let x: unknown;
  let n: number;
  // id
  field(o, cx, 'id', 2, 'string', 'string', str);
  // object
  fixed(o, 'object', 'model');
  // created
  field(o, cx, 'created', 0, 0, 'number', unix);
  // owned_by
  field(o, cx, 'owned_by', 0, 0, 'string', str);
  // name
  field(o, cx, 'name', 0, 0, 'string', str);
  // context_length
  x = o['context_length'];
  if (o['max_model_len'] !== undefined && o['max_model_len'] !== null) {
    if (!Number.isSafeInteger(o['max_model_len']))
      issue(cx, 'max_model_len', 'integer', o['max_model_len']);
    else if (x === undefined || x === null) {
      x = o['max_model_len'];
      o['context_length'] = x;
    }
  }
  field(o, cx, 'context_length', 0, 0, 'integer', int);
  // max_output_length
  field(o, cx, 'max_output_length', 0, 0, 'integer', int);
  // input_modalities
  field(o, cx, 'input_modalities', 0, 0, 'array', vals, str, 'string');
  // output_modalities
  field(o, cx, 'output_modalities', 0, 0, 'array', vals, str, 'string');
  // supported_features
  field(o, cx, 'supported_features', 0, 0, 'array', vals, str, 'string');
  // pricing
  x = o['pricing'];
  if (x === undefined || x === null) {
    if (o['pricing'] !== undefined) delete o['pricing'];
  } else {
    if (isObj(x)) {
      x = [x];
      o['pricing'] = x;
    }
    if (Array.isArray(x)) {
      n = cx.issues.length;
      for (let i = 0; i < x.length; i++) {
        const y = x[i];
        if (isObj(y)) {
          const m = cx.issues.length;
          readModelPricing(y, cx, i);
          if (cx.issues.length !== m) at(cx, m, i);
        } else issue(cx, i, 'object', y);
      }
      if (cx.issues.length !== n) at(cx, n, 'pricing');
    } else issue(cx, 'pricing', 'array or object', x);
  }
  // is_ready
  field(o, cx, 'is_ready', 0, 0, 'boolean', bool);
}

function readModelList(o: Obj, cx: NormalizeContext, _pos: number): void {
  // object
  fixed(o, 'object', 'list');
  // data
  field(o, cx, 'data', 2, 'array', 'array', objs, readModel, 'object');
}

function readModelPricing(o: Obj, cx: NormalizeContext, _pos: number): void {
  let x: unknown;
  // prompt
  x = o['prompt'];
  if (o['input'] !== undefined && o['input'] !== null) {
    if (!(typeof o['input'] === 'string' || typeof o['input'] === 'number'))
      issue(cx, 'input', 'string or number', o['input']);
    else if (x === undefined || x === null) {
      x = o['input'];
      o['prompt'] = x;
    }
  }
  field(o, cx, 'prompt', 0, 0, 'string or number', decimalStr);
  // completion
  x = o['completion'];
  if (o['output'] !== undefined && o['output'] !== null) {
    if (!(typeof o['output'] === 'string' || typeof o['output'] === 'number'))
      issue(cx, 'output', 'string or number', o['output']);
    else if (x === undefined || x === null) {
      x = o['output'];
      o['completion'] = x;
    }
  }
  field(o, cx, 'completion', 0, 0, 'string or number', decimalStr);
  // input_cache_read
  x = o['input_cache_read'];
  if (o['cache_read'] !== undefined && o['cache_read'] !== null) {
    if (!(typeof o['cache_read'] === 'string' || typeof o['cache_read'] === 'number'))
      issue(cx, 'cache_read', 'string or number', o['cache_read']);
    else if (x === undefined || x === null) {
      x = o['cache_read'];
      o['input_cache_read'] = x;
    }
  }
  field(o, cx, 'input_cache_read', 0, 0, 'string or number', decimalStr);
  // input_cache_write
  x = o['input_cache_write'];
  if (o['cache_write'] !== undefined && o['cache_write'] !== null) {
    if (!(typeof o['cache_write'] === 'string' || typeof o['cache_write'] === 'number'))
      issue(cx, 'cache_write', 'string or number', o['cache_write']);
    else if (x === undefined || x === null) {
      x = o['cache_write'];
      o['input_cache_write'] = x;
    }
  }
  field(o, cx, 'input_cache_write', 0, 0, 'string or number', decimalStr);
  // unit
  field(o, cx, 'unit', 0, 0, 'string', str);
}

function readPromptTokensDetails(o: Obj, cx: NormalizeContext, _pos: number): void {
  // cached_tokens
  field(o, cx, 'cached_tokens', 0, 0, 'integer', int);
  // audio_tokens
  field(o, cx, 'audio_tokens', 0, 0, 'integer', int);
}

function readReasoningDetail(o: Obj, cx: NormalizeContext, _pos: number): void {
  // type
  field(o, cx, 'type', 4, 0, 'string', str);
  // text
  field(o, cx, 'text', 4, 0, 'string', str);
  // summary
  field(o, cx, 'summary', 4, 0, 'string', str);
}
