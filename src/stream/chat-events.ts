/**
 * The events of a `ChatCompletionStream`, named and passed as the official `openai` client's
 * stream passes them (`content`, `content.delta`, `tool_calls.function.arguments.delta`,
 * `logprobs.content.delta`, `chatCompletion`, `message`, `finalChatCompletion`, …), for the first
 * choice. Nothing is computed for events nobody listens to: the stream asks `listeners.any` before
 * it hands a chunk over, and an argument that costs something (the snapshot of `chunk`, a parsed
 * value) is built only when its event has a listener. The streaming tool runner tells the same
 * events, request by request, through its own listeners (tools/events.ts). Their names and
 * arguments, as types, are in stream/chat-event-types.ts.
 */
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionTokenLogprob,
} from '../generated/types.gen';
import { APIUserAbortError, ListenerError } from '../errors/api';
import { Listeners } from './listeners';
import type { Events, StreamParser } from './chat-event-types';

interface ToolCall {
  name: string;
  arguments: string;
}

/** The events of one stream (or of each request of a streaming run), and the running texts they tell. */
export class ChatEvents {
  readonly listeners: Listeners<Events>;
  /** The parsed values, for a helper's stream (`stream()` …); `null` in the events without it. */
  parser: StreamParser | undefined;
  #content: string | undefined;
  #reasoning: string | undefined;
  #refusal: string | undefined;
  #logprobs: ChatCompletionTokenLogprob[] | undefined;
  #refusalLogprobs: ChatCompletionTokenLogprob[] | undefined;
  #calls: ToolCall[] = [];
  #open: number | undefined;
  /** The done events of `#textDone` already told, one bit each. */
  #told = 0;

  /** `listeners`: the runner's own, for a streaming run. */
  constructor(listeners: Listeners<Events> = new Listeners<Events>()) {
    this.listeners = listeners;
  }

