/**
 * The request path: build the Request, send it, map failures to errors, retry, and read the
 * response inside the attempt, so that a body cut off mid-way (or a stream that fails before its
 * first event) is retried like a failed status.
 *
 *   buildURL / buildHeaders → fetch → status ≥ 400? → APIError (retry?) → reader (retry?) → caller
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, InferenceError, ResponseValidationError, type RequestTarget } from './errors';
import { redactHeaders, type Log } from './log';
import { assertHeaderValue, type HeadersInit, type QueryInit, type RequestOptions, type ResolvedOptions } from './options';
import { readText } from './body';
import { isRetryableStatus, retryDelay, sleep } from './retry';

/** Error bodies past this are cut (an HTML page from a proxy can be large; its start says enough). */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** What the client gives the request path: resolved options, the key (resolved per request) and the log. */
export interface RequestContext {
  options: ResolvedOptions;
  apiKey(): Promise<string>;
  log: Log;
  /** The pre-flight check of completion bodies (a no-op unless the `preflight` option is on). */
  preflight?(body: object): Promise<void>;
}

/** One API call as a resource describes it. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Path under the base URL, already percent-encoded, e.g. `/models/acme/base`. */
  path: string;
  /** JSON body. */
  body?: unknown;
  options?: RequestOptions | undefined;
  /** Ask for an event stream (sets `Accept: text/event-stream`). */
  stream?: boolean;
  /** Runs before anything is sent (the pre-flight check); its rejection is the call's. */
  before?: (() => Promise<void>) | undefined;
}

/** A response whose status was 2xx, handed to a `Reader` inside its attempt. */
export interface Sent {
  response: Response;
  target: RequestTarget;
  /** Aborts the HTTP request (a stream's `break`). */
  abort(reason?: unknown): void;
  /** Stop the attempt's timeout (a stream switches to its idle timeout once headers arrive). */
  clearTimer(): void;
  /** Clear the timer and unlink the caller's signal. Idempotent; `send` calls it when a reader fails. */
  release(): void;
  /** True once the attempt's timeout fired. */
  readonly timedOut: boolean;
  /** The caller's signal, if any. */
  userSignal: AbortSignal | undefined;
  /** The attempt's timeout in ms. */
  timeout: number;
  /** The largest JSON body to read (bytes). */
  maxBodySize: number;
  /** The largest single stream event (characters). */
  maxEventSize: number;
  /** The resolved API key, so readers can keep it out of what they report. */
  secret: string;
}

/**
 * Reads a 2xx response inside its attempt. A reader that throws an `APIError` (a body cut off
 * mid-way, an error object in a 200, a stream that fails before its first event) gets the
 * retry policy like a failed status would. A reader owns `sent.release()` once it succeeds.
 */
export type Reader<T> = (sent: Sent) => Promise<T>;

