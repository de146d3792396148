/**
 * Building and sending one request. `prepare()` does everything before the first byte is sent
 * (the body as JSON, the pre-flight check, the key, the URL and headers), each wait bounded by the
 * caller's signal and the timeout; `attempt()` sends it once (following redirects here, see
 * below) and hands a 2xx response to its reader inside the attempt, or throws the error for the
 * retry loop (retry.ts) to judge.
 *
 *   prepare: body → JSON, preflight, key → buildURL / buildHeaders
 *   attempt: fetch (redirects followed here) → status ≥ 400? → APIError : reader(sent)
 *
 * Every error leaving the request path has the API key masked (mask.ts): servers echo keys back.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, InferenceError, type RequestTarget } from './errors';
import type { Trace } from './debug';
import type { CallHooks } from './hooks';
import type { Log } from './log';
import { isCredentialName, mask } from './mask';
import type { HeadersInit, QueryInit, RequestOptions, ResolvedOptions } from './options';
import { readErrorBody, type Reader } from './response';
import { within, type Wait } from './wait';

/** Redirects followed before giving up (the fetch standard's limit). */
const MAX_REDIRECTS = 20;

/** What the client gives the request path: resolved options, the key (resolved per request) and the log. */
export interface RequestContext {
  options: ResolvedOptions;
  /** The key: a string, or a promise of one when `apiKey` is a function. */
  apiKey(): string | Promise<string>;
  log: Log;
  /** The pre-flight check of completion bodies (absent unless the `preflight` option is on). */
  preflight?: ((body: object, wait: Wait) => Promise<void>) | undefined;
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
  /** The call's hooks (the `hooks` option), when it has any. */
  call?: CallHooks | undefined;
}

/** A request ready to send, as many times as the retry policy allows. */
export interface Prepared {
  url: string;
  target: RequestTarget;
  init: RequestInit;
  fetch: typeof fetch;
  timeout: number;
  maxRetries: number;
  userSignal: AbortSignal | undefined;
  maxBodySize: number;
  maxEventSize: number;
  log: Log;
  trace: Trace | undefined;
  call: CallHooks | undefined;
}

/** Everything before the first byte is sent; every wait ends with the caller's signal and within the timeout. */
export async function prepare(ctx: RequestContext, spec: RequestSpec): Promise<Prepared> {
  const { options: client, log } = ctx;
  const opts = spec.options ?? {};
  const url = buildURL(client.baseURL, spec.path, client.defaultQuery, opts.query);
  const parsed = new URL(url);
  const target: RequestTarget = { method: spec.method, path: parsed.pathname, host: hostAndPort(parsed) };
  const timeout = opts.timeout ?? client.timeout;
  const userSignal = opts.signal;
  const body = spec.json ?? (spec.body === undefined ? undefined : serializeBody(spec.body, `${target.method} ${spec.path}`));

  if (userSignal?.aborted) throw new APIUserAbortError(target, userSignal.reason);
  if (spec.before) {
    try {
      await spec.before({ signal: userSignal, timeout });
    } catch (error) {
      if (userSignal?.aborted) throw new APIUserAbortError(target, userSignal.reason);
      throw error;
    }
  }
  const key = ctx.apiKey();
  let apiKey: string;
  if (typeof key === 'string') apiKey = key;
  else {
    // A slow token refresh cannot outlive its call: raced against the signal and the timeout.
    const got = await within(key, timeout, userSignal).catch((error: unknown) => {
      throw userSignal?.aborted ? new APIUserAbortError(target, userSignal.reason) : error;
    });
    if (!got) throw new APIConnectionTimeoutError(target, timeout, 'apiKey');
    apiKey = got.value;
  }
  log.addSecret(apiKey);

  const headers = buildHeaders(apiKey, spec, client, opts);
  // Loaded only when debug logging is on: nobody else pays for formatting log lines.
  const trace = log.enabled('debug') ? (await import('./debug')).trace(log, target.method, url) : undefined;
  return {
    url,
    target,
    init: { ...client.fetchOptions, ...opts.fetchOptions, method: spec.method, headers, ...(body === undefined ? {} : { body }) },
    // Looked up per request, so that msw (which patches globalThis.fetch) and test doubles work.
    fetch: client.fetch ?? globalThis.fetch,
    timeout,
    maxRetries: opts.maxRetries ?? client.maxRetries,
    userSignal,
    maxBodySize: opts.maxBodySize ?? client.maxBodySize,
    maxEventSize: opts.maxEventSize ?? client.maxEventSize,
    log,
    trace,
    call: spec.call,
  };
}

