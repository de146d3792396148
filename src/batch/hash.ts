/**
 * The two hashes of a batch: a line's identity (SHA-256 of its text, for its idempotency key and
 * output id, so the same line sends the same key on every run), and a `custom_id`'s shard
 * (FNV-1a, 32 bits: fast, the same on every machine and runtime, spreads ids evenly).
 */

import { InferenceError } from 'model-inference-sdk';

const encoder = new TextEncoder();

/** Hex SHA-256 of `text` (Web Crypto: Node, Bun, Deno, Workers). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** FNV-1a of the UTF-8 bytes of `text`, as an unsigned 32-bit integer. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of encoder.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A shard, `index` of `count` (1-based, as `jest --shard` and `playwright --shard`): the
 * `custom_id`s whose hash falls in it.
 *
 * @example
 * ```ts
 * const shard: Shard = { index: Number(process.env.JOB_COMPLETION_INDEX) + 1, count: 4 };
 * ```
 */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Whether `customId` belongs to `shard` (every id belongs to exactly one shard of a count).
 *
 * @example
 * ```ts
 * import { inShard } from 'model-inference-sdk/batch';
 *
 * const mine = ['q-1', 'q-2', 'q-3'].filter((id) => inShard(id, { index: 1, count: 2 }));
 * ```
 */
export function inShard(customId: string, shard: Shard | undefined): boolean {
  checkShard(shard, 'inShard');
  return shard === undefined || fnv1a(customId) % shard.count === shard.index - 1;
}

/** A shard of whole numbers, 1 <= index <= count: another (index 0, 1.5, past count) would hold no line. @internal */
export function checkShard(shard: Shard | undefined, who: string): void {
  if (
    shard !== undefined &&
    !(
      Number.isSafeInteger(shard?.count) &&
      Number.isSafeInteger(shard.index) &&
      shard.index >= 1 &&
      shard.index <= shard.count
    )
  )
    throw new InferenceError(
      `${who}: \`shard\` must be { index, count }, whole numbers with 1 <= index <= count (1-based); got ${JSON.stringify(shard)}.`,
    );
}
