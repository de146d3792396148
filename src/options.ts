/**
 * Client and per-request options: their types, the defaults in one object, and the one place
 * where they are checked and resolved (at construction, so a typo fails before any request).
 */
import { isBrowser, readEnv } from './env';
import { InferenceError } from './errors';
import type { PreflightMode } from './preflight';
import { LOG_LEVELS, type LogLevel, type Logger } from './log';

/**
 * Header values; `null` removes a header set at a lower level (e.g. a default header).
 *
 * @example
 * ```ts
 * const client = new Client({ defaultHeaders: { 'x-team': 'search' } });
 * await client.models.list({ headers: { 'x-team': null, 'x-trace-id': 'abc' } });
 * ```
 */
export type HeadersInit = Record<string, string | null | undefined>;
/**
 * Query parameters; `null` removes one set at a lower level (e.g. in `defaultQuery`).
 *
 * @example
 * ```ts
 * const client = new Client({ defaultQuery: { 'api-version': '2024-06-01' } });
 * ```
 */
export type QueryInit = Record<string, string | number | boolean | null | undefined>;

/**
 * What to do when a 2xx response does not match its schema: throw a
 * `ResponseValidationError` (`'error'`, the default), log a warning and return the body as
 * received (`'warn'`), or skip the check (`'off'`, fastest, and the types may then lie).
 *
 * @example
 * ```ts
 * const lenient = new Client({ validation: 'warn' });
 * ```
 */
export type ValidationMode = 'error' | 'warn' | 'off';

/**
 * `fetch` options passed through to every request (e.g. `{ keepalive: true }`, a `dispatcher`).
 *
 * @example
 * ```ts
 * import { Agent } from 'undici';
 * const client = new Client({ fetchOptions: { dispatcher: new Agent({ connections: 16 }) } });
 * ```
 */
export type FetchOptions = Omit<RequestInit, 'method' | 'body' | 'headers' | 'signal'> & Record<string, unknown>;

/**
 * Options of `new Client(options)`. Every one is optional.
 *
 * @example
 * ```ts
 * const client = new Client({
 *   apiKey: process.env.INFERENCE_API_KEY,
 *   baseURL: 'https://inference.example.com/v1',
 *   timeout: 60_000,
 *   maxRetries: 3,
 * });
 * ```
 */
export interface ClientOptions {
  /**
   * The API key, sent as `Authorization: Bearer <key>`, or a function returning it (called
   * before each request, so a rotated key takes effect). Default: `INFERENCE_API_KEY`.
   */
  apiKey?: string | (() => string | Promise<string>) | undefined;
  /**
   * The service's base URL, ending in `/v1`. Default: `INFERENCE_BASE_URL`. A query string in it
   * (Azure's `?api-version=…`) is sent with every request; a fragment (`#…`) is an error.
   */
  baseURL?: string | undefined;
  /** Milliseconds before a request attempt is abandoned (retried if retries remain). Default 600 000 (10 min). */
  timeout?: number | undefined;
  /** Retries after the first attempt, for connection errors, timeouts, 408, 409, 429 and 5xx. Default 2. */
  maxRetries?: number | undefined;
  /**
   * Milliseconds a stream may go without an event before it is ended with
   * `APIConnectionTimeoutError`: from its headers to the first event, and between events. Bytes of
   * an event still arriving count; keep-alive comments (`: ping`) do not, so a server that only
   * sends pings cannot hold a stream open for ever. Default 300 000 (5 min), generous because
   * gateways (OpenRouter) send comments while a request is queued. `timeout` covers only the
   * wait for a stream's headers.
   */
  streamIdleTimeout?: number | undefined;
  /**
   * The largest JSON response body read, in bytes; a larger one ends with a
   * `ResponseValidationError` instead of filling memory. Default 64 MiB.
   */
  maxBodySize?: number | undefined;
  /** The largest single stream event, in characters; larger ends the stream with a `ResponseValidationError`. Default 16 MiB. */
  maxEventSize?: number | undefined;
  /** A `fetch` to use instead of `globalThis.fetch` (looked up per request, so msw and mocks work). */
  fetch?: typeof fetch | undefined;
  /** Extra `fetch` options for every request. */
  fetchOptions?: FetchOptions | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: HeadersInit | undefined;
  /** Query parameters sent with every request. */
  defaultQuery?: QueryInit | undefined;
  /**
   * Allow construction in a web page. Off by default because the page would expose your API key
   * to every visitor: only enable it with a key that is meant to be public (or a proxy).
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /** Default: `INFERENCE_LOG`, else `'warn'`. */
  logLevel?: LogLevel | undefined;
  /** Where logs go. Default: `console`. */
  logger?: Logger | undefined;
  /** Response validation policy. Default `'error'`. */
  validation?: ValidationMode | undefined;
  /**
   * Check `max_tokens` / `max_completion_tokens` against the model's `max_output_length` before
   * sending a completion: `'warn'` logs, `'error'` rejects with `PreflightError` and sends nothing.
   * The model's limits are fetched once (`GET /models/{slug}`) and cached for 10 minutes. The
   * lookup waits at most the call's `timeout` and ends with its `signal`; a model it cannot
   * describe in time is not checked. Default `'off'`.
   */
  preflight?: PreflightMode | undefined;
  /**
   * Send a generated `Idempotency-Key` header with every POST, the same on each of its retries,
   * so that a server or gateway that honours it never runs a retried generation twice. Default
   * `true`; `false` sends one only when a request passes `idempotencyKey`.
   */
  idempotencyKeys?: boolean | undefined;
}

