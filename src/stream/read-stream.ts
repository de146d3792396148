/**
 * The reader of a streamed response (`readStream`, a `Reader` of core/response.ts): the SSE reader
 * loaded by the first stream, the event iterator (stream/events.ts) opened and read up to its first
 * item inside the attempt, and a stream dropped unread watched, so that its turn in the limiter
 * comes back once it is collected.
 */
import type { Reader } from '../core/response';
import { EventIterator, type StreamSettings } from './events';
import type * as Sse from './sse';
import type { Stream } from './stream';

/**
 * The SSE reader and its parser (eventsource-parser), loaded by the first stream: an import of the
 * SDK that never streams neither resolves the package nor compiles it (a cold start's cost).
 */
let sse: Promise<typeof Sse> | undefined;

/**
 * A `Reader` (see core/response.ts) that opens the event stream and reads up to its first item inside
 * the attempt, so that a failure before anything was yielded (reset, stall, in-band error) gets
 * the retry policy; after the first item, nothing is retried.
 */
export function readStream<T>(settings: StreamSettings<T>): Reader<Stream<T>> {
  return async (sent) => {
    // Loaded while the attempt's timeout still runs, so that no moment is left without a limit.
    const reader = await (sse ??= import('./sse'));
    // The attempt's timeout (or the caller's signal) fired while the reader loaded: thrown as it
    // is, the request path names it (`APIConnectionTimeoutError`, `APIUserAbortError`); read on,
    // the body's abort would come back as a plain connection error.
    if (sent.signal.aborted) throw sent.signal.reason;
    sent.clearTimer(); // `timeout` covered the headers; the idle timeout covers the rest.
    const controller = new AbortController();
    const events = new EventIterator(sent, settings, controller, reader);
    await events.prime(settings.untilContent === true);
    // A stream dropped unread gives its turn in the limiter back once collected. Watched here,
    // not on the Stream: a loop holds the iterator, not the Stream.
    if (sent.done)
      (unread ??= new FinalizationRegistry((done) => done())).register(events, sent.done);
    return settings.wrap(() => events, controller);
  };
}

let unread: FinalizationRegistry<() => void> | undefined;
