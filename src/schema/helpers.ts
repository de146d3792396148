/**
 * `zodResponseFormat()` and `zodFunction()`: a schema → the request part that describes it
 * (strict JSON Schema), carrying a parser for what the model sends back. The parser travels
 * under a symbol key, which `JSON.stringify` leaves out, so the request body stays as the server
 * expects it. Standalone functions: an app that never calls them does not bundle them.
 */
import { InferenceError } from '../errors/api';
import type { ResponseFormatJSONSchema } from '../generated/types.gen';
import {
  PARSER,
  RUN,
  type AutoParseableResponseFormat,
  type AutoParseableTool,
  type JSONTextParser,
  type ParseOutcome,
  type RunnableZodTool,
  type ToolFunction,
} from './parsers';
import { restoreOptional, toStrictJSONSchema } from './strict';
import {
  toJSONSchema,
  validateWith,
  type Checked,
  type InferOutput,
  type JSONSchema,
  type StandardSchema,
} from './standard';

/**
 * What `zodFunction()` takes.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type ZodFunctionOptions } from 'model-inference-sdk';
 * import { zodFunction } from 'model-inference-sdk/helpers/zod';
 *
 * const Args = z.object({ city: z.string() });
 * const options: ZodFunctionOptions<'get_weather', typeof Args> = { name: 'get_weather', description: 'Current weather in a city', parameters: Args };
 * const getWeather = zodFunction(options); // for parse(); add `function` for runTools()
 * ```
 */
export interface ZodFunctionOptions<Name extends string, S extends StandardSchema> {
  /** The function's name (letters, digits, `_`, `-`; up to 64). */
  name: Name;
  /** The schema of its arguments (an object schema). */
  parameters: S;
  /** What it does, for the model. */
  description?: string;
  /** What `runTools()` calls with the validated arguments. */
  function?: ToolFunction<InferOutput<S>>;
  /** Default `true`: strict JSON Schema and `strict: true` on the tool. */
  strict?: boolean;
  /** zod schemas to send once, under these names, as `definitions`, with a `$ref` wherever used (see {@link zodResponseFormat}). */
  schemaDefinitions?: Record<string, StandardSchema>;
}

/** Letters, digits, `_` and `-`, up to 64 characters: what OpenAI and most servers accept. */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A `response_format` for structured outputs from a zod 4 schema (classic or mini) or any
 * Standard JSON Schema, an object or a function (ArkType's types are callable). The JSON Schema
 * sent is strict: every property required, `additionalProperties: false`, optional properties
 * nullable (a `null` the model writes for one is removed again before validation). Use it with
 * `client.chat.completions.parse()`.
 *
 * @param name the format's name (letters, digits, `_`, `-`; up to 64).
 * @param options `description` for the model; `strict: false` to send the schema as it is;
 *   `schemaDefinitions`, zod schemas to send once under these names in the root's `definitions`,
 *   with a `$ref` wherever they are used, as the official client's option of that name does.
 * @throws InferenceError for a zod 3 schema (upgrade to zod 4, or pass JSON Schema yourself), a schema without JSON Schema, or `schemaDefinitions` that are not zod 4 schemas.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type } from 'arktype';
 * import { zodResponseFormat } from 'model-inference-sdk/helpers/zod';
 *
 * const Weather = z.object({ city: z.string(), celsius: z.number(), note: z.string().optional() });
 * const completion = await client.chat.completions.parse({
 *   model: 'acme/chat-1',
 *   messages: [{ role: 'user', content: 'Weather in Paris?' }],
 *   response_format: zodResponseFormat(Weather, 'weather'),
 * });
 * const weather = completion.choices[0]?.message.parsed; // { city: string; celsius: number; note?: string } | null
 *
 * // Any Standard JSON Schema works the same, e.g. an ArkType type (a function):
 * const report = zodResponseFormat(type({ city: 'string', celsius: 'number' }), 'report');
 *
 * // A schema used in several places, sent once as `definitions.Place` and referred to:
 * const Place = z.object({ city: z.string(), country: z.string() });
 * const trip = zodResponseFormat(z.object({ from: Place, to: Place }), 'trip', { schemaDefinitions: { Place } });
 * ```
 */
export function zodResponseFormat<S extends StandardSchema>(
  schema: S,
  name: string,
  options: {
    description?: string;
    strict?: boolean;
    schemaDefinitions?: Record<string, StandardSchema>;
  } = {},
): AutoParseableResponseFormat<InferOutput<S>> {
  const where = `zodResponseFormat(schema, ${JSON.stringify(name)})`;
  checkName(name, where);
  const source = toJSONSchema(schema, where, options.schemaDefinitions);
  const strict = options.strict ?? true;
  const json_schema: ResponseFormatJSONSchema['json_schema'] = {
    name,
    schema: strict ? toStrictJSONSchema(source) : withoutDialect(source),
    strict,
  };
  if (options.description !== undefined) json_schema.description = options.description;
  const format = { type: 'json_schema' as const, json_schema };
  return Object.defineProperty(format, PARSER, {
    value: textParser(schema, source, strict, false),
    enumerable: false,
  }) as AutoParseableResponseFormat<InferOutput<S>>;
}

/**
 * A function tool from a zod 4 schema (classic or mini) or any Standard JSON Schema (ArkType
 * types included) for its arguments, sent with `strict: true` and a strict JSON Schema (see
 * {@link zodResponseFormat}).
 * With `function`, `client.chat.completions.runTools()` calls it with the validated arguments.
 *
 * @throws InferenceError for a zod 3 schema, a schema without JSON Schema, or an invalid name.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { zodFunction } from 'model-inference-sdk/helpers/zod';
 *
 * const getWeather = zodFunction({
 *   name: 'get_weather',
 *   description: 'Current weather in a city',
 *   parameters: z.object({ city: z.string() }),
 *   function: async ({ city }) => ({ city, celsius: 21 }),
 * });
 * const runner = client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools: [getWeather] });
 * console.log(await runner.finalContent());
 * ```
 */
