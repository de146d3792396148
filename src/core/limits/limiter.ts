/**
 * The client's rate limiter, shared by its `withOptions()` copies; loaded with `import()` by the
 * client's first call (limits.ts). Every attempt takes a turn here before it is sent (`take()`),
 * and gives it back when it ends (`done()`, a stream's when the stream ends); each response
 * teaches the limiter what the server allows (`learn()`).
 *
 * What holds an attempt, per model (OpenAI and Groq count limits per model, and one model's limit
 * must not hold its fallback):
 * - a 429 or 503 with `retry-after`: every attempt, until then;
 * - rate-limit headers saying no request is left, or fewer tokens than the call's estimate (its
 *   body as sent and `max_tokens`, tokens.ts): until the reset, when it is at most
 *   `MAX_RETRY_AFTER_MS` away;
 * - a first contact: at most `FIRST_CONTACT` calls in flight until the first response says what
 *   the limits are, twice as many after each `FIRST_CONTACT_MS` without one (a slow generation),
 *   no bound after four: 60 calls made at once would otherwise all be sent before the server
 *   could say. A first answer without rate-limit headers says nothing of them: the bound then
 *   grows by one with each answer, as after a 429;
 * - after a 429 or 503: one call in flight, then one more with each answer that is not one (twice
 *   as many each round trip), so that calls do not retry in lockstep (TCP's slow start); none of
 *   this once nobody waits. When a call sent after the last 429 was known draws a 429
 *   too, its `retry-after` was the server's pace (a token bucket's time to its next token, not a
 *   window's reset): while calls wait, one goes every that many ms, twice as long after a 429 to
 *   a call so paced, a twentieth shorter after each answer that is not one (a 503's wait is an
 *   outage's: it sets no pace);
 * - `maxConcurrency`: the calls in flight of the client (its `Pool`).
 *
 * Waiting calls keep their order (first in, first out, per model and per pool); each leaves with
 * its `signal` or at its deadline, taking its listener with it, and one timer serves them all,
 * cleared when nobody waits. A call that could only go after its deadline fails at once. When
 * nothing holds an attempt, `take()` answers at once: a map lookup and a few comparisons.
 *
 * What it knows of each model, and what follows from that, is in bucket.ts.
 */
import type { CallDescription } from '../call-description';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  RateLimitError,
  type APIError,
} from '../../errors/api';
import { onAbort } from '../../util/signals';
import { readLimits } from './headers';
import { MAX_RETRY_AFTER_MS } from './retry-after';
import type { Pool, Turn } from './turn';
import type { ModelRateLimits, RateLimitSnapshot } from './snapshot';
import {
  estimate,
  firstContact,
  holds,
  merge,
  newBucket,
  refresh,
  wait,
  type Bucket,
} from './bucket';

/** After a 429, the calls in flight allowed grow by doubling; from this many on, no bound. */
const OPEN = 64;
/**
 * Waits of a server's announced limit a call makes without using up `maxRetries`, at most: a
 * server that answers 429 with a 1 ms `retry-after` for ever cannot make a call loop for ever.
 */
const FREE_WAITS = 8;

interface Waiter extends Turn {
  bucket: Bucket;
  /** The call's token estimate, when the model's token limit is known. */
  tokens: number;
  deadline: number;
  /** This attempt's number among the model's admitted attempts. */
  seq: number;
  /** Admitted while the model recovered from a 429 (its window bounded). */
  recovering: boolean;
  /** Leaves the queue: with its turn, or with the error it fails with. */
  end(result: Slot | Error): void;
  /** It left (aborted): the next drain drops it from the queue. */
  gone?: boolean;
}

/** An attempt's turn: given back once (`done()`), whatever ends the attempt. */
export class Slot {
  constructor(
    private readonly limiter: Limiter,
    private readonly waiter: Waiter,
    /**
     * Gives the turn back (once; later calls do nothing). It holds the limiter and the model's
     * counts only, nothing of the call: a stream dropped unread is watched with it
     * (stream/events.ts), and what a finalizer holds is never collected.
     */
    readonly done: () => void,
  ) {}

  /** A response arrived (its headers): what it says of the limits. */
  learn(status: number, headers: Headers): void {
    if (this.waiter.respect) this.limiter.learn(this.waiter, status, headers);
  }

  /**
   * Milliseconds the call waits, free, after `error` (0: it does not): a 429 or 503 whose
   * `retry-after`, or what now holds the model, the client waits out with every other call,
   * without using up `maxRetries`; `free` such waits so far. At most `FREE_WAITS`, and none when
   * `maxRetries` is 0 (then nothing is sent again).
   */
  held(error: unknown, free: number, maxRetries: number): number {
    const now = Date.now();
    const { status, headers } = error as APIError;
    return this.waiter.respect &&
      (status === 429 || status === 503) &&
      free < FREE_WAITS &&
      maxRetries
      ? Math.max(wait(headers, now) ?? 0, holds(this.waiter.bucket, now) - now)
      : 0;
  }
}

