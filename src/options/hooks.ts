/**
 * Hooks: the types of the `hooks` option (client and per request) and of what each hook is given.
 * Types only: the code that runs hooks (hooks/runner.ts) is loaded with `import()` by the first
 * call that has any, so that a client without hooks neither runs nor downloads it.
 */
import type { APIError, InferenceError } from '../errors/api';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParams,
  Completion,
  CompletionCreateParams,
  CompletionUsage,
} from '../generated/types.gen';
import type { ObservableIterator } from '../util/iterator';

/**
 * Functions the client calls at fixed points of every call, in the style of ky's `hooks`: pass
 * one object or an array of them to `new Client({ hooks })` or as a request option; every hook
 * of every object runs, in order (the client's first, then the request's), each awaited before
 * the next. Every hook is optional.
 *
 * Hooks never see the API key: the `Authorization` header (and any other credential-like header:
 * `x-api-key`, `api-key`, cookies …) is left out of the `Request` they get and added back after
 * them, and a key a server echoes back is masked as `***` in the `Response` and errors they get.
 * A hook that throws fails the call with a {@link HookError} naming it (its `cause` is what
 * the hook threw); it is never retried. A hook is awaited only within the call's `timeout` and
 * until its `signal` aborts: one that never settles fails the call with the
 * `APIConnectionTimeoutError` or `APIUserAbortError` a stalled server would.
 *
 * @example
 * ```ts
 * import { Client, type Hooks } from 'model-inference-sdk';
 *
 * const tenant: Hooks = {
 *   name: 'tenant',
 *   beforeRequest(request) {
 *     request.headers.set('x-tenant-id', 'acme');
 *   },
 *   beforeRetry({ attempt, delay, error }) {
 *     console.warn(`attempt ${attempt} in ${Math.round(delay)} ms after ${error.message}`);
 *   },
 *   onEnd(summary, info) {
 *     console.log(info.operation, info.model, summary.outcome, `${Math.round(summary.duration)} ms`, summary.usage);
 *   },
 * };
 * const client = new Client({ hooks: [tenant] });
 * ```
 */
export interface Hooks {
  /** Names this set of hooks in a {@link HookError} (e.g. `'openTelemetry'`); otherwise it is named by its place in the list. */
  name?: string | undefined;
  /**
   * Before each attempt is sent (retries included), with the request as it will go out, minus
   * its credentials. Set headers on it (`request.headers.set(…)`: signing, tenant ids, trace
   * context), or return a new `Request` to send instead (its URL, method, headers and body are
   * used; the client's timeout, signal, redirect handling and `fetchOptions` still apply). The
   * next hook gets the request this one returned.
   */
  beforeRequest?(request: Request, info: HookInfo): Request | void | Promise<Request | void>;
  /**
   * After each attempt's response headers arrive, whatever the status (an error status is turned
   * into an error after the hooks; a retry follows if the policy allows). Return a `Response` to
   * use instead. Do not read the body: the client reads it (use `response.clone()` if you must).
   * Its headers, status text and body have the API key masked as `***`.
   */
  afterResponse?(response: Response, info: HookInfo): Response | void | Promise<Response | void>;
  /**
   * Before the client waits to retry: `info.attempt` is the attempt about to be made (2 for the
   * first retry), `info.error` why the last one failed, `info.delay` the wait in ms. Throw to stop
   * retrying (the call fails with a `HookError` whose `cause` is what you threw).
   */
  beforeRetry?(info: RetryInfo): void | Promise<void>;
  /**
   * Each chunk of a streamed call, as the caller's loop receives it (after validation). Called
   * only for streams; a hook that returns a promise holds the loop until it settles, at most the
   * call's `timeout` (or `streamIdleTimeout`, if shorter), and no longer than `stream.abort()`.
   */
  onChunk?(chunk: ChatCompletionChunk | Completion, info: HookInfo): void | Promise<void>;
  /** The call failed (once per call, with the error the caller gets; also a stream that fails mid-way). */
  onError?(error: InferenceError, info: HookInfo): void | Promise<void>;
  /**
   * The call is over, once per call, whatever the outcome: a JSON call when its body was read (or
   * it failed), a streamed call when its stream ended, failed, or was left early by the caller
   * (`break`, `return()`, `cancel()`). The summary has the usage, finish reasons, time to first
   * chunk … (a stream that is never read nor closed never ends).
   */
  onEnd?(summary: CallSummary, info: HookInfo): void | Promise<void>;
}

// HookName is declared beside HookError (errors/events.ts), which names its hook: errors/ is below this file.
export type { HookName } from '../errors/api';

/**
 * Which call a hook is running for: `client.chat.completions.create()` is `'chat'` (`parse()`,
 * `runTools()` and the other helpers make such calls too), `client.completions.create()` is
 * `'completions'`, `client.models.list()` and `.retrieve()` are `'models.list'` and
 * `'models.retrieve'`.
 *
 * @example
 * ```ts
 * const hooks: Hooks = { onEnd: (_, info) => { if (info.operation === 'chat') count++; } };
 * ```
 */
export type HookOperation = 'chat' | 'completions' | 'models.list' | 'models.retrieve';

/**
 * What a hook is told about the call it runs for. Every hook of one call gets the same object
 * (use it as a `WeakMap` key to keep state across the hooks of a call); `attempt` moves on as the
 * call is retried. Treat it as read-only.
 *
 * @example
 * ```ts
 * const started = new WeakMap<HookInfo, number>();
 * const timing: Hooks = {
 *   beforeRequest(_, info) {
 *     started.set(info, performance.now());
 *   },
 *   afterResponse(response, info) {
 *     console.log(`${info.operation} ${info.model}: ${response.status} after ${performance.now() - started.get(info)!} ms (attempt ${info.attempt})`);
 *   },
 * };
 * ```
 */
