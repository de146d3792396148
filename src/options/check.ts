/**
 * Checking and resolving options: the client's at construction, a request's at its call site.
 * Every mistake is an `InferenceError` saying how to fix it ("did you mean `baseURL`?").
 */
import { isBrowser, readEnv } from './env';
import { InferenceError } from '../errors/api';
import { closest, didYouMean } from '../util/suggest';
import { LOG_LEVELS, type LogLevel, type Logger } from '../util/log';
import {
  CLIENT_OPTIONS,
  DEFAULTS,
  REQUEST_OPTIONS,
  type ClientOptions,
  type HeadersInit,
  type PreflightMode,
  type QueryInit,
  type RequestOptions,
  type ResolvedOptions,
  type ValidationMode,
} from './types';

// In the order the messages list them.
const VALIDATION_MODES: readonly ValidationMode[] = ['error', 'warn', 'off'];
const PREFLIGHT_MODES: readonly PreflightMode[] = ['off', 'warn', 'error'];

/** `value` if it is one of `allowed`; else "`name` must be one of …; got …". */
function oneOf<T extends string>(name: string, value: T, allowed: readonly T[]): T {
  if (!allowed.includes(value)) {
    throw new InferenceError(
      `\`${name}\` must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/** The numeric options a client and a request both take, each with its check (see below). */
type NumberOption = 'timeout' | 'maxRetries' | 'streamIdleTimeout' | 'maxBodySize' | 'maxEventSize';
const NUMBER_CHECKS: Record<NumberOption, (value: number, name: string) => number> = {
  timeout: checkTimeout,
  maxRetries: checkRetries,
  streamIdleTimeout: checkTimeout,
  maxBodySize: checkSize,
  maxEventSize: checkSize,
};
const NUMBER_OPTIONS = Object.keys(NUMBER_CHECKS) as NumberOption[];

/** Check the options and fill in defaults. Throws `InferenceError` saying how to fix a mistake. */
export function resolveClientOptions(options: ClientOptions): {
  resolved: ResolvedOptions;
  apiKey: string | (() => string | Promise<string>);
} {
  if (typeof options !== 'object' || options === null) {
    throw new InferenceError('new Client(options): options must be an object.');
  }
  rejectUnknown(options, Object.keys(CLIENT_OPTIONS), 'new Client');

  const baseURL = options.baseURL ?? readEnv('INFERENCE_BASE_URL');
  if (baseURL === undefined || baseURL === '') {
    throw new InferenceError(
      'Missing base URL: pass `new Client({ baseURL: "https://…/v1" })` or set the INFERENCE_BASE_URL environment variable.',
    );
  }
  // In a web page, `baseURL` may be a path (`/api/inference/v1`), on the page's origin.
  const page = isBrowser()
    ? (globalThis as { location?: { href?: string } }).location?.href
    : undefined;
  const resolvedBaseURL = normaliseBaseURL(baseURL, page);

  // A page's client of its own route (which holds the key on the server) needs no key: it sends
  // no Authorization header, so it leaks nothing and needs no `dangerouslyAllowBrowser`.
  let apiKey = options.apiKey ?? readEnv('INFERENCE_API_KEY');
  const keyless = !apiKey && !!page && new URL(resolvedBaseURL).origin === new URL(page).origin;
  if (keyless) apiKey = '';
  else if (!apiKey) {
    throw new InferenceError(
      'Missing API key: pass `new Client({ apiKey })` or set the INFERENCE_API_KEY environment variable.',
    );
  }
  if (typeof apiKey !== 'string' && typeof apiKey !== 'function') {
    throw new InferenceError('`apiKey` must be a string or a function returning one.');
  }
  // Named as the user gave it: the option, or the environment variable it came from.
  if (typeof apiKey === 'string' && !keyless)
    assertHeaderValue(options.apiKey === undefined ? 'INFERENCE_API_KEY' : 'apiKey', apiKey, false);

  const dangerouslyAllowBrowser = options.dangerouslyAllowBrowser ?? false;
  if (isBrowser() && !keyless && !dangerouslyAllowBrowser) {
    throw new InferenceError(
      'This looks like a web page, where your API key would be visible to every visitor. Call the service from your server instead, ' +
        'or pass `dangerouslyAllowBrowser: true` if the key is meant to be public.',
    );
  }

  const logger = options.logger ?? console;
  const logLevel = oneOf(
    'logLevel',
    options.logLevel ?? envLogLevel(logger) ?? DEFAULTS.logLevel,
    LOG_LEVELS,
  );
  const validation = oneOf(
    'validation',
    options.validation ?? DEFAULTS.validation,
    VALIDATION_MODES,
  );
  const preflight = oneOf('preflight', options.preflight ?? DEFAULTS.preflight, PREFLIGHT_MODES);
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new InferenceError('`fetch` must be a function with the signature of the global fetch.');
  }
  checkHeaders(options.defaultHeaders, 'defaultHeaders');
  checkQuery(options.defaultQuery, 'defaultQuery');
  if (options.defaultBody !== undefined)
    checkBodyFields(options.defaultBody, 'new Client', 'defaultBody');
  for (const name of ['idempotencyKeys', 'respectRateLimits'] as const) {
    const value = options[name];
    if (value !== undefined && typeof value !== 'boolean')
      throw new InferenceError(`\`${name}\` must be true or false; got ${JSON.stringify(value)}.`);
  }
  checkFallbacks(options.fallbacks, 'new Client');
  // Infinity: no cap, as when it is not given.
  const cap = options.maxConcurrency;
  const maxConcurrency =
    cap === undefined || cap === Infinity ? undefined : checkSize(cap, 'maxConcurrency');
  const numbers = {} as Pick<ResolvedOptions, NumberOption>;
  for (const name of NUMBER_OPTIONS)
    numbers[name] = NUMBER_CHECKS[name](options[name] ?? DEFAULTS[name], name);

  return {
    apiKey,
    resolved: {
      baseURL: resolvedBaseURL,
      ...numbers,
      fetch: options.fetch,
      fetchOptions: options.fetchOptions,
      defaultHeaders: options.defaultHeaders,
      defaultQuery: options.defaultQuery,
      defaultBody: options.defaultBody,
      dangerouslyAllowBrowser,
      logLevel,
      logger,
      validation,
      preflight,
      idempotencyKeys: options.idempotencyKeys ?? true,
      hooks: options.hooks,
      respectRateLimits: options.respectRateLimits ?? true,
      maxConcurrency,
      fallbacks: options.fallbacks ?? [],
    },
  };
}

