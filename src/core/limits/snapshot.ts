/**
 * What `client.rateLimits()` returns: the limiter's state as plain data (types only; the
 * limiter, limiter.ts, makes it).
 */

/**
 * A snapshot of the client's rate limiter, shared by the client and its `withOptions()` copies:
 * the calls in flight and waiting, and what the server said of its limits, per model. A copy:
 * reading it changes nothing, and it does not change as calls go on.
 *
 * @example
 * ```ts
 * const { inFlight, queued, models } = client.rateLimits();
 * const chat = models['acme/chat-1'];
 * console.log(`${inFlight} in flight, ${queued} waiting; ${chat?.requests?.remaining ?? '?'} requests left`);
 * ```
 */
export interface RateLimitSnapshot {
  /** Calls sent and not finished (a stream until it ends), of the client and its copies. */
  inFlight: number;
  /** Calls waiting for their turn. */
  queued: number;
  /** This client's cap on calls in flight (`maxConcurrency`), or `undefined` for none. */
  maxConcurrency: number | undefined;
  /** What is known per model; `''` holds the calls without one (`models.list`, `models.retrieve`). */
  models: Record<string, ModelRateLimits>;
}

/**
 * What the limiter knows of one model's limits.
 *
 * @example
 * ```ts
 * const limits: ModelRateLimits | undefined = client.rateLimits().models['acme/chat-1'];
 * if (limits?.retryAt) console.log(`held for ${limits.retryAt - Date.now()} ms`);
 * ```
 */
export interface ModelRateLimits {
  /** Requests, as the last responses told (`x-ratelimit-*-requests`, `x-ratelimit-*`, `RateLimit`). */
  requests: RateLimitWindow | undefined;
  /** Tokens, as the last responses told (`x-ratelimit-*-tokens`). */
  tokens: RateLimitWindow | undefined;
  /** Until when (epoch ms) the server asked every call to wait (a 429's or 503's `retry-after`), if it still holds. */
  retryAt: number | undefined;
  /** Calls of this model waiting. */
  queued: number;
  /** Calls of this model in flight. */
  inFlight: number;
}

/**
 * One limit as the server told it, less what the client has sent since.
 *
 * @example
 * ```ts
 * const window: RateLimitWindow | undefined = client.rateLimits().models['acme/chat-1']?.tokens;
 * if (window && window.remaining < 1000) console.warn(`few tokens left until ${new Date(window.resetAt ?? Date.now())}`);
 * ```
 */
export interface RateLimitWindow {
  /** The limit, when the server gave it. */
  limit: number | undefined;
  /** What is left: the server's count, less what this client sent since it answered. */
  remaining: number;
  /** When it is whole again (epoch ms), or `undefined` once that has passed (it is whole: `remaining` is the limit). */
  resetAt: number | undefined;
}