/**
 * Options of one request, the last argument of every method. They override the client's.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * await client.models.list({ signal: controller.signal, timeout: 5_000, maxRetries: 0 });
 * ```
 */
export interface RequestOptions {
  /** Abort the request (rejects with `APIUserAbortError`). */
  signal?: AbortSignal | undefined;
  timeout?: number | undefined;
  maxRetries?: number | undefined;
  streamIdleTimeout?: number | undefined;
  maxBodySize?: number | undefined;
  maxEventSize?: number | undefined;
  /**
   * The `Idempotency-Key` header of this request, the same on every retry, so a server that
   * supports it can tell a retry from a new request. POSTs get a generated one by default (see
   * the client's `idempotencyKeys`); pass your own to make a retry of your own (a new call)
   * recognisable too, or `false` to send none.
   */
  idempotencyKey?: string | false | undefined;
  /** Merged over the client's headers; `null` removes one. */
  headers?: HeadersInit | undefined;
  /** Merged over the client's `defaultQuery`; `null` removes one. */
  query?: QueryInit | undefined;
  /** Merged over the client's `fetchOptions`. */
  fetchOptions?: FetchOptions | undefined;
}

/** The defaults, in one place. */
export const DEFAULTS = {
  timeout: 10 * 60 * 1000,
  maxRetries: 2,
  streamIdleTimeout: 5 * 60 * 1000,
  maxBodySize: 64 * 1024 * 1024,
  maxEventSize: 16 * 1024 * 1024,
  logLevel: 'warn',
  validation: 'error',
  preflight: 'off',
} as const satisfies Partial<ClientOptions>;

/** The options after defaults and checks. The key is kept apart (see `Client`) so it cannot be logged or inspected. */
export interface ResolvedOptions {
  baseURL: string;
  timeout: number;
  maxRetries: number;
  streamIdleTimeout: number;
  maxBodySize: number;
  maxEventSize: number;
  fetch: typeof fetch | undefined;
  fetchOptions: FetchOptions | undefined;
  defaultHeaders: HeadersInit | undefined;
  defaultQuery: QueryInit | undefined;
  dangerouslyAllowBrowser: boolean;
  logLevel: LogLevel;
  logger: Logger;
  validation: ValidationMode;
  preflight: PreflightMode;
  idempotencyKeys: boolean;
}

const CLIENT_OPTION_NAMES: readonly (keyof ClientOptions)[] = [
  'apiKey',
  'baseURL',
  'timeout',
  'maxRetries',
  'streamIdleTimeout',
  'maxBodySize',
  'maxEventSize',
  'fetch',
  'fetchOptions',
  'defaultHeaders',
  'defaultQuery',
  'dangerouslyAllowBrowser',
  'logLevel',
  'logger',
  'validation',
  'preflight',
  'idempotencyKeys',
];

