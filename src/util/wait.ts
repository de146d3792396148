/**
 * Waits that end early: an abortable sleep, and a promise bounded by a signal and a timeout. Each
 * leaves no timer or listener behind.
 */

/** What bounds a wait before anything is sent: the caller's signal and the call's timeout. */
export interface Wait {
  signal: AbortSignal | undefined;
  /** Milliseconds. */
  timeout: number;
}

/**
 * Wait `ms`, or reject with `signal.reason` as soon as the signal aborts. Leaves no timer or
 * listener behind either way.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
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
  return new Promise((resolve, reject) => {
    // Handlers first: a promise given up on must not end as an unhandled rejection later.
    promise.then(
      (value) => {
        done();
        resolve({ value });
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve(undefined);
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
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
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      promise.then(
        (late) => void late.body?.cancel().catch(() => {}),
        () => {},
      );
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