/** Check per-request options at the call site; `hasBody` is false for calls that send none (GETs). */
export function checkRequestOptions(
  options: RequestOptions | undefined,
  method: string,
  hasBody = true,
): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    throw new InferenceError(`${method}: request options must be an object.`);
  }
  rejectUnknown(options, Object.keys(REQUEST_OPTIONS), method);
  for (const name of NUMBER_OPTIONS) {
    const value = options[name];
    if (value !== undefined) NUMBER_CHECKS[name](value, name);
  }
  if (options.idempotencyKey !== undefined && options.idempotencyKey !== false) {
    if (typeof options.idempotencyKey !== 'string' || options.idempotencyKey === '') {
      throw new InferenceError(
        `${method}: \`idempotencyKey\` must be a non-empty string, or false to send none.`,
      );
    }
    assertHeaderValue('idempotencyKey', options.idempotencyKey);
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new InferenceError(`${method}: \`signal\` must be an AbortSignal.`);
  }
  checkHeaders(options.headers, 'headers');
  checkQuery(options.query, 'query');
  checkFallbacks(options.fallbacks, method);
  if (options.extraBody !== undefined) {
    if (!hasBody)
      throw new InferenceError(
        `${method}: \`extraBody\` adds fields to a JSON body, and this call sends none.`,
      );
    checkBodyFields(options.extraBody, method, 'extraBody');
  }
}

/**
 * `extraBody` and `defaultBody` add fields to a JSON body, so each must be a plain object, without
 * `stream` (which decides how the SDK reads the response, so it belongs in the typed body), and
 * without a member or key that would rewrite the body around that check (`bodyHazard`).
 */
