/**
 * The error hierarchy. Every error the SDK throws is an `InferenceError`:
 *
 * ```
 * InferenceError                    bad options or arguments (the call's promise rejects)
 * ├── APIError                      the server answered with an error, or the request failed
 * │   ├── BadRequestError (400) … InternalServerError (>=500)      one class per status
 * │   ├── APIConnectionError        no response (refused, reset, DNS, TLS)
 * │   │   └── APIConnectionTimeoutError
 * │   │       └── ToolTimeoutError
 * │   └── APIUserAbortError         the caller's AbortSignal fired
 * ├── ResponseValidationError       the server answered 2xx, but the body is not what the types promise
 * ├── HookError                     a hook (the `hooks` option) threw
 * ├── ListenerError                 a listener (`stream.on(…)`, `runner.on(…)`) threw
 * └── EventNotEmittedError          `emitted(name)`: the stream or run ended without that event
 * ```
 *
 * Messages name the method, the path and the status, and never hold the API key: the key
 * travels in the Authorization header, which no error copies, and where a server echoes it back
 * (in a message, a body, a header) the request path masks it as `***` (util/mask.ts).
 */
import { readErrorBody, type ErrorDetails } from './body';

/**
 * Where an error happened: the request's method and URL path, e.g. `POST /v1/chat/completions`.
 *
 * @example
 * ```ts
 * const target: RequestTarget = { method: 'GET', path: '/v1/models' };
 * ```
 */
export interface RequestTarget {
  method: string;
  /** The URL path, without origin or query (queries can carry secrets on some servers). */
  path: string;
  /** `host:port` of the server, named in connection errors. */
  host?: string | undefined;
}

/**
 * Base class of every error this SDK throws. Catch it to handle them all.
 *
 * @example
 * ```ts
 * try {
 *   await client.models.list();
 * } catch (err) {
 *   if (err instanceof InferenceError) console.error(err.name, err.message);
 * }
 * ```
 */
export class InferenceError extends Error {
  override name = 'InferenceError';
}

/**
 * The server answered with an error status (or an error body in a 200), or no answer came.
 * `status` is the HTTP status; for an error delivered inside a 200 response it is the numeric
 * `code` (or `status_code`) the provider gave, when that is an HTTP error status, else 200.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.completions.create({ model: 'acme/missing', messages: [] });
 * } catch (err) {
 *   if (err instanceof APIError) console.log(err.status, err.type, err.code, err.requestId);
 * }
 * ```
 */
export class APIError<
  TStatus extends number | undefined = number | undefined,
> extends InferenceError {
  override name = 'APIError';
  /** HTTP status, or `undefined` when no response arrived. */
  readonly status: TStatus;
  /** Response headers, or `undefined` when no response arrived. */
  readonly headers: Headers | undefined;
  /** The `x-request-id` response header, to quote when you contact support. */
  readonly requestId: string | undefined;
  /** The parsed response body (JSON value, or the text when it is not JSON), as the server sent it. */
  readonly error: unknown;
  /** The error's `type` (e.g. `invalid_request_error`), when the server gave one. */
  readonly type: string | undefined;
  /** The error's `code`: a string (`model_not_found`) or a number (`429`, OpenRouter), when given. */
  readonly code: string | number | undefined;
  /** The request field the error is about (e.g. `model`), when given. */
  readonly param: string | undefined;

  constructor(
    status: TStatus,
    message: string,
    init: {
      headers?: Headers | undefined;
      error?: unknown;
      details?: ErrorDetails | undefined;
      cause?: unknown;
    } = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = status;
    this.headers = init.headers;
    this.requestId = init.headers?.get('x-request-id') ?? undefined;
    this.error = init.error;
    this.type = init.details?.type;
    this.code = init.details?.code;
    this.param = init.details?.param;
  }

  /** The same as `requestId`, under the official `openai` client's name. */
  get requestID(): string | undefined {
    return this.requestId;
  }

  /**
   * Make the error for a response: the class follows the status, the message and fields come
   * from the body, whatever shape it has (see `readErrorBody`).
   * @internal
   */
  static fromResponse(
    target: RequestTarget,
    status: number,
    headers: Headers,
    body: unknown,
    hint?: string,
  ): APIError<number> {
    const details = readErrorBody(body);
    const init = { headers, error: body, details };
    // An error inside a 200 (OpenRouter) has no error status; its numeric code stands in, and
    // without one the status stays the one the server sent.
    const effective =
      status >= 400 ? status : (details.status ?? statusFromCode(details.code) ?? status);
    const message = `${effective} ${target.method} ${target.path}: ${details.message}${hint ? ` (${hint})` : ''}`;
    const Class = classForStatus(effective);
    return Class ? new Class(effective, message, init) : new APIError(effective, message, init);
  }
}

