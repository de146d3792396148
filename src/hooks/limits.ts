/**
 * How long a call's hook may be awaited, and what it fails with when it is given up on. Its own
 * file so that hooks/runner.ts is only the running of the hooks: no hook can hold a call, and
 * this is where that is kept. Loaded with hooks/runner.ts (by `import()`, at the first call that
 * has hooks).
 *
 * `beforeRequest` and `afterResponse` are awaited within the attempt's signal (the caller's
 * signal, and the attempt's own `timeout` timer); the others within the call's `timeout` (and,
 * once a stream has begun, its `streamIdleTimeout`, whichever is shorter) and until the call's
 * `signal` aborts (`onChunk` also until `stream.abort()`). Past that the call fails with the
 * `APIConnectionTimeoutError` or `APIUserAbortError` a stalled server gives, and the hook is left
 * to settle on its own.
 */
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  type APIError,
  type HookError,
} from '../errors/api';
import type { HookName } from '../options/hooks';
import type { Log } from '../util/log';
import { mask } from '../util/mask';
import { bounded } from '../util/wait';
import type { CallDescription } from '../core/call-description';
import type { Entry } from './check';

/** How long a hook may be awaited, and what ends the wait at once. */
interface Bounds {
  signals: readonly (AbortSignal | undefined)[];
  /** Milliseconds, and the option they come from; none while the attempt's own timer runs. */
  ms?: number;
  option?: 'timeout' | 'streamIdleTimeout';
}

/** The limits of one call's hooks (one per call, made by its `Call`). */
export class HookLimits {
  /** The current attempt's signal (the caller's signal and the attempt's `timeout`), from `beforeRequest`. */
  declare attemptSignal: AbortSignal | undefined;
  /** The stream's own signal (`stream.abort()`), once the call's stream has begun. */
  declare streamSignal: AbortSignal | undefined;
  /** What the call is and its settings (the timeout, the caller's signal, where it goes). */
  readonly #call: CallDescription;
  readonly #log: Log;

  constructor(call: CallDescription, log: Log) {
    this.#call = call;
    this.#log = log;
  }

  /**
   * What a hook returned, awaited no longer than the call may wait: its rejection the `HookError`
   * `threw` makes; past the limit an `APIConnectionTimeoutError`, after an abort an
   * `APIUserAbortError` (the hook itself is left to settle, its outcome ignored). No timer or
   * listener is left behind.
   */
  settle<R>(
    out: PromiseLike<R>,
    entry: Entry,
    hook: HookName,
    threw: (error: unknown) => HookError,
  ): Promise<Awaited<R>> {
    const { signals, ms, option } = this.#bounds(hook);
    // `Promise.resolve`: a thenable's own `then` may throw, or call back twice.
    const settled = Promise.resolve(out).catch((error: unknown) => {
      throw threw(error);
    });
    return bounded(
      settled,
      signals,
      ms,
      () => this.#aborted(entry, hook),
      () =>
        mask(
          new APIConnectionTimeoutError(this.#call.target, ms!, {
            hook: `${hook} hook of ${entry.source}`,
            option: option ?? 'timeout',
          }),
          this.#log.secrets,
        ),
    ).then((got) => got!.value);
  }

  /**
   * How long `hook` may be awaited. `beforeRequest` and `afterResponse` run inside an attempt,
   * within its signal (the caller's signal, and the attempt's own `timeout` timer); the others
   * within the call's `timeout`, after a stream's first chunk also its `streamIdleTimeout`
   * (whichever is shorter), and until the caller's signal aborts (or `stream.abort()`, for `onChunk`).
   */
  #bounds(hook: HookName): Bounds {
    if (hook === 'beforeRequest' || hook === 'afterResponse')
      return { signals: [this.attemptSignal] };
    // `stream.abort()` (and `break`, which aborts the stream too) gives up on a pending onChunk;
    // the hooks that tell of the end are what follows it, so they are not given up on for it.
    const { signal, timeout, streamIdleTimeout } = this.#call;
    const signals = hook === 'onChunk' ? [signal, this.streamSignal] : [signal];
    if (this.streamSignal !== undefined && streamIdleTimeout < timeout)
      return { signals, ms: streamIdleTimeout, option: 'streamIdleTimeout' };
    return { signals, ms: timeout, option: 'timeout' };
  }

  /** The error for a hook given up on because a signal aborted: the caller's abort, or the attempt's timeout. */
  #aborted(entry: Entry, hook: HookName): APIError {
    const { signal, target, timeout } = this.#call;
    const user = signal?.aborted
      ? signal
      : this.streamSignal?.aborted
        ? this.streamSignal
        : undefined;
    const error = user
      ? new APIUserAbortError(target, user.reason)
      : // Only the attempt's signal is left: its timer fired (core/request.ts makes its error a timeout too).
        new APIConnectionTimeoutError(target, timeout, {
          hook: `${hook} hook of ${entry.source}`,
          option: 'timeout',
        });
    return mask(error, this.#log.secrets);
  }
}
