/**
 * The `--verbose` note after a reply: token usage and, when the model has prices, the estimated
 * cost (exact decimals, per-token prices in the service's currency).
 *
 * @module
 */
import { estimateCost, type Client, type CompletionUsage } from '../index';
import type { ChosenModel, Output } from './connection';

/**
 * Writes `usage: 3 prompt + 5 completion tokens; cost 0.0023` to stderr with `--verbose`.
 * Looks the model up when it was named by `-m` (its prices); a failed lookup only drops the cost.
 *
 * @example
 * ```ts
 * await noteUsage(client, chosen, reply.usage, output, signal);
 * ```
 */
export async function noteUsage(
  client: Client,
  chosen: ChosenModel,
  usage: CompletionUsage | undefined,
  output: Output,
  signal: AbortSignal,
): Promise<void> {
  if (!output.verbose || usage === undefined) return;
  let cost = '';
  try {
    chosen.model ??= await client.models.retrieve(chosen.slug, { signal });
    const estimate = estimateCost(usage, chosen.model);
    cost = `; cost ${estimate.total} ${estimate.currency ?? "(per-token prices, in the service's currency)"}`;
  } catch {
    // No prices, or the model cannot be looked up: usage alone.
  }
  output.note(
    `usage: ${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion tokens${cost}`,
  );
}
