/**
 * The check a stream chunk gets before an `onChunk` hook sees it (loaded with the hook runner,
 * not up front): whether the key occurs in it at all, allocating nothing.
 */
import { has, MIN_NAMED } from '../util/mask';

/**
 * Whether a secret occurs in a string or a property name of `value` (JSON-like data, 32 levels
 * deep at most): the check a chunk gets before an `onChunk` hook sees it, allocating nothing, so
 * that the common case, no key in it, costs a few `includes` and no copy.
 */
export function mentions(value: unknown, secrets: readonly string[], depth = 0): boolean {
  if (typeof value === 'string') return has(value, secrets);
  if (typeof value !== 'object' || value === null || depth > 32) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (mentions(item, secrets, depth + 1)) return true;
    return false;
  }
  for (const key in value)
    if (
      has(key, secrets, MIN_NAMED) ||
      mentions((value as Record<string, unknown>)[key], secrets, depth + 1)
    )
      return true;
  return false;
}