export function zodFunction<const Name extends string, S extends StandardSchema>(
  options: ZodFunctionOptions<Name, S> & { function: ToolFunction<InferOutput<S>> },
): RunnableZodTool<Name, InferOutput<S>>;
export function zodFunction<const Name extends string, S extends StandardSchema>(
  options: ZodFunctionOptions<Name, S>,
): AutoParseableTool<Name, InferOutput<S>>;
export function zodFunction<const Name extends string, S extends StandardSchema>(
  options: ZodFunctionOptions<Name, S>,
): AutoParseableTool<Name, InferOutput<S>> {
  const where = `zodFunction({ name: ${JSON.stringify(options.name)} })`;
  checkName(options.name, where);
  const source = toJSONSchema(options.parameters, where, options.schemaDefinitions);
  const strict = options.strict ?? true;
  const fn: AutoParseableTool<Name>['function'] = {
    name: options.name,
    parameters: strict ? toStrictJSONSchema(source) : withoutDialect(source),
    strict,
  };
  if (options.description !== undefined) fn.description = options.description;
  const tool = { type: 'function' as const, function: fn };
  Object.defineProperty(tool, PARSER, {
    value: textParser(options.parameters, source, strict, true),
    enumerable: false,
  });
  if (options.function !== undefined) {
    if (typeof options.function !== 'function')
      throw new InferenceError(`${where}: \`function\` must be a function.`);
    Object.defineProperty(tool, RUN, { value: options.function, enumerable: false });
  }
  return tool as AutoParseableTool<Name, InferOutput<S>>;
}

/**
 * JSON text → `JSON.parse` → strict-mode `null`s removed → the schema's own validation. With
 * `emptyIsObject` (tool arguments), empty text counts as `{}`: OpenRouter and Anthropic compat
 * leave `arguments` out for a call without parameters.
 */
function textParser<T>(
  schema: StandardSchema<unknown, T>,
  source: JSONSchema,
  strict: boolean,
  emptyIsObject: boolean,
): JSONTextParser<T> {
  const outcome = (checked: Checked<T>): ParseOutcome<T> =>
    checked.ok ? checked : { ok: false, reason: 'schema', issues: checked.issues };
  return (text) => {
    let value: unknown;
    try {
      value = JSON.parse(emptyIsObject && text.trim() === '' ? '{}' : text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        reason: 'json',
        issues: [{ path: '', message: `not valid JSON (${reason})`, received: text }],
      };
    }
    const checked = validateWith(schema, strict ? restoreOptional(value, source) : value);
    return checked instanceof Promise ? checked.then(outcome) : outcome(checked);
  };
}

function withoutDialect(schema: JSONSchema): JSONSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function checkName(name: unknown, where: string): void {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new InferenceError(
      `${where}: the name must be 1 to 64 letters, digits, \`_\` or \`-\`, got ${JSON.stringify(name)}.`,
    );
  }
}
