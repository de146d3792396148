/**
 * The chat stream's events by name, and what each passes its listeners
 * (`ChatCompletionStreamEvents`, the official `openai` client's names), with what its
 * `finalChatCompletion()` gives (`StreamedChatCompletion`) and the parser a helper's stream hands
 * its events (`StreamParser`): the types only. The events are worked out in stream/chat-events.ts.
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
import type { APIUserAbortError } from '../errors/api';

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
