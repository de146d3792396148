/**
 * The mock server's built-in "model": a pure, deterministic function from a
 * conversation (or a legacy prompt) to reply text and token counts. No HTTP
 * here, so tests can compute the exact expected reply and usage themselves.
 *
 * Rules (part of the public contract of `model-inference-sdk/testing`):
 *
 * - Reply: `You said: <text>`, where `<text>` is the text of the last message
 *   whose role is `user`, trimmed. Without such a message (or when its text is
 *   empty) the reply is `Hello from the mock model.`. The legacy endpoint uses
 *   the same rule with the prompt as the user text.
 * - Message text: a string content as is; an array content is the `text` of
 *   its parts joined with `\n`; anything else counts as empty.
 * - Tokens: one token per whitespace-separated word. A token's text is the
 *   word plus the whitespace after it (leading whitespace joins the first
 *   token), so concatenating the tokens rebuilds the text exactly.
 * - prompt_tokens: the words of every message's text, summed (roles and
 *   message framing are free). completion_tokens: the tokens of the reply.
 * - Limit: at most `min(max_tokens, max_output_length)` tokens; if the reply
 *   is cut, the last kept token loses its trailing whitespace and the finish
 *   reason is `length`, else `stop`.
 * - Tools: when the request offers function `tools`, `tool_choice` is not
 *   `'none'` and the last message is not a `tool` result, the model calls one
 *   tool (the one `tool_choice` names, else the first) with arguments built
 *   from its JSON Schema by {@link exampleFromSchema}; content is empty and
 *   the finish reason `tool_calls`. Arguments count one token per 8
 *   characters (they stream in 8-character fragments) and are never cut.
 * - After a tool result (the last message has role `tool`) the reply is
 *   `The tool returned: <its text>`.
 * - `response_format` `json_schema`: the reply is the JSON text of
 *   `exampleFromSchema(schema)`; `json_object`: `{"reply":"<the echo reply>"}`.
 *   Both are split into tokens and limited like any text.
 *
 * @module
 */

/**
 * What the built-in model produced for one choice.
 *
 * @example
 * ```ts
 * import { generateChatReply, type Generation } from 'model-inference-sdk/testing';
 *
 * const g: Generation = generateChatReply([{ role: 'user', content: 'hi' }]);
 * console.log(g.text, g.finishReason); // 'You said: hi' 'stop'
 * ```
 */
export interface Generation {
  /** The reply text; equals `tokens.join('')`. Empty when the model calls a tool. */
  text: string;
  /** The reply split into stream fragments, one per token. */
  tokens: string[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  promptTokens: number;
  /** `tokens.length` plus the tokens of the tool-call arguments. */
  completionTokens: number;
  /** The tool calls made (empty unless the request offered tools). */
  toolCalls: GeneratedToolCall[];
}

/**
 * One tool call made by the built-in model.
 *
 * @example
 * ```ts
 * import { generateChatReply, type GeneratedToolCall } from 'model-inference-sdk/testing';
 *
 * const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
 * const [call]: GeneratedToolCall[] = generateChatReply([{ role: 'user', content: 'Paris' }], undefined, { tools }).toolCalls;
 * console.log(call?.name, call?.arguments); // 'get_weather' '{"city":"Paris"}'
 * ```
 */
export interface GeneratedToolCall {
  /** `call_1`, `call_2`, … in the order of the calls. */
  id: string;
  name: string;
  /** JSON text. */
  arguments: string;
}

/**
 * Request fields besides `messages` that change what the built-in model
 * says, as sent on the wire (read leniently: malformed values are ignored).
 *
 * @example
 * ```ts
 * import { generateChatReply, type ChatReplyOptions } from 'model-inference-sdk/testing';
 *
 * const options: ChatReplyOptions = { response_format: { type: 'json_object' } };
 * generateChatReply([{ role: 'user', content: 'hi' }], undefined, options).text; // '{"reply":"You said: hi"}'
 * ```
 */
export interface ChatReplyOptions {
  tools?: unknown;
  tool_choice?: unknown;
  response_format?: unknown;
}

/** Reply used when the conversation has no user text to echo. */
const GREETING = 'Hello from the mock model.';

/**
 * Splits text into tokens: each is a run of non-whitespace plus the
 * whitespace after it; leading whitespace is kept on the first token.
 *
 * @example
 * ```ts
 * import { splitTokens } from './model'; // internal: not part of model-inference-sdk/testing
 *
 * splitTokens('  Hello big\nworld '); // ['  Hello ', 'big\n', 'world ']
 * ```
 */
export function splitTokens(text: string): string[] {
  const tokens = text.match(/\S+\s*/g) ?? [];
  const lead = /^\s+/.exec(text)?.[0];
  if (lead !== undefined && tokens.length > 0) tokens[0] = lead + (tokens[0] ?? '');
  return tokens;
}

/**
 * Counts tokens the way the mock server does: whitespace-separated words.
 *
 * @example
 * ```ts
 * import { countTokens } from './model'; // internal: not part of model-inference-sdk/testing
 *
 * countTokens('You said: hi'); // 3
 * ```
 */
export function countTokens(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/**
 * The text of a message's `content`: strings as is, arrays of parts joined
 * (only parts with a string `text` count), anything else empty. Lenient on
 * purpose: the mock must not reject content forms the spec leaves open.
 *
 * @example
 * ```ts
 * import { messageText } from './model'; // internal: not part of model-inference-sdk/testing
 *
 * messageText([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]); // 'a\nb'
 * ```
 */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') parts.push(part);
    else if (isRecord(part) && typeof part['text'] === 'string') parts.push(part['text']);
  }
  return parts.join('\n');
}