const REQUEST_OPTION_NAMES: readonly (keyof RequestOptions)[] = [
  'signal',
  'timeout',
  'maxRetries',
  'streamIdleTimeout',
  'maxBodySize',
  'maxEventSize',
  'idempotencyKey',
  'headers',
  'query',
  'fetchOptions',
];

const VALIDATION_MODES: readonly ValidationMode[] = ['error', 'warn', 'off'];

/** Check the options and fill in defaults. Throws `InferenceError` saying how to fix a mistake. */
export function resolveClientOptions(options: ClientOptions): {
  resolved: ResolvedOptions;
  apiKey: string | (() => string | Promise<string>);
} {
  if (typeof options !== 'object' || options === null) {
    throw new InferenceError('new Client(options): options must be an object.');
  }
  rejectUnknown(options, CLIENT_OPTION_NAMES, 'new Client');

  const apiKey = options.apiKey ?? readEnv('INFERENCE_API_KEY');
  if (apiKey === undefined || apiKey === '') {
    throw new InferenceError(
      'Missing API key: pass `new Client({ apiKey })` or set the INFERENCE_API_KEY environment variable.',
    );
  }
  if (typeof apiKey !== 'string' && typeof apiKey !== 'function') {
    throw new InferenceError('`apiKey` must be a string or a function returning one.');
  }
  // Named as the user gave it: the option, or the environment variable it came from.
  if (typeof apiKey === 'string') assertHeaderValue(options.apiKey === undefined ? 'INFERENCE_API_KEY' : 'apiKey', apiKey, false);

  const baseURL = options.baseURL ?? readEnv('INFERENCE_BASE_URL');
  if (baseURL === undefined || baseURL === '') {
    throw new InferenceError(
      'Missing base URL: pass `new Client({ baseURL: "https://…/v1" })` or set the INFERENCE_BASE_URL environment variable.',
    );
  }

  const dangerouslyAllowBrowser = options.dangerouslyAllowBrowser ?? false;
  if (isBrowser() && !dangerouslyAllowBrowser) {
    throw new InferenceError(
      'This looks like a web page, where your API key would be visible to every visitor. Call the service from your server instead, ' +
        'or pass `dangerouslyAllowBrowser: true` if the key is meant to be public.',
    );
  }

  const logger = options.logger ?? console;
  const logLevel = options.logLevel ?? envLogLevel(logger) ?? DEFAULTS.logLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new InferenceError(`\`logLevel\` must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(logLevel)}.`);
  }
  const validation = options.validation ?? DEFAULTS.validation;
  if (!VALIDATION_MODES.includes(validation)) {
    throw new InferenceError(
      `\`validation\` must be one of ${VALIDATION_MODES.join(', ')}; got ${JSON.stringify(validation)}.`,
    );
  }
  const preflight = options.preflight ?? DEFAULTS.preflight;
  if (!(['off', 'warn', 'error'] as const).includes(preflight)) {
    throw new InferenceError(`\`preflight\` must be one of off, warn, error; got ${JSON.stringify(preflight)}.`);
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new InferenceError('`fetch` must be a function with the signature of the global fetch.');
  }
  checkHeaders(options.defaultHeaders, 'defaultHeaders');
  if (options.idempotencyKeys !== undefined && typeof options.idempotencyKeys !== 'boolean') {
    throw new InferenceError(`\`idempotencyKeys\` must be true or false; got ${JSON.stringify(options.idempotencyKeys)}.`);
  }

  return {
    apiKey,
    resolved: {
      baseURL: normaliseBaseURL(baseURL),
      timeout: checkTimeout(options.timeout ?? DEFAULTS.timeout, 'timeout'),
      maxRetries: checkRetries(options.maxRetries ?? DEFAULTS.maxRetries, 'maxRetries'),
      streamIdleTimeout: checkTimeout(options.streamIdleTimeout ?? DEFAULTS.streamIdleTimeout, 'streamIdleTimeout'),
      maxBodySize: checkSize(options.maxBodySize ?? DEFAULTS.maxBodySize, 'maxBodySize'),
      maxEventSize: checkSize(options.maxEventSize ?? DEFAULTS.maxEventSize, 'maxEventSize'),
      fetch: options.fetch,
      fetchOptions: options.fetchOptions,
      defaultHeaders: options.defaultHeaders,
      defaultQuery: options.defaultQuery,
      dangerouslyAllowBrowser,
      logLevel,
      logger,
      validation,
      preflight,
      idempotencyKeys: options.idempotencyKeys ?? true,
    },
  };
}

