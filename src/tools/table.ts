/**
 * `runTools()`'s tools by name, checked once when the run starts: what is sent to the server (the
 * definition without the SDK's function and parser), the function to run, and how its arguments
 * are parsed (the tool's schema, its own `parse`, or `JSON.parse`).
 */
import { InferenceError } from '../errors/api';
import type { ChatCompletionTool } from '../generated/types.gen';
import { parserOf, RUN, type RunnableZodTool, type ToolFunction } from '../schema/parsers';

/**
 * A tool `runTools()` can run without a schema library: a plain function tool with its
 * `function` (and optionally `parse`, which turns the arguments' JSON text into `Args` and
 * throws when they are wrong; without it the arguments are `JSON.parse`d). Without a `name`, the
 * function's own name is sent (as the official client does; a minifier may rename functions, so
 * give `name` in code that is minified).
 *
 * @example
 * ```ts
 * import type { RunnableFunctionTool } from 'model-inference-sdk';
 *
 * const add: RunnableFunctionTool<{ a: number; b: number }> = {
 *   type: 'function',
 *   function: {
 *     name: 'add',
 *     parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
 *     function: ({ a, b }) => a + b,
 *   },
 * };
 * const runner = client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools: [add] });
 * ```
 */
export interface RunnableFunctionTool<Args = unknown> {
  type: 'function';
  function: Omit<ChatCompletionTool['function'], 'name'> & {
    /** Sent to the model; the function's own name (`function.name`) when left out. */
    name?: string | undefined;
    function: ToolFunction<Args>;
    /** Turns the arguments' JSON text into `Args`; throws when they are wrong. */
    parse?: ((text: string) => Args | Promise<Args>) | undefined;
  };
}

/**
 * The official client's name for a runnable function with a `parse`: its function gets what
 * `parse` returns. (Its second argument here is the `ToolContext`, not the runner.)
 *
 * @example
 * ```ts
 * import type { RunnableFunctionWithParse } from 'model-inference-sdk';
 *
 * const getWeather: RunnableFunctionWithParse<{ city: string }> = {
 *   function: async function get_weather({ city }) { return { city, celsius: 21 }; },
 *   parse: JSON.parse,
 *   description: 'Current weather in a city.',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 * };
 * const runner = client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools: [{ type: 'function', function: getWeather }] });
 * ```
 */
export type RunnableFunctionWithParse<Args extends object> =
  RunnableFunctionTool<Args>['function'] & {
    /** Turns the arguments' JSON text into `Args` (what `function` gets); throws when they are wrong. */
    parse: (text: string) => Args | Promise<Args>;
  };

/**
 * The official client's name for a runnable function without `parse`. Here its function gets the
 * arguments JSON-parsed (the official client passes their JSON text).
 *
 * @example
 * ```ts
 * import type { RunnableFunctionWithoutParse } from 'model-inference-sdk';
 *
 * const now: RunnableFunctionWithoutParse = { name: 'now', parameters: { type: 'object', properties: {} }, function: () => new Date().toISOString() };
 * const runner = client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools: [{ type: 'function', function: now }] });
 * ```
 */
// `any`: the arguments as the model wrote them, JSON-parsed but not checked (openai types them as the text).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RunnableFunctionWithoutParse = Omit<RunnableFunctionTool<any>['function'], 'parse'> & {
  parse?: undefined;
};

/**
 * The official client's name for a runnable function: with `parse` for object arguments, without for `string`.
 *
 * @example
 * ```ts
 * import type { RunnableFunction } from 'model-inference-sdk';
 *
 * const shout: RunnableFunction<{ text: string }> = {
 *   name: 'shout',
 *   parse: JSON.parse,
 *   parameters: { type: 'object', properties: { text: { type: 'string' } } },
 *   function: ({ text }) => text.toUpperCase(),
 * };
 * ```
 */
export type RunnableFunction<Args extends object | string> = Args extends string
  ? RunnableFunctionWithoutParse
  : Args extends object
    ? RunnableFunctionWithParse<Args>
    : never;

/**
 * The official client's name for a tool of a {@link RunnableFunctionWithParse}.
 *
 * @example
 * ```ts
 * import type { RunnableToolFunctionWithParse } from 'model-inference-sdk';
 *
 * const tool: RunnableToolFunctionWithParse<{ city: string }> = {
 *   type: 'function',
 *   function: { name: 'get_weather', parse: JSON.parse, parameters: { type: 'object' }, function: ({ city }) => `Sunny in ${city}` },
 * };
 * ```
 */
export interface RunnableToolFunctionWithParse<Args extends object> {
  type: 'function';
  function: RunnableFunctionWithParse<Args>;
}

/**
 * The official client's name for a tool of a {@link RunnableFunctionWithoutParse}.
 *
 * @example
 * ```ts
 * import type { RunnableToolFunctionWithoutParse } from 'model-inference-sdk';
 *
 * const tool: RunnableToolFunctionWithoutParse = { type: 'function', function: { name: 'now', parameters: { type: 'object' }, function: () => Date.now() } };
 * ```
 */
