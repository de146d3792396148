/**
 * `chat.completions.parse()`: a completion → the same completion with `message.parsed` (the
 * structured output, validated and typed from the `response_format`), `parsed_arguments` on each
 * tool call (validated and typed from its tool). The finish reasons that make an output unusable (`length`, `content_filter`) and
 * output that is not what the schema says become typed errors.
 */
import { ContentFilterFinishReasonError, LengthFinishReasonError, OutputParseError } from './errors';
import type {
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionCreateParams,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
  ResponseFormatJSONObject,
  ResponseFormatJSONSchema,
} from '../generated/types.gen';
import { parserOf, type AutoParseableResponseFormat, type AutoParseableTool } from './schema-hooks';

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
export type ParsedFunctionToolCall<Name extends string = string, Args = unknown> = Omit<ChatCompletionMessageToolCall, 'function'> & {
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
export type ParsedChatCompletionMessage<ParsedT = null, ToolCall = ParsedFunctionToolCall> = Omit<ChatCompletionMessage, 'tool_calls'> & {
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
export type ParsedChoice<ParsedT = null, ToolCall = ParsedFunctionToolCall> = Omit<ChatCompletionChoice, 'message'> & {
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
export type ParsedChatCompletion<ParsedT = null, ToolCall = ParsedFunctionToolCall> = Omit<ChatCompletion, 'choices'> & {
  choices: ParsedChoice<ParsedT, ToolCall>[];
};

/**
 * The type of `message.parsed` for a `response_format`.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type ParsedOutputOf } from 'model-inference-sdk';
 * import { zodResponseFormat } from 'model-inference-sdk/helpers/zod';
 *
 * const format = zodResponseFormat(z.object({ city: z.string() }), 'city');
 * type City = ParsedOutputOf<typeof format>; // { city: string }
 * type Untyped = ParsedOutputOf<{ type: 'json_object' }>; // unknown
 * type NoFormat = ParsedOutputOf<undefined>; // null
 * ```
 */
export type ParsedOutputOf<Format> =
  Format extends AutoParseableResponseFormat<infer T>
    ? T
    : Format extends ResponseFormatJSONSchema | ResponseFormatJSONObject
      ? unknown
      : null;

/**
 * The type of a parsed tool call for a `tools` list: one member per tool made by `zodFunction()`.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type ParsedToolCallOf } from 'model-inference-sdk';
 * import { zodFunction } from 'model-inference-sdk/helpers/zod';
 *
 * const tools = [
 *   zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }) }),
 *   zodFunction({ name: 'get_time', parameters: z.object({ zone: z.string() }) }),
 * ];
 * function target(call: ParsedToolCallOf<typeof tools>): string {
 *   return call.function.name === 'get_weather' ? call.function.parsed_arguments.city : call.function.parsed_arguments.zone; // narrowed by name
 * }
 * ```
 */
export type ParsedToolCallOf<Tools> = Tools extends readonly (infer Tool)[] ? ToolCallFor<Tool> : ParsedFunctionToolCall;
type ToolCallFor<Tool> = Tool extends AutoParseableTool<infer Name, infer Args> ? ParsedFunctionToolCall<Name, Args> : ParsedFunctionToolCall;

/**
 * `parse()`'s result for a request body.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type ChatCompletionMessageParam, type ParsedChatCompletionFor } from 'model-inference-sdk';
 * import { zodResponseFormat } from 'model-inference-sdk/helpers/zod';
 *
 * const body = {
 *   model: 'acme/chat-1',
 *   messages: [{ role: 'user', content: 'Weather in Paris?' }] as ChatCompletionMessageParam[],
 *   response_format: zodResponseFormat(z.object({ city: z.string(), celsius: z.number() }), 'weather'),
 * };
 * const ask = (): Promise<ParsedChatCompletionFor<typeof body>> => client.chat.completions.parse(body);
 * (await ask()).choices[0]?.message.parsed?.celsius; // number | undefined
 * ```
 */
export type ParsedChatCompletionFor<Params extends ChatCompletionCreateParams> = ParsedChatCompletion<
  ParsedOutputOf<Params['response_format']>,
  ParsedToolCallOf<Params['tools']>
>;

/** How to treat tool arguments that fail their schema: throw (`parse()`), or leave them unparsed (`runTools()` answers the model instead). */
export interface ParseSettings {
  badArguments: 'throw' | 'skip';
}

/**
 * Parse every choice of a completion. Throws `LengthFinishReasonError`,
 * `ContentFilterFinishReasonError` or `OutputParseError`.
 * @internal
 */
export async function parseChatCompletion<Params extends ChatCompletionCreateParams>(
  completion: ChatCompletion,
  params: Params,
  settings: ParseSettings = { badArguments: 'throw' },
): Promise<ParsedChatCompletionFor<Params>> {
  for (const choice of completion.choices) {
    if (choice.finish_reason === 'length') throw new LengthFinishReasonError(completion);
    if (choice.finish_reason === 'content_filter') throw new ContentFilterFinishReasonError(completion);
  }
  const choices = await Promise.all(
    completion.choices.map(async (choice) => {
      const message = choice.message;
      const parsed = await parseContent(message, params.response_format, completion);
      const toolCalls = message.tool_calls ? await Promise.all(message.tool_calls.map((call) => parseToolCall(call, params.tools, completion, settings))) : message.tool_calls;
      const out: Record<string, unknown> = { ...message, parsed };
      if (toolCalls !== undefined) out['tool_calls'] = toolCalls;
      return { ...choice, message: out };
    }),
  );
  return { ...completion, choices } as unknown as ParsedChatCompletionFor<Params>;
}

async function parseContent(message: ChatCompletionMessage, format: ChatCompletionCreateParams['response_format'], completion: ChatCompletion): Promise<unknown> {
  if (format?.type !== 'json_schema' && format?.type !== 'json_object') return null;
  if (message.refusal !== null) return null;
  const text = jsonText(message.content ?? undefined);
  if (text === undefined || text.trim() === '') return null;
  const parser = parserOf(format);
  if (parser) {
    const outcome = await parser(text);
    if (outcome.ok) return outcome.value;
    throw new OutputParseError({ reason: outcome.reason, raw: text, issues: outcome.issues, completion });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new OutputParseError({ reason: 'json', raw: text, issues: [jsonIssue(text, error)], completion });
  }
}

async function parseToolCall(
  call: ChatCompletionMessageToolCall,
  tools: ChatCompletionCreateParams['tools'],
  completion: ChatCompletion,
  settings: ParseSettings,
): Promise<unknown> {
  const raw = call.function.arguments;
  const tool = tools?.find((t) => t.function.name === call.function.name);
  const parser = parserOf(tool);
  let parsed: unknown;
  if (parser) {
    const outcome = await parser(raw);
    if (outcome.ok) parsed = outcome.value;
    else if (settings.badArguments === 'throw') {
      throw new OutputParseError({ reason: outcome.reason, raw, issues: outcome.issues, toolCall: { id: call.id, name: call.function.name }, completion });
    }
  } else {
    try {
      parsed = JSON.parse(raw.trim() === '' ? '{}' : raw);
    } catch (error) {
      // A strict tool promised valid JSON; for another tool nothing was promised.
      if (tool?.function.strict === true && settings.badArguments === 'throw') {
        throw new OutputParseError({ reason: 'json', raw, issues: [jsonIssue(raw, error)], toolCall: { id: call.id, name: call.function.name }, completion });
      }
    }
  }
  return { ...call, function: { ...call.function, parsed_arguments: parsed } };
}

/**
 * The JSON inside a reply: without a leading `<think>…</think>` block (vLLM without a reasoning
 * parser, Together and LiteLLM put reasoning inline) and without a Markdown code fence (models in
 * JSON mode sometimes fence their answer). `undefined` while a think block is still open.
 * @internal
 */
export function jsonText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let out = text.trimStart();
  if (out.startsWith('<think>')) {
    const end = out.indexOf('</think>');
    if (end < 0) return undefined;
    out = out.slice(end + '</think>'.length).trimStart();
  }
  const fence = /^```[a-zA-Z]*[ \t]*\r?\n/.exec(out);
  if (fence) {
    out = out.slice(fence[0].length);
    const close = out.lastIndexOf('```');
    if (close >= 0) out = out.slice(0, close);
  }
  return out;
}

function jsonIssue(text: string, error: unknown): { path: string; message: string; received: unknown } {
  return { path: '', message: `not valid JSON (${error instanceof Error ? error.message : String(error)})`, received: text };
}