/** Check per-request options at the call site. */
export function checkRequestOptions(options: RequestOptions | undefined, method: string): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    throw new InferenceError(`${method}: request options must be an object.`);
  }
  rejectUnknown(options, REQUEST_OPTION_NAMES, method);
  if (options.timeout !== undefined) checkTimeout(options.timeout, 'timeout');
  if (options.maxRetries !== undefined) checkRetries(options.maxRetries, 'maxRetries');
  if (options.streamIdleTimeout !== undefined) checkTimeout(options.streamIdleTimeout, 'streamIdleTimeout');
  if (options.maxBodySize !== undefined) checkSize(options.maxBodySize, 'maxBodySize');
  if (options.maxEventSize !== undefined) checkSize(options.maxEventSize, 'maxEventSize');
  if (options.idempotencyKey !== undefined && options.idempotencyKey !== false) {
    if (typeof options.idempotencyKey !== 'string' || options.idempotencyKey === '') {
      throw new InferenceError(`${method}: \`idempotencyKey\` must be a non-empty string, or false to send none.`);
    }
    assertHeaderValue('idempotencyKey', options.idempotencyKey);
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new InferenceError(`${method}: \`signal\` must be an AbortSignal.`);
  }
  checkHeaders(options.headers, 'headers');
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
    throw new InferenceError(`${what} contains a line break or NUL character, which HTTP headers cannot carry.`);
  }
  // eslint-disable-next-line no-control-regex -- the range is the point: Latin-1 is U+0000 to U+00FF
  const outside = /[^\u0000-\u00ff]/.exec(value);
  if (outside) {
    throw new InferenceError(`${what} has a character HTTP headers cannot carry (outside Latin-1, at position ${outside.index})${isHeader ? '; encode it first' : ''}.`);
  }
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
      throw new InferenceError(`\`${option}\`: ${JSON.stringify(name)} is not a valid header name.`);
    }
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string') {
      throw new InferenceError(`\`${option}\`: header "${name}" must be a string or null.`);
    }
    assertHeaderValue(name, value);
  }
}

function normaliseBaseURL(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InferenceError(`\`baseURL\` is not a valid URL: ${JSON.stringify(value)}. Expected e.g. "https://host/v1".`);
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

function checkTimeout(value: number, name: string): number {
  if (typeof value !== 'number' || !(value >= 0) || value > 2_147_483_647) {
    throw new InferenceError(`\`${name}\` must be a number of milliseconds from 0 to 2147483647; got ${String(value)}.`);
  }
  return value;
}

function checkSize(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new InferenceError(`\`${name}\` must be a whole number above 0; got ${String(value)}.`);
  }
  return value;
}

function checkRetries(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new InferenceError(`\`${name}\` must be a whole number, 0 or more; got ${String(value)}.`);
  }
  return value;
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
      `[inference-sdk] INFERENCE_LOG=${JSON.stringify(raw)} is not a log level; expected one of ${LOG_LEVELS.join(', ')}. Using "${DEFAULTS.logLevel}".`,
    );
  }
  return undefined;
}

function rejectUnknown(options: object, known: readonly string[], where: string): void {
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const suggestion = closest(name, known);
    throw new InferenceError(
      `${where}: unknown option \`${name}\`.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''} Known options: ${known.join(', ')}.`,
    );
  }
}

/** The known name nearest to a misspelt one (case-insensitive edit distance ≤ 3), if any. */
function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 4;
  for (const candidate of known) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
