/**
 * `--json` streams: each chunk printed as one JSON line, with the key masked even when a stream
 * splits it across chunks, in any of a chunk's streamed texts: `delta.content`, the reasoning
 * (`reasoning_content`, `reasoning` …), `refusal`, a tool call's name and arguments, a legacy
 * chunk's `text`. Each such text has its own {@link createStreamGuard}, per choice and per tool
 * call; what a guard holds back (the start of what may be the key) moves on to the next chunk that
 * continues that text, and the lines wait until no guard holds anything.
 *
 * @module
 */
import { createStreamGuard, type StreamGuard } from './safe-text';

/** Turns a stream's chunks into the ones to print (`jsonText` them); see the module comment. */
export interface ChunkGuard {
  /** The chunks that may be printed now, given the next one (none while text is held back). */
  push(chunk: unknown): unknown[];
  /** The chunks still waiting, with what their guards held put back (or `***`). */
  end(): unknown[];
}

type Fields = Record<string, unknown>;

/**
 * @example
 * ```ts
 * const guard = createChunkGuard(['sk-live-1234']);
 * guard.push({ choices: [{ index: 0, delta: { reasoning_content: 'sk-li' } }] }); // []
 * guard.push({ choices: [{ index: 0, delta: { reasoning_content: 've-1234' } }] });
 * // [{ choices: [{ index: 0, delta: { reasoning_content: '' } }] }, { choices: [{ index: 0, delta: { reasoning_content: '***' } }] }]
 * ```
 */
export function createChunkGuard(secrets: readonly string[]): ChunkGuard {
  const guards = new Map<string, StreamGuard>();
  /** Where each text was last written: its held part goes back there at the end. */
  const last = new Map<string, [Fields, string]>();
  let waiting: unknown[] = [];

  const guard = (path: string, holder: Fields, key: string): void => {
    const text = holder[key];
    if (typeof text !== 'string') return;
    let g = guards.get(path);
    if (!g) guards.set(path, (g = createStreamGuard(secrets, { raw: true })));
    holder[key] = g.push(text);
    last.set(path, [holder, key]);
  };
  const flush = (): unknown[] => {
    const out = waiting;
    waiting = [];
    return out;
  };

  return {
    push(chunk) {
      // A copy: JSON data, the chunk the caller got stays as it came.
      const copy = JSON.parse(JSON.stringify(chunk ?? null)) as { choices?: unknown } | null;
      const choices = Array.isArray(copy?.choices) ? (copy.choices as (Fields | null)[]) : [];
      for (const [i, choice] of choices.entries()) {
        if (typeof choice !== 'object' || choice === null) continue;
        const at = typeof choice['index'] === 'number' ? choice['index'] : i;
        guard(`${at}`, choice, 'text');
        const delta = choice['delta'] as Fields | null | undefined;
        if (typeof delta !== 'object' || delta === null) continue;
        for (const key of Object.keys(delta)) guard(`${at}.${key}`, delta, key);
        const calls = Array.isArray(delta['tool_calls']) ? (delta['tool_calls'] as Fields[]) : [];
        for (const [j, call] of calls.entries()) {
          const fn = call?.['function'] as Fields | null | undefined;
          if (typeof fn !== 'object' || fn === null) continue;
          const id = `${at}.tool.${typeof call['index'] === 'number' ? call['index'] : j}`;
          guard(`${id}.name`, fn, 'name');
          guard(`${id}.arguments`, fn, 'arguments');
        }
      }
      waiting.push(copy);
      return [...guards.values()].some((g) => g.holding) ? [] : flush();
    },
    end() {
      for (const [path, g] of guards) {
        const rest = g.end();
        const [holder, key] = last.get(path)!;
        if (rest !== '') holder[key] = `${holder[key] as string}${rest}`;
      }
      return flush();
    },
  };
}