/** 400: the request was malformed or unsupported. @example `if (err instanceof BadRequestError) …` */
export class BadRequestError extends APIError<number> {
  override name = 'BadRequestError';
}
/** 401: the API key is missing, wrong or revoked. @example `if (err instanceof AuthenticationError) …` */
export class AuthenticationError extends APIError<number> {
  override name = 'AuthenticationError';
}
/** 403: the key may not do this. @example `if (err instanceof PermissionDeniedError) …` */
export class PermissionDeniedError extends APIError<number> {
  override name = 'PermissionDeniedError';
}
/** 404: no such model or path. @example `if (err instanceof NotFoundError) …` */
export class NotFoundError extends APIError<number> {
  override name = 'NotFoundError';
}
/** 409: a conflict; retried by default. @example `if (err instanceof ConflictError) …` */
export class ConflictError extends APIError<number> {
  override name = 'ConflictError';
}
/** 422: the body was well-formed but not acceptable. @example `if (err instanceof UnprocessableEntityError) …` */
export class UnprocessableEntityError extends APIError<number> {
  override name = 'UnprocessableEntityError';
}
/** 429: too many requests; retried by default, honouring `retry-after`. @example `if (err instanceof RateLimitError) …` */
export class RateLimitError extends APIError<number> {
  override name = 'RateLimitError';
}
/** 500 and above: the server failed; retried by default. @example `if (err instanceof InternalServerError) …` */
export class InternalServerError extends APIError<number> {
  override name = 'InternalServerError';
}

/**
 * No response arrived: connection refused or reset, DNS or TLS failure. `cause` holds the
 * runtime's own error.
 *
 * @example
 * ```ts
 * if (err instanceof APIConnectionError) console.error('network problem:', err.cause);
 * ```
 */
export class APIConnectionError extends APIError<undefined> {
  override name = 'APIConnectionError';
  constructor(target: RequestTarget, init: { cause?: unknown; message?: string } = {}) {
    super(
      undefined,
      init.message ??
        `Connection error: ${target.method} ${target.path}: ${describeCause(init.cause)}${target.host ? ` reaching ${target.host}` : ''}`,
      { cause: init.cause },
    );
  }
}

/**
 * The request took longer than its `timeout` (or a stream stalled longer than its idle timeout).
 * Not the same as a user abort, which is `APIUserAbortError`.
 *
 * @example
 * ```ts
 * await client.models.list({ timeout: 5_000 }).catch((err) => {
 *   if (err instanceof APIConnectionTimeoutError) console.error('took more than 5 s');
 * });
 * ```
 */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  /**
   * `phase`: `'request'` (no headers within `timeout`), `'apiKey'` (the `apiKey` function did not
   * return within `timeout`), `'stream'` (no event within `streamIdleTimeout`),
   * `'keep-alive'` (the same, while the server sent only keep-alive comments), `'queue'` (the call
   * waited `timeout` for its turn: `maxConcurrency`, or a first contact), or a hook that did
   * not settle within the option named (`{ hook: 'onChunk hook of "audit"', option: 'timeout' }`;
   * a `runTools()` tool: `ToolTimeoutError`).
   */
  constructor(
    target: RequestTarget,
    timeoutMs: number,
    phase:
      | 'request'
      | 'apiKey'
      | 'stream'
      | 'keep-alive'
      | 'queue'
      | { hook: string; option: 'timeout' | 'streamIdleTimeout' | 'toolTimeout' } = 'request',
  ) {
    super(target, {
      message:
        typeof phase === 'object'
          ? `The ${phase.hook} did not settle within ${timeoutMs} ms (${phase.option}): ${target.method} ${target.path}`
          : phase === 'stream'
            ? `Stream stalled: no event for ${timeoutMs} ms (streamIdleTimeout): ${target.method} ${target.path}`
            : phase === 'keep-alive'
              ? `Stream stalled: no event for ${timeoutMs} ms (streamIdleTimeout), only keep-alive comments: ${target.method} ${target.path}`
              : phase === 'queue'
                ? `Waited ${timeoutMs} ms (timeout) in the client's queue; not sent: ${target.method} ${target.path}`
                : phase === 'apiKey'
                  ? `The \`apiKey\` function did not return within the timeout (${timeoutMs} ms): ${target.method} ${target.path}`
                  : `Request timed out after ${timeoutMs} ms: ${target.method} ${target.path}`,
    });
  }
}

