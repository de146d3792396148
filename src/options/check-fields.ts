/**
 * The checks of the options that add to what is sent: headers, query parameters, body fields
 * (`extraBody`, `defaultBody`) and `fallbacks`. Each mistake is an `InferenceError` that names the
 * option and never quotes a header's value, which may be the key.
 */
import { InferenceError } from '../errors/api';
import type { HeadersInit, QueryInit } from './types';

/**
 * `extraBody` and `defaultBody` add fields to a JSON body, so each must be a plain object, without
 * `stream` (which decides how the SDK reads the response, so it belongs in the typed body), and
 * without a member or key that would rewrite the body around that check (`bodyHazard`).
 */
export function checkBodyFields(fields: unknown, where: string, option: string): void {
  const proto: unknown =
    typeof fields === 'object' && fields !== null ? Object.getPrototypeOf(fields) : undefined;
  if (proto !== Object.prototype && proto !== null) {
    throw new InferenceError(
      `${where}: \`${option}\` must be a plain object of body fields, like { top_k: 40 }.`,
    );
  }
  if (Object.hasOwn(fields as object, 'stream')) {
    throw new InferenceError(
      `${where}: \`stream\` goes in the body, not in \`${option}\`: the SDK reads the response by it.`,
    );
  }
  const hazard = bodyHazard(fields as object);
  if (hazard) throw new InferenceError(`${where}: \`${option}\` has ${hazard}.`);
}

/**
 * What in a JSON body (or in fields added to one) would rewrite it around the SDK's checks, if
 * anything: a `toJSON` method (`JSON.stringify` sends whatever it returns instead, `stream: true`
 * included, while the SDK reads the response as the body it checked says), or a `__proto__` or
 * `constructor` key (`JSON.parse('{"__proto__":{"stream":true}}')` makes an own key that is sent
 * as it is, and that a server merging bodies with `Object.assign` or a deep merge reads as the
 * body's prototype). Only the top level can do that; nested values are the server's to read.
 * @internal
 */
export function bodyHazard(fields: object): string | undefined {
  if (typeof (fields as { toJSON?: unknown }).toJSON === 'function') {
    return 'a `toJSON` method, which would replace the body as sent; pass the fields themselves';
  }
  for (const key of ['__proto__', 'constructor']) {
    if (Object.hasOwn(fields, key))
      return `a \`${key}\` key, which a server may read as the prototype of the body (and \`stream\` from it); leave it out`;
  }
  return undefined;
}

/**
 * A header value the runtime would refuse, checked here so that the error is an `InferenceError`
 * that names the header (or option) and never quotes the value, which may be the key. A CR or LF
 * could split the request (header injection); a character above U+00FF (a `€`, an emoji, a lone
 * surrogate) cannot be sent at all, since header values are bytes.
 */
export function assertHeaderValue(name: string, value: string, isHeader = true): void {
  const what = isHeader ? `Header "${name}"` : `\`${name}\``;
  if (/[\r\n\0]/.test(value)) {
    throw new InferenceError(
      `${what} contains a line break or NUL character, which HTTP headers cannot carry.`,
    );
  }
  // eslint-disable-next-line no-control-regex -- the range is the point: Latin-1 is U+0000 to U+00FF
  const outside = /[^\u0000-\u00ff]/.exec(value);
  if (outside) {
    throw new InferenceError(
      `${what} has a character HTTP headers cannot carry (outside Latin-1, at position ${outside.index})${isHeader ? '; encode it first' : ''}.`,
    );
  }
}

/** `fallbacks`: a list of model slugs (non-empty strings). */
export function checkFallbacks(models: readonly string[] | undefined, where: string): void {
  if (
    models !== undefined &&
    !(Array.isArray(models) && models.every((m) => m && typeof m === 'string'))
  )
    throw new InferenceError(`${where}: \`fallbacks\` must be an array of model slugs.`);
}

/** RFC 9110 token characters: what `Headers` accepts as a name. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function checkHeaders(headers: HeadersInit | undefined, option: string): void {
  if (headers === undefined) return;
  if (typeof headers !== 'object' || headers === null) {
    throw new InferenceError(`\`${option}\` must be an object of header names to values.`);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) {
      throw new InferenceError(
        `\`${option}\`: ${JSON.stringify(name)} is not a valid header name.`,
      );
    }
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string') {
      throw new InferenceError(`\`${option}\`: header "${name}" must be a string or null.`);
    }
    assertHeaderValue(name, value);
  }
}

/**
 * Query values are sent as text, so only what has one obvious text form is taken: a string, a
 * finite number, a boolean (`null` removes a default, `undefined` is skipped). `String()` of
 * anything else sends `[object Object]`, `Symbol(x)` or a function's source code.
 */
export function checkQuery(query: QueryInit | undefined, option: string): void {
  if (query === undefined) return;
  if (typeof query !== 'object' || query === null || Array.isArray(query)) {
    throw new InferenceError(`\`${option}\` must be an object of parameter names to values.`);
  }
  for (const [name, value] of Object.entries(query)) {
    const type = typeof value;
    if (
      value === null ||
      type === 'undefined' ||
      type === 'string' ||
      type === 'boolean' ||
      (type === 'number' && Number.isFinite(value))
    )
      continue;
    throw new InferenceError(
      `\`${option}\`: parameter ${JSON.stringify(name)} must be a string, a finite number, a boolean or null; got ${type === 'number' ? String(value) : Array.isArray(value) ? 'an array' : `a ${type}`}.`,
    );
  }
}
