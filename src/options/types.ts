/**
 * Client and per-request options: their types, and the defaults in one object. They are checked
 * and resolved in options/check.ts, at construction (so a typo fails before any request) and at
 * each call site.
 */
import type { Hooks } from './hooks';
import type { LogLevel, Logger } from '../util/log';

/**
 * `'off'` (default): no check. `'warn'`: log a warning and send. `'error'`: reject with `PreflightError`.
 *
 * @example
 * ```ts
 * const client = new Client({ preflight: 'warn' });
 * ```
 */
export type PreflightMode = 'off' | 'warn' | 'error';
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
 * Query parameters; `null` or `undefined` removes one set at a lower level (the base URL's query,
 * `defaultQuery`), as `undefined` does in `openai`.
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
export type FetchOptions = Omit<RequestInit, 'method' | 'body' | 'headers' | 'signal'> &
  Record<string, unknown>;

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
   * Fields added to the JSON body of every call that has one (`chat.completions.*`,
   * `completions.create`): a server's own parameters you want on every request, such as
   * OpenRouter's `provider` or Qwen's `enable_thinking`. A field the call sets itself, in its body
   * or its `extraBody`, wins. `stream` may not be one of them.
   *
   * @example
   * ```ts
   * const router = new Client({ baseURL: 'https://openrouter.ai/api/v1', defaultBody: { provider: { sort: 'price' } } });
   * ```
   */
  defaultBody?: object | undefined;
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
  /**
   * Functions called at fixed points of every call: before each attempt, after each response,
   * before a retry, for each chunk of a stream, on an error, at the end (see {@link Hooks} and
   * docs/hooks.md). One object or an array; a request's own `hooks` run after these. Checked at the
   * first call that has them; a client without hooks does no work for them.
   */
  hooks?: Hooks | readonly Hooks[] | undefined;
  /**
   * Keep to the limits the server announces (docs/errors-and-retries.md, "Limits"): after a 429 or
   * 503 with `retry-after`, or rate-limit headers that say nothing is left, every call of the
   * model waits for the reset, in order, without using up `maxRetries`. Default `true`; `false`
   * sends every call at once and retries a 429 like any error, as the `openai` client does.
   *
   * @example
   * ```ts
   * const eager = new Client({ respectRateLimits: false });
   * ```
   */
  respectRateLimits?: boolean | undefined;
  /**
   * The most calls in flight at once (a stream counts until it ends); more wait their turn, in
   * order, within their own `timeout` and `signal`. Shared with the `withOptions()` copies that do
   * not set their own. Default: no cap.
   *
   * @example
   * ```ts
   * const batch = client.withOptions({ maxConcurrency: 8 });
   * ```
   */
  maxConcurrency?: number | undefined;
  /**
   * Models to try in order when the one asked for fails before anything reached you: not found or
   * not available, a 429 the limiter cannot wait out within the `timeout`, a 5xx after its
   * retries, a timeout, a connection error, a stream that fails before its first content. Never
   * once content has reached you. A request's own `fallbacks` replace these. Default: none.
   *
   * @example
   * ```ts
   * const client = new Client({ fallbacks: ['acme/chat-1-mini', 'other/chat'] });
   * ```
   */
  fallbacks?: readonly string[] | undefined;
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
  /** Merged over the client's `defaultQuery`; `null` or `undefined` removes one. */
  query?: QueryInit | undefined;
  /** Merged over the client's `fetchOptions`. */
  fetchOptions?: FetchOptions | undefined;
  /**
   * Fields to send in the JSON body besides the typed parameters (a plain object, which may be
   * typed by an interface of your own): a server's own parameters, such
   * as vLLM's `top_k` or `repetition_penalty`, llama.cpp's `grammar` or OpenRouter's `provider`.
   * They are added to the body as given, and are seen by hooks and telemetry like the rest of
   * it, and by the `preflight` check. A field may not be both here and in the body (a `null` in
   * the body, the server's default, may be given a value here), and `stream` belongs in the body
   * (the SDK reads the response by it); either mistake throws at the call site. Only for calls with a
   * body (`chat.completions.*`, `completions.create`). Unlike the official client's `body`
   * option, which replaces the whole body, this adds to it.
   *
   * @example
   * ```ts
   * await client.chat.completions.create(
   *   { model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hi' }], temperature: 0.7 },
   *   { extraBody: { top_k: 40, repetition_penalty: 1.1 } },
   * );
   * ```
   */
  extraBody?: object | undefined;
  /** Hooks for this call only, run after the client's (see {@link Hooks}). */
  hooks?: Hooks | readonly Hooks[] | undefined;
  /** Models to try when the one asked for fails before anything reached you (see the client's `fallbacks`); `[]` for none. */
  fallbacks?: readonly string[] | undefined;
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
  // These six as given (absent when not given).
  fetch?: typeof fetch | undefined;
  fetchOptions?: FetchOptions | undefined;
  defaultHeaders?: HeadersInit | undefined;
  defaultQuery?: QueryInit | undefined;
  defaultBody?: object | undefined;
  dangerouslyAllowBrowser: boolean;
  logLevel: LogLevel;
  logger: Logger;
  validation: ValidationMode;
  preflight: PreflightMode;
  idempotencyKeys: boolean;
  /** As given: hooks/check.ts (loaded with hooks/runner.ts) checks them at the first call that has any. */
  hooks?: Hooks | readonly Hooks[] | undefined;
  respectRateLimits: boolean;
  maxConcurrency: number | undefined;
  fallbacks: readonly string[];
}

/**
 * Every option's name, derived from the types: a new option that is not added here fails to
 * compile, and the check of unknown names (with its "did you mean") always knows them all.
 */
export const CLIENT_OPTIONS = {
  apiKey: true,
  baseURL: true,
  timeout: true,
  maxRetries: true,
  streamIdleTimeout: true,
  maxBodySize: true,
  maxEventSize: true,
  fetch: true,
  fetchOptions: true,
  defaultHeaders: true,
  defaultQuery: true,
  defaultBody: true,
  dangerouslyAllowBrowser: true,
  logLevel: true,
  logger: true,
  validation: true,
  preflight: true,
  idempotencyKeys: true,
  hooks: true,
  respectRateLimits: true,
  maxConcurrency: true,
  fallbacks: true,
} as const satisfies Record<keyof ClientOptions, true>;

/** Every request option's name (see `CLIENT_OPTIONS`). */
export const REQUEST_OPTIONS = {
  signal: true,
  timeout: true,
  maxRetries: true,
  streamIdleTimeout: true,
  maxBodySize: true,
  maxEventSize: true,
  idempotencyKey: true,
  headers: true,
  query: true,
  fetchOptions: true,
  extraBody: true,
  hooks: true,
  fallbacks: true,
} as const satisfies Record<keyof RequestOptions, true>;