/**
 * Send the request once and read a 2xx response with `read`. Throws an `APIError` the retry loop
 * may retry (a status, a connection error, a timeout, a reader's error), or any other error as
 * final; every error with the key masked.
 */
export async function attempt<T>(p: Prepared, read: Reader<T>, number: number, baseURL: string): Promise<T> {
  const { target, userSignal, log, trace } = p;
  const started = Date.now();
  trace?.request(number, p.maxRetries + 1, p.init.headers as Headers, p.init.body as string | undefined);
  const link = linkSignals(userSignal, p.timeout);
  let error: APIError;
  try {
    // Hooks (when the call has any) see the request without its credentials, within the timeout.
    const { url, init } = p.call ? await p.call.beforeRequest(p.url, p.init, number, link.signal) : p;
    let response = await fetchFollowingRedirects(p.fetch, url, { ...init, signal: link.signal }, target, trace);
    if (p.call) response = await p.call.afterResponse(response);
    trace?.response(response, started);
    if (response.ok) {
      return await read({
        response,
        target,
        abort: link.abort,
        clearTimer: link.clearTimer,
        release: link.release,
        userSignal,
        maxBodySize: p.maxBodySize,
        maxEventSize: p.maxEventSize,
        log,
        trace,
      });
    }
    const errorBody = await readErrorBody(response);
    trace?.errorBody(response.status, errorBody);
    error = APIError.fromResponse(target, response.status, response.headers, errorBody, response.status === 404 ? missingV1(baseURL) : undefined);
  } catch (cause) {
    link.release();
    if (userSignal?.aborted) throw mask(new APIUserAbortError(target, userSignal.reason), log.secrets);
    // The server answered and its answer is wrong (ResponseValidationError), or the SDK refused
    // to go on (a redirect): final, not for the retry loop.
    if (cause instanceof InferenceError && !(cause instanceof APIError)) throw mask(cause, log.secrets);
    error = cause instanceof APIError ? cause : link.timedOut ? new APIConnectionTimeoutError(target, p.timeout) : new APIConnectionError(target, { cause });
  }
  link.release();
  throw mask(error, log.secrets);
}

/** `JSON.stringify`, with a BigInt, a cycle or a throwing `toJSON` turned into an `InferenceError`. */
export function serializeBody(body: unknown, where: string): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new InferenceError(`${where}: the body cannot be sent as JSON (${String(error).split('\n')[0]}).`, { cause: error });
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
  trace: Trace | undefined,
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
    if (hop >= MAX_REDIRECTS) throw refuse(`more than ${MAX_REDIRECTS} redirects; the last went to ${current.origin}${current.pathname}`);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw refuse('the redirect has no valid location');
    }
    if (!/^https?:$/.test(next.protocol)) throw refuse(`refused to follow a redirect to ${next.protocol}`);
    if (current.protocol === 'https:' && next.protocol === 'http:') {
      throw refuse(`refused to follow a redirect from https to http (${next.origin})`);
    }
    const headers = new Headers(request.headers);
    if (next.origin !== current.origin) {
      for (const name of [...headers.keys()]) if (isCredentialName(name)) headers.delete(name);
    }
    // As fetch does: 303 (and 301/302 after a POST) continue as a GET without the body.
    let { method, body } = request;
    if ((response.status === 303 && method !== 'HEAD') || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers.delete('content-type');
    }
    trace?.redirect(response.status, current.href, method ?? 'GET', next.href);
    const { body: _previous, ...rest } = request;
    request = { ...rest, headers, ...(method === undefined ? {} : { method }), ...(body === undefined || body === null ? {} : { body }) };
    current = next;
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * The hint for a 404 when the base URL has no version segment (`/v1`): the most common mistake
 * (`INFERENCE_BASE_URL=http://localhost:8787`), and the service answers only under `/v1`.
 */
function missingV1(baseURL: string): string | undefined {
  const base = new URL(baseURL);
  if (base.pathname.split('/').some((segment) => /^v\d+/i.test(segment))) return undefined;
  const path = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  return `the base URL ${path} has no /v1; the service answers under /v1: did you mean ${path}/v1?`;
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

/** A random UUID (v4). `randomUUID` needs a secure context in browsers; `getRandomValues` does not. */
function newIdempotencyKey(): string {
  return (
    crypto.randomUUID?.() ??
    '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) => (+c ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (+c / 4)))).toString(16))
  );
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