  /** One chunk's events; `snapshot` builds the completion so far (asked only for a `chunk` listener). */
  chunk(chunk: ChatCompletionChunk, snapshot: () => ChatCompletion): void {
    const on = this.listeners;
    if (on.has('chunk')) on.emit('chunk', chunk, snapshot());
    const choice = chunk.choices.find((c) => c.index === 0);
    if (!choice) return;
    const { content, reasoning, refusal, tool_calls: calls } = choice.delta;
    const parser = this.parser;
    if (reasoning) {
      this.#reasoning = (this.#reasoning ?? '') + reasoning;
      on.emit('reasoning.delta', { delta: reasoning, snapshot: this.#reasoning });
    }
    if (content) {
      const text = (this.#content = (this.#content ?? '') + content);
      on.emit('content', content, text);
      if (on.has('content.delta'))
        on.emit('content.delta', {
          delta: content,
          snapshot: text,
          parsed: parser ? parser.partialContent(text) : null,
        });
    }
    if (refusal) {
      this.#refusal = (this.#refusal ?? '') + refusal;
      on.emit('refusal.delta', { delta: refusal, snapshot: this.#refusal });
    }
    const logprobs = choice.logprobs;
    if (logprobs?.content) {
      (this.#logprobs ??= []).push(...logprobs.content);
      on.emit('logprobs.content.delta', { content: logprobs.content, snapshot: this.#logprobs });
    }
    if (logprobs?.refusal) {
      (this.#refusalLogprobs ??= []).push(...logprobs.refusal);
      on.emit('logprobs.refusal.delta', {
        refusal: logprobs.refusal,
        snapshot: this.#refusalLogprobs,
      });
    }
    for (const fragment of calls ?? []) {
      if (fragment.index !== this.#open) {
        // A new call: the text before it is done, and so is the call before it (as the official client tells them).
        this.#textDone();
        this.#callDone();
      }
      const call = (this.#calls[fragment.index] ??= { name: '', arguments: '' });
      this.#open = fragment.index;
      if (fragment.function?.name && !call.name) call.name = fragment.function.name;
      const delta = fragment.function?.arguments ?? '';
      call.arguments += delta;
      if (delta && on.has('tool_calls.function.arguments.delta')) {
        const parsed = parser
          ? parser.partialArguments(fragment.index, call.name, call.arguments)
          : null;
        on.emit('tool_calls.function.arguments.delta', {
          name: call.name,
          index: fragment.index,
          arguments: call.arguments,
          parsed_arguments: parsed,
          arguments_delta: delta,
        });
      }
    }
    if (choice.finish_reason !== null) this.finish();
  }

  /**
   * The stream ended: what is still open is done, then the completion's events (`chatCompletion`,
   * `message`, `functionToolCall`, the `final…` ones, `totalUsage`), or the error, or the abort,
   * then `end`, each told once. Returns the error the stream ends with: `error`, or the
   * `ListenerError` of a listener that threw meanwhile (a listener of the last events fails a
   * stream that went well: `error` is then told, unless it was `end` itself, after which nothing is).
   */
  end(completion: () => ChatCompletion, error?: unknown): unknown {
    const on = this.listeners;
    if (error === undefined) {
      try {
        this.finish();
        const final = completion();
        const message = final.choices[0]?.message;
        const calls = (message?.tool_calls ?? []).map(
          ({ function: { name, arguments: args } }) => ({ name, arguments: args }),
        );
        on.emit('chatCompletion', final);
        if (message) on.emit('message', message);
        for (const call of calls) on.emit('functionToolCall', call);
        on.emit('finalChatCompletion', final);
        if (message) on.emit('finalMessage', message);
        if (message?.content) on.emit('finalContent', message.content);
        if (calls.length) on.emit('finalFunctionToolCall', calls.at(-1));
        if (final.usage) on.emit('totalUsage', final.usage);
      } catch (listener) {
        error = listener;
      }
    }
    if (error !== undefined) {
      try {
        if (error instanceof APIUserAbortError) on.emit('abort', error);
        else on.emit('error', error);
      } catch (listener) {
        error = after(listener, error);
      }
    }
    try {
      on.emit('end');
    } catch (listener) {
      error = error === undefined ? listener : after(listener, error);
    }
    return error;
  }

  /** The choice finished (or the stream ended): every text, logprobs list and tool call still open is done. */
  finish(): void {
    this.#textDone();
    this.#callDone();
  }

  /**
   * The texts and their logprobs so far are done: the choice finished, or a tool call began. Each
   * is told once, when it has come (text that comes after a tool call is told at the finish).
   */
  #textDone(): void {
    const on = this.listeners;
    const content = this.#content;
    if (this.#reasoning !== undefined && this.#first(1))
      on.emit('reasoning.done', { reasoning: this.#reasoning });
    if (content !== undefined && this.#first(2) && on.has('content.done'))
      on.emit('content.done', {
        content,
        parsed: this.parser ? this.parser.content(content) : null,
      });
    if (this.#refusal !== undefined && this.#first(4))
      on.emit('refusal.done', { refusal: this.#refusal });
    if (this.#logprobs && this.#first(8))
      on.emit('logprobs.content.done', { content: this.#logprobs });
    if (this.#refusalLogprobs && this.#first(16))
      on.emit('logprobs.refusal.done', { refusal: this.#refusalLogprobs });
  }

  /** True the first time `bit` (one of the done events of `#textDone`) is asked for. */
  #first(bit: number): boolean {
    const first = (this.#told & bit) === 0;
    this.#told |= bit;
    return first;
  }

  /** Another request of a streaming run begins: its texts, logprobs and calls start empty. */
  reset(): void {
    this.#content = this.#reasoning = this.#refusal = undefined;
    this.#logprobs = this.#refusalLogprobs = undefined;
    this.#calls = [];
    this.#open = undefined;
    this.#told = 0;
    this.parser?.reset();
  }

  #callDone(): void {
    const index = this.#open;
    if (index === undefined) return;
    this.#open = undefined;
    const call = this.#calls[index]!;
    const on = this.listeners;
    if (on.has('tool_calls.function.arguments.done')) {
      const parsed = this.parser ? this.parser.arguments(call.name, call.arguments) : null;
      on.emit('tool_calls.function.arguments.done', {
        name: call.name,
        index,
        arguments: call.arguments,
        parsed_arguments: parsed,
      });
    }
  }
}

/** A listener's error, thrown while the stream was already failing: it says what had gone wrong. */
function after(listener: unknown, error: unknown): unknown {
  return listener instanceof ListenerError
    ? new ListenerError(listener.event, listener.cause, { what: 'stream', error })
    : listener;
}