export interface RunnableToolFunctionWithoutParse {
  type: 'function';
  function: RunnableFunctionWithoutParse;
}

/**
 * The official client's name for a runnable function tool: with `parse` for object arguments.
 *
 * @example
 * ```ts
 * import type { RunnableToolFunction } from 'model-inference-sdk';
 *
 * const tools: RunnableToolFunction<{ city: string }>[] = [
 *   { type: 'function', function: { name: 'get_weather', parse: JSON.parse, parameters: { type: 'object' }, function: ({ city }) => `Sunny in ${city}` } },
 * ];
 * const runner = client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools });
 * ```
 */
export type RunnableToolFunction<Args extends object | string> = Args extends string
  ? RunnableToolFunctionWithoutParse
  : Args extends object
    ? RunnableToolFunctionWithParse<Args>
    : never;

/**
 * The official client's name for a list of runnable tools, one argument type each.
 *
 * @example
 * ```ts
 * import type { RunnableTools } from 'model-inference-sdk';
 *
 * const tools: RunnableTools<[{ city: string }, string]> = [
 *   { type: 'function', function: { name: 'get_weather', parse: JSON.parse, parameters: { type: 'object' }, function: ({ city }) => city } },
 *   { type: 'function', function: { name: 'now', parameters: { type: 'object' }, function: () => Date.now() } },
 * ];
 * ```
 */
export type RunnableTools<FunctionsArgs extends readonly (object | string)[]> = {
  [Index in keyof FunctionsArgs]: RunnableToolFunction<FunctionsArgs[Index]>;
};

/**
 * A tool `runTools()` can run.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type RunnableTool } from 'model-inference-sdk';
 * import { zodFunction } from 'model-inference-sdk/helpers/zod';
 *
 * const tools: RunnableTool[] = [
 *   zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }), function: ({ city }) => `Sunny in ${city}` }),
 *   { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} }, function: () => new Date().toISOString() } },
 * ];
 * const runner = client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools });
 * ```
 */
// `any` for the arguments: each tool checks its own, and a list mixes tools of different argument types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RunnableTool = RunnableZodTool<string, any> | RunnableFunctionTool<any>;

/** A tool, with what it takes to run it. @internal */
export interface ToolEntry {
  /** As sent to the server: without the SDK's function and parser. */
  definition: ChatCompletionTool;
  run: ToolFunction<unknown>;
  parse: (text: string) => Promise<{ ok: true; value: unknown } | { ok: false; message: string }>;
}

export function checkTools(tools: unknown): Map<string, ToolEntry> {
  if (!Array.isArray(tools) || tools.length === 0) {
    throw new InferenceError(
      'chat.completions.runTools: `tools` must be a non-empty array of tools with functions (zodFunction({ name, parameters, function }) or { type: "function", function: { name, parameters, function } }).',
    );
  }
  const byName = new Map<string, ToolEntry>();
  for (const tool of tools as RunnableTool[]) {
    const fn = tool?.function as RunnableFunctionTool['function'] | undefined;
    // Without a name, the JavaScript function's own (as the official client takes it).
    const name = fn?.name || (typeof fn?.function === 'function' ? fn.function.name : undefined);
    if (typeof name !== 'string' || name === '') {
      throw new InferenceError(
        'chat.completions.runTools: every tool needs a `function.name` (or a named `function.function`).',
      );
    }
    if (byName.has(name))
      throw new InferenceError(
        `chat.completions.runTools: two tools are named ${JSON.stringify(name)}.`,
      );
    byName.set(name, toolEntry(tool, name));
  }
  return byName;
}

function toolEntry(tool: RunnableTool, name: string): ToolEntry {
  const parser = parserOf<unknown>(tool);
  const zodRun = (tool as { [RUN]?: unknown })[RUN];
  if (parser) {
    if (typeof zodRun !== 'function') {
      throw new InferenceError(
        `chat.completions.runTools: tool ${JSON.stringify(name)} has no function to run; pass \`function\` to zodFunction().`,
      );
    }
    const { type, function: fn } = tool;
    return {
      definition: { type, function: fn as ChatCompletionTool['function'] },
      run: zodRun as ToolFunction<unknown>,
      parse: async (text) => {
        const outcome = await parser(text);
        return outcome.ok
          ? outcome
          : {
              ok: false,
              message: outcome.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; '),
            };
      },
    };
  }
  const { function: run, parse, ...definition } = (tool as RunnableFunctionTool).function;
  if (typeof run !== 'function') {
    throw new InferenceError(
      `chat.completions.runTools: tool ${JSON.stringify(name)} has no function to run; give it \`function: { name, parameters, function: (args) => … }\`.`,
    );
  }
  if (parse !== undefined && typeof parse !== 'function')
    throw new InferenceError(
      `chat.completions.runTools: tool ${JSON.stringify(name)}: \`parse\` must be a function.`,
    );
  return {
    definition: { type: 'function', function: { ...definition, name } },
    run,
    parse: async (text) => {
      try {
        return {
          ok: true,
          value: parse ? await parse(text) : JSON.parse(text.trim() === '' ? '{}' : text),
        };
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
