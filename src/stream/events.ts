/**
 * A streamed response's events → items, with the policy real servers need: `[DONE]` ends the
 * stream and lets go of the connection (some servers keep it open); a JSON body or an HTML page
 * where events were asked for is a typed error; `data: null` and empty data are skipped; an `event: error`, an `error:` field
 * (llama.cpp) or an `{"error": …}` event becomes an `APIError`; a stream cut off before any
 * `finish_reason` and without `[DONE]` is an error, never a silent success, and so is a stream
 * with no chunk at all, or with only usage chunks (`choices: []`); a stream without events (keep-alive comments only) ends after its idle
 * timeout; `break`, `return()` and `cancel()` abort the HTTP request at once.
 *
 * One iterator does it (`EventIterator`; `readStream`, stream/read-stream.ts, opens it; what a
 * response or an event says besides its chunks is in stream/event-body.ts), not a chain of async
 * generators: an item already read is handed over
 * without waiting (one promise per item, the least `for await` allows), and a stream's
 * accumulation is told of each item directly (`observe`), not through another layer.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InferenceError,
  type RequestTarget,
} from '../errors/api';
import { bodyError } from '../errors/validation';
import type { Log } from '../util/log';
import { mask } from '../util/mask';
import type { ValidationMode } from '../options/types';
import { jsonOrText } from '../util/json';
import type { Sent } from '../core/response';
import type { ValidationContext } from '../core/validate';
import type { EventSourceMessage } from './sse';
import type * as Sse from './sse';
import type { ObservableIterator, Stream, StreamObserver } from './stream';
import { hasChoice, hasFinishReason, inBandError, isErrorEvent, openEvents } from './event-body';

/**
 * How a stream's events are read: called once per stream with where the events come from, it
 * returns the function that reads each event's parsed JSON (and its text) into an item, so that
 * it may keep state across the events of one stream.
 */
export type EventReader<T> = (context: ValidationContext) => (value: unknown, text: string) => T;

/** What the stream reader needs besides the response. */
export interface StreamSettings<T> {
  /** Reads each event's JSON into an item (the normalizer, with the stream's own state). */
  read: EventReader<T>;
  validation: ValidationMode;
  log: Log;
  idleTimeout: number;
  /** Make the Stream (or a subclass with helpers) around the item iterator. */
  wrap: (source: () => AsyncIterator<T>, controller: AbortController) => Stream<T>;
  /**
   * Read up to the first chunk with content (not only a role) inside the attempt, holding the
   * chunks before it: a failure before it then falls back to the next model (`fallbacks`).
   */
  untilContent?: boolean | undefined;
}

const DONE: IteratorResult<never> = { done: true, value: undefined };

export class EventIterator<T> implements ObservableIterator<T> {
  readonly #sent: Sent;
  readonly #target: RequestTarget;
  readonly #response: Response;
  readonly #controller: AbortController;
  readonly #idle: Sse.IdleTimer;
  readonly #sse: typeof Sse;
  readonly #read: (value: unknown, text: string) => T;
  readonly #started = Date.now();
  readonly #onAbort: () => void;
  #batches: AsyncGenerator<EventSourceMessage[]> | undefined;
  #events: EventSourceMessage[] = [];
  #at = 0;
  /** The first item, read inside the attempt, until `next()` hands it over. */
  #held: IteratorResult<T> | undefined;
  /** The items read after it inside the attempt (up to the first with content), in order. */
  #ahead: IteratorResult<T>[] | undefined;
  /** A read in progress: a `next()` called meanwhile waits for it. */
  #busy: Promise<IteratorResult<T>> | undefined;
  #finished = false;
  /** The caller closed the stream (a read still in flight then fails as an abort). */
  #closed = false;
  #error: unknown;
  #finishSeen = false;
  /** A chunk with a choice came (not only usage chunks, `choices: []`). */
  #choiceSeen = false;
  #count = 0;
  #observer: StreamObserver<T> | undefined;

