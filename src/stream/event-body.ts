/**
 * What a streamed response says besides its chunks (for the event iterator, stream/events.ts): a
 * response that is no event stream (no body, a JSON body, an HTML page) as a typed error before
 * any event is read; an in-band error (`{"error": …}`, `event: error`) shaped for the error-body
 * reader; whether an item has a choice or a `finish_reason`.
 */
import { APIConnectionError, APIError, type InferenceError } from '../errors/api';
import { bodyError } from '../errors/validation';
import { jsonOrText } from '../util/json';
import { readText, type Sent } from '../core/response';
import type { EventSourceMessage } from './sse';
import type * as Sse from './sse';

/**
 * The body's event batches, once it is known to be an event stream: a response without a body, a
 * JSON body or a page (a proxy's, a login's) where events were asked for is a typed error.
 */
export async function openEvents(
  sent: Sent,
  idle: Sse.IdleTimer,
  sse: typeof Sse,
): Promise<AsyncGenerator<EventSourceMessage[]>> {
  const { response } = sent;
  const { target } = sent.call;
  if (!response.body)
    throw new APIConnectionError(target, {
      message: `${target.method} ${target.path}: the response has no body`,
    });
  const type = response.headers.get('content-type') ?? '';
  if (/^application\/json/i.test(type)) {
    // A server that ignored `stream: true`, or answered an error with a 200 JSON body.
    throw await notAStream(sent);
  }
  // A proxy's or login page's 200 HTML: read as SSE it holds no events, and would end as "no
  // finish_reason" (a connection error, retried). Other types (text/plain, none) are still read
  // as a stream: some servers send events under them.
  if (MARKUP.test(type)) throw await markupPage(sent, type);
  const tooLarge = () =>
    bodyError(
      target,
      response,
      `a stream event is larger than maxEventSize (${sent.call.maxEventSize} characters)`,
      undefined,
      'stream event',
    );
  return sse.readEventBatches(response.body, {
    idle,
    maxEventSize: sent.call.maxEventSize,
    tooLarge,
    signal: sent.signal,
  });
}

/** A JSON body where a stream was asked for: its error, or a typed error saying so. */
async function notAStream(sent: Sent): Promise<InferenceError> {
  const { response } = sent;
  const { target } = sent.call;
  const { text } = await readText(response, sent.call.maxBodySize, sent.signal);
  const body = jsonOrText(text);
  if (isErrorEvent(body))
    return APIError.fromResponse(target, response.status, response.headers, body);
  return bodyError(
    target,
    response,
    'expected an event stream (text/event-stream), got a JSON body',
    body,
  );
}

/** Content types of a page, not of an event stream. */
const MARKUP = /^\s*(?:text\/html|application\/xhtml\+xml|text\/xml|application\/xml)\b/i;

/** How much of a page an error keeps: its start says what it is (a proxy's, a login's). */
const MAX_PAGE = 64 * 1024;

/** An HTML (or XML) page where a stream was asked for: a typed error naming the type, with the page's start. */
async function markupPage(sent: Sent, type: string): Promise<InferenceError> {
  const { response } = sent;
  const { target } = sent.call;
  const { text, truncated } = await readText(response, MAX_PAGE, sent.signal);
  return bodyError(
    target,
    response,
    `expected an event stream (text/event-stream), got HTML or XML (${type}), probably from a proxy`,
    truncated ? `${text}…` : text,
    'stream',
  );
}

/** `{"error": …}` (OpenRouter, Groq, vercel's structured error parts), also beside `choices: []`. */
export function isErrorEvent(value: unknown): value is { error: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { error?: unknown }).error != null
  );
}

/** Shape an `event: error` payload so that the error-body reader finds its message and code. */
export function inBandError(value: unknown): unknown {
  if (isErrorEvent(value)) return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { error: value };
  return value === '' || value === null ? 'the server sent an error event without details' : value;
}

export function hasChoice(item: unknown): boolean {
  const choices = (item as { choices?: unknown[] | null }).choices;
  return Array.isArray(choices) && choices.length > 0;
}

export function hasFinishReason(item: unknown): boolean {
  const choices = (item as { choices?: { finish_reason?: unknown }[] | null }).choices;
  if (!Array.isArray(choices)) return false;
  for (const choice of choices) if (choice?.finish_reason != null) return true;
  return false;
}
