// The runtime of the generated normalizer: the named conversions and rules that spec/openapi.yaml's
// `x-convert` and `x-derive` refer to, and the bookkeeping of issues. scripts/generate.ts copies
// this file, below the marker line, into src/generated/normalize.gen.ts, so that the generated
// code depends on nothing but itself; it is written here, once, and tested through the SDK.
// --- copied into normalize.gen.ts below this line ---

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
function issue(cx: NormalizeContext, key: string | number, expected: string, received: unknown): void {
  const message = received === undefined ? `required ${expected} is missing` : `expected ${expected}, got ${typeName(received)}`;
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
  const point = (text.slice(sign.length, e).indexOf('.') + 1 || e - sign.length + 1) - 1 + Number(text.slice(e + 1));
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
    if (isObj(part) && part['type'] === 'text' && typeof part['text'] === 'string') text = (text ?? '') + part['text'];
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
  return typeof plain === 'string' && typeof content === 'string' && plain !== content ? plain : undefined;
}

/** Mistral Magistral: `{ type: 'thinking', thinking: [{ type: 'text', text }] }` (or a string). */
function thinkingText(parts: unknown[] | undefined): string | undefined {
  if (!parts) return undefined;
  let text: string | undefined;
  for (const part of parts) {
    if (!isObj(part) || part['type'] !== 'thinking') continue;
    const thinking = part['thinking'];
    text = (text ?? '') + (typeof thinking === 'string' ? thinking : Array.isArray(thinking) ? (partsText(thinking) ?? '') : '');
  }
  return text;
}

/** OpenRouter: `[{ type: 'reasoning.text', text }, { type: 'reasoning.summary', summary }, { type: 'reasoning.encrypted', data }]`. */
function detailsText(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  let text: string | undefined;
  for (const block of details) {
    if (!isObj(block)) continue;
    if (block['type'] === 'reasoning.text' && typeof block['text'] === 'string') text = (text ?? '') + block['text'];
    else if (block['type'] === 'reasoning.summary' && typeof block['summary'] === 'string') text = (text ?? '') + block['summary'];
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
type Check = (o: Obj, cx: NormalizeContext, key: string, x: unknown, want: string, a?: unknown, b?: unknown, c?: unknown) => void;

/**
 * Read `o[key]`. It is none when absent, `null` (unless `mode & 4`: the type allows null),
 * `''` (`mode & 8`) or `[]` (`mode & 16`): then, with `mode & 1`, `fill` is written (and, with
 * `mode & 32`, read as an object by `a`); with `mode & 2`, it is required (`fill`: the type's
 * name); else a present none is deleted. A value (not null) is checked by `check`.
 */
function field(o: Obj, cx: NormalizeContext, key: string, mode: number, fill: unknown, want: string, check: Check, a?: unknown, b?: unknown, c?: unknown): void {
  const x = o[key];
  if (x === undefined || (x === null && !(mode & 4)) || ((mode & 8) !== 0 && x === '') || ((mode & 16) !== 0 && Array.isArray(x) && x.length === 0)) {
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
function obj(_o: Obj, cx: NormalizeContext, key: string, x: unknown, want: string, read?: unknown): void {
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
function objs(_o: Obj, cx: NormalizeContext, key: string, x: unknown, want: string, read?: unknown, item?: unknown, sort?: unknown): void {
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
function vals(o: Obj, cx: NormalizeContext, key: string, x: unknown, want: string, check?: unknown, item?: unknown): void {
  if (Array.isArray(x)) {
    const n = cx.issues.length;
    for (let i = 0; i < x.length; i++) (check as (o: Obj, cx: NormalizeContext, key: number, x: unknown, want: string) => void)(o, cx, i, x[i], item as string);
    if (cx.issues.length !== n) at(cx, n, key);
  } else issue(cx, key, want, x);
}

// Used by the generated functions below; exported for the tests of the rules themselves.
// The field readers, used only by the generated functions (exported so that this file, linted on its own, uses them).
export { anyValue, bool, decimalStr, field, fixed, int, jsonStr, num, obj, objs, str, unix, vals };
export { at, contentParts, decimal, isObj, issue, partsText, reasoning, reasoningRaw, seconds, sortBy, totalTokens, typeName };