/**
 * Answers a chat conversation by the module's rules.
 *
 * @param messages - the request's `messages` (items that are not objects are ignored).
 * @param maxTokens - the token limit, if any (already combined with the model's maximum).
 * @param options - `tools`, `tool_choice` and `response_format` of the request, if any.
 * @example
 * ```ts
 * import { generateChatReply } from 'model-inference-sdk/testing';
 *
 * const g = generateChatReply([{ role: 'user', content: 'one two three' }], 2);
 * // g.text === 'You said:', g.finishReason === 'length', g.completionTokens === 2
 * ```
 */
export function generateChatReply(
  messages: readonly unknown[],
  maxTokens?: number,
  options: ChatReplyOptions = {},
): Generation {
  let promptTokens = 0;
  let lastUserText: string | undefined;
  let last: Record<string, unknown> | undefined;
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const text = messageText(message['content']);
    promptTokens += countTokens(text);
    if (message['role'] === 'user') lastUserText = text;
    last = message;
  }
  const afterTool = last?.['role'] === 'tool';

  const tool = afterTool ? undefined : chooseTool(options.tools, options.tool_choice);
  if (tool !== undefined) {
    const args = JSON.stringify(exampleFromSchema(tool.parameters, lastUserText?.trim() ?? ''));
    const call: GeneratedToolCall = { id: 'call_1', name: tool.name, arguments: args };
    return {
      text: '',
      tokens: [],
      finishReason: 'tool_calls',
      promptTokens,
      completionTokens: argumentFragments(args).length,
      toolCalls: [call],
    };
  }

  const echo = afterTool
    ? `The tool returned: ${messageText(last?.['content']).trim()}`
    : replyFor(lastUserText);
  const format = isRecord(options.response_format) ? options.response_format : undefined;
  let reply = echo;
  if (format?.['type'] === 'json_object') {
    reply = JSON.stringify({ reply: echo });
  } else if (format?.['type'] === 'json_schema') {
    const spec = format['json_schema'];
    reply = JSON.stringify(
      exampleFromSchema(isRecord(spec) ? spec['schema'] : undefined, lastUserText?.trim() ?? ''),
    );
  }
  return generate(reply, promptTokens, maxTokens);
}

/**
 * Splits tool-call arguments into the fragments the mock server streams
 * (8 characters each; the last may be shorter). Each counts as one token.
 *
 * @example
 * ```ts
 * import { argumentFragments } from './model'; // internal: not part of model-inference-sdk/testing
 *
 * argumentFragments('{"city":"Paris"}'); // ['{"city":', '"Paris"}']
 * ```
 */
export function argumentFragments(args: string): string[] {
  const out: string[] = [];
  // By code point, so that a fragment never splits a surrogate pair.
  const chars = Array.from(args);
  for (let i = 0; i < chars.length; i += 8) out.push(chars.slice(i, i + 8).join(''));
  return out;
}

/**
 * A deterministic value that satisfies a JSON Schema, as the built-in model
 * uses for tool arguments and `json_schema` replies. Covers what tool and
 * structured-output schemas use: `type` (also as a list), `properties` (every
 * property is filled), `items`, `enum`, `const`, `default`, `anyOf` / `oneOf`
 * / `allOf` (first branch that is not `null`), local `$ref`s, `minimum`,
 * `minItems`, `minLength` and common string `format`s. Strings are `text`
 * (or `"mock"` when it is empty).
 *
 * @param schema - a JSON Schema object; anything else gives `null`.
 * @param text - the value for plain strings.
 * @example
 * ```ts
 * import { exampleFromSchema } from './model'; // internal: not part of model-inference-sdk/testing
 *
 * exampleFromSchema({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } } }, 'Paris');
 * // { city: 'Paris', days: 1 }
 * ```
 */
export function exampleFromSchema(schema: unknown, text = ''): unknown {
  return example(schema, text === '' ? 'mock' : text, schema, 0);
}

