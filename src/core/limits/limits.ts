/**
 * What the request path holds of the rate limiter before it is loaded: the client's `Limits` (the
 * limiter, shared with its copies, loaded with `import()` by their first call: a program that
 * imports the SDK and never calls it does not load or compile it) and the `Turn` an attempt asks
 * for. The limiter itself is limiter.ts.
 */
import type { APIError } from '../../errors/api';
import type { CallDescription } from '../call-description';
import type { Limiter } from './limiter';
import type { RateLimitSnapshot } from './snapshot';

/**
 * A cap on calls in flight (`maxConcurrency`), shared by a client and the copies that do not set
 * their own.
 */
export interface Pool {
  cap: number;
  inFlight: number;
}

/** A client's limiter, shared by its copies (loaded by the first call of any of them). */
export interface Limits {
  limiter?: Limiter;
  loading?: Promise<Limiter>;
  /** The `apiKey` option it is for (the string or the function): another key has its own limits. */
  key: unknown;
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

/** The limiter, loaded once for the client and its copies. */
export function limiterOf(limits: Limits): Limiter | Promise<Limiter> {
  return (
    limits.limiter ??
    (limits.loading ??= import('./limiter').then(({ Limiter }) => (limits.limiter = new Limiter())))
  );
}

/** What `client.rateLimits()` says: nothing is known before the first call. */
export function snapshotOf(limits: Limits, pool: Pool | undefined): RateLimitSnapshot {
  return (
    limits.limiter?.snapshot(pool) ?? {
      inFlight: 0,
      queued: 0,
      maxConcurrency: pool?.cap,
      models: {},
    }
  );
}
