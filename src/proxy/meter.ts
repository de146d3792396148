/**
 * Per-user limits, counted in the store: requests and tokens per rate-limit window, cost (in
 * nano-units of the price) per budget window. A request reserves its estimate before it is sent
 * (its prompt, as `estimatePromptTokens()` reads it, and its `max_tokens`, or `max_completion_tokens` if larger, for every choice), so
 * that concurrent requests of one user see each other at once; a reservation that passes a limit
 * is given back and the request refused. When the call ends, the reservation is settled with what
 * it used; a stream that outgrows it reserves more as it goes, and ends when a limit is passed.
 * Together: a user never spends more than the limit plus one request's estimate.
 */
import { estimateCost, type Model } from 'model-inference-sdk';
import { Refusal } from './errors';
import { toUnits, type Resolved } from './options';

/** A counter of one user: its key (with the window in it), its limit, its window. */
interface Counter {
  key: string;
  limit: number;
  ttlMs: number;
  /** When its window ends (ms since the epoch). */
  resets: number;
  kind: 'requests' | 'tokens' | 'cost';
}

/** A model with a usable price, or `undefined` when the route has no budget to check. */
export type Priced = Pick<Model, 'id' | 'pricing'> | undefined;

/** Tokens a stream reserves at a time once it has used its reservation. */
const TOP_UP = 256;

/**
 * `value` awaited at most 10 s: an app's callback that never settles (a store whose client queues
 * while its server is down, a session lookup that hangs) fails as if it had thrown, `what` naming it.
 */
export async function bounded<T>(value: T | Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      value,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not settle within 10 s`)), 10_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One increment, bounded. A count or a reservation (`undo`) that the route gave up on counts as
 * never made: if the store applies it after the 10 s, it is given back then. A settlement or a
 * give-back is not undone: landing late, it is what the user owes.
 */
async function increment(
  options: Resolved,
  c: Counter,
  amount: number,
  undo = false,
): Promise<number> {
  const store = options.store;
  const sent = (async () => store.increment(c.key, amount, c.ttlMs))();
  try {
    return await bounded(sent, `the store's increment (${c.key})`);
  } catch (error) {
    // Rejected: nothing was added. Timed out: it may land yet.
    if (undo) void sent.then(() => store.increment(c.key, -amount, c.ttlMs)).catch(() => {});
    throw error;
  }
}

function counter(
  options: Resolved,
  kind: Counter['kind'],
  user: string,
  windowMs: number,
  limit: number,
): Counter {
  const now = Date.now();
  const index = Math.floor(now / windowMs);
  return {
    key: `${options.storePrefix}${kind}:${windowMs}:${index}:${user}`,
    limit,
    // The counter outlives its window a little: a reservation settled just after it ends still finds it.
    ttlMs: (index + 1) * windowMs - now + 60_000,
    resets: (index + 1) * windowMs,
    kind,
  };
}

function refusal(c: Counter, alone: boolean): Refusal {
  const seconds = Math.max(1, Math.ceil((c.resets - Date.now()) / 1000));
  const headers: Record<string, string> = alone
    ? { 'x-should-retry': 'false' }
    : { 'retry-after': String(seconds), ...(seconds > 60 ? { 'x-should-retry': 'false' } : {}) };
  if (c.kind === 'cost')
    return new Refusal(
      429,
      'insufficient_quota',
      alone
        ? 'This request alone would cost more than your budget allows.'
        : `Your budget is spent; it renews in ${seconds} s.`,
      { code: 'insufficient_quota', headers },
    );
  return new Refusal(
    429,
    c.kind,
    alone
      ? `This request alone is over your limit of ${c.limit} ${c.kind} per window.`
      : `You are over your limit of ${c.limit} ${c.kind} per window; try again in ${seconds} s.`,
    { code: alone ? 'request_too_large' : 'rate_limit_exceeded', headers },
  );
}

export class Meter {
  readonly #options: Resolved;
  readonly #user: string;
  #price: Priced;
  #tokens: Counter | undefined;
  #cost: Counter | undefined;
  /** Reserved so far (tokens; cost in nano-units). */
  #reservedTokens = 0;
  #reservedUnits = 0;
  /** Completion tokens covered by the reservation. */
  #covered = 0;
  #settled = false;
  /** The top-up in flight, if any (settled before the settlement is counted). */
  #growing: Promise<unknown> = Promise.resolve();

  constructor(options: Resolved, user: string, price: Priced) {
    this.#options = options;
    this.#user = user;
    this.#price = price;
  }

  /** Counts the call at another model's price (a fallback answered); kept when it has none. */
  reprice(price: Priced): void {
    this.#price = price ?? this.#price;
  }

