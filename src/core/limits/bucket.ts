/**
 * What the rate limiter (limiter.ts) knows of one model, and what follows from it: until when the
 * server's announced limits hold it, the first contact's bound, a window as it is now, a new
 * response's window merged over the one known, a call's token estimate. Plain functions of a
 * bucket and the time; loaded with the limiter (by `import()`, at a client's first call).
 */
import type { CallDescription } from '../call-description';
import { estimateTextTokens, requestedCompletionTokens } from '../../cost/tokens';
import type { Window } from './headers';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from './retry-after';

/** Calls of a model in flight before its first response, at most, at first. */
const FIRST_CONTACT = 8;
/** Without a response, the first contact's bound doubles after each this many ms; after four, none. */
const FIRST_CONTACT_MS = 1000;

/** What the limiter knows of one model (`''`: calls without one, `models.list` and `retrieve`). */
export interface Bucket {
  /** When the first contact began (epoch ms); 0 once a response came. */
  first: number;
  /** Calls in flight allowed: after a 429 one, doubling with each answer (`Infinity`: no bound). */
  window: number;
  /** The server's pace once known (ms between two admissions while calls wait); 0: none. */
  gap: number;
  /** The earliest next admission while paced (epoch ms). */
  next: number;
  inFlight: number;
  queued: number;
  /** Attempts admitted so far; an attempt's number among them tells what its response may not count. */
  sent: number;
  /** `sent` when the last 429 or 503 was learned: calls admitted before it do not tell the pace. */
  limited: number;
  /** Held until (epoch ms): a 429's or 503's `retry-after`. */
  until: number;
  /** The headers of the response that set `until`, for the error of a call that cannot wait. */
  headers?: Headers;
  requests?: Window | undefined;
  tokens?: Window | undefined;
}

/** A bucket for a model that knows nothing yet: its first contact begins now. */
export function newBucket(): Bucket {
  return {
    first: Date.now(),
    window: Infinity,
    gap: 0,
    next: 0,
    inFlight: 0,
    queued: 0,
    sent: 0,
    limited: 0,
    until: 0,
  };
}

/**
 * Until when the server's announced limits hold the model (epoch ms), or 0: a `retry-after`, no
 * request left, or fewer tokens left than `tokens`, each while its reset is close enough to wait
 * for.
 */
export function holds(bucket: Bucket, now: number, tokens = 0): number {
  let at = bucket.until > now ? bucket.until : 0;
  const requests = refresh(bucket, 'requests', now);
  if (requests && requests.remaining < 1) at = Math.max(at, near(requests.reset, now));
  const budget = refresh(bucket, 'tokens', now);
  if (budget && tokens > budget.remaining && tokens <= (budget.limit ?? Infinity))
    at = Math.max(at, near(budget.reset, now));
  return at;
}

/**
 * While no response came: 0 when one more call may go, else when the bound next doubles; with
 * `bound`, the bound itself (`Infinity`: none).
 */
export function firstContact(bucket: Bucket, now: number, bound = false): number {
  const step = Math.floor((now - bucket.first) / FIRST_CONTACT_MS);
  if (bound) return step < 4 ? FIRST_CONTACT << step : Infinity;
  return step < 4 && bucket.inFlight >= FIRST_CONTACT << step
    ? bucket.first + (step + 1) * FIRST_CONTACT_MS
    : 0;
}

/** A 429's or 503's `retry-after` in ms, when it is one the client waits for (0 < ms ≤ the cap). */
export function wait(headers: Headers | undefined, now: number): number | undefined {
  const ms = headers && retryAfterMs(headers, now);
  return ms && ms <= MAX_RETRY_AFTER_MS ? ms : undefined;
}

/**
 * A call's token estimate: its body as sent (the prompt, tools, response format; the JSON around
 * them too, so that it errs high), and the most it may generate (`max_tokens`).
 */
export function estimate(call: CallDescription): number {
  return estimateTextTokens(call.json ?? '') + (requestedCompletionTokens(call.body) ?? 0);
}

/** `at`, when it is close enough to wait for; else 0 (a limit that far away holds nothing). */
export function near(at: number | undefined, now: number): number {
  return at !== undefined && at - now <= MAX_RETRY_AFTER_MS ? at : 0;
}

/** The model's window of that kind as it is now: whole again once its reset passed. */
export function refresh(
  bucket: Bucket,
  kind: 'requests' | 'tokens',
  now: number,
): Window | undefined {
  const window = bucket[kind];
  if (window?.reset === undefined || window.reset > now) return window;
  if (window.limit === undefined) return (bucket[kind] = undefined);
  window.remaining = window.limit;
  window.reset = undefined;
  return window;
}

/**
 * A new response's window over the one known: the same window (not reset yet) keeps the fewest
 * remaining and the latest reset, since responses arrive out of order; a new window replaces it.
 */
export function merge(known: Window | undefined, got: Window, now: number): Window {
  return known?.reset && known.reset > now
    ? {
        limit: got.limit ?? known.limit,
        remaining: Math.min(known.remaining, got.remaining),
        reset: Math.max(known.reset, got.reset ?? 0),
      }
    : got;
}
