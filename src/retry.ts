/**
 * Retry policy (pure: attempt, status, headers in; a delay or "stop" out) and an abortable sleep.
 *
 * Inference defaults, not web defaults: POSTs are retried too, because a completion that failed
 * with a connection error, a timeout, 408, 409, 429 or 5xx produced nothing the caller has seen.
 * Streams are never retried after their first event (the stream layer's job).
 */

/** First backoff delay; doubles each retry. */
const INITIAL_DELAY_MS = 500;
/** Backoff never exceeds this. */
const MAX_DELAY_MS = 8_000;
/**
 * The longest `retry-after` honoured. A server that asks for more (an hour of rate limit) is
 * not retried at all: the error reaches the caller at once with the header, instead of the
 * process sleeping for an hour or retrying early into another 429.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Whether a response with this status (and headers) should be retried. */
export function isRetryableStatus(status: number, headers: Headers): boolean {
  // Servers may decide for us (OpenAI's convention); anything but 'true'/'false' is ignored.
  const override = headers.get('x-should-retry');
  if (override === 'true') return true;
  if (override === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * How long to wait before retry number `retry` (1 for the first retry), or `undefined` to stop
 * because the server asked for a wait longer than `MAX_RETRY_AFTER_MS`.
 */
export function retryDelay(retry: number, headers: Headers | undefined, random = Math.random): number | undefined {
  const asked = headers ? retryAfterMs(headers) : undefined;
  if (asked !== undefined) return asked > MAX_RETRY_AFTER_MS ? undefined : asked;
  // Exponential backoff with up to 25 % jitter, so that many clients do not retry in step.
  const base = Math.min(INITIAL_DELAY_MS * 2 ** (retry - 1), MAX_DELAY_MS);
  return base * (1 - random() * 0.25);
}

/**
 * The wait a server asks for: `retry-after-ms` (milliseconds, OpenAI's header), else
 * `retry-after` in seconds or as an HTTP date. Negative, non-numeric or past values are ignored.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = parseNumber(headers.get('retry-after-ms'));
  if (ms !== undefined) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = parseNumber(value);
  if (seconds !== undefined) return seconds * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  const wait = date - now;
  return wait >= 0 ? wait : undefined;
}

function parseNumber(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
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
export function within<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<{ value: T } | undefined> {
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