  constructor(
    sent: Sent,
    settings: StreamSettings<T>,
    controller: AbortController,
    sse: typeof Sse,
  ) {
    this.#sse = sse;
    this.#sent = sent;
    this.#target = sent.call.target;
    this.#response = sent.response;
    this.#controller = controller;
    this.#idle = new sse.IdleTimer(settings.idleTimeout, () =>
      sent.abort(new DOMException('Stream idle', 'TimeoutError')),
    );
    this.#onAbort = () => sent.abort(controller.signal.reason);
    controller.signal.addEventListener('abort', this.#onAbort, { once: true });
    // Aborted (`stream.controller.abort()`, the caller's signal, the idle timeout), the request is
    // over: its turn in the limiter is given back then, read or not.
    sent.signal.addEventListener('abort', sent.release, { once: true });
    this.#read = settings.read({
      mode: settings.validation,
      log: settings.log,
      target: sent.call.target,
      status: sent.response.status,
      headers: sent.response.headers,
      what: 'stream event',
    });
  }

  observe(observer: StreamObserver<T>): void {
    this.#observer = observer;
  }

  /** Read up to the first item (or the end; or the first with content), to hand over at the first `next()`. */
  async prime(untilContent: boolean): Promise<void> {
    let item = (this.#held = await this.#fill());
    if (!untilContent || item.done) return;
    const { hasContent } = await import('../core/fallbacks');
    while (!item.done && !hasContent(item.value))
      (this.#ahead ??= []).push((item = await this.#fill()));
  }

  next(): Promise<IteratorResult<T>> {
    // A next() while a read is in flight waits for it (as an async generator queues calls). The
    // read clears #busy first (its handler was attached first), so each waiter goes on in turn.
    if (this.#busy) {
      return this.#busy.then(
        () => this.next(),
        () => this.next(),
      );
    }
    // Aborted (the stream's controller, or the caller's signal) while items were already read:
    // what is buffered is not handed over; the stream fails as an abort, as it would mid-read.
    if (!this.#finished && (this.#controller.signal.aborted || this.#sent.call.signal?.aborted)) {
      return Promise.reject(this.#fail(new Error('aborted')));
    }
    let result: IteratorResult<T> | undefined = this.#held;
    if (result) this.#held = this.#ahead?.shift();
    else if (this.#finished)
      return this.#error === undefined ? Promise.resolve(DONE) : Promise.reject(this.#error);
    else {
      try {
        result = this.#take();
      } catch (error) {
        return Promise.reject(this.#fail(error));
      }
      if (result === undefined) {
        const filling = (this.#busy = this.#fill().then((r) => this.#deliver(r)));
        // Attached first: cleared before any waiter goes on (none can start another read meanwhile).
        const idle = () => (this.#busy = undefined);
        void filling.then(idle, idle);
        return filling;
      }
    }
    try {
      return Promise.resolve(this.#deliver(result));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `break` in a `for await` loop, `return()`, `cancel()`: abort the HTTP request now, even while a read is pending. */
  async return(): Promise<IteratorResult<T>> {
    if (!this.#finished) {
      this.#closed = true;
      this.#controller.abort();
      const closing = this.#finish('closed');
      this.#observer?.closed();
      // The pending read (if any) rejects now that the request is aborted; the body is cancelled.
      await closing;
    }
    return DONE;
  }

  /**
   * `wrapper.throw(error)`: a wrapper of this iterator (the hooks' `onChunk`) failed the stream;
   * it ends with `error` as if the read had failed: the request aborted, the observer told.
   */
  throw(error: unknown): Promise<IteratorResult<T>> {
    return Promise.reject(this.#fail(error));
  }

  #deliver(result: IteratorResult<T>): IteratorResult<T> {
    const observer = this.#observer;
    if (observer === undefined) return result;
    // The observer tells the stream's listeners; one that throws ends the stream with its error.
    try {
      if (result.done) observer.end();
      else observer.item(result.value);
    } catch (error) {
      if (!result.done) throw this.#fail(error);
      // The stream had ended well; its observer, who threw, has told everyone already.
      throw (this.#error = mask(error, this.#sent.log.secrets));
    }
    return result;
  }

  /** Read bytes until an item (or the end) comes out of them. */
  async #fill(): Promise<IteratorResult<T>> {
    try {
      this.#batches ??= await openEvents(this.#sent, this.#idle, this.#sse);
      // The events of the read in hand first (a stream with fallbacks primes several), then reads.
      const held = this.#take();
      if (held !== undefined) return held;
      for (;;) {
        const { done, value } = await this.#batches.next();
        if (this.#closed) throw new APIUserAbortError(this.#target, this.#controller.signal.reason);
        if (done) return this.#endOfBody();
        this.#events = value;
        this.#at = 0;
        const result = this.#take();
        if (result !== undefined) return result;
      }
    } catch (error) {
      throw this.#fail(error);
    }
  }

  /**
   * The hot loop: the next item of the events already read, or `undefined` when they are used up.
   * Per event: a few comparisons, `JSON.parse` and the reader (the generated normalizer).
   */
  #take(): IteratorResult<T> | undefined {
    const events = this.#events;
    while (this.#at < events.length) {
      const event = events[this.#at++]!;
      const data = event.data.trim();
      if (data === '[DONE]') {
        // llama.cpp ends a failed request with [DONE] alone: nothing here is a completion.
        if (this.#count === 0)
          throw bodyError(
            this.#target,
            this.#response,
            'the stream ended without a single chunk',
            undefined,
            'stream',
          );
        // Only usage chunks (`choices: []`): no completion either, and final…() would give
        // `choices: []` (a stream cut off without [DONE] is a connection error, below).
        if (!this.#choiceSeen)
          throw bodyError(
            this.#target,
            this.#response,
            'the stream ended without a single choice (its chunks had only `choices: []`)',
            undefined,
            'stream',
          );
        this.#finish('[DONE]');
        return DONE;
      }
      if (data === '' || data === 'null') continue; // keep-alives (AgentRouter sends `data: null`)
      let item: T;
      try {
        item = this.#item(event, data);
      } catch (error) {
        // Its own typed errors pass; anything else (a check that crashed on nesting deeper than a
        // recursive walk survives) is a ResponseValidationError, never a connection error (retried).
        if (error instanceof InferenceError) throw error;
        throw bodyError(
          this.#target,
          this.#response,
          `the event could not be checked (${String(error)})`,
          data.length > 1024 ? `${data.slice(0, 1024)}…` : data,
          'stream event',
          undefined,
        );
      }
      if (!this.#finishSeen) this.#finishSeen = hasFinishReason(item);
      if (!this.#choiceSeen) this.#choiceSeen = this.#finishSeen || hasChoice(item);
      this.#count++;
      return { done: false, value: item };
    }
    return undefined;
  }

  #item(event: EventSourceMessage, data: string): T {
    const target = this.#target;
    const response = this.#response;
    if (event.event === 'error')
      throw APIError.fromResponse(
        target,
        response.status,
        response.headers,
        inBandError(jsonOrText(data)),
      );
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      throw bodyError(
        target,
        response,
        'expected a JSON event, got text that is not valid JSON',
        data,
        'stream event',
      );
    }
    if (isErrorEvent(value))
      throw APIError.fromResponse(target, response.status, response.headers, value);
    return this.#read(value, data);
  }

  #endOfBody(): IteratorResult<T> {
    if (!this.#finishSeen) {
      const { method, path } = this.#target;
      throw new APIConnectionError(this.#target, {
        message: `${method} ${path}: the stream ended before any finish_reason and without [DONE]; the response is incomplete`,
      });
    }
    this.#finish('end of body');
    return DONE;
  }

  /**
   * What went wrong, as the error the caller gets (the key masked); the stream is over, and its
   * request aborted at once (the server stops generating what nobody will read). An observer
   * that throws while told (a listener of `error` …) makes its error the stream's.
   */
  #fail(error: unknown): unknown {
    let typed: unknown = mask(this.#classify(error), this.#sent.log.secrets);
    if (!this.#finished) {
      this.#finish('error');
      this.#sent.abort(typed);
      try {
        this.#observer?.end(typed);
      } catch (listener) {
        typed = mask(listener, this.#sent.log.secrets);
      }
      this.#error = typed;
    }
    return typed;
  }

  #classify(error: unknown): InferenceError {
    if (error instanceof InferenceError) return error;
    if (this.#idle.fired)
      return new APIConnectionTimeoutError(
        this.#target,
        this.#idle.ms,
        this.#idle.keepAliveOnly ? 'keep-alive' : 'stream',
      );
    const user = this.#sent.call.signal;
    if (this.#controller.signal.aborted || user?.aborted) {
      return new APIUserAbortError(
        this.#target,
        this.#controller.signal.aborted ? this.#controller.signal.reason : user?.reason,
      );
    }
    return new APIConnectionError(this.#target, { cause: error });
  }

  /**
   * Stop the idle timer, let go of the caller's signal and the connection, once. Ended before its
   * body did ([DONE], an in-band error, a bad event), the body is cancelled: a server or gateway
   * may keep the connection open after [DONE] until its own timeout, and nobody reads it any more.
   * (A body already read to its end, or failed, has nothing left to cancel: a no-op then.)
   * Returns the body's closing, for `return()` to wait on.
   */
  #finish(ending: string): Promise<unknown> | undefined {
    if (this.#finished) return;
    this.#finished = true;
    this.#idle.stop();
    this.#controller.signal.removeEventListener('abort', this.#onAbort);
    this.#sent.release();
    this.#sent.trace?.streamEnd(this.#count, this.#started, ending);
    return this.#batches?.return(undefined).catch(() => {});
  }
}
