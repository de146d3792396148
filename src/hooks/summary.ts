/**
 * What a call's `CallSummary` (given to `onEnd`) is made of: the status, the data, and what it
 * takes from a completion or a stream's chunks (the id, the model, the usage, the finish reasons,
 * the chunk count), kept as the call goes and made into the summary at its end, the key masked.
 * Its own file so that hooks/runner.ts is only the running of the hooks; loaded with it (by
 * `import()`, at the first call that has hooks).
 */
import type { InferenceError } from '../errors/api';
import type { CompletionUsage } from '../generated/types.gen';
import type { CallSummary, HookInfo } from '../options/hooks';
import { mask } from '../util/mask';

/** What one call's summary is made of, kept as the call goes (one per call, made by its `Call`). */
export class CallRecord {
  declare status: number | undefined;
  declare data: unknown;
  /** Chunks read, once the call's stream has begun. */
  declare chunks: number | undefined;
  /** Milliseconds from the call's start to its stream's first chunk. */
  declare firstChunk: number | undefined;
  readonly #operation: HookInfo['operation'];
  #id: string | undefined;
  #model: string | undefined;
  #usage: CompletionUsage | undefined;
  /** Finish reasons by choice index (a Map: an index is the server's, and may be huge). */
  readonly #reasons = new Map<number, string>();

  constructor(operation: HookInfo['operation']) {
    this.#operation = operation;
  }

  /** What a summary takes from a completion or a chunk (chat and legacy completions only). */
  read(value: unknown): void {
    const operation = this.#operation;
    if (
      (operation !== 'chat' && operation !== 'completions') ||
      typeof value !== 'object' ||
      value === null
    )
      return;
    const v = value as {
      id?: unknown;
      model?: unknown;
      usage?: CompletionUsage | null;
      choices?: unknown;
    };
    if (typeof v.id === 'string' && v.id !== '') this.#id ??= v.id;
    if (typeof v.model === 'string' && v.model !== '') this.#model ??= v.model;
    if (v.usage) this.#usage = v.usage;
    if (!Array.isArray(v.choices)) return;
    for (let i = 0; i < v.choices.length; i++) {
      const choice = v.choices[i] as { index?: unknown; finish_reason?: unknown } | null;
      const reason = choice?.finish_reason;
      if (typeof reason === 'string')
        this.#reasons.set(typeof choice!.index === 'number' ? choice!.index : i, reason);
    }
  }

  /**
   * The summary of the call, now over: masked with `secrets` (copies; the caller's data unchanged),
   * with a hidden masker for the SDK's own telemetry.
   */
  summary(
    error: unknown,
    closed: boolean,
    duration: number,
    attempts: number,
    queueTime: number,
    secrets: readonly string[],
  ): CallSummary {
    const summary: CallSummary = {
      outcome: error !== undefined ? 'error' : closed ? 'closed' : 'ok',
      error: error as InferenceError | undefined,
      duration,
      attempts,
      queueTime,
      status: this.status,
      // The key, if a server echoed it (as the id, the model, in the body), masked: a copy, the
      // caller's data unchanged.
      id: mask(this.#id, secrets),
      model: mask(this.#model, secrets),
      usage: this.#usage,
      finishReasons: mask(
        [...this.#reasons].sort(([a], [b]) => a - b).map(([, reason]) => reason),
        secrets,
      ),
      data: mask(this.data, secrets),
      chunks: this.chunks,
      timeToFirstChunk: this.firstChunk,
    };
    // For the SDK's own telemetry, which joins a stream's chunks back into its output: a key the
    // stream split across chunks is whole again there, and masked with this. It answers only
    // whether a whole key occurs in a value, never a part of one: no hook learns the key from it.
    Object.defineProperty(summary, Symbol.for('model-inference-sdk.mask'), {
      value: (value: unknown) => mask(value, secrets),
    });
    return summary;
  }
}
