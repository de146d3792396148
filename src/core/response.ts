/**
 * Reading a response: what a reader gets from the request path (`Sent`), and the readers of a
 * JSON body and of an error body (`asResponse()`'s is in resources/call.ts). Every body is read with a size
 * limit, so that a hostile or broken server cannot make the client buffer without bound. (The
 * reader of an event stream is in stream/events.ts.)
 */
import type { CallDescription } from './call-description';
import { APIError, type RequestTarget } from '../errors/api';
import { bodyError } from '../errors/validation';
import type { Trace } from './debug';
import { jsonOrText } from '../util/json';
import { bodyText } from '../util/body';
import type { Log } from '../util/log';

/** A response whose status was 2xx, handed to a `Reader` inside its attempt. */
export interface Sent {
  response: Response;
  /** The call: where it went (`target`), the caller's `signal`, `maxBodySize`, `maxEventSize`. */
  call: CallDescription;
  /**
   * The attempt's signal: aborted by its timeout, the caller's signal or `abort()`. Readers stop
   * reading when it aborts, even a body that does not listen to it (one a `fetch` option made).
   */
  signal: AbortSignal;
  /** Aborts the HTTP request (a stream's `break`, its idle timeout). */
  abort(reason?: unknown): void;
  /** Stop the attempt's timeout (a stream switches to its idle timeout once headers arrive). */
  clearTimer(): void;
  /** Clear the timer and unlink the caller's signal. Idempotent; the request path calls it when a reader fails. */
  release(): void;
  /**
   * Gives the attempt's turn in the rate limiter back (`release()` does too): a function that
   * holds nothing of the response or the stream, for a finalizer to call. Idempotent.
   */
  done: (() => void) | undefined;
  /** The client's log: it masks the key, and knows it (`log.secrets`) for errors that must. */
  log: Log;
  /** The debug lines of this call, when debug logging is on. */
  trace: Trace | undefined;
}

/**
 * Reads a 2xx response inside its attempt. A reader that throws an `APIError` (a body cut off
 * mid-way, an error object in a 200, a stream that fails before its first event) gets the retry
 * policy like a failed status would. A reader owns `sent.release()` once it succeeds.
 */
export type Reader<T> = (sent: Sent) => Promise<T>;

/** Error bodies past this are cut (an HTML page from a proxy can be large; its start says enough). */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Read the whole body as JSON within the attempt's timeout. */
export const readJSON: Reader<{
  response: Response;
  body: unknown;
  text: string;
  target: RequestTarget;
}> = async (sent) => {
  try {
    const { response, call } = sent;
    const { target, maxBodySize } = call;
    const { text, truncated, bytes } = await readText(response, maxBodySize, sent.signal);
    sent.trace?.body(response.status, bytes, text);
    if (truncated) {
      throw bodyError(
        target,
        response,
        `the body is larger than maxBodySize (${maxBodySize} bytes; read ${bytes})`,
        text.slice(0, 1024),
        undefined,
        undefined,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw bodyError(target, response, describeNonJSON(text, response.headers), text);
    }
    // Some gateways (OpenRouter) report failures as a 200 whose body is an error object.
    if (isErrorEnvelope(body))
      throw APIError.fromResponse(target, response.status, response.headers, body);
    return { response, body, text, target };
  } finally {
    sent.release();
  }
};

/** The body of an error response: JSON when it parses (whatever the content-type), else the text. */
export async function readErrorBody(response: Response, signal?: AbortSignal): Promise<unknown> {
  const { text, truncated } = await readText(response, MAX_ERROR_BODY_BYTES, signal);
  return truncated ? `${text}…` : jsonOrText(text);
}

function isErrorEnvelope(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  return error !== undefined && error !== null && !('choices' in body) && !('data' in body);
}

function describeNonJSON(text: string, headers: Headers): string {
  const type = headers.get('content-type') ?? 'no content-type';
  if (text.trim() === '') return `expected a JSON body, got an empty body (${type})`;
  if (/^\s*</.test(text))
    return `expected a JSON body, got HTML or XML (${type}), probably from a proxy`;
  return `expected a JSON body, got text that is not valid JSON (${type}; ${text.length} characters)`;
}

/**
 * The text of a body, cut at `maxBytes` with `truncated: true` past it (the body is cancelled).
 * When `signal` aborts, the body is cancelled and the read throws its reason, even for a body
 * that does not listen to the signal.
 */
export async function readText(
  response: Response,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<{ text: string; truncated: boolean; bytes: number }> {
  if (!response.body) return { text: '', truncated: false, bytes: 0 };
  const body = bodyText(response.body, signal, maxBytes);
  let text = '';
  try {
    for (let read; (read = await body.next()) !== undefined;) text += read;
    return { text: text + body.flush(), truncated: body.truncated, bytes: body.bytes };
  } finally {
    body.close();
  }
}
