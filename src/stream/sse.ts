/**
 * Bytes → server-sent events. eventsource-parser does the framing (CR, LF and CRLF line ends,
 * comments, `event:` and multi-line `data:`); this file adds what a stream of completions needs
 * around it: UTF-8 decoding across chunk boundaries, the last event delivered even without its
 * closing blank line, a non-standard `error:` field kept as an error event (llama.cpp sends its
 * errors that way), and an idle timeout that bytes of events reset, but keep-alive comments and
 * blank lines do not (a server that only pings cannot hold a stream open for ever), and that does
 * not count the consumer's own pauses.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { bodyText } from '../util/body';

export type { EventSourceMessage };

/**
 * Watches a stream for a server that sends nothing useful: only time spent waiting for bytes
 * counts, not time the consumer spends between chunks; bytes that carry events reset the count,
 * keep-alive comments do not. Cheap per chunk: a few timestamps, not a new timer.
 */
export class IdleTimer {
  /** Waiting time since the last bytes that carried data (ms), not counting the current wait. */
  #quiet = 0;
  #waitStart = Date.now();
  #waiting = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** True once `onIdle` ran. */
  fired = false;
  /** True when bytes did arrive since the last data, but only keep-alive comments or blank lines. */
  keepAliveOnly = false;

  /** `onIdle` runs once, after `ms` of waiting without data. */
  constructor(
    readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.#schedule(ms);
  }

  /** A read starts: the server has the floor. */
  waiting(): void {
    this.#waitStart = Date.now();
    this.#waiting = true;
  }

  /** Bytes arrived: the consumer has the floor. `data` is false for keep-alive comments only. */
  received(data = true): void {
    this.#waiting = false;
    if (data) {
      this.#quiet = 0;
      this.keepAliveOnly = false;
    } else {
      this.#quiet += Date.now() - this.#waitStart;
      this.keepAliveOnly = true;
    }
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  #schedule(delay: number): void {
    this.#timer = setTimeout(() => {
      const quiet = this.#quiet + (this.#waiting ? Date.now() - this.#waitStart : 0);
      if (this.#waiting && quiet >= this.ms) {
        this.fired = true;
        this.onIdle();
      } else {
        this.#schedule(this.#waiting ? this.ms - quiet : this.ms - this.#quiet);
      }
    }, delay);
    // Never keep a process alive by itself (Node, Bun); a no-op where timers are plain numbers.
    (this.#timer as { unref?: () => void }).unref?.();
  }
}

/** Where the previous chunk left the current line: at its start, or inside a comment or data. */
interface LineState {
  atLineStart: boolean;
  inComment: boolean;
}

/** Whether `text` holds bytes of a field line (data, event …), not only comments and line ends. */
function carriesData(text: string, line: LineState): boolean {
  const first = text.search(/[\r\n]/);
  // The chunk's start continues the line the previous chunk left open.
  const head = first < 0 ? text : text.slice(0, first);
  if (head !== '' && (line.atLineStart ? head.charCodeAt(0) !== 0x3a : !line.inComment))
    return true;
  return first >= 0 && /[\r\n][^\r\n:]/.test(text.slice(first));
}

function advance(text: string, line: LineState): void {
  // The last line end, found from the end (a read usually ends on one): `lastIndexOf('\r')` would
  // scan the whole read when the server sends LF only.
  let last = text.length - 1;
  while (last >= 0) {
    const c = text.charCodeAt(last);
    if (c === 0x0a || c === 0x0d) break;
    last--;
  }
  if (last < 0) {
    if (line.atLineStart && text !== '') {
      line.atLineStart = false;
      line.inComment = text.charCodeAt(0) === 0x3a;
    }
    return;
  }
  line.atLineStart = last === text.length - 1;
  line.inComment = !line.atLineStart && text.charCodeAt(last + 1) === 0x3a;
}

/** Characters of a read parsed at a time: a few dozen typical events. */
const SLICE = 8192;

/** Where the slice of `text` from `at` ends: just after the first line end past `SLICE` characters, or the end. */
function sliceEnd(text: string, at: number): number {
  if (text.length - at <= SLICE) return text.length;
  const end = text.indexOf('\n', at + SLICE);
  return end < 0 ? text.length : end + 1;
}

/**
 * The events of an SSE body, in order, in batches of one read of the body or of a slice of a
 * large read (never an empty batch):
 * a read from a fast server holds hundreds of events, and handing them over one by one through
 * an async generator would cost a promise each. Returning early (a `break` upstream) cancels the
 * body. Errors of the body (a reset, an abort) propagate as they are; the caller classifies them.
 */
export async function* readEventBatches(
  body: ReadableStream<Uint8Array>,
  options: {
    idle: IdleTimer;
    /** Characters one event (and one unfinished line) may buffer. */
    maxEventSize: number;
    /** The error to throw past `maxEventSize`. */
    tooLarge: () => Error;
    /**
     * The request's signal: when it aborts (the idle timeout, `break`, the caller), the body is
     * cancelled and the read throws its reason, even for a body that does not listen to it.
     */
    signal: AbortSignal;
  },
): AsyncGenerator<EventSourceMessage[]> {
  const { idle, maxEventSize, tooLarge, signal } = options;
  // Strips a leading BOM, as the SSE spec asks; keeps split UTF-8 sequences whole.
  const reader = bodyText(body, signal);
  let batch: EventSourceMessage[] = [];
  let overflow = false;
  const parser = createParser({
    onEvent: (event) => batch.push(event),
    // A server that never ends an event (or a line) would otherwise make us buffer forever.
    maxBufferSize: maxEventSize,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
      // llama.cpp: `error: {"code":400,…}` and no data line. Not SSE, but the only word on what
      // went wrong: kept as an error event, in its place among the others.
      else if (error.type === 'unknown-field' && error.field === 'error')
        batch.push({ event: 'error', data: error.value ?? '' });
    },
  });
  const line: LineState = { atLineStart: true, inComment: false };
  let finished = false;
  // A new array for the next events: the consumer owns this one.
  const take = () => {
    const events = batch;
    batch = [];
    return events;
  };
  try {
    for (;;) {
      idle.waiting();
      const text = await reader.next();
      if (text === undefined) {
        idle.received();
        // A server that closes without the final blank line still sent its last event.
        parser.feed(`${reader.flush()}\n\n`);
        finished = true;
      } else {
        // A large read (a fast server: hundreds of events) is parsed a slice at a time, as the
        // consumer gets to it: the events of one slice exist at once, not those of the whole read
        // (200 concurrent streams each holding a read's worth of event objects is megabytes).
        let at = sliceEnd(text, 0);
        parser.feed(at === text.length ? text : text.slice(0, at));
        idle.received(batch.length > 0 || carriesData(text, line));
        advance(text, line);
        while (at < text.length) {
          if (overflow) throw tooLarge();
          if (batch.length > 0) yield take();
          const end = sliceEnd(text, at);
          parser.feed(text.slice(at, end));
          at = end;
        }
      }
      if (overflow) throw tooLarge();
      if (batch.length > 0) yield take();
      if (finished) return;
    }
  } finally {
    reader.close();
  }
}
