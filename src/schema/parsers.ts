/**
 * The hooks `zodResponseFormat()` and `zodFunction()` attach to what they return, and the types
 * that carry them. Kept apart from the helpers so that `parse()` and `runTools()` can find a
 * parser without bundling the JSON Schema conversion an app may never use.
 */
import type { ValidationIssue } from '../errors/validation';
import type { ChatCompletionTool, ResponseFormatJSONSchema } from '../generated/types.gen';

/**
 * Key of the parser a helper attaches to a response format or a tool. `Symbol.for`, so that
 * the ESM and CommonJS copies of the SDK in one app recognise each other's helpers.
 * @internal
 */
export const PARSER: unique symbol = Symbol.for('model-inference-sdk.parser') as never;
/** Key of a tool's function, for `runTools()`. @internal */
export const RUN: unique symbol = Symbol.for('model-inference-sdk.run') as never;

/** What a model's JSON text became: the validated value, or why it could not. */
export type ParseOutcome<T> =
  { ok: true; value: T } | { ok: false; reason: 'json' | 'schema'; issues: ValidationIssue[] };

/**
 * JSON text → validated value: at once when the schema validates synchronously (zod, without async
 * refinements), so that a stream's events can carry it; a promise otherwise. @internal
 */
export type JSONTextParser<T> = (text: string) => ParseOutcome<T> | Promise<ParseOutcome<T>>;

/**
 * A `json_schema` response format that also knows how to parse and validate the reply, made by
 * `zodResponseFormat()`. Send it as `response_format`; `parse()` then types `message.parsed`
 * as `T`.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type AutoParseableResponseFormat } from 'model-inference-sdk';
 * import { zodResponseFormat } from 'model-inference-sdk/helpers/zod';
 *
 * const Weather = z.object({ city: z.string(), celsius: z.number() });
 * const format: AutoParseableResponseFormat<z.infer<typeof Weather>> = zodResponseFormat(Weather, 'weather');
 * console.log(format.json_schema.name, format.json_schema.strict); // 'weather' true
 * const completion = await client.chat.completions.parse({ model: 'acme/chat-1', messages, response_format: format });
 * completion.choices[0]?.message.parsed; // { city: string; celsius: number } | null
 * ```
 */
export interface AutoParseableResponseFormat<T> extends ResponseFormatJSONSchema {
  /** @internal */
  readonly [PARSER]: JSONTextParser<T>;
}

/**
 * What a tool's function receives besides its arguments.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type ToolContext } from 'model-inference-sdk';
 * import { zodFunction } from 'model-inference-sdk/helpers/zod';
 *
 * async function weather({ city }: { city: string }, { signal, toolCall }: ToolContext): Promise<unknown> {
 *   console.log('answering', toolCall.id);
 *   const response = await fetch(`https://weather.example.com/${encodeURIComponent(city)}`, { signal });
 *   return response.json();
 * }
 * const getWeather = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }), function: weather });
 * ```
 */
export interface ToolContext {
  /** Aborts when the run is aborted (or another tool of the same round failed). */
  signal: AbortSignal;
  /** The tool call being answered, as the model sent it. */
  toolCall: { id: string; function: { name: string; arguments?: string } };
}

/**
 * A tool function: validated arguments in, anything out (strings are sent as they are, other values as JSON).
 * Its third argument is the `toolContext` of `runTools()`'s body (`undefined` without one), as in
 * the official client, where it is the third too.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type ToolFunction } from 'model-inference-sdk';
 * import { zodFunction } from 'model-inference-sdk/helpers/zod';
 *
 * const add: ToolFunction<{ a: number; b: number }> = ({ a, b }) => ({ sum: a + b }); // sent back as JSON
 * const addTool = zodFunction({ name: 'add', parameters: z.object({ a: z.number(), b: z.number() }), function: add });
 * ```
 */
// `any` for the third: the body's `toolContext`, whatever the caller passed (openai types it by a parameter of the run).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolFunction<Args> = (args: Args, context: ToolContext, toolContext: any) => unknown;

/**
 * A function tool that knows how to parse and validate its arguments, made by
 * `zodFunction()`. `parse()` types `tool_calls[i].function.parsed_arguments` as `Args`;
 * with a `function`, `runTools()` can call it.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type AutoParseableTool } from 'model-inference-sdk';
 * import { zodFunction } from 'model-inference-sdk/helpers/zod';
 *
 * const getWeather: AutoParseableTool<'get_weather', { city: string }> = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }) });
 * const completion = await client.chat.completions.parse({ model: 'acme/chat-1', messages, tools: [getWeather] });
 * for (const call of completion.choices[0]?.message.tool_calls ?? []) console.log(call.function.parsed_arguments.city);
 * ```
 */
export interface AutoParseableTool<
  Name extends string = string,
  Args = unknown,
> extends ChatCompletionTool {
  function: ChatCompletionTool['function'] & { name: Name };
  /** @internal */
  readonly [PARSER]: JSONTextParser<Args>;
  /** @internal */
  readonly [RUN]?: ToolFunction<Args> | undefined;
}

/**
 * A tool made by `zodFunction({ ..., function })`: its arguments are validated before it runs.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type RunnableZodTool } from 'model-inference-sdk';
 * import { zodFunction } from 'model-inference-sdk/helpers/zod';
 *
 * const getWeather: RunnableZodTool<'get_weather', { city: string }> = zodFunction({
 *   name: 'get_weather',
 *   parameters: z.object({ city: z.string() }),
 *   function: ({ city }) => `Sunny in ${city}`,
 * });
 * const runner = client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools: [getWeather] });
 * ```
 */
export interface RunnableZodTool<
  Name extends string = string,
  Args = unknown,
> extends AutoParseableTool<Name, Args> {
  /** @internal */
  readonly [RUN]: ToolFunction<Args>;
}

/** Whether a response format or tool was made by one of the helpers above. @internal */
export function parserOf<T>(value: unknown): JSONTextParser<T> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const parser = (value as { [PARSER]?: unknown })[PARSER];
  return typeof parser === 'function' ? (parser as JSONTextParser<T>) : undefined;
}
