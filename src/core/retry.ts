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
import { MAX_RETRY_AFTER_MS, retryAfterMs } from './limits/retry-after';
import { limiterOf } from './limits/limits';

export { MAX_RETRY_AFTER_MS, retryAfterMs } from './limits/retry-after';

/**
 * Send the call and read its response with `read`, retrying as the policy allows; with
 * `fallbacks`, then the same call to each next model (core/fallbacks.ts, loaded for such calls).
 * Attempts are numbered across the models, for the hooks.
 */
export function send<T>(
  ctx: RequestContext,
  call: CallDescription,
  read: Reader<T>,
  hooks?: CallHooks,
): Promise<T> {
  const count = { attempts: 0, waited: 0 };
  const run = (call: CallDescription) => sendTo(ctx, call, read, hooks, count);
  return call.fallbacks.length
    ? import('./fallbacks').then((f) => f.withFallbacks(call, run, ctx.log, hooks, count))
    : run(call);
}

/** One model's attempts: each takes its turn in the limiter, then is sent; retried as the policy allows. */
async function sendTo<T>(
  ctx: RequestContext,
  call: CallDescription,
  read: Reader<T>,
  hooks: CallHooks | undefined,
  count: { attempts: number; waited: number },
): Promise<T> {
  const p = await prepare(ctx, call, hooks);
  const { target, signal: userSignal, maxRetries } = call;
  const { log } = ctx;
  const limiter = ctx.limits.limiter ?? (await limiterOf(ctx.limits));
  const respect = ctx.options.respectRateLimits;
  let reason: APIError | undefined;
  for (let n = 0, free = 0; ;) {
    if (userSignal?.aborted)
      throw mask(new APIUserAbortError(target, userSignal.reason), log.secrets);
    let slot = limiter.take({
      call,
      pool: ctx.pool,
      respect,
      wait: call.timeout - count.waited,
      reason,
    });
    if ('then' in slot) {
      const started = Date.now();
      try {
        slot = await slot;
      } finally {
        const waited = Date.now() - started;
        count.waited += waited;
        hooks?.queued(waited);
      }
    }
    try {
      return await attempt(p, read, ++count.attempts, ctx.options.baseURL, slot);
    } catch (error) {
      // A limit the server announced (a 429's retry-after, no request left): the call waits its
      // turn in the limiter with every other, and the wait is not a retry of maxRetries.
      const held = slot.held(error, free, maxRetries);
      if (held) {
        free++;
        reason = error as APIError;
        log.info(`${reason.message}; waiting ${held} ms (rate limit)`);
        await hooks?.beforeRetry(reason, held, count.attempts + 1);
        continue;
      }
      const delay =
        error instanceof APIError && n < maxRetries ? retryDelayFor(error, n + 1) : undefined;
      if (delay === undefined) throw error;
      n++;
      log.info(
        `${(error as APIError).message}; retrying in ${Math.round(delay)} ms (attempt ${n + 1} of ${maxRetries + 1})`,
      );
      await hooks?.beforeRetry(error as APIError, delay, count.attempts + 1);
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
  // A connection error has no headers; the caller's abort, no status either.
  const { status, headers } = error;
  return error instanceof APIConnectionError ||
    (status !== undefined && isRetryableStatus(status, headers))
    ? retryDelay(retry, headers)
    : undefined;
}

/** First backoff delay; doubles each retry. */
const INITIAL_DELAY_MS = 500;
/** Backoff never exceeds this. */
const MAX_DELAY_MS = 8_000;
/** Whether a response with this status (and headers) should be retried. */
export function isRetryableStatus(status: number, headers: Headers | undefined): boolean {
  // Servers may decide for us (OpenAI's convention); anything but 'true'/'false' is ignored.
  const override = headers?.get('x-should-retry');
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
