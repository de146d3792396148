/**
 * Scripted replies (`enqueue()`): which queued reply a request takes, the connection behaviour
 * (`delayMs`), and the replies that replace the response outright (`status`, `body`, `events`,
 * `raw`, `error`).
 *
 * @module
 */
import type { ScriptedReply } from '../scripted';
import { jsonResponse, respondWith, textResponse, withHeaders } from './outcome';
import type { Outcome } from './outcome';
import { decodeSegments, stripBase } from './paths';
import { sse, sseEvent } from './sse';
import type { State } from './state';

/** Takes the first queued reply whose path matches (or that has none). */
export function takeScripted(state: State, path: string): ScriptedReply | undefined {
  const decoded = decodeSegments(path);
  const index = state.queue.findIndex((r) => {
    if (r.path === undefined) return true;
    const wanted = stripBase(r.path, state.basePath);
    return wanted === path || wanted === decoded;
  });
  if (index < 0) return undefined;
  return state.queue.splice(index, 1)[0];
}

/** Whether a scripted reply replaces the response (rather than shaping the generated one). */
export function replacesResponse(reply: ScriptedReply): boolean {
  return (
    reply.status !== undefined ||
    reply.body !== undefined ||
    reply.events !== undefined ||
    reply.raw !== undefined ||
    reply.error !== undefined
  );
}

/** A scripted reply that replaces the response. */
export function sendScripted(state: State, reply: ScriptedReply, signal: AbortSignal): Outcome {
  const status = reply.status ?? reply.error?.status ?? 200;
  const headers = reply.headers ?? {};
  const after = reply.after ?? 'end';
  const { chunkDelayMs } = state;
  let outcome: Outcome;
  if (reply.raw !== undefined) {
    const pieces =
      typeof reply.raw === 'string' || reply.raw instanceof Uint8Array
        ? [reply.raw]
        : [...reply.raw];
    outcome = sse(pieces, after, signal, { status, split: true, chunkDelayMs });
  } else if (reply.events !== undefined) {
    outcome = sse(reply.events.map(sseEvent), after, signal, { status, chunkDelayMs });
  } else if (reply.body !== undefined) {
    const body = reply.body;
    outcome = respondWith(
      typeof body === 'string' || body instanceof Uint8Array
        ? textResponse(status, body, 'application/json')
        : jsonResponse(status, body),
    );
  } else if (reply.error !== undefined) {
    const e = reply.error;
    const error: Record<string, unknown> = {
      message: e.message ?? defaultMessage(e.status),
      type: e.type ?? defaultType(e.status),
    };
    if (e.param !== undefined) error['param'] = e.param;
    if (e.code !== undefined) error['code'] = e.code;
    const response = jsonResponse(status, { error });
    if (e.retryAfter !== undefined) response.headers.set('retry-after', String(e.retryAfter));
    outcome = respondWith(response);
  } else {
    outcome = respondWith(new Response(null, { status }));
  }
  return withHeaders(outcome, headers);
}

function defaultType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status < 500) return 'invalid_request_error';
  return 'server_error';
}

function defaultMessage(status: number): string {
  if (status === 429) return 'Rate limit reached. Please retry later.';
  if (status >= 500)
    return `The server had an error while processing your request (status ${status}).`;
  return `The request failed with status ${status}.`;
}

/** Resolves true after `ms`, or false as soon as the client is gone (the timer is cleared). */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
