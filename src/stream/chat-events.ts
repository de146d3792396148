/**
 * The events of a `ChatCompletionStream`, named as the official `openai` client names them
 * (`content`, `content.delta`, `tool_calls.function.arguments.delta`, `finalChatCompletion`, …),
 * for the first choice. Nothing is computed for events nobody listens to: the stream asks
 * `listening` before it hands a chunk over.
 */
import type { ChatCompletion, ChatCompletionChunk } from '../generated/types.gen';
import { APIUserAbortError, ListenerError } from '../errors';
import { Listeners } from './listeners';

/**
 * What each event of a `ChatCompletionStream` passes its listeners (all about the first choice).
 *
 * @example
 * ```ts
 * const stream = client.chat.completions.stream({ model: 'acme/chat-1', messages });
 * stream.on('content.delta', ({ delta, snapshot }) => process.stdout.write(delta));
 * stream.on('tool_calls.function.arguments.done', ({ name, arguments: args }) => console.log(name, args));
 * await stream.done();
 * ```
 */
export interface ChatCompletionStreamEvents {
  /** Every chunk, as it arrives. */
  chunk: (chunk: ChatCompletionChunk) => void;
  /** A text fragment, and the text so far (the official client's older event). */
  content: (delta: string, snapshot: string) => void;
  /** A text fragment, and the text so far. */
  'content.delta': (event: { delta: string; snapshot: string }) => void;
  /** The whole text, when the choice finishes (if it had any). */
  'content.done': (event: { content: string }) => void;
  /** A reasoning fragment, whichever field the server used (not in the official client). */
  'reasoning.delta': (event: { delta: string; snapshot: string }) => void;
  /** The whole reasoning, when the choice finishes (if it had any). */
  'reasoning.done': (event: { reasoning: string }) => void;
  /** A fragment of a refusal, and the refusal so far. */
  'refusal.delta': (event: { delta: string; snapshot: string }) => void;
  /** The whole refusal, when the choice finishes (if it had one). */
  'refusal.done': (event: { refusal: string }) => void;
  /** A fragment of a tool call's arguments (`index` numbers the calls 0, 1, 2 …). */
  'tool_calls.function.arguments.delta': (event: { name: string; index: number; arguments: string; arguments_delta: string }) => void;
  /** A tool call's whole arguments, once the call is complete (the next call began, or the choice finished). */
  'tool_calls.function.arguments.done': (event: { name: string; index: number; arguments: string }) => void;
  /** The whole completion, when the stream ended normally. */
  finalChatCompletion: (completion: ChatCompletion) => void;
  /** The stream failed (its loop and `finalChatCompletion()` reject with the same error). */
  error: (error: unknown) => void;
  /** The stream was aborted or left early (`break`, `controller.abort()`). */
  abort: (error: APIUserAbortError) => void;
  /** The stream is over, however it ended. */
  end: () => void;
}

type Name = keyof ChatCompletionStreamEvents;

interface ToolCall {
  name: string;
  arguments: string;
}

/** Listeners, and the running texts they are told about. */
export class ChatEvents {
  readonly #listeners = new Listeners<ChatCompletionStreamEvents>();
  #content: string | undefined;
  #reasoning: string | undefined;
  #refusal: string | undefined;
  readonly #calls: ToolCall[] = [];
  #open: number | undefined;
  #done = false;

  get listening(): boolean {
    return this.#listeners.any;
  }

  on<E extends Name>(event: E, listener: ChatCompletionStreamEvents[E], once: boolean): void {
    this.#listeners.on(event, listener, once);
  }

  off<E extends Name>(event: E, listener: ChatCompletionStreamEvents[E]): void {
    this.#listeners.off(event, listener);
  }

  emit<E extends Name>(event: E, ...args: Parameters<ChatCompletionStreamEvents[E]>): void {
    this.#listeners.emit(event, ...args);
  }

  chunk(chunk: ChatCompletionChunk): void {
    this.emit('chunk', chunk);
    const choice = chunk.choices.find((c) => c.index === 0);
    if (!choice) return;
    const { content, reasoning, refusal, tool_calls: calls } = choice.delta;
    if (reasoning) {
      this.#reasoning = (this.#reasoning ?? '') + reasoning;
      this.emit('reasoning.delta', { delta: reasoning, snapshot: this.#reasoning });
    }
    if (content) {
      this.#content = (this.#content ?? '') + content;
      this.emit('content', content, this.#content);
      this.emit('content.delta', { delta: content, snapshot: this.#content });
    }
    if (refusal) {
      this.#refusal = (this.#refusal ?? '') + refusal;
      this.emit('refusal.delta', { delta: refusal, snapshot: this.#refusal });
    }
    for (const fragment of calls ?? []) {
      if (this.#open !== undefined && fragment.index !== this.#open) this.#callDone();
      const call = (this.#calls[fragment.index] ??= { name: '', arguments: '' });
      this.#open = fragment.index;
      if (fragment.function?.name && !call.name) call.name = fragment.function.name;
      const delta = fragment.function?.arguments ?? '';
      call.arguments += delta;
      if (delta) this.emit('tool_calls.function.arguments.delta', { name: call.name, index: fragment.index, arguments: call.arguments, arguments_delta: delta });
    }
    if (choice.finish_reason !== null) this.#finish();
  }

  /**
   * The stream ended: what is still open is done, then the final completion (or the error, or the
   * abort), then `end`, each told once. Returns the error the stream ends with: `error`, or the
   * `ListenerError` of a listener that threw meanwhile (a listener of the last events fails a
   * stream that went well: `error` is then told, unless it was `end` itself, after which nothing is).
   */
  end(completion: () => ChatCompletion, error?: unknown): unknown {
    if (error === undefined) {
      try {
        this.#finish();
        this.emit('finalChatCompletion', completion());
      } catch (listener) {
        error = listener;
      }
    }
    if (error !== undefined) {
      try {
        if (error instanceof APIUserAbortError) this.emit('abort', error);
        else this.emit('error', error);
      } catch (listener) {
        error = after(listener, error);
      }
    }
    try {
      this.emit('end');
    } catch (listener) {
      error = error === undefined ? listener : after(listener, error);
    }
    return error;
  }

  #callDone(): void {
    const index = this.#open;
    if (index === undefined) return;
    this.#open = undefined;
    const call = this.#calls[index]!;
    this.emit('tool_calls.function.arguments.done', { name: call.name, index, arguments: call.arguments });
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    if (this.#reasoning !== undefined) this.emit('reasoning.done', { reasoning: this.#reasoning });
    if (this.#content !== undefined) this.emit('content.done', { content: this.#content });
    if (this.#refusal !== undefined) this.emit('refusal.done', { refusal: this.#refusal });
    this.#callDone();
  }
}

/** A listener's error, thrown while the stream was already failing: it says what had gone wrong. */
function after(listener: unknown, error: unknown): unknown {
  return listener instanceof ListenerError ? new ListenerError(listener.event, listener.cause, { what: 'stream', error }) : listener;
}
