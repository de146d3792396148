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

// Used by the generated functions below; exported for the tests of the rules themselves.
export { at, contentParts, decimal, isObj, issue, partsText, reasoning, reasoningRaw, seconds, sortBy, totalTokens, typeName };
