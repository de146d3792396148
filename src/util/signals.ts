/**
 * Linking abort signals, the one way the SDK does it: a controller that aborts when another signal
 * does (with its reason), or when a timeout passes. Every link can be released, which removes its
 * listener and clears its timer: a caller's signal reused for thousands of calls collects nothing,
 * shared by many at once has one listener (`onAbort()`), and no timer keeps a process alive after
 * its call.
 */

/** Aborts `controller` when `signal` aborts (at once if it has), with its reason. Returns the release. */
export function follow(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (!signal?.aborted) return onAbort(signal, () => controller.abort(signal!.reason));
  controller.abort(signal.reason);
  return noop;
}

/** Each signal's one listener: the functions it calls. */
type Fan = Set<() => void> & EventListenerObject;
const fans = new WeakMap<AbortSignal, Fan>();

/**
 * Calls `fn` when `signal` (if any, not yet aborted) aborts; returns the release. However many
 * calls share a signal, it has one listener of the SDK's, removed with the last release: Node
 * warns (`MaxListenersExceededWarning`) from 11 listeners on one signal.
 */
export function onAbort(signal: AbortSignal | undefined, fn: () => void): () => void {
  if (!signal) return noop;
  let fan = fans.get(signal);
  if (!fan) {
    const fns = new Set<() => void>();
    fans.set(signal, (fan = Object.assign(fns, { handleEvent: () => fns.forEach((f) => f()) })));
    signal.addEventListener('abort', fan, { once: true });
  }
  const own = fan.add(fn);
  return () => {
    if (own.delete(fn) && !own.size) {
      fans.delete(signal);
      signal.removeEventListener('abort', own);
    }
  };
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
