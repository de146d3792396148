/**
 * Keeping secrets out of a recording (`record.ts`): a cassette is a file meant to be committed, so
 * it may hold no key in any form a reader could turn back into the key.
 *
 * - In a body's bytes, whatever its encoding: the key as UTF-8 (which is also its Latin-1 and
 *   ASCII), UTF-16 (either byte order), hex, and in every text form errors and logs mask too
 *   (`secretForms` in util/mask.ts): trimmed, percent-encoded, JSON-escaped (`\/`), and
 *   base64 (at each of the three alignments a key can have inside a longer base64 text, standard
 *   and URL-safe alphabets). A body that is not UTF-8 is masked as bytes before it is stored as
 *   base64, so its base64 holds no key either.
 * - In a stream whose deltas carry the key in pieces (a model repeating it back): the pieces are
 *   joined per field across the events, and where they make up a key, the events are rewritten.
 * - In URLs (the upstream, the recorded request paths): the values of credential-looking query
 *   parameters, by the rule `isCredentialParam` (src/mask.ts).
 * - In a recorded interaction as JSON: every string, keys too (`scrub`), and a text body that
 *   holds the key only in JSON's own escapes, stored as its masked value (`escapedSecret`).
 *
 * @module
 */
import { parseJSON } from '../util/json';
import {
  isCredentialParam,
  maskText,
  MASK,
  MIN_SECRET,
  secretForms as textForms,
} from '../util/mask';

/** Derived forms (hex) only of secrets this long: a shorter one's would match by chance. */
const MIN_DERIVED = 8;

const utf8 = new TextEncoder();

/** Every form of the secrets to look for: those errors and logs mask (util/mask.ts), and hex. */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = textForms(secrets);
  for (const secret of secrets.flatMap((s) => [s, s.trim()])) {
    if (secret.length < MIN_DERIVED) continue;
    const hex = [...utf8.encode(secret)].map((b) => b.toString(16).padStart(2, '0')).join('');
    forms.push(hex, hex.toUpperCase());
  }
  // Longest first: a form that contains another is masked whole.
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/** A byte pattern to mask, and what replaces it (`***` in the same encoding). */
export interface BytePattern {
  find: Uint8Array;
  replace: Uint8Array;
}

/** The byte patterns of the secrets: every text form as UTF-8, and each secret as UTF-16 (both byte orders). */
export function bytePatterns(secrets: readonly string[]): BytePattern[] {
  const patterns: BytePattern[] = secretForms(secrets).map((form) => ({
    find: utf8.encode(form),
    replace: utf8.encode(MASK),
  }));
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET) continue;
    patterns.push(
      { find: utf16(secret, true), replace: utf16(MASK, true) },
      { find: utf16(secret, false), replace: utf16(MASK, false) },
    );
  }
  return patterns.sort((a, b) => b.find.length - a.find.length);
}

function utf16(text: string, littleEndian: boolean): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < text.length; i++) view.setUint16(i * 2, text.charCodeAt(i), littleEndian);
  return bytes;
}

/** `bytes` with every pattern replaced; the same array when none occurs. */
export function maskBytes(bytes: Uint8Array, patterns: readonly BytePattern[]): Uint8Array {
  let out = bytes;
  for (const { find, replace } of patterns) {
    const at = indexOf(out, find, 0);
    if (at < 0) continue;
    const parts: Uint8Array[] = [];
    let from = 0;
    for (let i = at; i >= 0; i = indexOf(out, find, from)) {
      parts.push(out.subarray(from, i), replace);
      from = i + find.length;
    }
    parts.push(out.subarray(from));
    out = join(parts);
  }
  return out;
}

/**
 * A masker for bytes that go on as they come (a stream sent on to the recording client): it holds
 * back just the end of what came that could be the start of a pattern, until the next chunk.
 */
export function createByteMasker(patterns: readonly BytePattern[]): {
  push(chunk: Uint8Array): Uint8Array;
  end(): Uint8Array;
} {
  let held = new Uint8Array(0);
  return {
    push(chunk) {
      if (patterns.length === 0) return chunk;
      const bytes = maskBytes(held.length === 0 ? chunk : join([held, chunk]), patterns);
      let keep = 0;
      for (const { find } of patterns) keep = Math.max(keep, startOf(bytes, find));
      held = bytes.slice(bytes.length - keep);
      return bytes.subarray(0, bytes.length - keep);
    },
    end() {
      const rest = held;
      held = new Uint8Array(0);
      return rest;
    },
  };
}

/** The length of the longest end of `bytes` that is the start of `find` (shorter than it). */
function startOf(bytes: Uint8Array, find: Uint8Array): number {
  for (let i = Math.max(0, bytes.length - find.length + 1); i < bytes.length; i++) {
    if (bytes[i] !== find[0]) continue;
    let n = 1;
    while (i + n < bytes.length && bytes[i + n] === find[n]) n++;
    if (i + n === bytes.length) return n;
  }
  return 0;
}

function indexOf(bytes: Uint8Array, find: Uint8Array, from: number): number {
  const first = find[0];
  for (
    let i = bytes.indexOf(first!, from);
    i >= 0 && i + find.length <= bytes.length;
    i = bytes.indexOf(first!, i + 1)
  ) {
    let n = 1;
    while (n < find.length && bytes[i + n] === find[n]) n++;
    if (n === find.length) return i;
  }
  return -1;
}

