/**
 * The events of a `ChatCompletionStream`, named and passed as the official `openai` client's
 * stream passes them (`content`, `content.delta`, `tool_calls.function.arguments.delta`,
 * `logprobs.content.delta`, `chatCompletion`, `message`, `finalChatCompletion`, …), for the first
 * choice. Nothing is computed for events nobody listens to: the stream asks `listening` before it
 * hands a chunk over, and an argument that costs something (the snapshot of `chunk`, a parsed
 * value) is built only when its event has a listener. The streaming tool runner tells the same
 * events, request by request, through its own listeners (tools/events.ts).
 */
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTokenLogprob,
  CompletionUsage,
} from '../generated/types.gen';
import type { ParsedChatCompletion, ParsedFunctionToolCall } from './parsed';
import { APIUserAbortError, ListenerError } from '../errors/api';
import { Listeners } from './listeners';

/**
 * What a stream's `finalChatCompletion()` gives: the completion as the server sent it, for the
 * stream of `create({ stream: true })` and a `stream()` without schemas; parsed (`message.parsed`,
 * `parsed_arguments` on tool calls) for a `stream()` with `zodResponseFormat()` or `zodFunction()`
 * tools and for `parse({ stream: true })`, typed from their `response_format` and `tools`.
 *
 * @example
 * ```ts
 * import type { StreamedChatCompletion } from 'model-inference-sdk';
 *
 * type Plain = StreamedChatCompletion; // ChatCompletion: create({ stream: true })
 * type Parsed = StreamedChatCompletion<{ city: string }>; // ParsedChatCompletion<{ city: string }>: stream() with zodResponseFormat
 * const show = (completion: Parsed) => console.log(completion.choices[0]?.message.parsed?.city);
 * ```
 */
export type StreamedChatCompletion<
  ParsedT = null,
  ToolCall extends ChatCompletionMessageToolCall = ChatCompletionMessageToolCall,
> = [ParsedT] extends [null]
  ? [Extract<ToolCall, ParsedFunctionToolCall>] extends [never]
    ? ChatCompletion
    : ParsedChatCompletion<ParsedT, ToolCall>
  : ParsedChatCompletion<ParsedT, ToolCall>;

/** The assistant message of a {@link StreamedChatCompletion}. */
type StreamedMessage<
  ParsedT,
  ToolCall extends ChatCompletionMessageToolCall,
> = StreamedChatCompletion<ParsedT, ToolCall>['choices'][number]['message'];

/**
 * A tool call as the official client's `functionToolCall` events pass it: its name and arguments.
 *
 * @example
 * ```ts
 * import type { FunctionToolCall } from 'model-inference-sdk';
 *
 * const show = (call: FunctionToolCall) => console.log(`${call.name}(${call.arguments})`);
 * client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools: [getWeather] }).on('functionToolCall', show);
 * ```
 */
export interface FunctionToolCall {
  name: string;
  arguments: string;
}

/**
 * What each event of a `ChatCompletionStream` passes its listeners (all about the first choice),
 * in the order they come. `ParsedT` and `ToolCall` type the parsed values of `stream()`'s events
 * (from `zodResponseFormat()` and `zodFunction()`).
 *
 * @example
 * ```ts
 * const stream = client.chat.completions.stream({ model: 'acme/chat-1', messages });
 * stream.on('content.delta', ({ delta, snapshot }) => process.stdout.write(delta));
 * stream.on('tool_calls.function.arguments.done', ({ name, arguments: args }) => console.log(name, args));
 * stream.on('logprobs.content.delta', ({ content }) => console.log(content.map((t) => t.logprob)));
 * await stream.done();
 * ```
 */
export interface ChatCompletionStreamEvents<
  ParsedT = null,
  ToolCall extends ChatCompletionMessageToolCall = ChatCompletionMessageToolCall,
