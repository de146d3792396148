/**
 * `chat.completions.parse()`: a completion → the same completion with `message.parsed` (the
 * structured output, validated and typed from the `response_format`), `parsed_arguments` on each
 * tool call (validated and typed from its tool). The finish reasons that make an output unusable (`length`, `content_filter`) and
 * output that is not what the schema says become typed errors.
 */
import { APIConnectionTimeoutError, APIUserAbortError, type RequestTarget } from '../errors/api';
import { bounded, type Wait } from '../util/wait';
import {
  ContentFilterFinishReasonError,
  LengthFinishReasonError,
  OutputParseError,
} from '../errors/output';
import type {
  ChatCompletion,
  ChatCompletionCreateParams,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
  ResponseFormatJSONObject,
  ResponseFormatJSONSchema,
} from '../generated/types.gen';
import type { ParsedChatCompletion, ParsedFunctionToolCall } from '../stream/parsed';
import {
  parserOf,
  type AutoParseableResponseFormat,
  type AutoParseableTool,
} from '../schema/parsers';

export type {
  ParsedChatCompletion,
  ParsedChatCompletionMessage,
  ParsedChoice,
  ParsedFunctionToolCall,
} from '../stream/parsed';

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
export type ParsedToolCallOf<Tools> = Tools extends readonly (infer Tool)[]
  ? ToolCallFor<Tool>
  : ParsedFunctionToolCall;
type ToolCallFor<Tool> =
  Tool extends AutoParseableTool<infer Name, infer Args>
    ? ParsedFunctionToolCall<Name, Args>
    : ParsedFunctionToolCall;

/**
 * The type of `message.parsed` for `chat.completions.stream()`: the schema's output type for a
 * `zodResponseFormat()` format, `null` for any other (`stream()` parses as the official client's
 * does: only what carries a schema).
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type StreamedOutputOf } from 'model-inference-sdk';
 * import { zodResponseFormat } from 'model-inference-sdk/helpers/zod';
 *
 * const format = zodResponseFormat(z.object({ city: z.string() }), 'city');
 * type City = StreamedOutputOf<typeof format>; // { city: string }
 * type Untyped = StreamedOutputOf<{ type: 'json_object' }>; // null: stream() leaves it unparsed
 * ```
 */
export type StreamedOutputOf<Format> =
  Format extends AutoParseableResponseFormat<infer T> ? T : null;

/**
 * The type of a tool call in the final message of `chat.completions.stream()`: parsed and typed
 * for a tool made by `zodFunction()`, as the server sent it for another (as the official client's
 * `stream()` types them).
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type StreamedToolCallOf } from 'model-inference-sdk';
 * import { zodFunction } from 'model-inference-sdk/helpers/zod';
 *
 * const tools = [zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }) })];
 * function city(call: StreamedToolCallOf<typeof tools>): string {
 *   return call.function.parsed_arguments.city;
 * }
 * const message = await client.chat.completions.stream({ model: 'acme/chat-1', messages, tools }).finalMessage();
 * for (const call of message.tool_calls ?? []) console.log(city(call));
 * ```
 */
export type StreamedToolCallOf<Tools> = Tools extends readonly (infer Tool)[]
  ? StreamedToolCallFor<Tool>
  : ChatCompletionMessageToolCall;
type StreamedToolCallFor<Tool> =
  Tool extends AutoParseableTool<infer Name, infer Args>
    ? ParsedFunctionToolCall<Name, Args>
    : ChatCompletionMessageToolCall;

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
export type ParsedChatCompletionFor<Params extends ChatCompletionCreateParams> =
  ParsedChatCompletion<
    ParsedOutputOf<Params['response_format']>,
    ParsedToolCallOf<Params['tools']>
  >;

/** How to treat tool arguments that fail their schema: throw (`parse()`), or leave them unparsed (`runTools()` answers the model instead). */
export interface ParseSettings {
  badArguments: 'throw' | 'skip';
  /** Bounds one tool call's asynchronous argument validation (`runTools()`: its `toolTimeout`). */
  boundArguments?: (parsing: Promise<unknown>, tool: string) => Promise<unknown>;
}

/** A value, or the promise of one: what a parser gives when its schema may validate asynchronously. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Parse every choice of a completion. Throws `LengthFinishReasonError`,
 * `ContentFilterFinishReasonError` or `OutputParseError`. Synchronous when every schema involved
 * validates synchronously (a stream's events need the value at once); a promise otherwise.
 * @internal
 */
