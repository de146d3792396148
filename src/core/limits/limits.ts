/**
 * What the request path holds of the rate limiter before it is loaded: the client's `Limits` (the
 * limiter, shared with its copies, loaded with `import()` by their first call: a program that
 * imports the SDK and never calls it does not load or compile it) and the `Turn` an attempt asks
 * for. The limiter itself is limiter.ts.
 */
import type { Limiter } from './limiter';
import type { RateLimitSnapshot } from './snapshot';
import type { Pool } from './turn';

export type { Pool, Turn } from './turn';

/** A client's limiter, shared by its copies (loaded by the first call of any of them). */
export interface Limits {
  limiter?: Limiter;
  loading?: Promise<Limiter>;
  /** The `apiKey` option it is for (the string or the function): another key has its own limits. */
  key: unknown;
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
