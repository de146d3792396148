/**
 * Streamed responses: SSE events → validated chunks, with the policy real servers need:
 * `[DONE]` ends the stream; `data: null` and empty data are skipped; an `event: error`, an
 * `error:` field (llama.cpp) or an `{"error": …}` event becomes an `APIError`; a stream cut off
 * before any `finish_reason` and without `[DONE]` is an error, never a silent success, and so is
 * a stream with no chunk at all; a stream without events (keep-alive comments only) ends after its
 * idle timeout; `break`, `return()` and `cancel()` abort the HTTP request at once.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, bodyError, InferenceError, ResponseValidationError, type RequestTarget } from './errors';
import type { Log } from './log';
import { mask } from './mask';
import { DEFAULTS, type ValidationMode } from './options';
import type { Reader, Sent } from './request';
import { readText } from './body';
import { IdleTimer, readEventBatches } from './sse';
import type { ValidationContext } from './validate';

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
  #source: (() => AsyncIterator<T>) | undefined;

  /** @internal */
  constructor(source: () => AsyncIterator<T>, controller: AbortController) {
    this.#source = source;
    this.controller = controller;
  }

  /** True once iteration has started (a stream can be iterated once). */
  protected get consumed(): boolean {
    return this.#source === undefined;
  }

  /** Iterate the chunks (once; see `tee()` to read twice). */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    const source = this.#source;
    if (!source) {
      throw new InferenceError(
        'This stream was already consumed: a stream can be iterated once. Use `stream.tee()` to read it twice.',
      );
    }
    this.#source = undefined;
    return source();
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
        { method: '', path: '' },
        { issues: [{ path: '', message, received: raw }], raw, status: 200, what: 'stream line', where: 'Stream.fromReadableStream' },
      );
    const parse = (line: string): T => {
      try {
        return JSON.parse(line) as T;
      } catch {
        throw invalid('expected a line of JSON (as toReadableStream() writes), got text that is not JSON', line);
      }
    };
    async function* lines(): AsyncGenerator<T> {
      const reader = body.getReader();
      const onAbort = () => void reader.cancel(controller.signal.reason).catch(() => {});
      controller.signal.addEventListener('abort', onAbort, { once: true });
      const decoder = new TextDecoder();
      let buffer = '';
      let finished = false;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          // An abort cancels the body, which then reads as done: the loop must not end as if complete.
          if (controller.signal.aborted) throw new APIUserAbortError({ method: 'read', path: 'Stream.fromReadableStream' }, controller.signal.reason);
          buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
          let start = 0;
          let newline: number;
          while ((newline = buffer.indexOf('\n', start)) >= 0) {
            const line = buffer.slice(start, newline).trim();
            start = newline + 1;
            if (line) yield parse(line);
          }
          buffer = buffer.slice(start);
          // A body that never ends its line would otherwise be buffered without bound.
          if (buffer.length > maxEventSize) throw invalid(`a line is longer than maxEventSize (${maxEventSize} characters)`, buffer.slice(0, 1024));
          if (done) {
            if (buffer.trim()) yield parse(buffer.trim());
            finished = true;
            return;
          }
        }
      } finally {
        controller.signal.removeEventListener('abort', onAbort);
        if (!finished) void reader.cancel().catch(() => {}); // not awaited: a body that was tee'd (msw, a cloning fetch) cancels only when every copy does
        reader.releaseLock();
      }
    }
    return new Stream(() => lines(), controller);
  }
}

/**
 * How a stream's events are read: called once per stream with where the events come from, it
 * returns the function that reads each event's parsed JSON (and its text) into an item, so that
 * it may keep state across the events of one stream.
 */
export type EventReader<T> = (context: ValidationContext) => (value: unknown, text: string) => T;