export function parseChatCompletion<Params extends ChatCompletionCreateParams>(
  completion: ChatCompletion,
  params: Params,
  settings: ParseSettings = { badArguments: 'throw' },
): MaybePromise<ParsedChatCompletionFor<Params>> {
  for (const choice of completion.choices) {
    if (choice.finish_reason === 'length') throw new LengthFinishReasonError(completion);
    if (choice.finish_reason === 'content_filter')
      throw new ContentFilterFinishReasonError(completion);
  }
  const choices = completion.choices.map((choice) => {
    const message = choice.message;
    const calls = message.tool_calls;
    const parts = [
      parseContent(message, params.response_format, completion),
      ...(calls ?? []).map((call) => parseToolCall(call, params.tools, completion, settings)),
    ];
    return andThen(all(parts), ([parsed, ...toolCalls]) => {
      const out: Record<string, unknown> = { ...message, parsed };
      if (calls !== undefined) out['tool_calls'] = toolCalls;
      return { ...choice, message: out };
    });
  });
  return andThen(
    all(choices),
    (parsed) => ({ ...completion, choices: parsed }) as unknown as ParsedChatCompletionFor<Params>,
  );
}

/**
 * The structured output of one message (`parsed`): validated by the format's parser, JSON-parsed
 * for another JSON format, `null` without one, for a refusal or for no content. @internal
 */
export function parseContent(
  message: Pick<ChatCompletionMessage, 'content' | 'refusal'>,
  format: ChatCompletionCreateParams['response_format'],
  completion: ChatCompletion,
): MaybePromise<unknown> {
  if (format?.type !== 'json_schema' && format?.type !== 'json_object') return null;
  if (message.refusal !== null) return null;
  const text = jsonText(message.content ?? undefined);
  if (text === undefined || text.trim() === '') return null;
  const fail = (reason: 'json' | 'schema', issues: OutputParseIssues) =>
    new OutputParseError({ reason, raw: text, issues, completion });
  const parser = parserOf(format);
  if (parser) {
    return andThen(parser(text), (outcome) => {
      if (outcome.ok) return outcome.value;
      throw fail(outcome.reason, outcome.issues);
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fail('json', [jsonIssue(text, error)]);
  }
}

function parseToolCall(
  call: ChatCompletionMessageToolCall,
  tools: ChatCompletionCreateParams['tools'],
  completion: ChatCompletion,
  settings: ParseSettings,
): MaybePromise<unknown> {
  const raw = call.function.arguments;
  const fail = (reason: 'json' | 'schema', issues: OutputParseIssues) =>
    new OutputParseError({
      reason,
      raw,
      issues,
      toolCall: { id: call.id, name: call.function.name },
      completion,
    });
  const done = (parsed: unknown) => ({
    ...call,
    function: { ...call.function, parsed_arguments: parsed },
  });
  const tool = tools?.find((t) => t.function.name === call.function.name);
  const parser = parserOf(tool);
  if (parser) {
    const parsing = parser(raw);
    const bounded =
      parsing instanceof Promise && settings.boundArguments
        ? (settings.boundArguments(parsing, call.function.name) as typeof parsing)
        : parsing;
    return andThen(bounded, (outcome) => {
      if (outcome.ok) return done(outcome.value);
      if (settings.badArguments === 'throw') throw fail(outcome.reason, outcome.issues);
      return done(undefined);
    });
  }
  try {
    return done(JSON.parse(raw.trim() === '' ? '{}' : raw));
  } catch (error) {
    // A strict tool promised valid JSON; for another tool nothing was promised.
    if (tool?.function.strict === true && settings.badArguments === 'throw')
      throw fail('json', [jsonIssue(raw, error)]);
    return done(undefined);
  }
}

type OutputParseIssues = ConstructorParameters<typeof OutputParseError>[0]['issues'];

/**
 * A parsing as a promise, bounded when it waits on a schema that validates asynchronously: past
 * the call's `timeout` an `APIConnectionTimeoutError`, after its `signal` an `APIUserAbortError`
 * (the schema is left to settle, its outcome ignored). No timer or listener is left behind.
 * @internal
 */
export async function settleParsing<T>(
  parsing: MaybePromise<T>,
  wait: Wait,
  target: RequestTarget,
): Promise<T> {
  if (!(parsing instanceof Promise)) return parsing;
  const outcome = await bounded(
    parsing,
    [wait.signal],
    wait.timeout,
    () => new APIUserAbortError(target, wait.signal!.reason),
    () =>
      new APIConnectionTimeoutError(target, wait.timeout, {
        hook: 'schema validating the reply',
        option: 'timeout',
      }),
  );
  return outcome!.value; // never undefined: the timeout rejects
}

/** `f(value)`: at once for a value, once it resolves for a promise (not named `then`: a module exporting `then` is a thenable to `import()`). @internal */
export function andThen<T, R>(
  value: MaybePromise<T>,
  f: (value: T) => R,
): MaybePromise<Awaited<R>> {
  return (value instanceof Promise ? value.then(f) : f(value)) as MaybePromise<Awaited<R>>;
}

/** `Promise.all`, without a promise when none of the values is one. */
function all<T>(values: MaybePromise<T>[]): MaybePromise<T[]> {
  return values.some((v) => v instanceof Promise) ? Promise.all(values) : (values as T[]);
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

function jsonIssue(
  text: string,
  error: unknown,
): { path: string; message: string; received: unknown } {
  return {
    path: '',
    message: `not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    received: text,
  };
}
