/**
 * What a streamed response says besides its chunks (for the event iterator, stream/events.ts): a
 * response that is no event stream (no body, a JSON body, an HTML page) as a typed error before
 * any event is read; an in-band error (`{"error": …}`, `event: error`) shaped for the error-body
 * reader; whether an item has a choice or a `finish_reason`.
 */
import { APIConnectionError, APIError } from '../errors/api';
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
  const { maxEventSize } = sent.call;
  const type = response.headers.get('content-type') ?? '';
  if (/^application\/json/i.test(type)) {
    // A server that ignored `stream: true`, or answered an error with a 200 JSON body: its error,
    // or a typed error saying so.
    const body = jsonOrText((await readText(response, sent.call.maxBodySize, sent.signal)).text);
    throw isErrorEvent(body)
      ? APIError.fromResponse(target, response.status, response.headers, body)
      : bodyError(
          target,
          response,
          'expected an event stream (text/event-stream), got a JSON body',
          body,
        );
  }
  // A proxy's or login page's 200 HTML: read as SSE it holds no events, and would end as "no
  // finish_reason" (a connection error, retried). Other types (text/plain, none) are still read
  // as a stream: some servers send events under them. The error names the type, with the page's
  // start (it says whose page it is).
  if (MARKUP.test(type)) {
    const { text, truncated } = await readText(response, MAX_PAGE, sent.signal);
    throw bodyError(
      target,
      response,
      `expected an event stream (text/event-stream), got HTML or XML (${type}), probably from a proxy`,
      truncated ? `${text}…` : text,
      'stream',
    );
  }
  return sse.readEventBatches(response.body, {
    idle,
    maxEventSize,
    tooLarge: () =>
      bodyError(
        target,
        response,
        `a stream event is larger than maxEventSize (${maxEventSize} characters)`,
        undefined,
        'stream event',
      ),
    signal: sent.signal,
  });
}

/** Content types of a page, not of an event stream. */
const MARKUP = /^\s*(?:text\/html|application\/xhtml\+xml|text\/xml|application\/xml)\b/i;

/** How much of a page an error keeps: its start says what it is (a proxy's, a login's). */
const MAX_PAGE = 64 * 1024;

/**
 * `{"error": …}` (OpenRouter, Groq, vercel's structured error parts), also beside `choices: []`.
 * (A parsed JSON array has no `error`.)
 */
export function isErrorEvent(value: unknown): value is { error: unknown } {
  return (value as { error?: unknown } | null)?.error != null;
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
