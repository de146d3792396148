/**
 * `Stream`: what a streamed call gives, an async iterable of its items (iterated once; `tee()` to
 * read twice), with `toReadableStream()` / `fromReadableStream()` to pass it on as NDJSON. Its
 * items come from stream/events.ts (the HTTP response) or from a body read back.
 */
import { APIConnectionError, APIUserAbortError, InferenceError } from '../errors/api';
import { ResponseValidationError } from '../errors/validation';
import { DEFAULTS } from '../options/types';
import type { ObservableIterator, StreamObserver } from '../util/iterator';
import { bodyText } from '../util/body';
import { asyncDispose } from '../util/dispose';

// The iterator types live below this file (options/hooks.ts needs them, and options/types.ts needs options/hooks.ts).
export type { ObservableIterator, StreamObserver } from '../util/iterator';

/**
 * An async iterable of server-sent chunks. Iterate it once with `for await`; `break` (or
 * `stream.controller.abort()`) cancels the HTTP request.
 *
 * @example
 * ```ts
 * const stream = await client.chat.completions.create({ model: 'acme/chat-1', messages, stream: true });
 * for await (const chunk of stream) {
 *   const content = chunk.choices?.[0]?.delta.content;
 *   if (typeof content === 'string') process.stdout.write(content);
 * }
 * ```
 */
export class Stream<T> implements AsyncIterable<T> {
  /** Abort to cancel the request; the loop then throws `APIUserAbortError`. */
  readonly controller: AbortController;
  #source: (() => ObservableIterator<T>) | undefined;
  /** The iterator handed out (a loop, `tee()`, `toReadableStream()`, `done()`): what disposing closes. */
  #iterator: AsyncIterator<T> | undefined;

  /** @internal */
  constructor(source: () => ObservableIterator<T>, controller: AbortController) {
    this.#source = source;
    this.controller = controller;
  }

  /** What watches the items as they pass (none here; `ChatCompletionStream` accumulates). @internal */
  protected observer(): StreamObserver<T> | undefined {
    return undefined;
  }

  /** True once iteration has started (a stream can be iterated once). */
  protected get consumed(): boolean {
    return this.#source === undefined;
  }

  /** The items without this stream's observer (once, as iteration is). @internal */
  protected take(): ObservableIterator<T> {
    const source = this.#source;
    if (!source) {
      throw new InferenceError(
        'This stream was already consumed: a stream can be iterated once. Use `stream.tee()` to read it twice.',
      );
    }
    this.#source = undefined;
    return source();
  }

