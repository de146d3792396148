/**
 * The chat stream's tap (`Tap`): what every chunk that passes feeds, the accumulator and the
 * listeners, and how the stream ended. One per `ChatCompletionStream` (chat-stream.ts).
 */
import type { ChatCompletion, ChatCompletionChunk } from '../generated/types.gen';
import { APIUserAbortError, InferenceError } from '../errors/api';
import type { StreamObserver } from './stream';
import { ChatCompletionAccumulator } from './accumulate';
import { ChatEvents } from './chat-events';
import type { Events } from './chat-event-types';
import { EventSurface, outcomeOf } from './event-surface';

/** What a stream's own errors name. */
export const TARGET = { method: 'POST', path: '/chat/completions' };

/**
 * Feeds every chunk that passes to the accumulator and the listeners, and remembers how the
 * stream ended. A listener that throws fails the stream: `item()` and `end()` throw its
 * `ListenerError`, and the iterator that told them ends the stream with it (stream/events.ts).
 * A helper's stream (`stream()`, `parse({ stream: true })`) has a parser: the completion is parsed
 * when the stream ends, before the last events; a parse that fails is the stream's error for
 * `final…()`, `done()` and the `error` event, not for the loop that read every chunk.
 */
export class Tap implements StreamObserver<ChatCompletionChunk> {
  accumulator = new ChatCompletionAccumulator();
  readonly events = new ChatEvents();
  /** Settles once the stream is over and every listener was told: rejects with its error. */
  readonly ended: Promise<void>;
  /** `on` / `off` / `emitted()` and how the stream ended, as a runner has them too. */
  readonly surface: EventSurface<Events>;
  /** The parsed completion, for a helper's stream that ended well. */
  parsed: ChatCompletion | undefined;
  /**
   * The conversation before the completion being read: the request's messages (`stream()`), then
   * the message of each earlier request of a run's body read back.
   */
  messages: readonly unknown[] = [];
  /** Told of the end (the last events may still be coming, after an asynchronous parse). */
  #over = false;
  readonly #snapshot = () => this.accumulator.result();
  #resolve!: () => void;
  #reject!: (error: unknown) => void;

  /** `signal`: the stream's own (its controller's), which also ends a parse that never settles. */
  constructor(private readonly signal: AbortSignal) {
    this.ended = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.ended.catch(() => {}); // reported by finalChatCompletion(), if anyone asks
    this.surface = new EventSurface(this.events.listeners, 'stream', this.ended);
  }

  /**
   * A body read back (`ChatCompletionStream.fromReadableStream()`): each chunk `id` is a completion
   * of its own, and a chunk of another `id` begins the next (a streaming run's body holds every
   * request's chunks). Not for a server's stream: some servers give each chunk an `id` of its own.
   */
  byId = false;
  /** The `id` of the completion being read, when `byId`. */
  #id: string | undefined;

  item(chunk: ChatCompletionChunk): void {
    if (this.byId && chunk.id) {
      // A listener of the last completion's done events may throw here: the stream ends with it.
      if (this.#id !== undefined && chunk.id !== this.#id) this.#next();
      this.#id = chunk.id;
    }
    this.accumulator.add(chunk);
    const events = this.events;
    if (events.listeners.any) {
      if (this.accumulator.chunks === 1) events.listeners.emit('connect');
      events.chunk(chunk, this.#snapshot);
    }
  }

  /** The next completion begins (`byId`): the one read so far joins the conversation. */
  #next(): void {
    this.messages = [...this.messages, this.accumulator.result().choices[0]?.message];
    this.accumulator = new ChatCompletionAccumulator();
    this.events.finish(); // nothing is told without listeners
    this.events.reset();
  }

  end(error?: unknown): void {
    if (this.#over) return; // told once, however many ways the stream ends
    this.#over = true;
    let failed = error;
    const parser = this.events.parser;
    if (error === undefined && parser) {
      try {
        const parsed = parser.completion(this.accumulator.result(), this.signal);
        if (parsed instanceof Promise) {
          // A schema that validates asynchronously: the last events come once it has (or once the
          // stream is aborted while it has not: the parser rejects then).
          parsed.then(
            (completion) => {
              this.parsed = completion;
              this.#settle(undefined);
            },
            (parseError: unknown) => void this.#settle(parseError),
          );
          return;
        }
        this.parsed = parsed;
      } catch (parseError) {
        failed = parseError;
      }
    }
    const final = this.#settle(failed);
    // A listener that threw ends the stream with its error. The stream's own error is the loop's
    // already; a parse that failed is for final…() and done(), not for the loop that read every chunk.
    if (final !== failed) throw final;
  }

  closed(): void {
    if (this.#over) return;
    this.#over = true;
    const closed = new APIUserAbortError(TARGET, 'closed');
    const final = this.#tell(closed);
    // Not thrown: the caller left (`break`), and a listener's error is for done() and the final…() methods.
    this.#reject(
      final === closed
        ? new InferenceError(
            'The stream was closed before it ended, so there is no final completion.',
          )
        : final,
    );
  }

  /** The last events, then `ended` settled; returns the error the stream ends with. */
  #settle(error: unknown): unknown {
    const final = this.#tell(error);
    if (final === undefined) this.#resolve();
    else this.#reject(final);
    return final;
  }

  /** The last events; the stream's outcome, set before them (`stream.ended` is true in an `end` listener). */
  #tell(error: unknown): unknown {
    this.surface.outcome = outcomeOf(error);
    if (!this.events.listeners.any) return error;
    const final = this.events.end(() => this.parsed ?? this.accumulator.result(), error);
    this.surface.outcome = outcomeOf(final);
    return final;
  }
}