> {
  /** The response arrived: before the first chunk's events (for the streaming runner, each request's). */
  connect: () => void;
  /**
   * Every chunk, as it arrives, and the completion so far (built for each chunk while this event
   * has a listener: cheap, but not free on very long outputs).
   */
  chunk: (chunk: ChatCompletionChunk, snapshot: ChatCompletion) => void;
  /** A text fragment, and the text so far (the official client's older event). */
  content: (delta: string, snapshot: string) => void;
  /**
   * A text fragment, the text so far, and (for `stream()` with `zodResponseFormat()` or another
   * JSON response format) the structured output so far, partial and not yet validated; else `null`.
   */
  'content.delta': (event: { delta: string; snapshot: string; parsed: unknown }) => void;
  /** The whole text, when the choice finishes (if it had any), and its structured output, validated (`null` without a JSON format). */
  'content.done': (event: { content: string; parsed: ParsedT | null }) => void;
  /** A reasoning fragment, whichever field the server used (not in the official client). */
  'reasoning.delta': (event: { delta: string; snapshot: string }) => void;
  /** The whole reasoning, when the choice finishes (if it had any). */
  'reasoning.done': (event: { reasoning: string }) => void;
  /** A fragment of a refusal, and the refusal so far. */
  'refusal.delta': (event: { delta: string; snapshot: string }) => void;
  /** The whole refusal, when the choice finishes (if it had one). */
  'refusal.done': (event: { refusal: string }) => void;
  /**
   * A fragment of a tool call's arguments (`index` numbers the calls 0, 1, 2 …), and for a tool
   * from `zodFunction()` or a `strict` one the arguments so far, partial (else `null`).
   */
  'tool_calls.function.arguments.delta': (event: {
    name: string;
    index: number;
    arguments: string;
    parsed_arguments: unknown;
    arguments_delta: string;
  }) => void;
  /**
   * A tool call's whole arguments, once the call is complete (the next call began, or the choice
   * finished): validated by a `zodFunction()` tool's schema, JSON-parsed for a `strict` tool, else `null`.
   */
  'tool_calls.function.arguments.done': (event: {
    name: string;
    index: number;
    arguments: string;
    parsed_arguments: unknown;
  }) => void;
  /** Token logprobs of the text (`logprobs: true`), and every one so far. */
  'logprobs.content.delta': (event: {
    content: ChatCompletionTokenLogprob[];
    snapshot: ChatCompletionTokenLogprob[];
  }) => void;
  /** Every token logprob of the text, when the choice finishes. */
  'logprobs.content.done': (event: { content: ChatCompletionTokenLogprob[] }) => void;
  /** Token logprobs of a refusal, and every one so far. */
  'logprobs.refusal.delta': (event: {
    refusal: ChatCompletionTokenLogprob[];
    snapshot: ChatCompletionTokenLogprob[];
  }) => void;
  /** Every token logprob of a refusal, when the choice finishes. */
  'logprobs.refusal.done': (event: { refusal: ChatCompletionTokenLogprob[] }) => void;
  /** The whole completion, when the stream ended normally (parsed for `stream()`): as `finalChatCompletion`, before `message`. */
  chatCompletion: (completion: StreamedChatCompletion<ParsedT, ToolCall>) => void;
  /** The assistant's message, after `chatCompletion` (the streaming runner: every message added to the conversation). */
  message: (message: ChatCompletionMessageParam) => void;
  /** Each tool call of the assistant's message, after `message`. */
  functionToolCall: (call: FunctionToolCall) => void;
  /** A tool's result (the streaming runner only: a stream runs no tools). */
  functionToolCallResult: (content: string) => void;
  /** The whole completion, when the stream ended normally (parsed for `stream()`). */
  finalChatCompletion: (completion: StreamedChatCompletion<ParsedT, ToolCall>) => void;
  /** The assistant's message of `finalChatCompletion`. */
  finalMessage: (message: StreamedMessage<ParsedT, ToolCall>) => void;
  /** The text of `finalMessage`, when it has any. */
  finalContent: (content: string) => void;
  /** The last tool call of `finalMessage`, when it has any. */
  finalFunctionToolCall: (call: FunctionToolCall) => void;
  /** The last tool result (the streaming runner only). */
  finalFunctionToolCallResult: (content: string) => void;
  /** The token usage, when the server reported it (`stream_options: { include_usage: true }`). */
  totalUsage: (usage: CompletionUsage) => void;
  /** The stream failed (its loop and `finalChatCompletion()` reject with the same error). */
  error: (error: unknown) => void;
  /** The stream was aborted or left early (`break`, `controller.abort()`). */
  abort: (error: APIUserAbortError) => void;
  /** The stream is over, however it ended. */
  end: () => void;
}

/**
 * The parsed values of a helper's events (`stream()`, `parse({ stream: true })`, the streaming
 * runner), from its `response_format` and `tools`: parse/stream-parser.ts, loaded with the request,
 * so that the core carries no parsing. Asked only for events that have listeners.
 * @internal
 */
export interface StreamParser {
  /** The structured output so far, partial, from the text so far (fed in order). */
  partialContent(snapshot: string): unknown;
  /** The whole text's structured output, validated; `null` when it is not to be had at once. */
  content(content: string): unknown;
  /** A tool call's arguments so far, partial (`index` as in the events). */
  partialArguments(index: number, name: string, snapshot: string): unknown;
  /** A tool call's whole arguments, parsed as its tool says; `null` without a parser. */
  arguments(name: string, args: string): unknown;
  /**
   * The final completion, parsed: throws what `parse()` throws; a promise when a schema validates
   * asynchronously, which rejects with `APIUserAbortError` if `signal` (the stream's) aborts first.
   */
  completion(
    completion: ChatCompletion,
    signal: AbortSignal,
  ): ChatCompletion | Promise<ChatCompletion>;
  /** Another request begins (the runner): the partial values start again. */
  reset(): void;
}

/**
 * The events, their arguments loosely typed: the stream and the runners type them at `on()`. The
 * runners' events are among these names too, so that a streaming runner's listeners are shared.
 * @internal
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Events = Record<keyof ChatCompletionStreamEvents, (...args: any[]) => void>;

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

  get listening(): boolean {
    return this.listeners.any;
  }

  on(event: keyof Events, listener: Events[keyof Events], once: boolean): void {
    this.listeners.on(event, listener, once);
  }

  off(event: keyof Events, listener: Events[keyof Events]): void {
    this.listeners.off(event, listener);
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
