/**
 * The request path: build the Request, send it, map failures to errors, retry, and read the
 * response inside the attempt, so that a body cut off mid-way (or a stream that fails before its
 * first event) is retried like a failed status.
 *
 *   body → JSON, preflight, key (each bounded by signal and timeout) → buildURL / buildHeaders
 *   → fetch (redirects followed here) → status ≥ 400? → APIError (retry?) → reader (retry?) → caller
 *
 * Every error leaving this file has the API key masked (mask.ts): servers echo keys back.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, InferenceError, ResponseValidationError, type RequestTarget } from './errors';
import { redactHeaders, type Log } from './log';
import { isCredentialName, mask, maskBody, maskQuery } from './mask';
import type { HeadersInit, QueryInit, RequestOptions, ResolvedOptions } from './options';
import { readText } from './body';
import { isRetryableStatus, retryDelay, sleep } from './retry';

/** Error bodies past this are cut (an HTML page from a proxy can be large; its start says enough). */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** Redirects followed before giving up (the fetch standard's limit). */
const MAX_REDIRECTS = 20;

/** What the client gives the request path: resolved options, the key (resolved per request) and the log. */
export interface RequestContext {
  options: ResolvedOptions;
  /** The key: a string, or a promise of one when `apiKey` is a function. */
  apiKey(): string | Promise<string>;
  log: Log;
  /** The pre-flight check of completion bodies (a no-op unless the `preflight` option is on). */
  preflight?(body: object, wait?: Wait): Promise<void>;
}

/** What bounds a wait before anything is sent: the caller's signal and the call's timeout. */
export interface Wait {
  signal: AbortSignal | undefined;
  /** Milliseconds. */
  timeout: number;
}

/** One API call as a resource describes it. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Path under the base URL, already percent-encoded, e.g. `/models/acme/base`. */
  path: string;
  /** JSON body. */
  body?: unknown;
  /** The body already serialised (at the call site, so that an unserialisable body throws there). */
  json?: string | undefined;
  options?: RequestOptions | undefined;
  /** Ask for an event stream (sets `Accept: text/event-stream`). */
  stream?: boolean;
  /** Runs before anything is sent (the pre-flight check); its rejection is the call's. */
  before?: ((wait: Wait) => Promise<void>) | undefined;
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
  /** The client's log (it masks the key); debug lines name `url`, query values masked. */
  log: Log;
  /** The request URL. */
  url: string;
}

/**
 * Reads a 2xx response inside its attempt. A reader that throws an `APIError` (a body cut off
 * mid-way, an error object in a 200, a stream that fails before its first event) gets the
 * retry policy like a failed status would. A reader owns `sent.release()` once it succeeds.
 */
export type Reader<T> = (sent: Sent) => Promise<T>;

