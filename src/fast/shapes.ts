/**
 * Building blocks of the fast paths: hand-written checks that do what the generated zod/mini
 * schemas do for the shapes servers actually send, ten to twenty times faster (no per-field
 * payload objects, no issue arrays, no copy when the copy would be the same). A check returns
 * the value zod would return, or `undefined` for "not sure": the caller then gives the whole
 * value to the schema, so every error (and its message) still comes from zod.
 *
 * What zod/mini returns (zod 4, `core/schemas.js`), and so what these return:
 * - a loose object is any non-array object; zod's output is a new object with the declared keys
 *   first, in declaration order, then the other keys in `for…in` order, their values as they are
 *   (`z.unknown()` catchall), `__proto__` dropped. An input that already has that shape (keys in
 *   that order, no `__proto__`, nothing nested rebuilt; the service's own chunks) is returned as
 *   it is; any other is copied in zod's order (most other servers put `logprobs` before
 *   `finish_reason`, or `system_fingerprint` before `choices`);
 * - a declared key is present when `key in input`; `exactOptional` lets it be absent, never
 *   `undefined`. Here a declared key that reads `undefined` counts as absent, and `settle`, which
 *   walks every key anyway, sends an object whose declared key holds `undefined` to the schema
 *   (an `in` test per absent key cost more than the rest of the check);
 * - `z.number()` is a finite number; `z.int()` also a safe integer; arrays come out with the
 *   same items (here: the same array, unless an item was rebuilt).
 * The checks accept less than zod (plain objects only, whose keys are enumerable data properties,
 * as `JSON.parse` makes them); the property tests in test/fast-path.test.ts hold them to the
 * schemas, key order included.
 */

/** A plain object, as `JSON.parse` makes them. */
export type Obj = Record<string, unknown>;

/** The declared keys of a loose object, in declaration order (the order of zod's output). */
export interface Layout {
  readonly keys: readonly string[];
  readonly index: ReadonlyMap<string, number>;
  /**
   * Copies the declared keys that are present, in order, with constant property names: for the
   * objects of every chunk, several times faster than the generic loop (whose stores V8 cannot
   * specialise).
   */
  readonly copy: ((input: Obj, out: Obj) => void) | undefined;
}

export function layout(keys: string[], copy?: (input: Obj, out: Obj) => void): Layout {
  return { keys, index: new Map(keys.map((key, i) => [key, i])), copy };
}

/** Only plain objects take the fast path; class instances and null-prototype objects go to zod. */
export function isPlain(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * The object zod returns for `input`, whose declared fields were checked already: `input` itself
 * when its keys are in zod's order, else a copy in that order. `rebuilt` forces the copy (a nested
 * value was rebuilt; the caller then sets it on the copy). `undefined` when a declared key holds
 * `undefined` (never from JSON; the schema decides).
 */
export function settle(input: Obj, shape: Layout, rebuilt: boolean): Obj | undefined {
  const keys = shape.keys;
  let next = 0; // declared keys before this one have been seen or are absent
  let scanning = true; // until the first key that is not the next declared one
  let extras = false;
  let ordered = !rebuilt;
  for (const key in input) {
    if (scanning) {
      // In zod's order, each key is a declared key after the last one seen, until the first extra.
      let at = next;
      while (at < keys.length && keys[at] !== key) at++;
      if (at < keys.length) {
        if (input[key] === undefined) return undefined;
        next = at + 1;
        continue;
      }
      scanning = false;
    }
    if (key === '__proto__') {
      ordered = false; // zod drops it
    } else if (shape.index.has(key)) {
      if (input[key] === undefined) return undefined;
      ordered = false; // a declared key out of order
    } else {
      extras = true;
    }
  }
  if (ordered) return input;
  const out: Obj = {};
  if (shape.copy) {
    shape.copy(input, out);
  } else {
    for (const key of keys) {
      const value = input[key];
      if (value !== undefined) out[key] = value;
    }
  }
  if (extras) {
    for (const key in input) {
      if (key === '__proto__' || shape.index.has(key)) continue;
      out[key] = input[key];
    }
  }
  return out;
}

/** `out` (from `settle`) with `key` set to its rebuilt `value`, when `out` is a copy. */
export function rebuild(out: Obj | undefined, input: Obj, key: string, value: unknown): Obj | undefined {
  if (out !== undefined && out !== input) out[key] = value;
  return out;
}

/**
 * `z.array(item)`: each item checked by `check`, which returns the item (or its rebuilt copy), or
 * `undefined` when not sure. The same array when no item was rebuilt.
 */
export function items(value: unknown, check: (item: unknown) => unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  let copy: unknown[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const out = check(item);
    if (out === undefined) return undefined;
    if (out !== item) copy ??= value.slice();
    if (copy) copy[i] = out;
  }
  return copy ?? value;
}

// Field checks: `input[key]` against a schema whose output is its input (strings, numbers, null).

/** `key: z.int()` */
export function int(input: Obj, key: string): boolean {
  return Number.isSafeInteger(input[key]);
}

/** `key: z.string()` */
export function str(input: Obj, key: string): boolean {
  return typeof input[key] === 'string';
}

/** `key: z.exactOptional(z.string())` (absent: see `settle`) */
export function optStr(input: Obj, key: string): boolean {
  const value = input[key];
  return value === undefined || typeof value === 'string';
}

/** `key: z.exactOptional(z.nullable(z.string()))` */
export function optNullStr(input: Obj, key: string): boolean {
  const value = input[key];
  return value === undefined || value === null || typeof value === 'string';
}

/** `key: z.exactOptional(z.number())` */
export function optNum(input: Obj, key: string): boolean {
  const value = input[key];
  return value === undefined || Number.isFinite(value);
}