function example(schema: unknown, text: string, root: unknown, depth: number): unknown {
  // Recursive schemas ($ref to an ancestor) stop here rather than loop.
  if (depth > 12 || !isRecord(schema)) return null;
  if ('const' in schema) return schema['const'];
  const enumValues = schema['enum'];
  if (Array.isArray(enumValues) && enumValues.length > 0) return enumValues[0];
  if ('default' in schema) return schema['default'];
  const ref = schema['$ref'];
  if (typeof ref === 'string') return example(resolveRef(root, ref), text, root, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const branch = branches.find((b) => !(isRecord(b) && b['type'] === 'null')) ?? branches[0];
    return example(branch, text, root, depth + 1);
  }
  const declared = schema['type'];
  const type = Array.isArray(declared)
    ? (declared.find((t) => t !== 'null') ?? 'null')
    : typeof declared === 'string'
      ? declared
      : isRecord(schema['properties'])
        ? 'object'
        : 'items' in schema
          ? 'array'
          : 'string';
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = schema['properties'];
      if (isRecord(properties)) {
        for (const [name, property] of Object.entries(properties))
          out[name] = example(property, text, root, depth + 1);
      }
      return out;
    }
    case 'array': {
      const minItems = typeof schema['minItems'] === 'number' ? schema['minItems'] : 1;
      return Array.from({ length: Math.max(1, Math.min(minItems, 16)) }, () =>
        example(schema['items'], text, root, depth + 1),
      );
    }
    case 'integer':
    case 'number': {
      const min = numberOr(
        schema['minimum'],
        numberOr(schema['exclusiveMinimum'], undefined, 1),
        0,
      );
      const max = numberOr(schema['maximum'], undefined, 0);
      let value = max !== undefined && max < (min ?? 0) ? max : (min ?? 0);
      if (type === 'integer') value = Math.ceil(value);
      return value;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return exampleString(schema, text);
  }
}

function exampleString(schema: Record<string, unknown>, text: string): string {
  const formats: Record<string, string> = {
    'date-time': '2025-01-01T00:00:00Z',
    date: '2025-01-01',
    time: '00:00:00Z',
    email: 'mock@example.com',
    uri: 'https://example.com/',
    url: 'https://example.com/',
    uuid: '00000000-0000-4000-8000-000000000000',
  };
  const format = schema['format'];
  let value = (typeof format === 'string' ? formats[format] : undefined) ?? text;
  const minLength = schema['minLength'];
  if (typeof minLength === 'number' && value.length < minLength)
    value = value.padEnd(minLength, '.');
  const maxLength = schema['maxLength'];
  if (typeof maxLength === 'number' && value.length > maxLength) value = value.slice(0, maxLength);
  return value;
}

/** `value` (plus `offset`) when it is a number, else `fallback`. */
function numberOr<T>(value: unknown, fallback: T, offset = 0): number | T {
  return typeof value === 'number' && Number.isFinite(value) ? value + offset : fallback;
}

/** Resolves a local JSON Pointer such as `#/$defs/City`; anything else gives undefined. */
function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** The function tool to call, or undefined when the request does not ask for one. */
function chooseTool(
  tools: unknown,
  choice: unknown,
): { name: string; parameters: unknown } | undefined {
  if (!Array.isArray(tools) || choice === 'none') return undefined;
  const functions: { name: string; parameters: unknown }[] = [];
  for (const tool of tools) {
    const fn = isRecord(tool) ? tool['function'] : undefined;
    if (isRecord(fn) && typeof fn['name'] === 'string')
      functions.push({ name: fn['name'], parameters: fn['parameters'] });
  }
  const forced =
    isRecord(choice) && isRecord(choice['function']) ? choice['function']['name'] : undefined;
  return functions.find((f) => f.name === forced) ?? functions[0];
}

/**
 * Answers a legacy completion prompt: the same rule as a chat whose only
 * message is a user message holding the prompt.
 *
 * @example
 * ```ts
 * import { generateCompletion } from 'model-inference-sdk/testing';
 *
 * generateCompletion('Once upon a time').text; // 'You said: Once upon a time'
 * ```
 */
export function generateCompletion(prompt: string, maxTokens?: number): Generation {
  return generate(replyFor(prompt), countTokens(prompt), maxTokens);
}

function replyFor(userText: string | undefined): string {
  const trimmed = userText?.trim() ?? '';
  return trimmed === '' ? GREETING : `You said: ${trimmed}`;
}

function generate(reply: string, promptTokens: number, maxTokens: number | undefined): Generation {
  let tokens = splitTokens(reply);
  let finishReason: Generation['finishReason'] = 'stop';
  if (maxTokens !== undefined && tokens.length > maxTokens) {
    tokens = tokens.slice(0, Math.max(0, maxTokens));
    // Trim the cut point so a truncated reply does not end in a dangling space.
    const last = tokens.length - 1;
    if (last >= 0) tokens[last] = (tokens[last] ?? '').trimEnd();
    finishReason = 'length';
  }
  return {
    text: tokens.join(''),
    tokens,
    finishReason,
    promptTokens,
    completionTokens: tokens.length,
    toolCalls: [],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