/** Read the whole body as JSON within the attempt's timeout. */
export const readJSON: Reader<{ response: Response; body: unknown; target: RequestTarget }> = async (sent) => {
  try {
    const { response, target, log } = sent;
    const { text, truncated, bytes } = await readText(response, sent.maxBodySize);
    if (log.enabled('debug')) log.debug(`${response.status} ${target.method} ${maskQuery(sent.url)} body (${bytes} bytes):`, maskBody(text, log.secrets));
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
    return { response, body, target };
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
  const url = buildURL(client.baseURL, spec.path, client.defaultQuery, opts.query);
  const parsed = new URL(url);
  const target: RequestTarget = { method: spec.method, path: parsed.pathname, host: hostAndPort(parsed) };
  const timeout = opts.timeout ?? client.timeout;
  const maxRetries = opts.maxRetries ?? client.maxRetries;
  const userSignal = opts.signal;
  const body = spec.json ?? (spec.body === undefined ? undefined : serializeBody(spec.body, `${target.method} ${spec.path}`));

  // Before anything is sent, every wait ends with the caller's signal and within the timeout.
  if (userSignal?.aborted) throw new APIUserAbortError(target, userSignal.reason);
  if (spec.before) {
    try {
      await spec.before({ signal: userSignal, timeout });
    } catch (error) {
      if (userSignal?.aborted) throw new APIUserAbortError(target, userSignal.reason);
      throw error;
    }
  }
  const pendingKey = ctx.apiKey();
  const apiKey = typeof pendingKey === 'string' ? pendingKey : await bounded(pendingKey, target, userSignal, timeout);
  log.addSecret(apiKey);
  const masked = <E>(error: E): E => mask(error, log.secrets);

  const headers = buildHeaders(apiKey, spec, client, opts);
  const maxBodySize = opts.maxBodySize ?? client.maxBodySize;
  const maxEventSize = opts.maxEventSize ?? client.maxEventSize;
  // Looked up per request, so that msw (which patches globalThis.fetch) and test doubles work.
  const fetchImpl = client.fetch ?? globalThis.fetch;
  const fetchOptions = { ...client.fetchOptions, ...opts.fetchOptions };

  for (let attempt = 0; ; attempt++) {
    if (userSignal?.aborted) throw new APIUserAbortError(target, userSignal.reason);
    const started = Date.now();
    if (log.enabled('debug')) {
      log.debug(`→ ${target.method} ${maskQuery(url)} (attempt ${attempt + 1} of ${maxRetries + 1})`, {
        headers: redactHeaders(headers),
        ...(body === undefined ? {} : { body: maskBody(body, log.secrets) }),
      });
    }

    const link = linkSignals(userSignal, timeout);
    let error: APIError;
    try {
      const init = { ...fetchOptions, method: spec.method, headers, signal: link.signal, ...(body === undefined ? {} : { body }) };
      const response = await fetchFollowingRedirects(fetchImpl, url, init, target, log);
      if (log.enabled('debug')) {
        const id = response.headers.get('x-request-id');
        log.debug(`← ${response.status} ${target.method} ${maskQuery(url)} in ${Date.now() - started} ms${id ? ` (request id ${id})` : ''}`, {
          headers: redactHeaders(response.headers),
        });
      }
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
          log,
          url,
        });
      }
      const errorBody = await readErrorBody(response);
      if (log.enabled('debug')) log.debug(`${response.status} ${target.method} ${maskQuery(url)} error body:`, errorBody);
      error = APIError.fromResponse(target, response.status, response.headers, errorBody, response.status === 404 ? missingV1(client.baseURL) : undefined);
    } catch (cause) {
      if (userSignal?.aborted) {
        link.release();
        throw masked(new APIUserAbortError(target, userSignal.reason));
      }
      // The server answered and its answer is wrong (ResponseValidationError), or the SDK refused
      // to go on (a redirect): asking again will not help.
      if (cause instanceof InferenceError && !(cause instanceof APIError)) {
        link.release();
        throw masked(cause);
      }
      error =
        cause instanceof APIError
          ? cause
          : link.timedOut
            ? new APIConnectionTimeoutError(target, timeout)
            : new APIConnectionError(target, { cause });
    }
    link.release();

    const delay = attempt < maxRetries ? retryDelayFor(error, attempt + 1) : undefined;
    if (delay === undefined) throw masked(error);
    log.info(`${error.message}; retrying in ${Math.round(delay)} ms (attempt ${attempt + 2} of ${maxRetries + 1})`);
    try {
      await sleep(delay, userSignal);
    } catch (reason) {
      throw masked(new APIUserAbortError(target, reason));
    }
  }
}

/**
 * `promise` (the `apiKey` function's), unless the caller's signal aborts or `timeout` passes
 * first: then the matching error at once. A slow token refresh cannot outlive its call.
 */
function bounded<T>(promise: Promise<T>, target: RequestTarget, signal: AbortSignal | undefined, timeout: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(new APIUserAbortError(target, signal?.reason));
    };
    const timer = setTimeout(() => {
      done();
      reject(new APIConnectionTimeoutError(target, timeout, 'apiKey'));
    }, timeout);
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

/** `JSON.stringify`, with a BigInt, a cycle or a throwing `toJSON` turned into an `InferenceError`. */
export function serializeBody(body: unknown, where: string): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new InferenceError(
      `${where}: the request body cannot be sent as JSON (${error instanceof Error ? error.message.split('\n')[0] : String(error)}). ` +
        'Pass plain objects, arrays, strings, numbers and booleans (a BigInt as a number or string; no cycles).',
      { cause: error },
    );
  }
}

/**
 * fetch, following redirects here rather than in the runtime: `fetch` drops `Authorization` on a
 * redirect to another origin but keeps `x-api-key`, `api-key` and every other credential header,
 * and follows https → http. Here every credential-like header (the rule in mask.ts) is dropped
 * on a change of origin, and a downgrade to http is refused. `fetchOptions.redirect`, when the
 * user sets it, leaves redirects to the runtime as asked.
 */
