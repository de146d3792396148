/**
 * The pre-flight check (client option `preflight`): before a completion is requested, compare
 * `max_tokens` / `max_completion_tokens` with the model's `max_output_length`, so that a request
 * the service would refuse (or silently cap) is caught at the call, not after a round trip and
 * a bill. Model limits are fetched once per model and cached on the client.
 *
 * The lookup is shared by every call for the model while it is pending, but each call waits for
 * it only within its own `timeout` and until its own `signal` aborts; when no call waits any
 * more, the lookup itself is cancelled. A lookup that fails or is too slow leaves the call
 * unchecked, never stuck.
 */
import { APIError, PreflightError } from '../errors/api';
import type { Model } from '../generated/types.gen';
import type { Log } from '../util/log';
import type { PreflightMode } from '../options/types';
import type { Wait } from '../util/wait';
import { within } from '../util/wait';

/** How long a model's limits are trusted before they are fetched again. */
const TTL_MS = 10 * 60 * 1000;

/** One lookup of a model's limits, shared by the calls waiting for it. */
interface Lookup {
  at: number;
  model: Promise<Model | undefined>;
  settled: boolean;
  /** Calls waiting for it now. */
  waiting: number;
  controller: AbortController;
}

/** Checks bodies against their model's limits; one per client. */
export class Preflight {
  readonly #cache = new Map<string, Lookup>();
  declare private readonly mode: PreflightMode;
  declare private readonly retrieve: (slug: string, signal: AbortSignal) => Promise<Model>;
  declare private readonly log: Log;

  constructor(
    mode: PreflightMode,
    retrieve: (slug: string, signal: AbortSignal) => Promise<Model>,
    log: Log,
  ) {
    this.mode = mode;
    this.retrieve = retrieve;
    this.log = log;
  }

  /**
   * Resolves when the body may be sent; rejects with `PreflightError` in mode `'error'`, or with
   * the signal's reason when the caller aborts while the limits are being fetched.
   */
  async check(
    body: { model?: unknown; max_tokens?: unknown; max_completion_tokens?: unknown },
    wait: Wait,
  ): Promise<void> {
    // Made only for mode 'warn' or 'error' (client.ts).
    if (typeof body.model !== 'string') return;
    const [param, requested] =
      typeof body.max_completion_tokens === 'number'
        ? (['max_completion_tokens', body.max_completion_tokens] as const)
        : typeof body.max_tokens === 'number'
          ? (['max_tokens', body.max_tokens] as const)
          : [undefined, undefined];
    if (param === undefined) return;
    const limit: unknown = (await this.#wait(body.model, wait))?.max_output_length;
    // Only a whole number of 1 or more is a limit: -1, 0, 1.5 or NaN from a server would refuse
    // every call, so the call goes out unchecked and the server decides.
    if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
      if (limit !== undefined)
        this.log.debug(
          `preflight: ${body.model} reports max_output_length ${typeof limit === 'number' ? String(limit) : `of type ${typeof limit}`}, not a limit; sending unchecked`,
        );
      return;
    }
    if (requested <= limit) return;
    const error = new PreflightError(body.model, param, requested, limit);
    if (this.mode === 'error') throw error;
    this.log.warn(error.message);
  }

  /** The model's limits, waiting for the shared lookup only as long as this caller may. */
  async #wait(slug: string, wait: Wait): Promise<Model | undefined> {
    const lookup = this.#lookup(slug);
    if (lookup.settled) return lookup.model;
    lookup.waiting++;
    try {
      const got = await within(lookup.model, wait.timeout, wait.signal);
      if (!got)
        this.log.debug(
          `preflight: no limits for ${slug} within ${wait.timeout} ms; sending unchecked`,
        );
      return got?.value;
    } finally {
      // Nobody else waits: cancel the lookup instead of letting it run for nobody.
      if (--lookup.waiting === 0 && !lookup.settled) {
        lookup.controller.abort();
        if (this.#cache.get(slug) === lookup) this.#cache.delete(slug);
      }
    }
  }

  #lookup(slug: string): Lookup {
    const hit = this.#cache.get(slug);
    if (hit && Date.now() - hit.at < TTL_MS) return hit;
    const controller = new AbortController();
    const lookup: Lookup = {
      at: Date.now(),
      model: undefined as never,
      settled: false,
      waiting: 0,
      controller,
    };
    // A model the server cannot describe (another server, no GET /models/{slug}) is not checked,
    // nor a slug models.retrieve() refuses (it rejects; it never throws).
    lookup.model = this.retrieve(slug, controller.signal).then(
      (model) => {
        lookup.settled = true;
        return model;
      },
      (error: unknown) => {
        lookup.settled = true;
        // An answer (404: no such model here) is kept; a failure to get one is tried again next time.
        const answered =
          error instanceof APIError &&
          error.status !== undefined &&
          error.status < 500 &&
          error.status !== 429 &&
          error.status !== 408;
        if (!answered && this.#cache.get(slug) === lookup) this.#cache.delete(slug);
        this.log.debug(`preflight: could not read the limits of ${slug}: ${String(error)}`);
        return undefined;
      },
    );
    this.#cache.set(slug, lookup);
    return lookup;
  }
}