/**
 * A `runTools()` tool, or its arguments' asynchronous validation, did not settle within
 * `toolTimeout`: the run ends with this error (an `APIConnectionTimeoutError`, as before it had
 * its own class). `tool` is the tool's name.
 *
 * @example
 * ```ts
 * const runner = client.chat.completions.runTools(body, { toolTimeout: 10_000 });
 * await runner.done().catch((err) => {
 *   if (err instanceof ToolTimeoutError) console.error(`${err.tool} took more than 10 s`);
 * });
 * ```
 */
export class ToolTimeoutError extends APIConnectionTimeoutError {
  override name = 'ToolTimeoutError';

  /** @internal */
  constructor(
    target: RequestTarget,
    timeoutMs: number,
    /** The name of the tool that did not settle. */
    readonly tool: string,
  ) {
    super(target, timeoutMs, { hook: `tool ${JSON.stringify(tool)}`, option: 'toolTimeout' });
  }
}

/**
 * The caller's `signal` aborted the request. Never retried.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const pending = client.models.list({ signal: controller.signal });
 * controller.abort();
 * await pending.catch((err) => err instanceof APIUserAbortError); // true
 * ```
 */
export class APIUserAbortError extends APIError<undefined> {
  override name = 'APIUserAbortError';
  constructor(target: RequestTarget, reason?: unknown) {
    super(undefined, `Request was aborted: ${target.method} ${target.path}`, { cause: reason });
  }
}

/**
 * `models.waitUntilReady()` gave up: the model did not report `is_ready: true` in time. The
 * message says why: `is_ready` stayed false, the server kept answering 503, or the last poll had
 * no answer yet (a server that stalls). `cause` is the last poll's error, if it failed.
 *
 * @example
 * ```ts
 * try {
 *   await client.models.waitUntilReady('acme/chat-1', { timeout: 60_000 });
 * } catch (err) {
 *   if (err instanceof ModelNotReadyError) console.error(`${err.model} is still warming up`);
 * }
 * ```
 */
export class ModelNotReadyError extends InferenceError {
  override name = 'ModelNotReadyError';
  /** The slug that was waited for. */
  readonly model: string;
  /** How long it was waited for, in ms. */
  readonly waited: number;

  constructor(model: string, waited: number, why = 'is_ready stayed false', cause?: unknown) {
    super(
      `Model ${JSON.stringify(model)} was not ready after ${waited} ms (${why}).`,
      cause === undefined ? undefined : { cause },
    );
    this.model = model;
    this.waited = waited;
  }
}

/**
 * The pre-flight check (client option `preflight: 'error'`) found a request the model cannot
 * serve: more output tokens asked for than its `max_output_length`. Nothing was sent.
 *
 * @example
 * ```ts
 * const client = new Client({ preflight: 'error' });
 * try {
 *   await client.chat.completions.create({ model: 'acme/chat-1', messages, max_tokens: 1_000_000 });
 * } catch (err) {
 *   if (err instanceof PreflightError) console.error(`ask for at most ${err.limit} tokens`);
 * }
 * ```
 */
export class PreflightError extends InferenceError {
  override name = 'PreflightError';
  constructor(
    /** The model's slug. */
    readonly model: string,
    /** The field that asked for too much: `max_tokens` or `max_completion_tokens`. */
    readonly param: string,
    /** What was asked for. */
    readonly requested: number,
    /** The model's `max_output_length`. */
    readonly limit: number,
  ) {
    super(
      `${param} is ${requested}, but ${JSON.stringify(model)} generates at most ${limit} tokens (max_output_length).`,
    );
  }
}

/**
 * The name of a hook, as a {@link HookError} reports it.
 *
 * @example
 * ```ts
 * const name: HookName = 'beforeRequest';
 * ```
 */
export type HookName =
  'beforeRequest' | 'afterResponse' | 'beforeRetry' | 'onChunk' | 'onError' | 'onEnd';

