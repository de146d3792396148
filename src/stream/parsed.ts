/**
 * The shapes of a parsed completion: `message.parsed` and `parsed_arguments` on tool calls, as
 * `chat.completions.parse()`, `stream()` and `runTools()` give them. Types only, in the core so
 * that `ChatCompletionStream` (stream/) can be typed with them; the parsing is in parse/completion.ts.
 */
import type {
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
} from '../generated/types.gen';

/**
 * A tool call with its arguments parsed: typed from its tool when the tool came from `zodFunction()`.
 *
 * @example
 * ```ts
 * import type { ParsedFunctionToolCall } from 'model-inference-sdk';
 *
 * function describeCall(call: ParsedFunctionToolCall<'get_weather', { city: string }>): string {
 *   return `${call.id}: ${call.function.name}(${call.function.parsed_arguments.city})`;
 * }
 * ```
 */
export type ParsedFunctionToolCall<Name extends string = string, Args = unknown> = Omit<
  ChatCompletionMessageToolCall,
  'function'
> & {
  function: Omit<ChatCompletionMessageToolCall['function'], 'name'> & {
    name: Name;
    /**
     * The arguments, validated by the tool's schema (`zodFunction`), or JSON-parsed for a tool
     * without one (`undefined` there when they are not valid JSON).
     */
    parsed_arguments: Args;
  };
};

/**
 * The assistant message with `parsed` (the structured output) and parsed tool calls.
 *
 * @example
 * ```ts
 * import type { ParsedChatCompletionMessage } from 'model-inference-sdk';
 *
 * function show(message: ParsedChatCompletionMessage<{ city: string; celsius: number }>): void {
 *   if (message.refusal) console.log('refused:', message.refusal);
 *   else if (message.parsed) console.log(`${message.parsed.city}: ${message.parsed.celsius} °C`);
 * }
 * ```
 */
export type ParsedChatCompletionMessage<ParsedT = null, ToolCall = ParsedFunctionToolCall> = Omit<
  ChatCompletionMessage,
  'tool_calls'
> & {
  /**
   * The structured output: validated and typed with `zodResponseFormat`, JSON-parsed for another
   * `json_schema` or `json_object` format. `null` when the model refused (see `refusal`), only
   * called tools, or sent no content, and always without a JSON `response_format`.
   */
  parsed: ParsedT | null;
  tool_calls?: ToolCall[];
};

/**
 * A choice whose message is parsed.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type ParsedChoice } from 'model-inference-sdk';
 * import { zodResponseFormat } from 'model-inference-sdk/helpers/zod';
 *
 * const answered = (choice: ParsedChoice<{ city: string }>) => choice.finish_reason === 'stop' && choice.message.parsed !== null;
 * const format = zodResponseFormat(z.object({ city: z.string() }), 'city');
 * const completion = await client.chat.completions.parse({ model: 'acme/chat-1', messages, n: 3, response_format: format });
 * console.log(completion.choices.filter(answered).length, 'usable answers');
 * ```
 */
export type ParsedChoice<ParsedT = null, ToolCall = ParsedFunctionToolCall> = Omit<
  ChatCompletionChoice,
  'message'
> & {
  message: ParsedChatCompletionMessage<ParsedT, ToolCall>;
};

/**
 * What `chat.completions.parse()` resolves to.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type ParsedChatCompletion } from 'model-inference-sdk';
 * import { zodResponseFormat } from 'model-inference-sdk/helpers/zod';
 *
 * const Weather = z.object({ city: z.string(), celsius: z.number() });
 * const completion: ParsedChatCompletion<z.infer<typeof Weather>> = await client.chat.completions.parse({
 *   model: 'acme/chat-1',
 *   messages,
 *   response_format: zodResponseFormat(Weather, 'weather'),
 * });
 * console.log(completion.usage?.total_tokens, completion.choices[0]?.message.parsed?.celsius);
 * ```
 */
export type ParsedChatCompletion<ParsedT = null, ToolCall = ParsedFunctionToolCall> = Omit<
  ChatCompletion,
  'choices'
> & {
  choices: ParsedChoice<ParsedT, ToolCall>[];
};