/** Read the whole body as JSON within the attempt's timeout. */
export const readJSON: Reader<{ response: Response; body: unknown; text: string; target: RequestTarget }> = async (sent) => {
  try {
    const { response, target } = sent;
    const { text, truncated, bytes } = await readText(response, sent.maxBodySize);
    if (truncated) {
      throw new ResponseValidationError(target, {
        issues: [{ path: '', message: `the body is larger than maxBodySize (${sent.maxBodySize} bytes; read ${bytes})`, received: undefined }],
        raw: text.slice(0, 1024),
        status: response.status,
        headers: response.headers,
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ResponseValidationError(target, {
        issues: [{ path: '', message: describeNonJSON(text, response.headers), received: text }],
        raw: text,
        status: response.status,
        headers: response.headers,
      });
    }
    // Some gateways (OpenRouter) report failures as a 200 whose body is an error object.
    if (isErrorEnvelope(body)) throw APIError.fromResponse(target, response.status, response.headers, body);
    return { response, body, text, target };
  } finally {
    sent.release();
  }
};

/** Stop at the headers; the body is the caller's (`asResponse()`). */
export const readNothing: Reader<Response> = async (sent) => {
  sent.release();
  return sent.response;
};

/**
 * Send `spec` and read its response with `read`, retrying as the policy allows.
 */
export async function send<T>(ctx: RequestContext, spec: RequestSpec, read: Reader<T>): Promise<T> {
  const { options: client, log } = ctx;
  const opts = spec.options ?? {};
  if (spec.before) await spec.before();
  const url = buildURL(client.baseURL, spec.path, client.defaultQuery, opts.query);
  const target: RequestTarget = { method: spec.method, path: new URL(url).pathname };
  const timeout = opts.timeout ?? client.timeout;
  const maxRetries = opts.maxRetries ?? client.maxRetries;
  const userSignal = opts.signal;
  const apiKey = await ctx.apiKey();
  const headers = buildHeaders(apiKey, spec, client.defaultHeaders, opts.headers);
  // One key for all attempts: a server that saw the first attempt can recognise the retry.
  if (opts.idempotencyKey !== undefined) headers.set('idempotency-key', opts.idempotencyKey);
  const maxBodySize = opts.maxBodySize ?? client.maxBodySize;
  const maxEventSize = opts.maxEventSize ?? client.maxEventSize;
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  // Looked up per request, so that msw (which patches globalThis.fetch) and test doubles work.
  const fetchImpl = client.fetch ?? globalThis.fetch;

  for (let attempt = 0; ; attempt++) {
    if (userSignal?.aborted) throw new APIUserAbortError(target, userSignal.reason);
    if (log.enabled('debug')) {
      log.debug(`${target.method} ${url} (attempt ${attempt + 1})`, { headers: redactHeaders(headers) });
    }

    const link = linkSignals(userSignal, timeout);
    let error: APIError;
    try {
      const response = await fetchImpl(url, {
        ...client.fetchOptions,
        ...opts.fetchOptions,
        method: spec.method,
        headers,
        signal: link.signal,
        ...(body === undefined ? {} : { body }),
      });
      if (log.enabled('debug')) log.debug(`${target.method} ${url} → ${response.status}`);
      if (response.ok) {
        return await read({
          response,
          target,
          abort: link.abort,
          clearTimer: link.clearTimer,
          release: link.release,
          get timedOut() {
            return link.timedOut;
          },
          userSignal,
          timeout,
          maxBodySize,
          maxEventSize,
          secret: apiKey,
        });
      }
      error = APIError.fromResponse(target, response.status, response.headers, await readErrorBody(response));
    } catch (cause) {
      if (userSignal?.aborted) {
        link.release();
        throw new APIUserAbortError(target, userSignal.reason);
      }
      // The server answered and its answer is wrong (ResponseValidationError): asking again will not help.
      if (cause instanceof InferenceError && !(cause instanceof APIError)) {
        link.release();
        throw cause;
      }
      error =
        cause instanceof APIError
          ? cause
          : link.timedOut
            ? new APIConnectionTimeoutError(target, timeout)
            : new APIConnectionError(target, { cause: withoutSecret(cause, apiKey) });
    }
    link.release();

    const delay = attempt < maxRetries ? retryDelayFor(error, attempt + 1) : undefined;
    if (delay === undefined) throw error;
    log.info(`${error.message}; retrying in ${Math.round(delay)} ms (${maxRetries - attempt} retries left)`);
    try {
      await sleep(delay, userSignal);
    } catch (reason) {
      throw new APIUserAbortError(target, reason);
    }
  }
}

/** The retry delay for a failed attempt, or `undefined` when it must not be retried. */
function retryDelayFor(error: APIError, retry: number): number | undefined {
  if (error instanceof APIUserAbortError) return undefined;
  if (error instanceof APIConnectionError) return retryDelay(retry, undefined);
  if (error.status === undefined || !isRetryableStatus(error.status, error.headers ?? new Headers())) return undefined;
  return retryDelay(retry, error.headers);
}

function isErrorEnvelope(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  return error !== undefined && error !== null && !('choices' in body) && !('data' in body);
}

function describeNonJSON(text: string, headers: Headers): string {
  const type = headers.get('content-type') ?? 'no content-type';
  if (text.trim() === '') return `expected a JSON body, got an empty body (${type})`;
  if (/^\s*</.test(text)) return `expected a JSON body, got HTML or XML (${type}), probably from a proxy`;
  return `expected a JSON body, got text that is not valid JSON (${type}; ${text.length} characters)`;
}

/** The body of an error response: JSON when it parses (whatever the content-type), else the text. */
async function readErrorBody(response: Response): Promise<unknown> {
  const { text, truncated } = await readText(response, MAX_ERROR_BODY_BYTES);
  if (truncated) return `${text}…`;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Join base URL and path, then apply default and per-request query parameters (`null` removes). */
export function buildURL(baseURL: string, path: string, ...queries: (QueryInit | undefined)[]): string {
  const url = new URL(baseURL + path);
  for (const query of queries) {
    if (!query) continue;
    for (const [name, value] of Object.entries(query)) {
      if (value === null) url.searchParams.delete(name);
      else if (value !== undefined) url.searchParams.set(name, String(value));
    }
  }
  return url.href;
}

function buildHeaders(apiKey: string, spec: RequestSpec, ...layers: (HeadersInit | undefined)[]): Headers {
  const headers = new Headers({
    accept: spec.stream ? 'text/event-stream' : 'application/json',
    authorization: `Bearer ${apiKey}`,
  });
  if (spec.body !== undefined) headers.set('content-type', 'application/json');
  // No telemetry headers (x-stainless-*, user-agent overrides): they trigger CORS preflights
  // that third-party servers reject.
  for (const layer of layers) {
    if (!layer) continue;
    for (const [name, value] of Object.entries(layer)) {
      if (value === null) headers.delete(name);
      else if (value !== undefined) {
        assertHeaderValue(name, value, !/authorization|key/i.test(name));
        headers.set(name, value);
      }
    }
  }
  return headers;
}

/**
 * One attempt's signal: aborts when the caller's signal does or the timeout passes. `release()`
 * clears the timer and removes the listener from the caller's signal, so that one signal reused
 * for thousands of requests collects no listeners.
 */
interface AttemptSignal {
  signal: AbortSignal;
  timedOut: boolean;
  abort(reason?: unknown): void;
  clearTimer(): void;
  release(): void;
}

function linkSignals(user: AbortSignal | undefined, timeoutMs: number): AttemptSignal {
  const controller = new AbortController();
  const state: AttemptSignal = {
    signal: controller.signal,
    timedOut: false,
    abort: (reason) => controller.abort(reason),
    clearTimer: () => clearTimeout(timer),
    release() {
      clearTimeout(timer);
      user?.removeEventListener('abort', onAbort);
    },
  };
  const onAbort = () => controller.abort(user?.reason);
  user?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    state.timedOut = true;
    controller.abort(new DOMException('The request timed out.', 'TimeoutError'));
  }, timeoutMs);
  return state;
}

/**
 * A runtime's or custom fetch's error, unless it quotes the key (a logging fetch wrapper might):
 * then a copy with the key replaced, keeping name, code and message otherwise.
 */
export function withoutSecret(cause: unknown, secret: string): unknown {
  if (!secret || !(cause instanceof Error)) return cause;
  const text = `${cause.message}\n${cause.stack ?? ''}\n${String((cause as { cause?: unknown }).cause ?? '')}`;
  if (!text.includes(secret)) return cause;
  const clean = new Error(cause.message.split(secret).join('***'));
  clean.name = cause.name;
  const code = (cause as { code?: unknown }).code;
  if (code !== undefined) (clean as { code?: unknown }).code = code;
  return clean;
}
