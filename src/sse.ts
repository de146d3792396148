/**
 * Bytes → server-sent events. eventsource-parser does the framing (CR, LF and CRLF line ends,
 * comments, `event:` and multi-line `data:`); this file adds what a stream of completions needs
 * around it: UTF-8 decoding across chunk boundaries, the last event delivered even without its
 * closing blank line, and an idle timeout that any received byte (comments and keep-alives
 * included) resets, and that does not count the consumer's own pauses.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type { EventSourceMessage };

/**
 * Watches a stream for server silence: only time spent waiting for bytes counts, not time the
 * consumer spends between chunks. Cheap per chunk: two timestamps, not a new timer.
 */
export class IdleTimer {
  #since = Date.now();
  #waiting = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #fired = false;

  /** `onIdle` runs once, after `ms` of waiting without a byte. */
  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.#schedule(ms);
  }

  get fired(): boolean {
    return this.#fired;
  }

  /** A read starts: the server has the floor. */
  waiting(): void {
    this.#since = Date.now();
    this.#waiting = true;
  }

  /** Bytes arrived: the consumer has the floor. */
  received(): void {
    this.#waiting = false;
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(delay: number): void {
    this.#timer = setTimeout(() => {
      const quiet = Date.now() - this.#since;
      if (this.#waiting && quiet >= this.ms) {
        this.#fired = true;
        this.#timer = undefined;
        this.onIdle();
      } else {
        this.#schedule(this.#waiting ? this.ms - quiet : this.ms);
      }
    }, delay);
    // Never keep a process alive by itself (Node, Bun); a no-op where timers are plain numbers.
    (this.#timer as { unref?: () => void }).unref?.();
  }
}

/**
 * The events of an SSE body, in order, one batch per read of the body (never an empty batch):
 * a read from a fast server holds hundreds of events, and handing them over one by one through
 * an async generator would cost a promise each. Returning early (a `break` upstream) cancels the
 * body. Errors of the body (a reset, an abort) propagate as they are; the caller classifies them.
 */
export async function* readEventBatches(
  body: ReadableStream<Uint8Array>,
  options: {
    idle?: IdleTimer | undefined;
    /** Characters one event (and one unfinished line) may buffer. */
    maxEventSize?: number | undefined;
    /** The error to throw past `maxEventSize`. */
    tooLarge?: () => Error;
  } = {},
): AsyncGenerator<EventSourceMessage[]> {
  const { idle, maxEventSize, tooLarge = () => new RangeError(`An event exceeded ${maxEventSize} characters`) } = options;
  const reader = body.getReader();
  // Strips a leading BOM, as the SSE spec asks; `stream: true` keeps split UTF-8 sequences whole.
  const decoder = new TextDecoder();
  let batch: EventSourceMessage[] = [];
  let overflow = false;
  const parser = createParser({
    onEvent: (event) => batch.push(event),
    // A server that never ends an event (or a line) would otherwise make us buffer forever.
    maxBufferSize: maxEventSize,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
    },
  });
  let finished = false;
  try {
    for (;;) {
      idle?.waiting();
      const { done, value } = await reader.read();
      idle?.received();
      if (done) {
        // A server that closes without the final blank line still sent its last event.
        parser.feed(`${decoder.decode()}\n\n`);
        finished = true;
      } else {
        parser.feed(decoder.decode(value, { stream: true }));
      }
      if (overflow) throw tooLarge();
      if (batch.length > 0) {
        // A new array for the next read: the consumer owns this one.
        const events = batch;
        batch = [];
        yield events;
      }
      if (finished) return;
    }
  } finally {
    if (!finished) void reader.cancel().catch(() => {}); // not awaited: a body that was tee'd (msw, a cloning fetch) cancels only when every copy does
    reader.releaseLock();
  }
}