  /** Counts one request against the user's request limit; refuses past it. */
  static async request(options: Resolved, user: string): Promise<void> {
    const limit = options.rateLimit;
    if (limit === undefined || limit.requests === Infinity) return;
    const c = counter(options, 'requests', user, limit.windowMs, limit.requests);
    const total = await increment(options, c, 1, true);
    if (total > c.limit) throw refusal(c, false);
  }

  /** The cost of some tokens in nano-units, rounded up; 0 without a budget. */
  #units(prompt: number, completion: number): number {
    if (this.#price === undefined || this.#options.budget === undefined) return 0;
    const usage = {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    };
    return toUnits(estimateCost(usage, this.#price).total, 'up');
  }

  /** The cost of a usage, as a decimal string; `undefined` without a price. */
  cost(usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
  }): string | undefined {
    if (this.#price === undefined) return undefined;
    try {
      return estimateCost(usage, this.#price).total;
    } catch {
      return undefined;
    }
  }

  /** `reserving`: an amount the route takes back if it fails, so undone if it lands late. */
  async #add(c: Counter | undefined, amount: number, reserving = false): Promise<boolean> {
    if (c === undefined || amount === 0) return true;
    const total = await increment(this.#options, c, amount, reserving);
    return amount < 0 || total <= c.limit;
  }

  /** Reserves the request's estimate; throws a 429 `Refusal` (with nothing kept) past a limit. */
  async reserve(prompt: number, completion: number): Promise<void> {
    const { rateLimit, budget } = this.#options;
    if (rateLimit !== undefined && rateLimit.tokens !== Infinity)
      this.#tokens = counter(
        this.#options,
        'tokens',
        this.#user,
        rateLimit.windowMs,
        rateLimit.tokens,
      );
    if (budget !== undefined)
      this.#cost = counter(this.#options, 'cost', this.#user, budget.windowMs, budget.units);
    const tokens = prompt + completion;
    const units = this.#units(prompt, completion);
    for (const [c, amount] of [
      [this.#tokens, tokens],
      [this.#cost, units],
    ] as const) {
      if (c === undefined) continue;
      if (amount > c.limit) {
        await this.#giveBack();
        throw refusal(c, true);
      }
      let ok: boolean;
      try {
        ok = await this.#add(c, amount, true);
      } catch (error) {
        // A store failing half-way: what was reserved before it is given back, as on a refusal.
        await this.#giveBack().catch(() => {});
        throw error;
      }
      if (c === this.#tokens) this.#reservedTokens = amount;
      else this.#reservedUnits = amount;
      if (!ok) {
        await this.#giveBack();
        throw refusal(c, false);
      }
    }
    this.#covered = completion;
  }

  async #giveBack(): Promise<void> {
    await both(
      this.#add(this.#tokens, -this.#reservedTokens),
      this.#add(this.#cost, -this.#reservedUnits),
    );
    this.#reservedTokens = 0;
    this.#reservedUnits = 0;
  }

  /**
   * A stream has produced `completion` tokens so far: reserve more when it passes what was
   * reserved. `false` when that passes a limit (the stream must end).
   */
  async grow(completion: number): Promise<boolean> {
    if (completion <= this.#covered) return true;
    const more = Math.max(TOP_UP, completion - this.#covered);
    this.#covered += more;
    const units = this.#units(0, more);
    // Counted as reserved once the store has it: a store that throws leaves nothing to give back.
    // A top-up that fails is undone if it lands late (reserving), so it is not counted here.
    const grown = (async () => {
      const tokensOk = await this.#add(this.#tokens, this.#tokens ? more : 0, true);
      this.#reservedTokens += this.#tokens ? more : 0;
      const costOk = await this.#add(this.#cost, units, true);
      this.#reservedUnits += units;
      return tokensOk && costOk;
    })();
    this.#growing = grown.catch(() => {});
    return grown;
  }

  /** Replaces the reservation by what was used. Once; later calls do nothing. */
  async settle(prompt: number, completion: number): Promise<void> {
    if (this.#settled) return;
    this.#settled = true;
    // A top-up still on its way (the browser went away meanwhile) is part of what is replaced.
    await this.#growing;
    await both(
      this.#add(this.#tokens, this.#tokens ? prompt + completion - this.#reservedTokens : 0),
      this.#add(this.#cost, this.#units(prompt, completion) - this.#reservedUnits),
    );
  }
}

/** Waits for both; throws the first failure once both have settled (one counter's never skips the other's). */
async function both(a: Promise<unknown>, b: Promise<unknown>): Promise<void> {
  for (const result of await Promise.allSettled([a, b]))
    if (result.status === 'rejected') throw result.reason;
}
