/**
 * `readReasoning()`, kept for one release: every message and delta the SDK returns now carries
 * `reasoning` itself, read from whichever field the server used (docs/normalization.md).
 */
import { reasoning } from '../generated/normalize.gen';

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
  // The normalizer's own rule (one copy of it): what `message.reasoning` is filled from.
  return reasoning(message as Record<string, unknown>);
}
