/**
 * `ChatCompletionStream`: the stream `chat.completions.create({ stream: true })` returns, with
 * the official client's helpers: `finalChatCompletion()` and a text-only view.
 */
import type { ChatCompletion, ChatCompletionChunk } from '../generated/types.gen';
import { InferenceError } from '../errors';
import { Stream, type ObservableIterator, type StreamObserver } from './stream';
import { ChatCompletionAccumulator } from './accumulate';

/** Feeds every chunk that passes to the accumulator and remembers how the stream ended. */
class Tap implements StreamObserver<ChatCompletionChunk> {
  readonly accumulator = new ChatCompletionAccumulator();
  readonly ended: Promise<void>;
  #resolve!: () => void;
  #reject!: (error: unknown) => void;

  constructor() {
    this.ended = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.ended.catch(() => {}); // reported by finalChatCompletion(), if anyone asks
  }

  item(chunk: ChatCompletionChunk): void {
    this.accumulator.add(chunk);
  }

  end(error?: unknown): void {
    if (error === undefined) this.#resolve();
    else this.#reject(error);
  }

  closed(): void {
    this.#reject(new InferenceError('The stream was closed before it ended, so there is no final completion.'));
  }
}

/**
 * A `Stream<ChatCompletionChunk>` that also builds the final completion as it goes.
 *
 * @example
 * ```ts
 * const stream = await client.chat.completions.create({ model, messages, stream: true });
 * for await (const text of stream.textStream()) process.stdout.write(text);
 * const completion = await stream.finalChatCompletion(); // usage, finish_reason, tool calls…
 * ```
 */
export class ChatCompletionStream extends Stream<ChatCompletionChunk> {
  readonly #tap: Tap;

  /** @internal */
  constructor(source: () => ObservableIterator<ChatCompletionChunk>, controller: AbortController) {
    super(source, controller);
    this.#tap = new Tap();
  }

  /** @internal */
  protected override observer(): StreamObserver<ChatCompletionChunk> {
    return this.#tap;
  }

  /**
   * The whole completion, as a non-streaming request would have returned it. Reads the rest
   * of the stream if nobody is iterating it; otherwise waits for that loop to end. Rejects with
   * the stream's error, or if the loop was left early with `break`.
   *
   * @example
   * ```ts
   * const completion = await stream.finalChatCompletion();
   * console.log(completion.choices[0]?.message.content, completion.usage);
   * ```
   */
  async finalChatCompletion(): Promise<ChatCompletion> {
    if (!this.consumed) {
      const iterator = this[Symbol.asyncIterator]();
      while (!(await iterator.next()).done);
    }
    await this.#tap.ended;
    return this.#tap.accumulator.result();
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
    for await (const chunk of this) {
      for (const choice of chunk.choices) {
        if (choice.index === 0 && choice.delta.content) yield choice.delta.content;
      }
    }
  }
}
