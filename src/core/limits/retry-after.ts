/**
 * `retry-after`: the wait a server asks for, read by the retry policy (retry.ts) and by the rate
 * limiter (limiter.ts), and its bound.
 */

/**
 * The longest wait honoured: a server that asks for more (an hour of rate limit) is not waited
 * for. Its error reaches the caller at once, with the header, instead of the process sleeping for
 * an hour; a reset further away than this holds no call.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The wait a server asks for: `retry-after-ms` (milliseconds, OpenAI's header), else
 * `retry-after` in seconds or as an HTTP date. Negative, non-numeric or past values are ignored,
 * and so is a value of more than 1024 characters (a real one has a few).
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = seconds(headers.get('retry-after-ms'));
  if (ms !== undefined) return ms;
  const value = headers.get('retry-after');
  const s = seconds(value);
  if (s !== undefined) return s * 1000;
  const wait = value === null || value.length > 1024 ? NaN : Date.parse(value) - now;
  return wait >= 0 ? wait : undefined;
}

/** A number JavaScript reads (`1.5`, `1e3`), 0 or more. */
function seconds(value: string | null): number | undefined {
  const n = value === null || value.trim() === '' || value.length > 1024 ? NaN : Number(value);
  return n >= 0 && n < Infinity ? n : undefined;
}
