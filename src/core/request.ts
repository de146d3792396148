/**
 * Sending one described call (core/call-description.ts: the body, URL and per-call settings were
 * worked out at the call site). `prepare()` does what is left before the first byte is sent (the
 * pre-flight check, the key, the headers), each wait bounded by the caller's signal and the
 * timeout; `attempt()` sends it once (following redirects here, see below) and hands a 2xx
 * response to its reader inside the attempt, or throws the error for the retry loop (core/retry.ts) to
 * judge.
 *
 *   prepare: preflight, key → buildHeaders
 *   attempt: fetch (redirects followed here) → status ≥ 400? → APIError : reader(sent)
 *
 * Every error leaving the request path has the API key masked (util/mask.ts): servers echo keys back.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InferenceError,
  type RequestTarget,
} from '../errors/api';
import type { Trace } from './debug';
import type { CallDescription } from './call-description';
import type { CallHooks } from '../options/hooks';
import type { Log } from '../util/log';
import { isCredentialName, mask } from '../util/mask';
import type { HeadersInit, QueryInit, ResolvedOptions } from '../options/types';
import { readErrorBody, type Reader } from './response';
import { link as linkSignals } from '../util/signals';
import { untilAborted, within, type Wait } from '../util/wait';
import type { Slot } from './limits/limiter';
import type { Limits, Pool } from './limits/limits';

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
  /** The rate limiter, shared with the client's copies (core/limits/). */
  limits: Limits;
  /** The cap on calls in flight (`maxConcurrency`), when there is one. */
  pool: Pool | undefined;
}

/** A call ready to send, as many times as the retry policy allows: its description and what `prepare()` worked out. */
export interface Prepared {
  call: CallDescription;
  init: RequestInit;
  fetch: typeof fetch;
  log: Log;
  trace: Trace | undefined;
  /** The call's hooks, when it has any. */
  hooks: CallHooks | undefined;
}