/** One chunk as a JSON line; a value JSON cannot hold (nesting deeper than it survives) is a typed error. */
function toJSONLine(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new InferenceError(`toReadableStream(): a chunk cannot be written as JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
}

/** What the stream reader needs besides the response. */
export interface StreamSettings<T> {
  /** Reads each event's JSON into an item (the normalizer, with the stream's own state). */
  read: EventReader<T>;
  validation: ValidationMode;
  log: Log;
  idleTimeout: number;
  /** Make the Stream (or a subclass with helpers) around the item iterator. */
  wrap: (source: () => AsyncIterator<T>, controller: AbortController) => Stream<T>;
}

/**
 * A `Reader` (see request.ts) that opens the event stream and reads up to its first chunk
 * inside the attempt, so that a failure before anything was yielded (reset, stall, in-band
 * error) gets the retry policy; after the first chunk, nothing is retried.
 */
export function readStream<T>(settings: StreamSettings<T>): Reader<Stream<T>> {
  return async (sent) => {
    sent.clearTimer(); // `timeout` covered the headers; the idle timeout covers the rest.
    const controller = new AbortController();
    const onAbort = () => sent.abort(controller.signal.reason);
    controller.signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      controller.signal.removeEventListener('abort', onAbort);
      sent.release();
    };
    const items = decodeStream(sent, settings, controller.signal, cleanup);
    let first: IteratorResult<T>;
    try {
      first = await items.next();
    } catch (error) {
      cleanup();
      throw error;
    }
    let started = false;
    const source = (): AsyncIterator<T> => ({
      next() {
        if (!started) {
          started = true;
          return Promise.resolve(first);
        }
        return items.next();
      },
      async return() {
        // `break` in a for-await loop, `return()`, `cancel()`: abort the HTTP request now, even
        // while a read is pending (the generator's own return() would queue behind that read,
        // and the server would go on generating, and billing, until its next byte).
        controller.abort();
        await items.return(undefined);
        return { done: true, value: undefined };
      },
    });
    return settings.wrap(source, controller);
  };
}

async function* decodeStream<T>(
  sent: Sent,
  settings: StreamSettings<T>,
  streamSignal: AbortSignal,
  cleanup: () => void,
): AsyncGenerator<T> {
  const { response, target, log } = sent;
  const started = Date.now();
  const idle = new IdleTimer(settings.idleTimeout, () => sent.abort(new DOMException('Stream idle', 'TimeoutError')));
  const read = settings.read({
    mode: settings.validation,
    log: settings.log,
    target,
    status: response.status,
    headers: response.headers,
    what: 'stream event',
  });
  let finishSeen = false;
  let count = 0;
  let ending = 'cut off';
  try {
    if (!response.body) throw new APIConnectionError(target, { message: `${target.method} ${target.path}: the response has no body` });
    if (/^application\/json/i.test(response.headers.get('content-type') ?? '')) {
      // A server that ignored `stream: true`, or answered an error with a 200 JSON body.
      const { text } = await readText(response, sent.maxBodySize);
      throw notAStream(target, response, text);
    }
    const tooLarge = () => bodyError(target, response, `a stream event is larger than maxEventSize (${sent.maxEventSize} characters)`, undefined, 'stream event');
    // The hot loop: per event, a few comparisons, JSON.parse and the schema's fast path.
    for await (const events of readEventBatches(response.body, { idle, maxEventSize: sent.maxEventSize, tooLarge })) {
      for (const event of events) {
        const data = event.data.trim();
        if (data === '[DONE]') {
          ending = '[DONE]';
          // llama.cpp ends a failed request with [DONE] alone: nothing here is a completion.
          if (count === 0) throw bodyError(target, response, 'the stream ended without a single chunk', undefined, 'stream');
          return;
        }
        if (data === '' || data === 'null') continue; // keep-alives (AgentRouter sends `data: null`)
        let item: unknown;
        try {
          if (event.event === 'error') {
            throw APIError.fromResponse(target, response.status, response.headers, inBandError(parseLoosely(data)));
          }
          const value = parseEvent(data, target, response);
          if (isErrorEvent(value)) {
            throw APIError.fromResponse(target, response.status, response.headers, inBandError(value));
          }
          item = read(value, data);
        } catch (error) {
          throw unprocessable(error, target, response, data);
        }
        finishSeen ||= hasFinishReason(item);
        count++;
        yield item as T;
      }
    }
    ending = 'end of body';
    if (!finishSeen) {
      throw new APIConnectionError(target, {
        message: `${target.method} ${target.path}: the stream ended before any finish_reason and without [DONE]; the response is incomplete`,
      });
    }
  } catch (error) {
    ending = 'error';
    throw mask(classify(error), log.secrets);
  } finally {
    idle.stop();
    cleanup();
    sent.trace?.streamEnd(count, started, ending);
  }

  /** What went wrong, as the error the caller gets. */
  function classify(error: unknown): InferenceError {
    if (error instanceof InferenceError) return error;
    if (idle.fired) return new APIConnectionTimeoutError(target, settings.idleTimeout, idle.keepAliveOnly ? 'keep-alive' : 'stream');
    if (streamSignal.aborted || sent.userSignal?.aborted) {
      return new APIUserAbortError(target, streamSignal.aborted ? streamSignal.reason : sent.userSignal?.reason);
    }
    return new APIConnectionError(target, { cause: error });
  }
}

/**
 * An event the SDK could not process: its own typed errors pass; anything else (a check that
 * crashed on nesting deeper than a recursive walk survives) is a `ResponseValidationError` with
 * the event, never a connection error (that would be retried).
 */
function unprocessable(error: unknown, target: RequestTarget, response: Response, data: string): unknown {
  if (error instanceof InferenceError) return error;
  return bodyError(target, response, `the event could not be checked (${String(error)})`, data.length > 1024 ? `${data.slice(0, 1024)}…` : data, 'stream event', undefined);
}

function parseEvent(data: string, target: RequestTarget, response: Response): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw bodyError(target, response, 'expected a JSON event, got text that is not valid JSON', data, 'stream event');
  }
}

/** JSON when it parses, else the text. */
function parseLoosely(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function notAStream(target: RequestTarget, response: Response, text: string): InferenceError {
  const body = parseLoosely(text);
  if (isErrorEvent(body)) return APIError.fromResponse(target, response.status, response.headers, body);
  return bodyError(target, response, 'expected an event stream (text/event-stream), got a JSON body', body);
}

/** `{"error": …}` (OpenRouter, Groq, vercel's structured error parts), also beside `choices: []`. */
function isErrorEvent(value: unknown): value is { error: unknown } {
  return isObject(value) && value.error !== undefined && value.error !== null;
}

/** Shape an `event: error` payload so `readErrorBody` finds its message and code. */
function inBandError(value: unknown): unknown {
  if (isErrorEvent(value)) return value;
  if (isObject(value)) return { error: value };
  return value === '' || value === null ? 'the server sent an error event without details' : value;
}

function hasFinishReason(item: unknown): boolean {
  const choices = (item as { choices?: { finish_reason?: unknown }[] | null }).choices;
  if (!Array.isArray(choices)) return false;
  for (const choice of choices) if (choice?.finish_reason != null) return true;
  return false;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