export class Limiter {
  readonly #buckets = new Map<string, Bucket>();
  #queue: Waiter[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The drain due at the next microtask (`#later()`), if one is. */
  #soon: Promise<void> | undefined;

  /** The attempt's turn: at once when nothing holds it, else a promise of it, in order. */
  take(turn: Turn): Slot | Promise<Slot> {
    const waiter = turn as Waiter;
    const bucket = (waiter.bucket = this.#bucket(turn.call));
    const now = Date.now();
    waiter.tokens = turn.respect && bucket.tokens ? estimate(turn.call) : 0;
    waiter.deadline = now + turn.wait;
    if (!this.#queue.length && !this.#open(waiter, now) && !full(turn.pool))
      return this.#admit(waiter);
    const { signal, target } = turn.call;
    return new Promise<Slot>((resolve, reject) => {
      if (signal?.aborted) return reject(new APIUserAbortError(target, signal.reason));
      // One listener on a signal however many calls wait on it (util/signals.ts).
      const release = onAbort(signal, () => {
        if (waiter.gone) return;
        waiter.end(new APIUserAbortError(target, signal!.reason));
        this.#later();
      });
      waiter.end = (result) => {
        waiter.gone = true;
        release();
        bucket.queued--;
        (result instanceof Slot ? resolve : reject)(result as Slot);
      };
      bucket.queued++;
      this.#queue.push(waiter);
      this.#later();
    });
  }

  /**
   * A drain at the next microtask, one for all the calls that join or leave the queue meanwhile:
   * 10,000 calls made at once, or aborted by one signal, walked the whole queue each (seconds of
   * CPU, quadratic).
   */
  #later(): void {
    if (!this.#soon)
      this.#soon = Promise.resolve().then(() => {
        this.#soon = undefined;
        this.#drain();
      });
  }

  /** What a response says: the limits it announces, a 429's wait, the end of a first contact. */
  learn(waiter: Waiter, status: number, headers: Headers): void {
    const bucket = waiter.bucket;
    const now = Date.now();
    const limited = status === 429 || status === 503;
    // A first answer without a count of what remains says only that one more call may go: the
    // calls that wait follow the first contact's bound up, one more with each answer.
    if (bucket.first && !limited && bucket.queued) bucket.window = firstContact(bucket, now, true);
    bucket.first = 0;
    const { requests, tokens } = readLimits(headers, now);
    if (requests) {
      // Attempts admitted after this one may have reached the server after it answered.
      requests.remaining = Math.max(0, requests.remaining - (bucket.sent - waiter.seq));
      bucket.requests = merge(bucket.requests, requests, now);
      // What is left is known: no need to guess a window or a pace.
      if (!limited && requests.remaining > 0) bucket.window = Infinity;
      if (!limited) bucket.gap = 0;
    }
    if (tokens) bucket.tokens = merge(bucket.tokens, tokens, now);
    if (limited) {
      bucket.window = 1;
      const ms = wait(headers, now);
      if (ms) {
        if (now + ms > bucket.until) {
          bucket.until = now + ms;
          bucket.headers = headers;
        }
        // Only a call sent after the last 429 was known tells of the pace: those sent before it
        // answer 429 together, and would slow the pace down once each. A 503's wait is an
        // outage's, not a pace: paced by it, 60 calls took 20 s to go once the server was back.
        if (status === 429 && waiter.recovering && waiter.seq > bucket.limited)
          bucket.gap = Math.min(MAX_RETRY_AFTER_MS, Math.max(ms, bucket.gap * 2));
      }
      bucket.limited = bucket.sent;
    } else if (!bucket.queued) {
      bucket.window = Infinity;
      bucket.gap = 0;
    } else {
      // One more with each answer: twice as many each round trip (TCP's slow start).
      bucket.window = bucket.window + 1 >= OPEN ? Infinity : bucket.window + 1;
      bucket.gap *= 0.95;
    }
    this.release();
  }

