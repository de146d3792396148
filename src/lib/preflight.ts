/**
 * The pre-flight check (client option `preflight`): before a completion is requested, compare
 * `max_tokens` / `max_completion_tokens` with the model's `max_output_length`, so that a request
 * the service would refuse (or silently cap) is caught at the call, not after a round trip and
 * a bill. Model limits are fetched once per model and cached on the client.
 */
import { PreflightError } from '../errors';
import type { Model } from '../generated/types.gen';
import type { Log } from '../log';

/**
 * `'off'` (default): no check. `'warn'`: log a warning and send. `'error'`: reject with `PreflightError`.
 *
 * @example
 * ```ts
 * const client = new Client({ preflight: 'warn' });
 * ```
 */
export type PreflightMode = 'off' | 'warn' | 'error';

/** How long a model's limits are trusted before they are fetched again. */
const TTL_MS = 10 * 60 * 1000;

/** Checks bodies against their model's limits; one per client. */
export class Preflight {
  readonly #cache = new Map<string, { at: number; model: Promise<Model | undefined> }>();

  constructor(
    private readonly mode: PreflightMode,
    private readonly retrieve: (slug: string) => Promise<Model>,
    private readonly log: Log,
  ) {}

  /** Resolves when the body may be sent; rejects with `PreflightError` in mode `'error'`. */
  async check(body: { model?: unknown; max_tokens?: unknown; max_completion_tokens?: unknown }): Promise<void> {
    if (this.mode === 'off' || typeof body.model !== 'string') return;
    const [param, requested] =
      typeof body.max_completion_tokens === 'number'
        ? (['max_completion_tokens', body.max_completion_tokens] as const)
        : typeof body.max_tokens === 'number'
          ? (['max_tokens', body.max_tokens] as const)
          : [undefined, undefined];
    if (param === undefined) return;
    const limit = (await this.#model(body.model))?.max_output_length;
    if (typeof limit !== 'number' || requested <= limit) return;
    const error = new PreflightError(body.model, param, requested, limit);
    if (this.mode === 'error') throw error;
    this.log.warn(error.message);
  }

  #model(slug: string): Promise<Model | undefined> {
    const hit = this.#cache.get(slug);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.model;
    // A model the server cannot describe (another server, no GET /models/{slug}) is not checked.
    const model = this.retrieve(slug).catch((error: unknown) => {
      this.log.debug(`preflight: could not read the limits of ${slug}: ${String(error)}`);
      return undefined;
    });
    this.#cache.set(slug, { at: Date.now(), model });
    return model;
  }
}
