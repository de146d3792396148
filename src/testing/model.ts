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
 * - Reasoning (`options.reasoning`: the mock server sets it for a model whose
 *   `supported_features` include `reasoning`, such as `mock/reasoner`): the
 *   reply comes with reasoning text that says what the model is about to do:
 *   `The user said "<text>". I will repeat it.`, `There is no user text. I
 *   will greet.`, `The tool returned its result. I will pass it on.` or
 *   `The request offers a tool. I will call <name>.` It is split into tokens
 *   like the reply, counts in `completionTokens`, and is never cut.
 *
 * @module
 */
import { exampleFromSchema } from './schema-example';

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
  /** The reasoning before the reply, split into tokens; empty unless `options.reasoning`. */
  reasoning: string[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  promptTokens: number;
  /** `tokens.length`, plus the reasoning's tokens and the tokens of the tool-call arguments. */
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
  /** Not a request field: whether the model reasons before it answers (see the module's rules). */
  reasoning?: boolean;
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
 * generateChatReply([{ role: 'user', content: 'hi' }], undefined, { reasoning: true }).reasoning.join('');
 * // 'The user said "hi". I will repeat it.'
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
  const userText = lastUserText?.trim() ?? '';
  const reasoning =
    options.reasoning !== true
      ? []
      : splitTokens(
          tool !== undefined
            ? `The request offers a tool. I will call ${tool.name}.`
            : afterTool
              ? 'The tool returned its result. I will pass it on.'
              : userText === ''
                ? 'There is no user text. I will greet.'
                : `The user said "${userText}". I will repeat it.`,
        );
  if (tool !== undefined) {
    const args = JSON.stringify(exampleFromSchema(tool.parameters, userText));
    const call: GeneratedToolCall = { id: 'call_1', name: tool.name, arguments: args };
    return {
      text: '',
      tokens: [],
      reasoning,
      finishReason: 'tool_calls',
      promptTokens,
      completionTokens: reasoning.length + argumentFragments(args).length,
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
      exampleFromSchema(isRecord(spec) ? spec['schema'] : undefined, userText),
    );
  }
  const gen = generate(reply, promptTokens, maxTokens);
  return { ...gen, reasoning, completionTokens: gen.completionTokens + reasoning.length };
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
    reasoning: [],
    finishReason,
    promptTokens,
    completionTokens: tokens.length,
    toolCalls: [],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
