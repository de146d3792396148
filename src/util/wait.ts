/**
 * Waits that end early: `bounded()`, the one wait bounded by signals and a timeout, and what is
 * made of it (an abortable sleep, a promise bounded by a signal and a timeout, a `fetch` that ends
 * with its signal, a hook's wait in hooks/limits.ts). Each leaves no timer or listener behind.
 */
import { onAbort } from './signals';

/** What bounds a wait before anything is sent: the caller's signal and the call's timeout. */
export interface Wait {
  signal: AbortSignal | undefined;
  /** Milliseconds. */
  timeout: number;
}

/**
 * The one bounded wait: `{ value }` of `promise` (none: a wait that only the bounds end), or
 * `undefined` once `ms` pass first (no timer without `ms`; with `timedOut`, its error instead),
 * and its error when it rejects; a rejection as soon as one of `signals` aborts, whether or not
 * `promise` listens to it: with `aborted()` when given, else with the signal's reason. Leaves no
 * timer or listener behind whichever way it ends, and a promise given up on never ends as an
 * unhandled rejection.
 */
export function bounded<T>(
  promise: Promise<T> | undefined,
  signals: readonly (AbortSignal | undefined)[],
  ms?: number,
  aborted?: () => unknown,
  timedOut?: () => unknown,
): Promise<{ value: T } | undefined> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let releases: (() => void)[] = [];
    const done = () => {
      clearTimeout(timer);
      releases.forEach((release) => release());
    };
    const abort = () => {
      done();
      reject(aborted ? aborted() : signals.find((signal) => signal?.aborted)!.reason);
    };
    // Handlers first: a promise given up on must not end as an unhandled rejection later.
    promise?.then(
      (value) => {
        done();
        resolve({ value });
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
    if (signals.some((signal) => signal?.aborted)) return abort();
    releases = signals.map((signal) => onAbort(signal, abort));
    if (ms !== undefined)
      timer = setTimeout(() => {
        done();
        if (timedOut) reject(timedOut());
        else resolve(undefined);
      }, ms);
  });
}

/**
 * Wait `ms`, or reject with `signal.reason` as soon as the signal aborts. Leaves no timer or
 * listener behind either way.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return bounded(undefined, [signal], ms) as Promise<unknown> as Promise<void>;
}

/**
 * `{ value }` of `promise`, or `undefined` once `ms` pass first; rejects with `signal.reason` as
 * soon as the signal aborts (and with `promise`'s error). Leaves no timer or listener behind, so
 * a slow `apiKey` function or a shared lookup never holds a caller longer than it may wait.
 */
export function within<T>(
  promise: Promise<T>,
  ms: number,
  signal?: AbortSignal,
): Promise<{ value: T } | undefined> {
  return bounded(promise, [signal], ms);
}

/**
 * `promise`, or a rejection with `signal.reason` as soon as the signal aborts, whether or not
 * `promise` listens to it: a `fetch` option that ignores its signal cannot hold a call past its
 * timeout or its caller's abort. A response that arrives after the abort has its body cancelled,
 * so that its connection is not held either. Leaves no listener behind.
 */
export function untilAborted(
  promise: Promise<Response>,
  signal: AbortSignal | null | undefined,
): Promise<Response> {
  if (!signal) return promise;
  return bounded(promise, [signal], undefined, () => {
    promise.then(
      (late) => void late.body?.cancel().catch(() => {}),
      () => {},
    );
    return signal.reason;
  }).then((got) => got!.value);
}
