/**
 * Checking and resolving options: the client's at construction, a request's at its call site.
 * Every mistake is an `InferenceError` saying how to fix it ("did you mean `baseURL`?").
 */
import { isBrowser, readEnv } from './env';
import { InferenceError } from '../errors/api';
import { closest, didYouMean } from '../util/suggest';
import {
  assertHeaderValue,
  checkBodyFields,
  checkFallbacks,
  checkHeaders,
  checkQuery,
} from './check-fields';
import { LOG_LEVELS, type LogLevel, type Logger } from '../util/log';
import {
  CLIENT_OPTIONS,
  DEFAULTS,
  REQUEST_OPTIONS,
  type ClientOptions,
  type PreflightMode,
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

  // The options taken as given (fetch, fetchOptions, defaultHeaders, defaultQuery, defaultBody,
  // hooks) with the rest checked or defaulted; without the key (see `ResolvedOptions`).
  const { apiKey: _key, ...given } = options;
  return {
    apiKey,
    resolved: {
      ...given,
      baseURL: resolvedBaseURL,
      ...numbers,
      dangerouslyAllowBrowser,
      logLevel,
      logger,
      validation,
      preflight,
      idempotencyKeys: options.idempotencyKeys ?? true,
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
 * named): the one message of every numeric option. A value that is not a number is shown as what
 * it is (`got the string "5000"`, `got a boolean`), so that one from `process.env` does not read
 * as if it were in range.
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
      `${where === undefined ? '' : `${where}: `}\`${name}\` must be ${what}; got ${typeof value == 'number' ? value : typeof value == 'string' ? `the string ${JSON.stringify(value)}` : `${typeof value == 'object' ? 'an' : 'a'} ${typeof value}`}.`,
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