/** `key: z.exactOptional(z.int())` */
export function optInt(input: Obj, key: string): boolean {
  const value = input[key];
  return value === undefined || Number.isSafeInteger(value);
}

/** `key: z.exactOptional(z.nullable(z.array(item)))` for items that come out as they go in */
export function optNullList(input: Obj, key: string, ok: (item: unknown) => boolean): boolean {
  const value = input[key];
  if (value === undefined || value === null) return true;
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!ok(value[i])) return false;
  return true;
}

export const isSafeInt = (item: unknown): boolean => Number.isSafeInteger(item);

// Nested objects shared by several responses. Each returns the value zod returns, or `undefined`.

const TYPED = /* @__PURE__ */ layout(['type']);

/** `z.looseObject({ type: z.string() })` (a content part) */
function part(value: unknown): unknown {
  if (!isPlain(value) || typeof value['type'] !== 'string') return undefined;
  return settle(value, TYPED, false);
}

/** `z.looseObject({ type: z.exactOptional(z.string()) })` (an annotation, a reasoning detail) */
function typed(value: unknown): unknown {
  if (!isPlain(value) || !optStr(value, 'type')) return undefined;
  return settle(value, TYPED, false);
}

/**
 * `content: z.exactOptional(z.nullable(z.union([z.string(), z.array(part)])))` of a delta or a
 * message. The value zod returns (`undefined` when absent), or `false` when not sure.
 */
export function content(value: unknown): unknown {
  if (value === undefined || value === null || typeof value === 'string') return value;
  return items(value, part) ?? false;
}

/** `z.array(z.looseObject({ type: z.exactOptional(z.string()) }))`, `null` allowed when `nullable`. `false` when not sure. */
export function typedList(value: unknown, nullable: boolean): unknown {
  if (value === undefined || (value === null && nullable)) return value;
  return items(value, typed) ?? false;
}

const USAGE = /* @__PURE__ */ layout(['prompt_tokens', 'completion_tokens', 'total_tokens', 'prompt_tokens_details', 'completion_tokens_details']);
const PROMPT_DETAILS = /* @__PURE__ */ layout(['cached_tokens', 'audio_tokens']);
const COMPLETION_DETAILS = /* @__PURE__ */ layout(['reasoning_tokens', 'audio_tokens', 'accepted_prediction_tokens', 'rejected_prediction_tokens']);

/** `z.nullable(z.looseObject({ a: z.exactOptional(z.int()), … }))` (token details); `false` when not sure */
function details(value: unknown, shape: Layout): unknown {
  if (value === undefined || value === null) return value;
  if (!isPlain(value)) return false;
  for (const key of shape.keys) if (!optInt(value, key)) return false;
  return settle(value, shape, false) ?? false;
}

/** `usage: z.exactOptional(z.nullable(zCompletionUsage))`: the value zod returns, or `false` when not sure */
export function usage(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (!isPlain(value) || !int(value, 'prompt_tokens') || !int(value, 'completion_tokens') || !int(value, 'total_tokens')) return false;
  const prompt = value['prompt_tokens_details'];
  const promptOut = details(prompt, PROMPT_DETAILS);
  const completion = value['completion_tokens_details'];
  const completionOut = details(completion, COMPLETION_DETAILS);
  if (promptOut === false || completionOut === false) return false;
  const out = settle(value, USAGE, promptOut !== prompt || completionOut !== completion);
  if (out === undefined) return false;
  if (out !== value) {
    if (promptOut !== prompt) out['prompt_tokens_details'] = promptOut;
    if (completionOut !== completion) out['completion_tokens_details'] = completionOut;
  }
  return out;
}

const TOKEN_LOGPROB = /* @__PURE__ */ layout(['token', 'logprob', 'bytes', 'top_logprobs']);
const TOP_LOGPROB = /* @__PURE__ */ layout(['token', 'logprob', 'bytes']);

function topLogprob(value: unknown): unknown {
  if (!isPlain(value) || !optStr(value, 'token') || !optNum(value, 'logprob') || !optNullList(value, 'bytes', isSafeInt)) return undefined;
  return settle(value, TOP_LOGPROB, false);
}

/** `zChatCompletionTokenLogprob` */
function tokenLogprob(value: unknown): unknown {
  if (!isPlain(value) || !str(value, 'token') || !Number.isFinite(value['logprob']) || !optNullList(value, 'bytes', isSafeInt)) return undefined;
  const top = value['top_logprobs'];
  if (top === undefined) return settle(value, TOKEN_LOGPROB, false);
  const topOut = items(top, topLogprob);
  if (topOut === undefined) return undefined;
  return rebuild(settle(value, TOKEN_LOGPROB, topOut !== top), value, 'top_logprobs', topOut);
}

/** `z.exactOptional(z.nullable(z.array(zChatCompletionTokenLogprob)))`; `false` when not sure */
function tokenLogprobs(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  return items(value, tokenLogprob) ?? false;
}

const CHOICE_LOGPROBS = /* @__PURE__ */ layout(['content', 'refusal']);

/** `logprobs` of a chat choice or chunk choice: the value zod returns, or `false` when not sure */
export function choiceLogprobs(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (!isPlain(value)) return false;
  const contentIn = value['content'];
  const contentOut = tokenLogprobs(contentIn);
  const refusalIn = value['refusal'];
  const refusalOut = tokenLogprobs(refusalIn);
  if (contentOut === false || refusalOut === false) return false;
  const out = settle(value, CHOICE_LOGPROBS, contentOut !== contentIn || refusalOut !== refusalIn);
  if (out === undefined) return false;
  if (out !== value) {
    if (contentOut !== contentIn) out['content'] = contentOut;
    if (refusalOut !== refusalIn) out['refusal'] = refusalOut;
  }
  return out;
}
