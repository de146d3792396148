/**
 * Bounds for "does not hang" checks. They never assert how fast something is: they only tell a
 * promise that settled (however slowly, up to a generous bound) from one still pending.
 */

/** The promise's outcome, or `'pending'` if it has not settled within `ms`. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | { error: unknown } | 'pending'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Promise<'pending'>((resolve) => {
    timer = setTimeout(() => resolve('pending'), ms);
  });
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error: unknown) => ({ error })), pending]);
  } finally {
    clearTimeout(timer);
  }
}

/** The error a call rejects with, or the value when it does not reject. */
export async function outcome(run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return error;
  }
}

/** `ms` milliseconds. */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