/**
 * A hook (the `hooks` option) threw, or returned something it may not: the call failed because of
 * it and was not retried. `hook` names the hook, `source` the hooks object (its `name`, or its
 * place: `client hooks[0]`, `request hooks[1]`), `cause` is what the hook threw.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.completions.create({ model: 'acme/chat-1', messages });
 * } catch (err) {
 *   if (err instanceof HookError) console.error(`${err.source} failed in ${err.hook}:`, err.cause);
 * }
 * ```
 */
export class HookError extends InferenceError {
  override name = 'HookError';
  // Declared, not initialised here: the hook runner sets them, so a bundle without hooks pays
  // for little more than the class's name.
  /** The hook that failed: `beforeRequest`, `afterResponse`, `beforeRetry`, `onChunk`, `onError` or `onEnd`. */
  declare readonly hook: HookName;
  /** Which hooks object: its `name`, or its place in the list (`client hooks[0]`, `request hooks[0]`). */
  declare readonly source: string;
}

/**
 * A listener of a stream's or a runner's events (`stream.on(…)`, `runner.on(…)`) threw: the
 * stream or the run ended there, with this error (the request aborted, `error` and `end` told).
 * `event` names the event, `cause` is what the listener threw.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.completions.stream({ model: 'acme/chat-1', messages }).on('content', render).done();
 * } catch (err) {
 *   if (err instanceof ListenerError) console.error(`the ${err.event} listener failed:`, err.cause);
 * }
 * ```
 */
export class ListenerError extends InferenceError {
  override name = 'ListenerError';
  /** The event whose listener threw (`'content.delta'`, `'functionToolCall'`, `'end'` …). */
  readonly event: string;
  /** `after`: what had already gone wrong, when the listener threw while the stream or run was failing. */
  constructor(event: string, thrown: unknown, after?: { what: 'stream' | 'run'; error: unknown }) {
    const had =
      after === undefined
        ? ''
        : `; the ${after.what} had ${after.error instanceof APIUserAbortError ? 'been aborted' : `failed: ${messageOf(after.error)}`}`;
    super(`The '${event}' listener threw: ${messageOf(thrown)}${had}`, { cause: thrown });
    this.event = event;
  }
}

/**
 * `emitted(name)` of a stream or a runner: the stream or run ended without telling that event
 * (`await runner.emitted('totalUsage')` when the server reported no usage). A stream or run that
 * failed rejects `emitted()` with its own error instead.
 *
 * @example
 * ```ts
 * const usage = await runner.emitted('totalUsage').catch((err) => {
 *   if (err instanceof EventNotEmittedError) return undefined; // the server reported none
 *   throw err;
 * });
 * ```
 */
export class EventNotEmittedError extends InferenceError {
  override name = 'EventNotEmittedError';
  /** The event that was waited for. */
  readonly event: string;
  constructor(what: 'stream' | 'run', event: string, already = false) {
    super(
      already
        ? `The ${what} has already ended; no '${event}' event will come.`
        : `The ${what} ended without a '${event}' event${event === 'totalUsage' ? ' (the server reported no usage)' : ''}.`,
    );
    this.event = event;
  }
}

function messageOf(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  try {
    return String(thrown);
  } catch {
    return 'a value that cannot be shown as text'; // an object without toString
  }
}

type StatusErrorClass = new (
  status: number,
  message: string,
  init: ConstructorParameters<typeof APIError>[2],
) => APIError<number>;

function classForStatus(status: number): StatusErrorClass | undefined {
  switch (status) {
    case 400:
      return BadRequestError;
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 422:
      return UnprocessableEntityError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? InternalServerError : undefined;
  }
}

/** A provider code such as `429`, `"401"` or `502` names an HTTP error status; `"tool_use_failed"` does not. */
function statusFromCode(code: string | number | undefined): number | undefined {
  const n =
    typeof code === 'number'
      ? code
      : typeof code === 'string' && /^\d{3}$/.test(code)
        ? Number(code)
        : NaN;
  return n >= 400 && n <= 599 ? n : undefined;
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    // undici hides the useful part (ECONNREFUSED, ECONNRESET) in cause.cause.
    const inner = (cause as { cause?: { code?: unknown; message?: unknown } }).cause;
    const code = typeof inner?.code === 'string' ? ` (${inner.code})` : '';
    return `${cause.message}${code}`;
  }
  return String(cause);
}

// Structured outputs and tools (chat.completions.parse, runTools). The server answered 2xx; what
// the model wrote cannot be used. Not APIErrors, never retried.