async function fetchFollowingRedirects(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  target: RequestTarget,
  log: Log,
): Promise<Response> {
  if (init.redirect !== undefined) return fetchImpl(url, init);
  let current = new URL(url);
  let request: RequestInit = { ...init, redirect: 'manual' };
  for (let hop = 0; ; hop++) {
    const response = await fetchImpl(current.href, request);
    // A browser hides where a manual redirect goes; it also enforces CORS and mixed-content rules
    // itself, so there the runtime may follow.
    if (response.type === 'opaqueredirect') return fetchImpl(current.href, { ...request, redirect: 'follow' });
    const location = response.headers.get('location');
    if (!isRedirect(response.status) || location === null) return response;
    void response.body?.cancel().catch(() => {});

    const refuse = (why: string) => new APIError(response.status, `${response.status} ${target.method} ${target.path}: ${why}`, { headers: response.headers });
    if (hop >= MAX_REDIRECTS) throw refuse(`more than ${MAX_REDIRECTS} redirects; the last went to ${maskQuery(current.href)}`);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw refuse(`the redirect's location is not a URL: ${JSON.stringify(location.slice(0, 200))}`);
    }
    if (next.protocol !== 'https:' && next.protocol !== 'http:') throw refuse(`refused to follow a redirect to ${next.protocol} (only http and https)`);
    if (current.protocol === 'https:' && next.protocol === 'http:') {
      throw refuse(`refused to follow a redirect from https to http (${next.origin}): the request and its key would travel unencrypted`);
    }
    const headers = new Headers(request.headers);
    if (next.origin !== current.origin) {
      for (const name of [...headers.keys()]) if (isCredentialName(name) && name !== 'idempotency-key') headers.delete(name);
    }
    // As fetch does: 303 (and 301/302 after a POST) continue as a GET without the body.
    let { method, body } = request;
    if ((response.status === 303 && method !== 'HEAD') || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers.delete('content-type');
    }
    if (log.enabled('debug')) log.debug(`${response.status} redirect: ${target.method} ${maskQuery(current.href)} → ${method} ${maskQuery(next.href)}`);
    const { body: _previous, ...rest } = request;
    request = { ...rest, headers, ...(method === undefined ? {} : { method }), ...(body === undefined || body === null ? {} : { body }) };
    current = next;
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
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

/**
 * The hint for a 404 when the base URL has no version segment (`/v1`): the most common mistake
 * (`INFERENCE_BASE_URL=http://localhost:8787`), and the service answers only under `/v1`.
 */
function missingV1(baseURL: string): string | undefined {
  const base = new URL(baseURL);
  if (base.pathname.split('/').some((segment) => /^v\d+/i.test(segment))) return undefined;
  const suggested = `${base.origin}${base.pathname.replace(/\/+$/, '')}/v1${base.search}`;
  return `the base URL ${maskQuery(baseURL)} has no /v1; the service answers under /v1: did you mean ${maskQuery(suggested)}?`;
}

/** `host:port`, the port spelled out even when it is the scheme's default. */
function hostAndPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/**
 * Join base URL and path, keeping the base URL's own query (Azure's `?api-version=…`), then apply
 * default and per-request query parameters (`null` removes one).
 */
export function buildURL(baseURL: string, path: string, ...queries: (QueryInit | undefined)[]): string {
  const url = new URL(baseURL);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  for (const query of queries) {
    if (!query) continue;
    for (const [name, value] of Object.entries(query)) {
      if (value === null) url.searchParams.delete(name);
      else if (value !== undefined) url.searchParams.set(name, String(value));
    }
  }
  return url.href;
}

function buildHeaders(apiKey: string, spec: RequestSpec, client: ResolvedOptions, opts: RequestOptions): Headers {
  const headers = new Headers({
    accept: spec.stream ? 'text/event-stream' : 'application/json',
    authorization: `Bearer ${apiKey}`,
  });
  if (spec.body !== undefined || spec.json !== undefined) headers.set('content-type', 'application/json');
  // One key for all attempts: a server that saw the first attempt can recognise the retry. A
  // default like the others, so `headers: { 'idempotency-key': null }` removes it too.
  if (spec.method === 'POST' && client.idempotencyKeys) headers.set('idempotency-key', newIdempotencyKey());
  // No telemetry headers (x-stainless-*, user-agent overrides): they trigger CORS preflights
  // that third-party servers reject. Names and values were checked with the options.
  for (const layer of [client.defaultHeaders, opts.headers] as (HeadersInit | undefined)[]) {
    if (!layer) continue;
    for (const [name, value] of Object.entries(layer)) {
      if (value === null) headers.delete(name);
      else if (value !== undefined) headers.set(name, value);
    }
  }
  if (opts.idempotencyKey === false) headers.delete('idempotency-key');
  else if (opts.idempotencyKey !== undefined) headers.set('idempotency-key', opts.idempotencyKey);
  return headers;
}

/** A random UUID (v4), from the runtime's crypto where it has one. */
function newIdempotencyKey(): string {
  const crypto = globalThis.crypto as Crypto | undefined;
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context in browsers; getRandomValues does not.
  const bytes = new Uint8Array(16);
  if (typeof crypto?.getRandomValues === 'function') crypto.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