export interface HookInfo {
  readonly operation: HookOperation;
  /**
   * The model asked for (`body.model`), or the slug for `models.retrieve`; `undefined` for
   * `models.list`. With `fallbacks`, the model of the current attempt (from `beforeRetry` on, the
   * next one).
   */
  readonly model: string | undefined;
  /** Whether the call streams (`stream: true`). */
  readonly stream: boolean;
  /** The request body as the caller passed it (do not change it); `undefined` for a GET. */
  readonly body:
    Readonly<ChatCompletionCreateParams> | Readonly<CompletionCreateParams> | undefined;
  /** The attempt, from 1 (the first try): 2 is the first retry. */
  readonly attempt: number;
  /** When the call started (`Date.now()`), before any wait of the client's own (pre-flight, key function). */
  readonly startTime: number;
  /**
   * Milliseconds the call has waited so far for its turn in the client's queue (a server's rate
   * limit, `maxConcurrency`), before this attempt and the earlier ones; 0 when it never waited.
   */
  readonly queueTime: number;
}

/**
 * What `beforeRetry` gets: the call's {@link HookInfo} (the same object), with why and how long.
 *
 * @example
 * ```ts
 * const hooks: Hooks = {
 *   beforeRetry: ({ attempt, delay, error }: RetryInfo) => console.warn(`retry ${attempt - 1} in ${delay} ms: ${error.message}`),
 * };
 * ```
 */
export interface RetryInfo extends HookInfo {
  /** Why the last attempt failed (a status the policy retries, a connection error, a timeout). */
  readonly error: APIError;
  /**
   * Milliseconds the client waits before the attempt (a server's `retry-after`, or backoff with
   * jitter); 0 before a fallback, whose model `info.model` already names.
   */
  readonly delay: number;
}

/**
 * How a call went, given to `onEnd`. For a chat or legacy completion, `id`, `model`, `usage` and
 * `finishReasons` come from the response (JSON) or its chunks (stream).
 *
 * @example
 * ```ts
 * const hooks: Hooks = {
 *   onEnd(summary: CallSummary) {
 *     if (summary.chunks !== undefined) console.log(`${summary.chunks} chunks, first after ${summary.timeToFirstChunk} ms`);
 *     console.log(summary.outcome, summary.finishReasons, summary.usage?.total_tokens);
 *   },
 * };
 * ```
 */
export interface CallSummary {
  /**
   * `'ok'`: the body was read, or the stream read to its end; `'error'`: the call failed (see
   * `error`); `'closed'`: the caller left the stream before its end (`break`, `return()`,
   * `cancel()`).
   */
  readonly outcome: 'ok' | 'error' | 'closed';
  /** The error the caller got, when `outcome` is `'error'`. */
  readonly error: InferenceError | undefined;
  /** Milliseconds from the start of the call to its end (to the stream's end for a stream). */
  readonly duration: number;
  /** Attempts sent (1 without retries; 0 when the call failed before sending anything), fallbacks included. */
  readonly attempts: number;
  /** Milliseconds the call waited for its turn in the client's queue (rate limits, `maxConcurrency`), in all. */
  readonly queueTime: number;
  /** The HTTP status of the last response, if one arrived. */
  readonly status: number | undefined;
  /** The response's `id` (chat and legacy completions). */
  readonly id: string | undefined;
  /** The model that answered, as the response names it. */
  readonly model: string | undefined;
  /** Token usage, when the server reported it (a stream reports it with `stream_options: { include_usage: true }`). */
  readonly usage: CompletionUsage | undefined;
  /** The finish reason of each choice that finished, in choice order (`['stop']`, `['tool_calls']` …). */
  readonly finishReasons: readonly string[];
  /** The value the call resolved to (a JSON call: the `ChatCompletion`, `Completion`, `Model` …); `undefined` for a stream. */
  readonly data: unknown;
  /** Chunks the caller received (streams only). */
  readonly chunks: number | undefined;
  /** Milliseconds from the start of the call to the first chunk (streams only). */
  readonly timeToFirstChunk: number | undefined;
}

/**
 * The request path's handle on the hooks of one call (made by hooks/runner.ts).
 * @internal
 */
export interface CallHooks {
  /** Runs `beforeRequest`: what to send (credential headers withheld from the hooks, added back after them). */
  beforeRequest(
    url: string,
    init: RequestInit,
    attempt: number,
    signal: AbortSignal,
  ): Promise<{ url: string; init: RequestInit }>;
  /** Runs `afterResponse`: the response to go on with. */
  afterResponse(response: Response): Promise<Response>;
  /** Runs `beforeRetry` before the wait for attempt number `attempt` (to `model`, when falling back). */
  beforeRetry(error: APIError, delay: number, attempt: number, model?: string): Promise<void>;
  /** The call waited `ms` in the client's queue. */
  queued(ms: number): void;
  /**
   * `wrap` (which makes a `Stream` around an iterator) with the hooks following the stream: its
   * chunks and its end. Applied after the first chunk was read (a failure before it is the attempt's).
   */
  wrap<T, S>(
    wrap: (source: () => ObservableIterator<T>, controller: AbortController) => S,
  ): (source: () => ObservableIterator<T>, controller: AbortController) => S;
}