function checkBodyFields(fields: unknown, where: string, option: string): void {
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
function checkFallbacks(models: readonly string[] | undefined, where: string): void {
  if (
    models !== undefined &&
    !(Array.isArray(models) && models.every((m) => m && typeof m === 'string'))
  )
    throw new InferenceError(`${where}: \`fallbacks\` must be an array of model slugs.`);
}

/** RFC 9110 token characters: what `Headers` accepts as a name. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function checkHeaders(headers: HeadersInit | undefined, option: string): void {
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
function checkQuery(query: QueryInit | undefined, option: string): void {
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

/** `baseURL` checked and absolute; `page`, the web page's URL, resolves a path. */
function normaliseBaseURL(value: string, page: string | undefined): string {
  let url: URL;
  try {
    url = new URL(value, page);
  } catch {
    // Quoted without what may be a user and password (everything up to the last `@`): a URL can
    // be invalid for another reason (a bad host, port 99999) and still hold one.
    const shown = value.replace(/^([^@]*?\/\/)?[^]*@/, '$1***@');
    throw new InferenceError(
      `\`baseURL\` is not a valid URL: ${JSON.stringify(shown)}. Expected e.g. "https://host/v1".`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InferenceError(`\`baseURL\` must be an http or https URL; got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new InferenceError('`baseURL` must not contain credentials; pass the key as `apiKey`.');
  }
  if (url.hash !== '' || value.includes('#')) {
    throw new InferenceError('`baseURL` must not contain a fragment ("#…"), which is never sent.');
  }
  // Keep the path (it ends in /v1) without trailing slashes, so paths join with exactly one; a
  // query (Azure's ?api-version=…) stays, and buildURL applies it to every request.
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url.search === '' ? url.href.replace(/\/+$/, '') : url.href;
}

/**
 * `value` if `ok`; else "`name` must be `what`; got `value`." (after "`where`: " when the call is
 * named): the one message of every numeric option.
 */
function checkNumber(
  value: number,
  name: string,
  ok: boolean,
  what: string,
  where?: string,
): number {
  if (!ok) {
    throw new InferenceError(
      `${where === undefined ? '' : `${where}: `}\`${name}\` must be ${what}; got ${String(value)}.`,
    );
  }
  return value;
}

/**
 * A timeout option: milliseconds that `setTimeout` can wait, `min` at least (`where` names the
 * call, if any). Above 2^31 − 1, timers fire at once.
 */
export function checkTimeout(value: number, name: string, where?: string, min = 0): number {
  return checkNumber(
    value,
    name,
    typeof value === 'number' && value >= min && value <= 2_147_483_647,
    `a number of milliseconds from ${min} to 2147483647`,
    where,
  );
}

function checkSize(value: number, name: string): number {
  return checkNumber(
    value,
    name,
    Number.isSafeInteger(value) && value >= 1,
    'a whole number above 0',
  );
}

function checkRetries(value: number, name: string): number {
  return checkNumber(
    value,
    name,
    Number.isInteger(value) && value >= 0,
    'a whole number, 0 or more',
  );
}

/** INFERENCE_LOG values already warned about: a typo is reported once, not per client. */
const warnedLogLevels = new Set<string>();

function envLogLevel(logger: Logger): LogLevel | undefined {
  const raw = readEnv('INFERENCE_LOG');
  const value = raw?.toLowerCase();
  if (value === undefined) return undefined;
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  // An environment variable cannot throw at the user like an option does; it warns, once.
  if (!warnedLogLevels.has(value)) {
    warnedLogLevels.add(value);
    logger.warn(
      `[model-inference-sdk] INFERENCE_LOG=${JSON.stringify(raw)} is not a log level; expected one of ${LOG_LEVELS.join(', ')}. Using "${DEFAULTS.logLevel}".`,
    );
  }
  return undefined;
}

function rejectUnknown(options: object, known: readonly string[], where: string): void {
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    throw new InferenceError(
      `${where}: unknown option \`${name}\`.${didYouMean(closest(name, known), '`')} Known options: ${known.join(', ')}.`,
    );
  }
}
