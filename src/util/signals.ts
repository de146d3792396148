/**
 * Linking abort signals, the one way the SDK does it: a controller that aborts when another signal
 * does (with its reason), or when a timeout passes. Every link can be released, which removes its
 * listener and clears its timer: a caller's signal reused for thousands of calls collects nothing,
 * and no timer keeps a process alive after its call.
 */

/** Aborts `controller` when `signal` aborts (at once if it has), with its reason. Returns the release. */
export function follow(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (signal === undefined) return noop;
  if (signal.aborted) {
    controller.abort(signal.reason);
    return noop;
  }
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/** A signal of its own that aborts with any of its sources, or at its timeout. */
export interface Link {
  readonly signal: AbortSignal;
  /** Whether the timeout, not a source, aborted it. */
  readonly timedOut: boolean;
  abort(reason?: unknown): void;
  /** Stops the timeout (the sources still abort it). */
  clearTimer(): void;
  /** Stops the timeout and unlinks the sources. Idempotent. */
  release(): void;
}

/**
 * A new signal that aborts when any of `sources` does, or `timeout.ms` milliseconds from now with
 * `timeout.reason()`.
 */
export function link(
  sources: readonly (AbortSignal | undefined)[],
  timeout?: { ms: number; reason?: () => unknown },
): Link {
  const controller = new AbortController();
  const releases = sources.map((source) => follow(source, controller));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const state = {
    signal: controller.signal,
    timedOut: false,
    abort: (reason?: unknown) => controller.abort(reason),
    clearTimer: () => clearTimeout(timer),
    release() {
      clearTimeout(timer);
      for (const release of releases) release();
    },
  };
  if (timeout !== undefined && !controller.signal.aborted) {
    timer = setTimeout(() => {
      state.timedOut = true;
      controller.abort(timeout.reason?.());
    }, timeout.ms);
  }
  return state;
}

/**
 * A signal that aborts when any of `signals` does. `AbortSignal.any` where the runtime has it (its
 * sources hold it weakly: nothing to release), else a link that is never released.
 */
export function anyOf(signals: readonly AbortSignal[]): AbortSignal {
  return typeof AbortSignal.any === 'function'
    ? AbortSignal.any(signals as AbortSignal[])
    : link(signals).signal;
}

function noop(): void {}
