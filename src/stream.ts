/**
 * Streamed responses: SSE events → validated chunks, with the policy real servers need:
 * `[DONE]` ends the stream; `data: null` and empty data are skipped; an `event: error` or an
 * `{"error": …}` event becomes an `APIError`; a stream cut off before any `finish_reason` and
 * without `[DONE]` is an error, never a silent success; a stalled stream ends after its idle
 * timeout; `break` cancels the HTTP request.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, InferenceError, ResponseValidationError, type RequestTarget } from './errors';
import type { Log } from './log';
import type { ValidationMode } from './options';
import { withoutSecret, type Reader, type Sent } from './request';
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
    let pending: Promise<void> | undefined;
    const pull = () =>
      (pending ??= iterator.next().then(
        (result) => {
          pending = undefined;
          for (const queue of queues) queue.push({ result });
        },
        (error: unknown) => {
          pending = undefined;
          for (const queue of queues) queue.push({ error });
        },
      ));
    const side = (queue: Entry[]): Stream<T> =>
      new Stream<T>(
        (): AsyncIterator<T> => ({
          async next() {
            while (queue.length === 0) await pull();
            const entry = queue.shift()!;
            if ('error' in entry) throw entry.error;
            return entry.result;
          },
          async return() {
            return { done: true, value: undefined };
          },
        }),
        this.controller,
      );
    return [side(queues[0]), side(queues[1])];
  }

  /**
   * The chunks as newline-delimited JSON bytes: a body a route handler can return
   * (`new Response(stream.toReadableStream())`), read back with `Stream.fromReadableStream`.
   *
   * @example
   * ```ts
   * export async function POST(req: Request) {
   *   const stream = await client.chat.completions.create({ model, messages, stream: true });
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
          else controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await iterator?.return?.();
      },
    });
  }

  /**
   * Read a body made by `toReadableStream()` (e.g. `(await fetch('/api/chat')).body` in a
   * browser) as a stream of chunks.
   *
   * @example
   * ```ts
   * const response = await fetch('/api/chat', { method: 'POST', body });
   * for await (const chunk of Stream.fromReadableStream<ChatCompletionChunk>(response.body!)) { … }
   * ```
   */
  static fromReadableStream<T>(body: ReadableStream<Uint8Array>, controller = new AbortController()): Stream<T> {
    async function* lines(): AsyncGenerator<T> {
      const reader = body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      let finished = false;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
          let newline: number;
          while ((newline = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, newline).trim();
            buffer = buffer.slice(newline + 1);
            if (line) yield JSON.parse(line) as T;
          }
          if (done) {
            if (buffer.trim()) yield JSON.parse(buffer) as T;
            finished = true;
            return;
          }
        }
      } finally {
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
        // `break` in a for-await loop: cancel the HTTP request and free the connection. Aborting
        // the fetch as well as cancelling the body also covers bodies that were tee'd (msw).
        await items.return(undefined);
        sent.abort();
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
  const { response, target } = sent;
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
  try {
    if (!response.body) throw new APIConnectionError(target, { message: `${target.method} ${target.path}: the response has no body` });
    if (/^application\/json/i.test(response.headers.get('content-type') ?? '')) {
      // A server that ignored `stream: true`, or answered an error with a 200 JSON body.
      const { text } = await readText(response, sent.maxBodySize);
      throw notAStream(target, response, text);
    }
    const tooLarge = () =>
      new ResponseValidationError(target, {
        issues: [{ path: '', message: `a stream event is larger than maxEventSize (${sent.maxEventSize} characters)`, received: undefined }],
        raw: undefined,
        status: response.status,
        headers: response.headers,
        what: 'stream event',
      });
    // The hot loop: per event, a few comparisons, JSON.parse and the schema's fast path.
    for await (const events of readEventBatches(response.body, { idle, maxEventSize: sent.maxEventSize, tooLarge })) {
      for (const event of events) {
        const data = event.data.trim();
        if (data === '[DONE]') return;
        if (data === '' || data === 'null') continue; // keep-alives (AgentRouter sends `data: null`)
        if (event.event === 'error') {
          throw APIError.fromResponse(target, response.status, response.headers, inBandError(parseLoosely(data)));
        }
        const value = parseEvent(data, target, response);
        if (isErrorEvent(value)) {
          throw APIError.fromResponse(target, response.status, response.headers, inBandError(value));
        }
        const item = read(value, data);
        finishSeen ||= hasFinishReason(item);
        yield item;
      }
    }
    if (!finishSeen) {
      throw new APIConnectionError(target, {
        message: `${target.method} ${target.path}: the stream ended before any finish_reason and without [DONE]; the response is incomplete`,
      });
    }
  } catch (error) {
    if (error instanceof InferenceError) throw error;
    if (idle.fired) throw new APIConnectionTimeoutError(target, settings.idleTimeout, 'stream');
    if (streamSignal.aborted || sent.userSignal?.aborted) {
      throw new APIUserAbortError(target, streamSignal.aborted ? streamSignal.reason : sent.userSignal?.reason);
    }
    throw new APIConnectionError(target, { cause: withoutSecret(error, sent.secret) });
  } finally {
    idle.stop();
    cleanup();
  }
}

function parseEvent(data: string, target: RequestTarget, response: Response): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new ResponseValidationError(target, {
      issues: [{ path: '', message: 'expected a JSON event, got text that is not valid JSON', received: data }],
      raw: data,
      status: response.status,
      headers: response.headers,
      what: 'stream event',
    });
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
  return new ResponseValidationError(target, {
    issues: [{ path: '', message: 'expected an event stream (text/event-stream), got a JSON body', received: body }],
    raw: body,
    status: response.status,
    headers: response.headers,
  });
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
