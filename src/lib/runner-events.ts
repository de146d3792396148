/**
 * The events of a `ChatCompletionRunner` (`runTools()`), named and passed as the official
 * `openai` client's runner names them (`message`, `functionToolCall`, `finalContent`, …), so that
 * `runTools(…).on('message', …)` code carries over. They are worked out from the run's own
 * events (`RunnerEvent`) as they happen. A little is kept whether or not anyone listens: the
 * streamed text of the current request (for `content`'s snapshot, which a listener added mid-run
 * must see whole) and the last tool call and result (`finalFunctionToolCall()` reads them).
 */
import type { APIUserAbortError } from '../errors';
import type { ChatCompletionChunk, ChatCompletionMessageParam, CompletionUsage } from '../generated/types.gen';
import type { Listeners } from '../stream/listeners';
import type { ParsedChatCompletion, ParsedChatCompletionMessage } from './parse';

/**
 * What a run reports, in order. `round` counts requests from 1.
 *
 * @example
 * ```ts
 * import type { RunnerEvent } from 'model-inference-sdk';
 *
 * function log(event: RunnerEvent): void {
 *   if (event.type === 'completion') console.log(`round ${event.round}:`, event.completion.usage?.total_tokens, 'tokens');
 *   else if (event.type === 'message') console.log(`round ${event.round}:`, event.message.role);
 * }
 * for await (const event of client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools: [getWeather] })) log(event);
 * ```
 */
export type RunnerEvent<ParsedT = null> =
  | { type: 'chunk'; round: number; chunk: ChatCompletionChunk }
  | { type: 'completion'; round: number; completion: ParsedChatCompletion<ParsedT> }
  | { type: 'message'; round: number; message: ChatCompletionMessageParam };

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
 * What each event of a `ChatCompletionRunner` passes its listeners, in the order they come.
 *
 * @example
 * ```ts
 * const runner = client.chat.completions
 *   .runTools({ model: 'acme/chat-1', messages, tools: [getWeather] })
 *   .on('functionToolCall', (call) => console.log('calling', call.name, call.arguments))
 *   .on('functionToolCallResult', (result) => console.log('tool said', result))
 *   .on('finalContent', (content) => console.log('answer:', content));
 * await runner.done();
 * ```
 */
export interface ChatCompletionRunnerEvents<ParsedT = null> {
  /** A request's response arrived (once per request). */
  connect: () => void;
  /** Each chunk of each request, when the run streams (`stream: true`). The official client also passes a snapshot; use `content`'s. */
  chunk: (chunk: ChatCompletionChunk) => void;
  /**
   * The model's text: streamed, each fragment of the first choice and that request's text so far;
   * unstreamed, each answer's whole text (twice), after its `message`.
   */
  content: (delta: string, snapshot: string) => void;
  /** Each completion, one per request. */
  chatCompletion: (completion: ParsedChatCompletion<ParsedT>) => void;
  /** Each message added to the conversation: the assistant's, then one per tool result. */
  message: (message: ChatCompletionMessageParam) => void;
  /** Each tool call the model makes, before it runs. */
  functionToolCall: (call: FunctionToolCall) => void;
  /** Each tool's result, as sent back to the model. */
  functionToolCallResult: (content: string) => void;
  /** At the end of a run that succeeded: the last completion. */
  finalChatCompletion: (completion: ParsedChatCompletion<ParsedT>) => void;
  /** At the end: the last assistant message. */
  finalMessage: (message: ParsedChatCompletionMessage<ParsedT>) => void;
  /** At the end: the last assistant message's text, when it has any. */
  finalContent: (content: string) => void;
  /** At the end: the last tool call of the run, when there was one. */
  finalFunctionToolCall: (call: FunctionToolCall) => void;
  /** At the end: the last tool result of the run, when there was one. */
  finalFunctionToolCallResult: (content: string) => void;
  /** At the end: token usage over every request, when the server reported any. */
  totalUsage: (usage: CompletionUsage) => void;
  /** The run failed (its `final…()` methods reject with the same error). */
  error: (error: unknown) => void;
  /** The run was aborted (`abort()`, or the request's `signal`). */
  abort: (error: APIUserAbortError) => void;
  /** The run is over, however it ended. */
  end: () => void;
}

/**
 * Works out the runner's events and tells its listeners. Loaded with the loop (by `import()`),
 * so that code that never runs tools does not carry it; the listeners live on the runner itself.
 * @internal
 */
export class RunnerEvents<ParsedT> {
  constructor(private readonly listeners: Listeners<ChatCompletionRunnerEvents<ParsedT>>) {}

  /** The last request whose response arrived (`connect` is told once per request). */
  #connected = 0;
  /** The last request that streamed, and its text so far. */
  #streamed = 0;
  #content = '';
  /** The run's last tool call and last tool result so far (the runner's `final…()` read them). */
  lastCall: FunctionToolCall | undefined;
  lastResult: string | undefined;

  /** One of the run's events, as it happens. */
  event(event: RunnerEvent<ParsedT>): void {
    const on = this.listeners;
    if (event.round !== this.#connected) {
      this.#connected = event.round;
      on.emit('connect');
    }
    if (event.type === 'chunk') {
      if (event.round !== this.#streamed) [this.#streamed, this.#content] = [event.round, ''];
      on.emit('chunk', event.chunk);
      const delta = event.chunk.choices.find((c) => c.index === 0)?.delta.content;
      if (delta) {
        this.#content += delta;
        on.emit('content', delta, this.#content);
      }
    } else if (event.type === 'completion') {
      on.emit('chatCompletion', event.completion);
    } else {
      const message = event.message;
      on.emit('message', message);
      if (message.role === 'assistant') {
        for (const call of message.tool_calls ?? []) {
          this.lastCall = { name: call.function.name, arguments: call.function.arguments };
          on.emit('functionToolCall', this.lastCall);
        }
        // Unstreamed, the text comes whole, after its message (as the official runner tells it).
        if (event.round !== this.#streamed && typeof message.content === 'string' && message.content) on.emit('content', message.content, message.content);
      } else if (message.role === 'tool' && typeof message.content === 'string') {
        this.lastResult = message.content;
        on.emit('functionToolCallResult', message.content);
      }
    }
  }

  /** The run succeeded: the final events (the runner tells `end` after them). */
  succeeded(last: ParsedChatCompletion<ParsedT> | undefined, usage: CompletionUsage | undefined): void {
    const on = this.listeners;
    if (last) {
      on.emit('finalChatCompletion', last);
      const message = last.choices[0]?.message;
      if (message) on.emit('finalMessage', message);
      if (message?.content) on.emit('finalContent', message.content);
    }
    if (this.lastCall) on.emit('finalFunctionToolCall', this.lastCall);
    if (this.lastResult !== undefined) on.emit('finalFunctionToolCallResult', this.lastResult);
    if (usage) on.emit('totalUsage', usage);
  }
}