  /** Iterate the chunks (once; see `tee()` to read twice). */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    const iterator = this.take();
    const observer = this.observer();
    if (observer && iterator.observe) iterator.observe(observer);
    return (this.#iterator =
      !observer || iterator.observe ? iterator : observed(iterator, observer));
  }

  /**
   * `await using`: leaving the block (at its end, by `break`, `return` or a throw) cancels the
   * request, as `break` out of a `for await` loop does, read or not: the connection is closed and
   * the client's limiter gets its turn back. A stream that has ended is left as it is; disposing
   * twice does nothing more. Do not dispose a stream handed on (`toReadableStream()`, `tee()`):
   * its reader would be cut off.
   *
   * @example
   * ```ts
   * await using stream = await client.chat.completions.create({ model: 'acme/chat-1', messages, stream: true });
   * for await (const chunk of stream) {
   *   if (chunk.choices[0]?.delta.content?.includes('STOP')) break;
   * }
   * // here the request is over, whether the loop ran to the end, broke, or threw
   * ```
   */
  async [asyncDispose](): Promise<void> {
    if (this.#iterator) await this.#iterator.return?.();
    else if (!this.consumed) this.controller.abort();
  }

  /**
   * Two streams that each yield every chunk; this one is consumed by the call. The chunks are
   * buffered until both sides have read them.
   *
   * @example
   * ```ts
   * const [forUser, forLog] = stream.tee();
   * ```
   */
  tee(): [Stream<T>, Stream<T>] {
    const iterator = this[Symbol.asyncIterator]();
    // Each side's queue gets every result, or the error, so both sides see the same ending.
    type Entry = { result: IteratorResult<T> } | { error: unknown };
    const queues: [Entry[], Entry[]] = [[], []];
    // A side is open until it has ended or been closed; when neither is, the request is cancelled.
    const open = [true, true];
    let pending: Promise<void> | undefined;
    const pull = () =>
      (pending ??= iterator.next().then(
        (result) => {
          pending = undefined;
          for (let i = 0; i < 2; i++) if (open[i]) queues[i]!.push({ result });
        },
        (error: unknown) => {
          pending = undefined;
          for (let i = 0; i < 2; i++) if (open[i]) queues[i]!.push({ error });
        },
      ));
    const close = async (i: number) => {
      if (!open[i]) return;
      open[i] = false;
      queues[i]!.length = 0;
      if (!open[0] && !open[1]) await iterator.return?.();
    };
    const side = (i: number): Stream<T> =>
      new Stream<T>(
        (): AsyncIterator<T> => ({
          async next() {
            const queue = queues[i]!;
            while (open[i] && queue.length === 0) await pull();
            const entry = queue.shift();
            if (entry === undefined) return { done: true, value: undefined };
            if ('error' in entry || entry.result.done) open[i] = false;
            if ('error' in entry) throw entry.error;
            return entry.result;
          },
          async return() {
            await close(i);
            return { done: true, value: undefined };
          },
        }),
        this.controller,
      );
    return [side(0), side(1)];
  }

  /**
   * The chunks as newline-delimited JSON bytes: a body a route handler can return
   * (`new Response(stream.toReadableStream())`), read back with `Stream.fromReadableStream`.
   *
   * @example
   * ```ts
   * export async function POST(req: Request) {
   *   const stream = await client.chat.completions.create({ model, messages, stream: true }, { signal: req.signal });
   *   return new Response(stream.toReadableStream(), { headers: { 'content-type': 'application/x-ndjson' } });
   * }
   * ```
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let iterator: AsyncIterator<T> | undefined;
    return new ReadableStream<Uint8Array>({
      start: () => {
        iterator = this[Symbol.asyncIterator]();
      },
      async pull(controller) {
        try {
          const { done, value } = await iterator!.next();
          if (done) controller.close();
          else controller.enqueue(encoder.encode(`${toJSONLine(value)}\n`));
        } catch (error) {
          controller.error(error);
        }
      },
      // Called at once, even while a pull waits for the server: the request is aborted then.
      async cancel() {
        await iterator?.return?.();
      },
    });
  }

  /**
   * Read a body made by `toReadableStream()` (e.g. `(await fetch('/api/chat')).body` in a
   * browser) as a stream of chunks. A line that is not JSON, or longer than `maxEventSize`
   * characters (default 16 MiB), ends the loop with a `ResponseValidationError`; aborting
   * `controller` cancels the body.
   *
   * @example
   * ```ts
   * const response = await fetch('/api/chat', { method: 'POST', body });
   * for await (const chunk of Stream.fromReadableStream<ChatCompletionChunk>(response.body!)) { … }
   * ```
   */
  static fromReadableStream<T>(
    body: ReadableStream<Uint8Array>,
    controller = new AbortController(),
    options: { maxEventSize?: number | undefined } = {},
  ): Stream<T> {
    const maxEventSize = options.maxEventSize ?? DEFAULTS.maxEventSize;
    const invalid = (message: string, raw: unknown) =>
      new ResponseValidationError(
        undefined, // a body read without a request: `where` names what read it
        {
          issues: [{ path: '', message, received: raw }],
          raw,
          status: 200,
          what: 'stream line',
          where: 'Stream.fromReadableStream',
        },
      );
    const parse = (line: string): T => {
      try {
        return JSON.parse(line) as T;
      } catch {
        throw invalid(
          'expected a line of JSON (as toReadableStream() writes), got text that is not JSON',
          line,
        );
      }
    };
    const tooLong = (start: string) =>
      invalid(
        `a line is longer than maxEventSize (${maxEventSize} characters)`,
        start.slice(0, 1024),
      );
    // Aborted before anything reads it (or already aborted when passed), the body is cancelled
    // there: the page's fetch ends; a read afterwards ends with `APIUserAbortError`.
    let reading = false;
    const cancelUnread = () => {
      if (!reading) void body.cancel(controller.signal.reason).catch(() => {});
    };
    if (controller.signal.aborted) cancelUnread();
    else controller.signal.addEventListener('abort', cancelUnread, { once: true });
    async function* lines(): AsyncGenerator<T> {
      reading = true;
      controller.signal.removeEventListener('abort', cancelUnread);
      const reader = bodyText(body, controller.signal);
      // The unfinished line, as the reads that brought it: joined once, when its line end comes.
      // (One string grown read by read and searched for its line end is searched whole each time:
      // a line of n characters in reads of k cost n²/k.)
      let parts: string[] = [];
      let partLength = 0;
      try {
        for (;;) {
          let text: string | undefined;
          try {
            text = await reader.next();
          } catch (error) {
            // `controller` aborted (the read throws its reason: a body it cancelled reads as done,
            // and that is no end), or the page aborted its own fetch (the body errors with the fetch
            // signal's AbortError), or `controller`, when the page passed the one of its fetch: an
            // abort, not a failure.
            if (controller.signal.aborted || (error as Error | undefined)?.name === 'AbortError')
              throw new APIUserAbortError(
                WHERE,
                controller.signal.aborted ? controller.signal.reason : error,
              );
            // The connection dropped, the route handler's upstream failed: typed as a request's is.
            throw new APIConnectionError(WHERE, {
              message: `${WHERE.path}: the body could not be read`,
              cause: error,
            });
          }
          const done = text === undefined;
          if (done) text = reader.flush();
          let start = 0;
          let newline: number;
          // Only the new text is searched: what came before holds no line end.
          while ((newline = text!.indexOf('\n', start)) >= 0) {
            let line = text!.slice(start, newline);
            if (partLength > 0) {
              parts.push(line);
              line = parts.join('');
              parts = [];
              partLength = 0;
            }
            start = newline + 1;
            if (line.length > maxEventSize) throw tooLong(line);
            line = line.trim();
            if (line) yield parse(line);
          }
          if (start < text!.length) {
            const rest = text!.slice(start);
            parts.push(rest);
            partLength += rest.length;
          }
          // A body that never ends its line would otherwise be buffered without bound.
          if (partLength > maxEventSize) throw tooLong(parts.join(''));
          if (done) {
            const last = parts.join('').trim();
            parts = [];
            if (last) yield parse(last);
            return;
          }
        }
      } finally {
        reader.close();
      }
    }
    return new Stream(() => lines(), controller);
  }
}

const WHERE = { method: 'read', path: 'Stream.fromReadableStream' };

/** One chunk as a JSON line; a value JSON cannot hold (nesting deeper than it survives) is a typed error. */
function toJSONLine(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new InferenceError(
      `toReadableStream(): a chunk cannot be written as JSON (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
}

/**
 * `iterator`, reporting to `observer`: for sources that cannot report themselves (a tee, a body
 * read back). An observer that throws (a listener) ends the stream with its error, the source closed.
 * @internal
 */
export function observed<T>(
  iterator: AsyncIterator<T>,
  observer: StreamObserver<T>,
): AsyncIterator<T> {
  return {
    async next() {
      let result: IteratorResult<T>;
      try {
        result = await iterator.next();
      } catch (error) {
        observer.end(error);
        throw error;
      }
      try {
        if (result.done) observer.end();
        else observer.item(result.value);
      } catch (error) {
        if (!result.done) {
          await iterator.return?.();
          observer.end(error);
        }
        throw error;
      }
      return result;
    },
    async return() {
      await iterator.return?.();
      observer.closed();
      return { done: true, value: undefined };
    },
  };
}
