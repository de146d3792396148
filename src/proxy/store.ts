/**
 * Where the route keeps its per-user counters: one operation, an atomic increment of a counter
 * that lives for a given time. The route makes fixed windows of it by putting the window's number
 * in the key (`req:28934:user-1`), so a store needs no notion of windows, and a reservation
 * settled after its window ended adds to that window's counter, never to the next one's.
 *
 * Redis does it in two commands (`INCRBY key n` then `PEXPIRE key ttl NX`, in one MULTI), so a
 * store shared by every instance of an app is a few lines (docs/route.md).
 */

/**
 * The counters of the route's rate limits and budgets. `increment` must be atomic: two requests
 * of one user at once must each see the other's amount, or both could pass a limit.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { ProxyStore } from 'model-inference-sdk/proxy';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).connect();
 * const store: ProxyStore = {
 *   async increment(key, amount, ttlMs) {
 *     const [total] = await redis.multi().incrBy(key, amount).pExpire(key, ttlMs, 'NX').exec();
 *     return Number(total);
 *   },
 * };
 * ```
 */
export interface ProxyStore {
  /**
   * Add `amount` (a whole number; negative when a reservation is given back) to the counter
   * `key`, and give its new total. A counter that does not exist starts at 0, and is dropped
   * `ttlMs` milliseconds after it was created (later increments do not extend it). A throw, a
   * rejection, or no answer within 10 s fails the route's request (a 500, told to `onError`);
   * a count or a reservation that is applied after the 10 s is given back then (an increment of
   * `-amount`), a settlement is not.
   */
  increment(key: string, amount: number, ttlMs: number): number | Promise<number>;
}

/** Counters at least this many are swept for expired ones no more often than this many writes. */
const SWEEP_EVERY = 1_000;

/**
 * The default store: counters in this process's memory. Expired counters are dropped as new ones
 * come (a sweep every thousand new keys, amortized), so memory follows the users active in the
 * current windows, not every user ever seen. Each process (each serverless instance, each Worker
 * isolate) has its own counters: share one store (Redis, a database) when the app runs on several.
 *
 * @example
 * ```ts
 * import { createProxy, memoryStore } from 'model-inference-sdk/proxy';
 *
 * const store = memoryStore(); // what createProxy() uses when no `store` is given
 * const handler = createProxy({ models: ['acme/chat-1'], store });
 * ```
 */
export function memoryStore(): ProxyStore & {
  /** Counters held now (expired ones may linger until the next sweep). */
  readonly size: number;
} {
  const counters = new Map<string, { total: number; expires: number }>();
  let created = 0;
  const sweep = (now: number): void => {
    for (const [key, counter] of counters) if (counter.expires <= now) counters.delete(key);
  };
  return {
    get size() {
      return counters.size;
    },
    increment(key, amount, ttlMs) {
      const now = Date.now();
      let counter = counters.get(key);
      if (counter === undefined || counter.expires <= now) {
        if (++created % SWEEP_EVERY === 0) sweep(now);
        counter = { total: 0, expires: now + ttlMs };
        counters.set(key, counter);
      }
      counter.total += amount;
      return counter.total;
    },
  };
}
