/**
 * `ChatCompletionStream`: the stream `chat.completions.create({ stream: true })` and
 * `chat.completions.stream()` return, with the official client's helpers: `finalChatCompletion()`,
 * `finalMessage()`, `finalContent()`, events (`on('content.delta', …)`) and a text-only view.
 */
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParams,
  ChatCompletionMessageToolCall,
} from '../generated/types.gen';
import { APIUserAbortError } from '../errors/api';
import { observed, Stream, type ObservableIterator, type StreamObserver } from './stream';
import { follow } from '../util/signals';
import { readBack } from './read-back';
import type {
  ChatCompletionStreamEvents,
  Events,
  StreamedChatCompletion,
  StreamParser,
} from './chat-event-types';
import { contentOf, evented, type Evented, type EventSurface } from './event-surface';
import type { RequestOptions } from '../options/types';
import { TARGET, Tap } from './chat-tap';

/**
 * A `Stream<ChatCompletionChunk>` that also builds the final completion as it goes. `ParsedT` and
 * `ToolCall` are what `stream()` parses (`message.parsed`, `parsed_arguments`), typed from its
 * `response_format` and `tools`; the stream of `create({ stream: true })` parses nothing.
 *
 * @example
 * ```ts
 * const stream = await client.chat.completions.create({ model, messages, stream: true });
 * for await (const text of stream.textStream()) process.stdout.write(text);
 * const completion = await stream.finalChatCompletion(); // usage, finish_reason, tool calls…
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- Evented's methods are copied onto it (evented(), below)
export class ChatCompletionStream<
  ParsedT = null,
  ToolCall extends ChatCompletionMessageToolCall = ChatCompletionMessageToolCall,
> extends Stream<ChatCompletionChunk> {
  readonly #tap: Tap;
  /** Removes the watch on an abort before the first read (see the constructor). */
  #unwatch: (() => void) | undefined;
  /** The stream's own read, while nobody else reads it (`#runAlone()`). */
  #alone: { iterator: AsyncIterator<ChatCompletionChunk>; paused: Promise<void> } | undefined;

  /** @internal */
  constructor(source: () => ObservableIterator<ChatCompletionChunk>, controller: AbortController) {
    super(source, controller);
    const tap = (this.#tap = new Tap(controller.signal));
    // Aborted before anyone read it, nothing would tell the listeners (a loop tells them as it
    // reads): `emitted()`, `abort` and `end` would wait for ever and `aborted` stay false.
    // (A controller aborted already: `fromReadableStream(body, controller)`.)
    // The listener holds the tap, never the stream: a stream dropped unread must stay collectable
    // (the client's limiter gives its place back when it is collected).
    const onAbort = () => {
      try {
        tap.end(new APIUserAbortError(TARGET, controller.signal.reason));
      } catch {
        // A listener that threw: its error is the stream's now (done(), final…() reject with it).
      }
    };
    if (controller.signal.aborted) onAbort();
    else {
      controller.signal.addEventListener('abort', onAbort, { once: true });
      this.#unwatch = () => controller.signal.removeEventListener('abort', onAbort);
    }
  }

  /** Once read, the loop reading it tells the listeners: the watch is removed (it would hold the stream for as long as its signal lives). @internal */
  protected override take(): ObservableIterator<ChatCompletionChunk> {
    const source = super.take();
    this.#unwatch?.();
    this.#unwatch = undefined;
    return source;
  }

  /** @internal */
  protected override observer(): StreamObserver<ChatCompletionChunk> {
    return this.#tap;
  }

  /** Iterate the chunks (once); while the stream reads itself (`stream()` unread), from the next chunk on. */
  override [Symbol.asyncIterator](): AsyncIterator<ChatCompletionChunk> {
    const alone = this.#alone;
    if (!alone) return super[Symbol.asyncIterator]();
    this.#alone = undefined; // the stream's own read stops at its next chunk
    const { iterator, paused } = alone;
    return {
      next: async () => {
        await paused;
        return iterator.next();
      },
      return: async () => {
        await paused;
        return (await iterator.return?.()) ?? { done: true, value: undefined };
      },
    };
  }

  /**
   * The chunks of `stream` without its own accumulation, for a stream that wraps it (and
   * accumulates them itself): each chunk is then added up once.
   * @internal
   */
  protected static chunksOf(
    stream: ChatCompletionStream<unknown, ChatCompletionMessageToolCall>,
  ): ObservableIterator<ChatCompletionChunk> {
    return stream.take();
  }

  /**
   * Parse as a helper does (`stream()`, `parse({ stream: true })`): the events' parsed values, and
   * the final completion parsed when the stream ends. Set before the first chunk.
   * @internal
   */
  protected parseWith(parser: StreamParser): void {
    this.#tap.events.parser = parser;
  }

  /**
   * A stream made before its request (`chat.completions.stream()`), which `start` makes at once
   * with this stream's signal, so that `controller.abort()` cancels it at any point.
   * `parser` (loaded with the request) parses as `stream()` does.
   * @internal
   */
  static deferred<ParsedT, ToolCall extends ChatCompletionMessageToolCall>(
    start: (
      signal: AbortSignal,
    ) => PromiseLike<ChatCompletionStream<unknown, ChatCompletionMessageToolCall>>,
    parser?: () => PromiseLike<StreamParser>,
    messages: readonly unknown[] = [],
  ): ChatCompletionStream<ParsedT, ToolCall> {
    const controller = new AbortController();
    let observer: StreamObserver<ChatCompletionChunk> | undefined;
    let opening: Promise<AsyncIterator<ChatCompletionChunk>> | undefined;
    let source: AsyncIterator<ChatCompletionChunk> | undefined;
    const open = () => {
      if (opening) return opening;
      // Loaded while the request is made; a request that fails first leaves it unasked.
      const parsing = Promise.resolve(parser?.());
      parsing.catch(() => {});
      return (opening = Promise.resolve(start(controller.signal)).then(async (inner) => {
        try {
          const loaded = await parsing;
          if (loaded) stream.parseWith(loaded);
        } catch (error) {
          inner.controller.abort(error);
          throw error;
        }
        follow(controller.signal, inner.controller);
        return inner.take();
      }));
    };
    const iterator: ObservableIterator<ChatCompletionChunk> = {
      observe(watcher) {
        observer = watcher;
      },
      async next() {
        if (source) return source.next();
        let chunks: ObservableIterator<ChatCompletionChunk>;
        try {
          chunks = await open();
        } catch (error) {
          observer?.end(error); // the request failed before its first chunk
          throw error;
        }
        // This stream's accumulation and listeners watch the request's own iterator, as with
        // create(): a listener that throws then ends the request there, at once.
        if (observer) chunks.observe?.(observer);
        source ??= chunks.observe || !observer ? chunks : observed(chunks, observer);
        return source.next();
      },
      async return() {
        if (opening === undefined) {
          controller.abort();
          observer?.closed();
        } else await (source ?? (await opening.catch(() => undefined)))?.return?.();
        return { done: true, value: undefined };
      },
    };
    const stream = new ChatCompletionStream<ParsedT, ToolCall>(() => iterator, controller);
    stream.#tap.messages = messages;
    // The request starts at once, as openai's does (in a microtask: after the caller's listeners);
    // if nobody reads the stream by the time it answers, it reads itself, for the listeners.
    queueMicrotask(() => {
      if (!controller.signal.aborted)
        void open().then(
          () => stream.#runAlone(),
          () => stream.#runAlone(),
        );
    });
    return stream;
  }

  /**
   * The stream's own read, while nobody else reads it (see `deferred()`): every chunk goes to the
   * listeners and the final completion. A loop that starts meanwhile takes over from the next
   * chunk on (the ones read already are told to the listeners, not to it), as openai's does.
   */
  #runAlone(): void {
    if (this.consumed) return;
    const iterator = this[Symbol.asyncIterator]();
    this.#alone = {
      iterator,
      paused: (async () => {
        try {
          // Until the end, or until a loop takes over (`#alone` is cleared then).
          while (!(await iterator.next()).done && this.#alone);
        } catch {
          // The stream's error: told to the listeners, for final…() and done(), and thrown again
          // by the iterator to a loop that takes over.
        }
      })(),
    };
  }

  /**
   * `completions.stream(params, options)`, under the official client's name for it: give it the
   * client, or its `chat.completions` (as `openai` v4 did). As with `stream()`, the request
   * starts at once (a stream nobody reads reads itself, for its listeners), and a
   * `zodResponseFormat()` format is parsed; the type of `parsed` is `ParsedT`, given as in `openai`
   * (`createChatCompletion<Weather>(…)`), or `stream()` infers it from the format.
   *
   * @example
   * ```ts
   * const stream = ChatCompletionStream.createChatCompletion(client, { model: 'acme/chat-1', messages });
   * stream.on('content.delta', ({ delta }) => process.stdout.write(delta));
   * console.log(await stream.finalContent());
   * ```
   */
  static createChatCompletion<ParsedT = null>(
    client:
      | { chat: { completions: { stream(params: never, options?: RequestOptions): unknown } } }
      | { stream(params: never, options?: RequestOptions): unknown },
    params: Omit<ChatCompletionCreateParams, 'stream'> & { stream?: true },
    options?: RequestOptions,
  ): ChatCompletionStream<ParsedT> {
    const completions = 'chat' in client ? client.chat.completions : client;
    return completions.stream(params as never, options) as ChatCompletionStream<ParsedT>;
  }

  /**
   * Read a body made by `toReadableStream()` (a route handler's response, e.g.
   * `(await fetch('/api/chat')).body` in a browser) as a `ChatCompletionStream`: the chunks, the
   * events and `finalChatCompletion()`, as on the server. Each line is read as a chunk from a
   * server is (a line that is not one is a `ResponseValidationError`); a body that ends before a
   * `finish_reason`, or whose connection fails, is an `APIConnectionError`. A body of a streaming
   * tool run (`runTools({ stream: true }).toReadableStream()`) holds several requests' chunks:
   * each new chunk `id` starts a new completion, and `finalChatCompletion()` is the last one.
   * Aborting `controller` cancels the body.
   *
   * @example
   * ```ts
   * const response = await fetch('/api/chat', { method: 'POST', body: JSON.stringify({ question }) });
   * const stream = ChatCompletionStream.fromReadableStream(response.body!);
   * stream.on('content.delta', ({ delta }) => output.append(delta));
   * const completion = await stream.finalChatCompletion();
   * ```
   */
  // Generic as `Stream.fromReadableStream` is, so that the class's static side still extends
  // Stream's; `T` is always `ChatCompletionChunk` here.
  static override fromReadableStream<T = ChatCompletionChunk>(
    body: ReadableStream<Uint8Array>,
    controller = new AbortController(),
    options: { maxEventSize?: number | undefined } = {},
  ): ChatCompletionStream & Stream<T> {
    // Made now, not at the first read: an abort before anything reads the stream cancels the body.
    const lines = Stream.fromReadableStream<unknown>(body, controller, options);
    const stream = new ChatCompletionStream(() => readBack(lines), controller);
    stream.#tap.byId = true; // a streaming run's body holds each request's completion
    return stream as ChatCompletionStream & Stream<T>;
  }

  /** @internal */
  protected get surface(): EventSurface<Events> {
    return this.#tap.surface;
  }

  /** @internal */
  protected async over(): Promise<void> {
    if (!this.consumed) {
      const iterator = this[Symbol.asyncIterator]();
      while (!(await iterator.next()).done);
    }
    await this.#tap.ended;
  }

  /** @internal */
  protected last(): StreamedChatCompletion<ParsedT, ToolCall> {
    const tap = this.#tap;
    return (tap.parsed ?? tap.accumulator.result()) as StreamedChatCompletion<ParsedT, ToolCall>;
  }

  /** @internal */
  protected conversation(): readonly unknown[] {
    return [...this.#tap.messages, this.last().choices[0]?.message];
  }

  /**
   * The completion so far, built from the chunks read until now (`undefined` before the first):
   * the official client's snapshot. Built anew on each read of the property, so read it when you
   * need it, not on every chunk.
   *
   * @example
   * ```ts
   * for await (const chunk of stream) if (chunk.choices[0]?.finish_reason) console.log(stream.currentChatCompletionSnapshot?.usage);
   * ```
   */
  get currentChatCompletionSnapshot(): ChatCompletion | undefined {
    return this.#tap.accumulator.chunks === 0 ? undefined : this.#tap.accumulator.result();
  }

  /**
   * Stop the stream: the request is cancelled, a loop reading it ends with `APIUserAbortError`,
   * and the `abort` event is told. The same as `stream.controller.abort()`.
   *
   * @example
   * ```ts
   * setTimeout(() => stream.abort(), 5_000);
   * ```
   */
  abort(): void {
    this.controller.abort();
  }

  /**
   * Only the text of the first choice, delta by delta (reasoning, tool calls and empty deltas
   * left out). Consumes the stream; `finalChatCompletion()` works afterwards.
   *
   * @example
   * ```ts
   * for await (const text of stream.textStream()) process.stdout.write(text);
   * ```
   */
  async *textStream(): AsyncGenerator<string> {
    for await (const chunk of this) yield* contentOf(chunk);
  }
}

/**
 * The stream's events and `final…()` methods (stream/event-surface.ts), the runners' too: its
 * class extends `Stream`, so `Evented` is merged into it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- its members are Evented's
export interface ChatCompletionStream<
  ParsedT = null,
  ToolCall extends ChatCompletionMessageToolCall = ChatCompletionMessageToolCall,
> extends Evented<
  ChatCompletionStreamEvents<ParsedT, ToolCall>,
  StreamedChatCompletion<ParsedT, ToolCall>
> {}
evented(ChatCompletionStream);
