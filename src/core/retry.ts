/**
 * Retries: the loop that sends a request until it succeeds or the policy says stop, and the policy
 * (pure: attempt, status, headers in; a delay or "stop" out).
 *
 * Inference defaults, not web defaults: POSTs are retried too, because a completion that failed
 * with a connection error, a timeout, 408, 409, 429 or 5xx produced nothing the caller has seen
 * (and every POST carries one `Idempotency-Key` for all its attempts). Streams are never retried
 * after their first event: their reader reads the first one inside the attempt (stream/events.ts).
 */
import { APIConnectionError, APIError, APIUserAbortError } from '../errors/api';
import { mask } from '../util/mask';
import type { CallDescription } from './call-description';
import type { CallHooks } from '../options/hooks';
import { attempt, prepare, type RequestContext } from './request';
import type { Reader } from './response';
import { sleep } from '../util/wait';

/** Send the call and read its response with `read`, retrying as the policy allows. */
export async function send<T>(
  ctx: RequestContext,
  call: CallDescription,
  read: Reader<T>,
  hooks?: CallHooks,
): Promise<T> {
  const p = await prepare(ctx, call, hooks);
  const { target, signal: userSignal, maxRetries } = call;
  const { log } = ctx;
  for (let n = 0; ; n++) {
    if (userSignal?.aborted)
      throw mask(new APIUserAbortError(target, userSignal.reason), log.secrets);
    try {
      return await attempt(p, read, n + 1, ctx.options.baseURL);
    } catch (error) {
      const delay =
        error instanceof APIError && n < maxRetries ? retryDelayFor(error, n + 1) : undefined;
      if (delay === undefined) throw error;
      log.info(
        `${(error as APIError).message}; retrying in ${Math.round(delay)} ms (attempt ${n + 2} of ${maxRetries + 1})`,
      );
      await hooks?.beforeRetry(error as APIError, delay, n + 2);
      try {
        await sleep(delay, userSignal);
      } catch (reason) {
        throw mask(new APIUserAbortError(target, reason), log.secrets);
      }
    }
  }
}

/** The retry delay for a failed attempt, or `undefined` when it must not be retried. */
function retryDelayFor(error: APIError, retry: number): number | undefined {
  if (error instanceof APIUserAbortError) return undefined;
  if (error instanceof APIConnectionError) return retryDelay(retry, undefined);
  if (
    error.status === undefined ||
    !isRetryableStatus(error.status, error.headers ?? new Headers())
  )
    return undefined;
  return retryDelay(retry, error.headers);
}

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
export function retryDelay(
  retry: number,
  headers: Headers | undefined,
  random = Math.random,
): number | undefined {
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
