/**
 * `readReasoning()`, kept for one release: every message and delta the SDK returns now carries
 * `reasoning` itself, read from whichever field the server used (docs/normalization.md).
 */

/** What a message or a delta may carry (both generated types fit). */
interface ReasoningCarrier {
  content?: unknown;
  content_parts?: unknown;
  reasoning?: unknown;
  reasoning_content?: unknown;
  reasoning_details?: unknown;
}

/**
 * The reasoning text of a message or a stream delta, or `undefined` when it has none. Reads, in
 * order: `reasoning_content`, `reasoning`, Mistral `thinking` parts of `content` (or of
 * `content_parts`), OpenRouter `reasoning_details` text blocks. The raw fields are left as they are.
 *
 * @deprecated Read `message.reasoning` (or `delta.reasoning`): the SDK fills it for every server.
 * `readReasoning` will be removed in the next minor release.
 *
 * An empty string counts as reasoning (DeepSeek opens its reasoning with `reasoning_content: ""`);
 * `null` does not (DeepSeek sends `reasoning_content: null` once the answer streams).
 *
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({ model: 'deepseek/reasoner', messages });
 * console.log(readReasoning(completion.choices[0]!.message)); // now simply: completion.choices[0]!.message.reasoning
 * ```
 */
export function readReasoning(message: ReasoningCarrier): string | undefined {
  if (typeof message.reasoning_content === 'string') return message.reasoning_content;
  if (typeof message.reasoning === 'string') return message.reasoning;
  const thinking = thinkingParts(Array.isArray(message.content) ? message.content : message.content_parts);
  if (thinking !== undefined) return thinking;
  return detailsText(message.reasoning_details);
}

/** Mistral Magistral: `[{ type: 'thinking', thinking: [{ type: 'text', text }] }, { type: 'text', text }]`. */
function thinkingParts(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  let text: string | undefined;
  for (const part of content as { type?: unknown; thinking?: unknown }[]) {
    if (part?.type !== 'thinking') continue;
    text = (text ?? '') + partsText(part.thinking);
  }
  return text;
}

function partsText(parts: unknown): string {
  if (typeof parts === 'string') return parts;
  if (!Array.isArray(parts)) return '';
  let text = '';
  for (const part of parts as { type?: unknown; text?: unknown }[]) {
    if (part?.type === 'text' && typeof part.text === 'string') text += part.text;
  }
  return text;
}

/** OpenRouter: `reasoning_details: [{ type: 'reasoning.text', text }, { type: 'reasoning.summary', summary }, { type: 'reasoning.encrypted', data }]`. */
function detailsText(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  let text: string | undefined;
  for (const block of details as { type?: unknown; text?: unknown; summary?: unknown }[]) {
    if (block?.type === 'reasoning.text' && typeof block.text === 'string') text = (text ?? '') + block.text;
    else if (block?.type === 'reasoning.summary' && typeof block.summary === 'string') text = (text ?? '') + block.summary;
  }
  return text;
}
