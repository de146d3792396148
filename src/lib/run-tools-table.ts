/**
 * `runTools()`'s tools by name, checked once when the run starts: what is sent to the server (the
 * definition without the SDK's function and parser), the function to run, and how its arguments
 * are parsed (the tool's schema, its own `parse`, or `JSON.parse`).
 */
import { InferenceError } from '../errors';
import type { ChatCompletionTool } from '../generated/types.gen';
import { parserOf, RUN, type RunnableZodTool, type ToolFunction } from './schema-hooks';

/**
 * A tool `runTools()` can run without a schema library: a plain function tool with its
 * `function` (and optionally `parse`, which turns the arguments' JSON text into `Args` and
 * throws when they are wrong; without it the arguments are `JSON.parse`d).
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
  function: ChatCompletionTool['function'] & {
    function: ToolFunction<Args>;
    /** Turns the arguments' JSON text into `Args`; throws when they are wrong. */
    parse?: (text: string) => Args | Promise<Args>;
  };
}

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
    throw new InferenceError('chat.completions.runTools: `tools` must be a non-empty array of tools with functions (zodFunction({ name, parameters, function }) or { type: "function", function: { name, parameters, function } }).');
  }
  const byName = new Map<string, ToolEntry>();
  for (const tool of tools as RunnableTool[]) {
    const name = tool?.function?.name;
    if (typeof name !== 'string' || name === '') throw new InferenceError('chat.completions.runTools: every tool needs a `function.name`.');
    if (byName.has(name)) throw new InferenceError(`chat.completions.runTools: two tools are named ${JSON.stringify(name)}.`);
    byName.set(name, toolEntry(tool, name));
  }
  return byName;
}

function toolEntry(tool: RunnableTool, name: string): ToolEntry {
  const parser = parserOf<unknown>(tool);
  const zodRun = (tool as { [RUN]?: unknown })[RUN];
  if (parser) {
    if (typeof zodRun !== 'function') {
      throw new InferenceError(`chat.completions.runTools: tool ${JSON.stringify(name)} has no function to run; pass \`function\` to zodFunction().`);
    }
    const { type, function: fn } = tool;
    return {
      definition: { type, function: fn },
      run: zodRun as ToolFunction<unknown>,
      parse: async (text) => {
        const outcome = await parser(text);
        return outcome.ok ? outcome : { ok: false, message: outcome.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ') };
      },
    };
  }
  const { function: run, parse, ...definition } = (tool as RunnableFunctionTool).function;
  if (typeof run !== 'function') {
    throw new InferenceError(`chat.completions.runTools: tool ${JSON.stringify(name)} has no function to run; give it \`function: { name, parameters, function: (args) => … }\`.`);
  }
  return {
    definition: { type: 'function', function: definition },
    run,
    parse: async (text) => {
      try {
        return { ok: true, value: parse ? await parse(text) : JSON.parse(text.trim() === '' ? '{}' : text) };
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