  /** A turn was given back, or something was learned: let the waiters that may go, go. */
  release(): void {
    if (this.#queue.length) this.#drain();
  }

  snapshot(pool: Pool | undefined): RateLimitSnapshot {
    const now = Date.now();
    let inFlight = 0;
    let queued = 0;
    // Entries, not assignments: `models['__proto__'] = …` would set the object's prototype.
    const models: Record<string, ModelRateLimits> = Object.fromEntries(
      [...this.#buckets].map(([key, bucket]) => {
        inFlight += bucket.inFlight;
        queued += bucket.queued;
        return [
          key,
          {
            requests: view(bucket, 'requests', now),
            tokens: view(bucket, 'tokens', now),
            retryAt: bucket.until > now ? bucket.until : undefined,
            queued: bucket.queued,
            inFlight: bucket.inFlight,
          },
        ];
      }),
    );
    return { inFlight, queued, maxConcurrency: pool?.cap, models };
  }

  /**
   * 0 when nothing of its model holds the waiter (its pool aside); else when to look again (epoch
   * ms; `Infinity`: when one of the model's calls ends or answers).
   */
  #open(waiter: Waiter, now: number): number {
    const bucket = waiter.bucket;
    if (!waiter.respect) return 0;
    return (
      holds(bucket, now, waiter.tokens) ||
      (bucket.gap && now < bucket.next ? bucket.next : 0) ||
      // No request left and its reset passed: an answer in flight will say more.
      (bucket.requests?.remaining === 0 && bucket.inFlight ? Infinity : 0) ||
      (bucket.first ? firstContact(bucket, now) : bucket.inFlight >= bucket.window ? Infinity : 0)
    );
  }

  #admit(waiter: Waiter): Slot {
    const { bucket, pool, respect } = waiter;
    bucket.inFlight++;
    if (pool) pool.inFlight++;
    waiter.recovering = bucket.window < Infinity;
    waiter.seq = ++bucket.sent;
    if (respect) {
      if (bucket.requests) bucket.requests.remaining = Math.max(0, bucket.requests.remaining - 1);
      if (bucket.tokens)
        bucket.tokens.remaining = Math.max(0, bucket.tokens.remaining - waiter.tokens);
      if (bucket.gap) bucket.next = Date.now() + bucket.gap;
    }
    let ended = false;
    const done = () => {
      if (ended) return;
      ended = true;
      bucket.inFlight--;
      if (pool) pool.inFlight--;
      this.release();
    };
    return new Slot(this, waiter, done);
  }

  /**
   * Let go every waiter that may go, in order: one held by its model holds the later ones of that
   * model, one held by its pool the later ones of that pool. A waiter past its deadline, or whose
   * model is held until after it, leaves with its error. Then the one timer for the next moment
   * something may change (none when nobody waits).
   */
  #drain(): void {
    const now = Date.now();
    const held = new Set<Bucket | Pool>();
    const waiting: Waiter[] = [];
    let next = Infinity;
    for (const waiter of this.#queue) {
      if (waiter.gone) continue;
      const { bucket, pool, respect, call } = waiter;
      const skip = (respect && held.has(bucket)) || (pool !== undefined && held.has(pool));
      const at = skip ? 0 : this.#open(waiter, now);
      if (!skip && !at && !full(pool)) {
        waiter.end(this.#admit(waiter));
        continue;
      }
      const limit = respect ? holds(bucket, now, waiter.tokens) : 0;
      if (limit > waiter.deadline || now >= waiter.deadline) {
        waiter.end(
          waiter.reason ??
            (limit
              ? new RateLimitError(
                  429,
                  `429 ${call.target.method} ${call.target.path}: the server's rate limit${call.model ? ` for ${call.model}` : ''} lets this call go in ${Math.ceil((limit - now) / 1000)} s, after its timeout (${call.timeout} ms); it was not sent`,
                  { headers: bucket.headers },
                )
              : new APIConnectionTimeoutError(call.target, call.timeout, 'queue')),
        );
        continue;
      }
      if (!skip) held.add(at ? bucket : pool!);
      waiting.push(waiter);
      next = Math.min(next, at || Infinity, waiter.deadline);
    }
    this.#queue = waiting;
    clearTimeout(this.#timer);
    this.#timer = waiting.length ? setTimeout(() => this.#drain(), next - now) : undefined;
  }

  #bucket(call: CallDescription): Bucket {
    // Completions are limited per model; everything else (models.list, retrieve) together.
    const key =
      call.operation === 'chat' || call.operation === 'completions' ? (call.model ?? '') : '';
    let bucket = this.#buckets.get(key);
    if (!bucket) this.#buckets.set(key, (bucket = newBucket()));
    return bucket;
  }
}

/** The model's window of that kind as `client.rateLimits()` shows it. */
function view(bucket: Bucket, kind: 'requests' | 'tokens', now: number) {
  const window = refresh(bucket, kind, now);
  return window && { limit: window.limit, remaining: window.remaining, resetAt: window.reset };
}

/** Whether a pool is at its cap. */
function full(pool: Pool | undefined): boolean {
  return pool !== undefined && pool.inFlight >= pool.cap;
}