function join(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * A stream's events with a secret that its deltas carry in pieces masked: the strings of each
 * field (`choices[0].delta.content` …) are joined across the events' JSON, and where the joined
 * text holds a secret, its first piece becomes `***` and the rest of it is taken out. A field of
 * one event counts too: its JSON may write the secret with escapes (`sk\u002d…`) that the bytes
 * did not show. Events
 * left unchanged keep their bytes; a changed one is written again as `data: <JSON>`, with its
 * other lines (`event:`, `id:`) kept.
 */
export function maskSplitSecrets(events: readonly string[], secrets: readonly string[]): string[] {
  const keys = secrets.filter((s) => s.length >= MIN_SECRET);
  if (keys.length === 0) return [...events];
  /** Per field path, its pieces in order: which event, the object holding it, and its key. */
  const fields = new Map<
    string,
    { event: number; holder: Record<string, unknown>; key: string }[]
  >();
  const parsed = events.map((event, index) => {
    const data = dataOf(event);
    if (data === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      return undefined;
    }
    collect(value, '', (path, holder, key) => {
      const list = fields.get(path) ?? [];
      list.push({ event: index, holder, key });
      fields.set(path, list);
    });
    return value;
  });
  const changed = new Set<number>();
  for (const pieces of fields.values()) {
    const texts = pieces.map((p) => p.holder[p.key] as string);
    const joined = texts.join('');
    if (!keys.some((key) => joined.includes(key))) continue;
    // Which characters of the joined text belong to a secret.
    const drop = new Uint8Array(joined.length);
    for (const key of keys)
      for (let at = joined.indexOf(key); at >= 0; at = joined.indexOf(key, at + key.length))
        drop.fill(1, at, at + key.length);
    let offset = 0;
    pieces.forEach((piece, i) => {
      const text = texts[i]!;
      let out = '';
      for (let c = 0; c < text.length; c++) {
        const at = offset + c;
        if (drop[at] === 0) out += text[c];
        else if (at === 0 || drop[at - 1] === 0) out += MASK; // the first character of a secret
      }
      offset += text.length;
      if (out !== text) {
        piece.holder[piece.key] = out;
        changed.add(piece.event);
      }
    });
  }
  return events.map((event, index) => (changed.has(index) ? rewrite(event, parsed[index]) : event));
}

/** The data of an event (its `data:` lines joined), or undefined when it has none. */
function dataOf(event: string): string | undefined {
  const lines = event.split(/\r\n|\r|\n/).filter((line) => line.startsWith('data:'));
  if (lines.length === 0) return undefined;
  return lines.map((line) => line.slice(5).replace(/^ /, '')).join('\n');
}

/** The event with its data written again as one `data:` line, its other lines as they were. */
function rewrite(event: string, value: unknown): string {
  const lines = event.split(/\r\n|\r|\n/).filter((line) => line !== '');
  const first = lines.findIndex((line) => line.startsWith('data:'));
  const kept = lines.filter((line) => !line.startsWith('data:'));
  kept.splice(first, 0, `data: ${JSON.stringify(value)}`);
  return `${kept.join('\n')}\n\n`;
}

/** Calls `found` for every string of a JSON value, with its path (`.choices[0].delta.content`). */
function collect(
  value: unknown,
  path: string,
  found: (path: string, holder: Record<string, unknown>, key: string) => void,
): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
    if (typeof item === 'string') found(at, value as Record<string, unknown>, key);
    else collect(item, at, found);
  }
}

/**
 * A path or URL with the values of its credential-looking query parameters (`key`, `api_key`,
 * `token`, `sig`, `code`, `X-Amz-Signature` …, see `isCredentialParam`) replaced by `***`;
 * the same string when it has none.
 *
 * @example
 * ```ts
 * maskCredentialQuery('/models?limit=2&api_key=sk-1'); // '/models?limit=2&api_key=***'
 * ```
 */
export function maskCredentialQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const hash = url.indexOf('#', at);
  const end = hash < 0 ? url.length : hash;
  let changed = false;
  const query = url
    .slice(at + 1, end)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (
        eq < 0 ||
        pair.slice(eq + 1) === MASK ||
        !isCredentialParam(decodeName(pair.slice(0, eq)))
      )
        return pair;
      changed = true;
      return `${pair.slice(0, eq)}=${MASK}`;
    })
    .join('&');
  return changed ? `${url.slice(0, at)}?${query}${url.slice(end)}` : url;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/**
 * A JSON text that holds a secret only in JSON's own escapes (`sk\u002d…`, which every reader
 * turns back into the key, while the bytes hold no copy of it): its value masked, to be stored as
 * the `body`; `undefined` for any other text, stored as it is.
 */
export function escapedSecret(
  text: string,
  forms: readonly string[],
): { body: unknown } | undefined {
  const parsed = parseJSON(text);
  if (!parsed) return undefined;
  const body = scrub(parsed.value, forms);
  return JSON.stringify(body) === JSON.stringify(parsed.value) ? undefined : { body };
}

/**
 * Every string of a JSON value (keys too) with the secrets replaced by `***`, by the SDK's own
 * `maskText`. Unlike `mask()`, which leaves identifier fields (`code`, `type`, …) alone in errors,
 * nothing here is exempt: a file may hold no secret anywhere.
 */
export function scrub<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return maskText(value, secrets) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrub(item, secrets)) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [maskText(key, secrets), scrub(item, secrets)]),
  ) as T;
}
