/**
 * The events of the tool runners (`runTools()`), named and passed as the official `openai`
 * client's runners pass them (`message`, `functionToolCall`, `finalContent`, …), so that
 * `runTools(…).on('message', …)` code carries over. They are worked out from the run's own
 * events (`RunnerEvent`) as they happen. A streaming run also tells the stream's events
 * (`content.delta`, `tool_calls.function.arguments.done`, `logprobs.content.delta` …), request by
 * request, through the same listeners (stream/chat-events.ts). A little is kept whether or not
 * anyone listens: the streamed text of the current request (for `content`'s snapshot, which a
 * listener added mid-run must see whole) and the last tool call and result (`finalFunctionToolCall()`
 * reads them).
 */
import type { APIUserAbortError } from '../errors/api';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  CompletionUsage,
} from '../generated/types.gen';
import { ChatEvents } from '../stream/chat-events';
import type { Events, FunctionToolCall, StreamParser } from '../stream/chat-event-types';
import type { Listeners } from '../stream/listeners';
import type { ParsedChatCompletion, ParsedChatCompletionMessage } from '../parse/completion';

export type { FunctionToolCall } from '../stream/chat-event-types';

/**
 * What a run reports, in order. `round` counts requests from 1. `chunk`s come in a streaming run
 * only (whose runner iterates the chunks themselves).
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
 * What each event of a `ChatCompletionRunner` passes its listeners, in the order they come. (A
 * streaming run's `ChatCompletionStreamingRunner` tells `ChatCompletionStreamEvents`: these, and
 * the stream's events of each request.)
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
  /** Each answer's whole text (twice: the text and, as the snapshot, the same text), after its `message`. */
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
  readonly #on: Listeners<Events>;
  /** A streaming run's stream events, told request by request through the runner's listeners. */
  readonly #stream: ChatEvents | undefined;
  /** The last request whose response arrived (`connect` is told once per request). */
  #connected = 0;
  /** The run's last tool call and last tool result so far (the runner's `final…()` read them). */
  lastCall: FunctionToolCall | undefined;
  lastResult: string | undefined;

  /** `parser`: for a streaming run, what its events carry parsed. */
  constructor(listeners: Listeners<Events>, parser?: StreamParser) {
    this.#on = listeners;
    if (parser) {
      this.#stream = new ChatEvents(listeners);
      this.#stream.parser = parser;
    }
  }

  /** One of the run's events, as it happens; `snapshot` builds a chunk's request's completion so far. */
  event(event: RunnerEvent<ParsedT>, snapshot?: () => ChatCompletion): void {
    const on = this.#on;
    const stream = this.#stream;
    if (event.round !== this.#connected) {
      this.#connected = event.round;
      on.emit('connect');
    }
    if (event.type === 'chunk') {
      stream?.chunk(event.chunk, snapshot!);
    } else if (event.type === 'completion') {
      if (stream) {
        stream.finish();
        stream.reset();
      }
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
        if (!stream && typeof message.content === 'string' && message.content)
          on.emit('content', message.content, message.content);
      } else if (message.role === 'tool' && typeof message.content === 'string') {
        this.lastResult = message.content;
        on.emit('functionToolCallResult', message.content);
      }
    }
  }

  /** The run succeeded: the final events (the runner tells `end` after them). */
  succeeded(
    last: ParsedChatCompletion<ParsedT> | undefined,
    usage: CompletionUsage | undefined,
  ): void {
    const on = this.#on;
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
