/**
 * What an attempt asks the rate limiter for (a `Turn`) and the cap it may count against (a
 * `Pool`): types only, shared by the request path (limits.ts) and the limiter (limiter.ts).
 */
import type { APIError } from '../../errors/api';
import type { CallDescription } from '../call-description';

/**
 * A cap on calls in flight (`maxConcurrency`), shared by a client and the copies that do not set
 * their own.
 */
export interface Pool {
  cap: number;
  inFlight: number;
}

/** What an attempt asks the limiter for. */
export interface Turn {
  call: CallDescription;
  pool: Pool | undefined;
  /** `respectRateLimits`: false leaves only the pool's cap. */
  respect: boolean;
  /** Milliseconds the call may still wait (its `timeout`, less what it has waited). */
  wait: number;
  /** The 429 or 503 this call got, when it waits because of it: its error if it cannot wait. */
  reason: APIError | undefined;
}
