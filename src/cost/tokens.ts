/**
 * Token estimates, without a tokenizer: what a request will cost before it is sent (the rate
 * limiter's token budget, a proxy's per-user budget) and what a stream that ended without the
 * server's usage cost (a cost tracker's estimate). The service publishes no tokenizer, and every
 * model tokenizes differently, so this errs high rather than low: a budget checked with it is
 * not overrun by a prompt the estimate undercounted.
 *
 * The rule: about 4 characters of ASCII text a token (English prose averages 4 to 4.5 with
 * OpenAI's and Llama's tokenizers), every other character a token of its own (a CJK character is
 * 1 to 2 tokens, an emoji several; counting each UTF-16 unit covers the surrogate pairs), plus a
 * few tokens a message for the role and the separators that chat templates add.
 */

/** Tokens a chat template adds around each message (role and separators; OpenAI documents 3–4). */
const PER_MESSAGE = 4;
/** Tokens that prime the reply (`<|im_start|>assistant`). */
const PER_REPLY = 3;

/**
 * About how many tokens `text` is: a quarter of its ASCII characters, rounded up, plus one for each
 * other UTF-16 unit. Linear in the text's length; no regular expression.
 *
 * @example
 * ```ts
 * import { estimateTextTokens } from 'model-inference-sdk';
 *
 * estimateTextTokens('Hello, world!'); // 4
 * ```
 */
export function estimateTextTokens(text: string): number {
  let ascii = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 128) ascii++;
  return Math.ceil(ascii / 4) + text.length - ascii;
}

/**
 * About how many prompt tokens a chat or legacy completion request body is: each message's role,
 * text (string content or its text parts), name, tool calls and other parts (an image part counts
 * as its JSON), the tool definitions and the response format; or a legacy `prompt` (a string or
 * a list of strings). Anything it cannot read counts as its JSON text. Never throws: a body the
 * estimate cannot read at all is 0 tokens, and the call site's checks reject it anyway.
 *
 * @example
 * ```ts
 * import { estimatePromptTokens } from 'model-inference-sdk';
 *
 * const body = { model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hello, world!' }] };
 * estimatePromptTokens(body); // 12: 4 for the message, 1 for its role, 4 for its text, 3 for the reply
 * ```
 */
export function estimatePromptTokens(body: unknown): number {
  // A getter or a Proxy that throws is a body the estimate cannot read: 0, never its error (the
  // estimate runs in `finally` blocks, where an error would replace the stream's own).
  try {
    return promptTokens(body);
  } catch {
    return 0;
  }
}

function promptTokens(body: unknown): number {
  if (typeof body !== 'object' || body === null) return 0;
  const { messages, prompt, tools, functions, response_format } = body as Record<string, unknown>;
  let tokens = 0;
  if (Array.isArray(messages)) {
    for (const message of messages) tokens += PER_MESSAGE + messageTokens(message);
    tokens += PER_REPLY;
  } else if (typeof prompt === 'string') {
    tokens += estimateTextTokens(prompt);
  } else if (Array.isArray(prompt)) {
    for (const item of prompt) tokens += valueTokens(item);
  }
  if (tools !== undefined && tools !== null) tokens += valueTokens(tools);
  if (functions !== undefined && functions !== null) tokens += valueTokens(functions);
  if (typeof response_format === 'object' && response_format !== null)
    tokens += valueTokens(response_format);
  return tokens;
}

function messageTokens(message: unknown): number {
  if (typeof message !== 'object' || message === null) return valueTokens(message);
  let tokens = 0;
  for (const [key, value] of Object.entries(message)) {
    if (value === undefined || value === null) continue;
    if (key === 'content' && Array.isArray(value)) {
      for (const part of value) {
        const text = (part as { text?: unknown } | null)?.text;
        tokens += typeof text === 'string' ? estimateTextTokens(text) : valueTokens(part);
      }
    } else {
      tokens += valueTokens(value);
    }
  }
  return tokens;
}

/** A string's tokens, or a value's as its JSON text (a cycle or a BigInt counts as 0). */
function valueTokens(value: unknown): number {
  if (typeof value === 'string') return estimateTextTokens(value);
  if (typeof value === 'number' || typeof value === 'boolean') return 1;
  try {
    return estimateTextTokens(JSON.stringify(value) ?? '');
  } catch {
    return 0;
  }
}

/**
 * The most completion tokens a request may produce, as its body says (`max_completion_tokens`,
 * else `max_tokens`), or `undefined` when it sets no bound (or a value that is not a whole number
 * of 1 or more, which the server will refuse or ignore).
 */
export function requestedCompletionTokens(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  try {
    const { max_completion_tokens, max_tokens } = body as Record<string, unknown>;
    return [max_completion_tokens, max_tokens].find(
      (value): value is number => Number.isSafeInteger(value) && (value as number) >= 1,
    );
  } catch {
    return undefined;
  }
}
