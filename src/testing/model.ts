/**
 * The mock server's built-in "model": a pure, deterministic function from a
 * conversation (or a legacy prompt) to reply text and token counts. No HTTP
 * here, so tests can compute the exact expected reply and usage themselves.
 *
 * Rules (part of the public contract of `inference-sdk/testing`):
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
 *
 * @module
 */

/**
 * What the built-in model produced for one choice.
 *
 * @example
 * ```ts
 * import { generateChatReply, type Generation } from 'inference-sdk/testing';
 *
 * const g: Generation = generateChatReply([{ role: 'user', content: 'hi' }]);
 * console.log(g.text, g.finishReason); // 'You said: hi' 'stop'
 * ```
 */
export interface Generation {
  /** The reply text; equals `tokens.join('')`. */
  text: string;
  /** The reply split into stream fragments, one per token. */
  tokens: string[];
  finishReason: 'stop' | 'length';
  promptTokens: number;
  /** Equals `tokens.length`. */
  completionTokens: number;
}

/** Reply used when the conversation has no user text to echo. */
const GREETING = 'Hello from the mock model.';

/**
 * Splits text into tokens: each is a run of non-whitespace plus the
 * whitespace after it; leading whitespace is kept on the first token.
 *
 * @example
 * ```ts
 * import { splitTokens } from 'inference-sdk/testing';
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
 * import { countTokens } from 'inference-sdk/testing';
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
 * import { messageText } from 'inference-sdk/testing';
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
 * @example
 * ```ts
 * import { generateChatReply } from 'inference-sdk/testing';
 *
 * const g = generateChatReply([{ role: 'user', content: 'one two three' }], 2);
 * // g.text === 'You said:', g.finishReason === 'length', g.completionTokens === 2
 * ```
 */
export function generateChatReply(messages: readonly unknown[], maxTokens?: number): Generation {
  let promptTokens = 0;
  let lastUserText: string | undefined;
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const text = messageText(message['content']);
    promptTokens += countTokens(text);
    if (message['role'] === 'user') lastUserText = text;
  }
  return generate(replyFor(lastUserText), promptTokens, maxTokens);
}

/**
 * Answers a legacy completion prompt: the same rule as a chat whose only
 * message is a user message holding the prompt.
 *
 * @example
 * ```ts
 * import { generateCompletion } from 'inference-sdk/testing';
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
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