/** Everything before the first byte is sent; every wait ends with the caller's signal and within the timeout. */
export async function prepare(
  ctx: RequestContext,
  call: CallDescription,
  hooks: CallHooks | undefined,
): Promise<Prepared> {
  const { options: client, log } = ctx;
  const { target, timeout, signal: userSignal } = call;

  if (userSignal?.aborted) throw new APIUserAbortError(target, userSignal.reason);
  if (call.before) {
    try {
      await call.before({ signal: userSignal, timeout });
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

  const headers = buildHeaders(apiKey, call, client);
  // Loaded only when debug logging is on: nobody else pays for formatting log lines.
  const trace = log.enabled('debug')
    ? (await import('./debug')).trace(log, call.method, call.url)
    : undefined;
  return {
    call,
    init: {
      ...client.fetchOptions,
      ...call.fetchOptions,
      method: call.method,
      headers,
      ...(call.json === undefined ? {} : { body: call.json }),
    },
    // Looked up per request, so that msw (which patches globalThis.fetch) and test doubles work.
    fetch: client.fetch ?? globalThis.fetch,
    log,
    trace,
    hooks,
  };
}

/**
 * Send the request once and read a 2xx response with `read`. Throws an `APIError` the retry loop
 * may retry (a status, a connection error, a timeout, a reader's error), or any other error as
 * final; every error with the key masked.
 */
export async function attempt<T>(
  p: Prepared,
  read: Reader<T>,
  number: number,
  baseURL: string,
  slot?: Slot,
): Promise<T> {
  const { call, log, trace } = p;
  const { target, signal: userSignal } = call;
  const started = Date.now();
  trace?.request(
    number,
    call.maxRetries + 1,
    p.init.headers as Headers,
    p.init.body as string | undefined,
  );
  // The caller's signal and the attempt's timeout, as one signal; released when the attempt ends.
  const link = linkSignals([userSignal], {
    ms: call.timeout,
    reason: () => new DOMException('The request timed out.', 'TimeoutError'),
  });
  // The attempt's turn in the limiter is given back with the rest (a stream's when it ends).
  const release = slot
    ? () => {
        link.release();
        slot.done();
      }
    : link.release;
  let error: APIError;
  try {
    // Hooks (when the call has any) see the request without its credentials, within the timeout.
    const { url, init } = p.hooks
      ? await p.hooks.beforeRequest(call.url, p.init, number, link.signal)
      : { url: call.url, init: p.init };
    let response = await fetchFollowingRedirects(
      p.fetch,
      url,
      { ...init, signal: link.signal },
      target,
      trace,
    );
    if (p.hooks) response = await p.hooks.afterResponse(response);
    slot?.learn(response.status, response.headers);
    trace?.response(response, started);
    if (response.ok) {
      return await read({
        response,
        call,
        signal: link.signal,
        abort: link.abort,
        clearTimer: link.clearTimer,
        release,
        done: slot?.done,
        log,
        trace,
      });
    }
    const errorBody = await readErrorBody(response, link.signal);
    trace?.errorBody(response.status, errorBody);
    error = APIError.fromResponse(
      target,
      response.status,
      response.headers,
      errorBody,
      response.status === 404 ? missingV1(baseURL, errorBody) : undefined,
    );
  } catch (cause) {
    release();
    if (userSignal?.aborted)
      throw mask(new APIUserAbortError(target, userSignal.reason), log.secrets);
    // The server answered and its answer is wrong (ResponseValidationError), or the SDK refused
    // to go on (a redirect): final, not for the retry loop.
    if (cause instanceof InferenceError && !(cause instanceof APIError))
      throw mask(cause, log.secrets);
    error =
      cause instanceof APIError
        ? cause
        : link.timedOut
          ? new APIConnectionTimeoutError(target, call.timeout)
          : new APIConnectionError(target, { cause });
  }
  release();
  throw mask(error, log.secrets);
}

/**
 * fetch, following redirects here rather than in the runtime: `fetch` drops `Authorization` on a
 * redirect to another origin but keeps `x-api-key`, `api-key` and every other credential header,
 * and follows https → http. Here every credential-like header (the rule in util/mask.ts) is dropped
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
  // Each fetch ends when the attempt's signal aborts, even one (a `fetch` option) that ignores it.
  const fetchOnce = (href: string, init: RequestInit) =>
    untilAborted(Promise.resolve(fetchImpl(href, init)), init.signal);
  if (init.redirect !== undefined) return fetchOnce(url, init);
  let current = new URL(url);
  let request: RequestInit = { ...init, redirect: 'manual' };
  for (let hop = 0; ; hop++) {
    const response = await fetchOnce(current.href, request);
    // A browser hides where a manual redirect goes; it also enforces CORS and mixed-content rules
    // itself, so there the runtime may follow.
    if (response.type === 'opaqueredirect')
      return fetchOnce(current.href, { ...request, redirect: 'follow' });
    const location = response.headers.get('location');
    if (!isRedirect(response.status) || location === null) return response;
    void response.body?.cancel().catch(() => {});

    const refuse = (why: string) =>
      new APIError(response.status, `${response.status} ${target.method} ${target.path}: ${why}`, {
        headers: response.headers,
      });
    if (hop >= MAX_REDIRECTS)
      throw refuse(
        `more than ${MAX_REDIRECTS} redirects; the last went to ${current.origin}${current.pathname}`,
      );
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw refuse('the redirect has no valid location');
    }
    if (!/^https?:$/.test(next.protocol))
      throw refuse(`refused to follow a redirect to ${next.protocol}`);
    if (current.protocol === 'https:' && next.protocol === 'http:') {
      throw refuse(`refused to follow a redirect from https to http (${next.origin})`);
    }
    const headers = new Headers(request.headers);
    if (next.origin !== current.origin) {
      for (const name of [...headers.keys()]) if (isCredentialName(name)) headers.delete(name);
    }
    // As fetch does: 303 (and 301/302 after a POST) continue as a GET without the body.
    let { method, body } = request;
    if (
      (response.status === 303 && method !== 'HEAD') ||
      ((response.status === 301 || response.status === 302) && method === 'POST')
    ) {
      method = 'GET';
      body = undefined;
      headers.delete('content-type');
    }
    trace?.redirect(response.status, current.href, method ?? 'GET', next.href);
    request = { ...request, headers, method, body } as RequestInit;
    current = next;
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * The hint for a 404 when the base URL has no version segment (`/v1`): the most common mistake
 * (`INFERENCE_BASE_URL=http://localhost:8787`), and the service answers only under `/v1`; or
 * when it ends in an endpoint (`…/v1/chat/completions`, copied from a curl line). Left out when
 * the server's error already speaks of the base URL (the mock server names the right one
 * itself): the hint is said once.
 */
function missingV1(baseURL: string, body: unknown): string | undefined {
  const base = new URL(baseURL);
  const path = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  // A base URL copied with its endpoint (`…/v1/chat/completions`): any server 404s the doubled path.
  const meant = path.replace(/\/(chat\/)?completions$/, '');
  if (
    // (A string quoted: its words are still found.)
    String(JSON.stringify(body)).includes('base URL') ||
    (meant === path && /\/v\d/i.test(base.pathname))
  )
    return undefined;
  return meant === path
    ? `the base URL ${path} has no /v1; the service answers under /v1: did you mean ${path}/v1?`
    : `the base URL ${path} ends in an endpoint, not /v1: did you mean ${meant}?`;
}

/**
 * Join base URL and path, keeping the base URL's own query (Azure's `?api-version=…`), then apply
 * default and per-request query parameters. `null` or `undefined` removes one set at a lower level,
 * as `openai`'s `{ ...defaultQuery, ...query }` leaves out a key given as `undefined`.
 */
export function buildURL(
  baseURL: string,
  path: string,
  ...queries: (QueryInit | undefined)[]
): string {
  const url = new URL(baseURL);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  for (const query of queries) {
    if (!query) continue;
    for (const [name, value] of Object.entries(query)) {
      if (value === null || value === undefined) url.searchParams.delete(name);
      else url.searchParams.set(name, String(value));
    }
  }
  return url.href;
}

function buildHeaders(apiKey: string, call: CallDescription, client: ResolvedOptions): Headers {
  const headers = new Headers({ accept: call.stream ? 'text/event-stream' : 'application/json' });
  // No key: a web page's client of its own route (options-check.ts), which holds the key.
  if (apiKey !== '') headers.set('authorization', `Bearer ${apiKey}`);
  if (call.json !== undefined) headers.set('content-type', 'application/json');
  // One key for all attempts: a server that saw the first attempt can recognise the retry. A
  // default like the others, so `headers: { 'idempotency-key': null }` removes it too.
  if (call.method === 'POST' && client.idempotencyKeys)
    headers.set('idempotency-key', newIdempotencyKey());
  // No telemetry headers (x-stainless-*, user-agent overrides): they trigger CORS preflights
  // that third-party servers reject. Names and values were checked with the options.
  for (const layer of [client.defaultHeaders, call.headers] as (HeadersInit | undefined)[]) {
    if (!layer) continue;
    for (const [name, value] of Object.entries(layer)) {
      if (value === null) headers.delete(name);
      else if (value !== undefined) headers.set(name, value);
    }
  }
  if (call.idempotencyKey === false) headers.delete('idempotency-key');
  else if (call.idempotencyKey !== undefined) headers.set('idempotency-key', call.idempotencyKey);
  return headers;
}

/** A random UUID (v4). `randomUUID` needs a secure context in browsers; `getRandomValues` does not. */
function newIdempotencyKey(): string {
  return (
    crypto.randomUUID?.() ??
    '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) =>
      (+c ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (+c / 4)))).toString(16),
    )
  );
}
