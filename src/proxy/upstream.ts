/**
 * The route's side of the service: its own `Client` (made at the first request, so that a route
 * module imported at build time, without the key in its environment, does not throw), the
 * secrets it sends (every credential header's value, read from the requests themselves, so a key
 * from the environment or an `apiKey` function is known too), and the models' prices.
 */
import { Client, estimateCost } from 'model-inference-sdk';
import { isCredentialName, maskText, secretForms } from '../util/mask';
import type { Resolved } from './options';
import type { Priced } from './meter';

/** How long a model's price, as the upstream gave it, is used before it is asked again. */
const PRICE_TTL_MS = 10 * 60_000;

export class Upstream {
  readonly #options: Resolved;
  #client: Client | undefined;
  readonly #secrets = new Set<string>();
  /** The secrets in every form an upstream may echo them in (`secretForms`). */
  #forms: string[] = [];
  readonly #prices = new Map<string, { model: Promise<Priced>; expires: number }>();

  constructor(options: Resolved) {
    this.#options = options;
  }

  get client(): Client {
    if (this.#client) return this.#client;
    const given = this.#options.upstream;
    const inner: typeof fetch = given.fetch ?? ((input, init) => globalThis.fetch(input, init));
    // Each request's credentials are remembered before it goes out: whatever comes back (an
    // error that quotes the key, a completion id that echoes it) is masked with them.
    const capture: typeof fetch = (input, init) => {
      const headers = new Headers(
        init?.headers ?? (input instanceof Request ? input.headers : undefined),
      );
      const known = this.#secrets.size;
      headers.forEach((value, name) => {
        if (!isCredentialName(name)) return;
        this.#secrets.add(value);
        const bearer = /^\s*bearer\s+(.+)$/i.exec(value)?.[1]?.trim();
        if (bearer) this.#secrets.add(bearer);
      });
      if (this.#secrets.size > known) this.#forms = secretForms([...this.#secrets]);
      return inner(input, init);
    };
    this.#client = new Client({ ...given, fetch: capture });
    return this.#client;
  }

  /** `text` with every secret the route has sent replaced by `***`, in any form (`secretForms`). */
  mask(text: string): string {
    return maskText(text, this.#forms);
  }

  /** Whether `text` holds none of the secrets. */
  secretFree(text: string): boolean {
    return this.mask(text) === text;
  }

  /**
   * The model's price for the budget: the one in `models`, else the upstream's (`models.retrieve`,
   * kept ten minutes, shared by the requests that wait for it). `undefined` when it has none that
   * `estimateCost()` can use.
   */
  price(id: string): Promise<Priced> {
    const given = this.#options.models.get(id);
    if (given !== undefined) return Promise.resolve(usable(given));
    const cached = this.#prices.get(id);
    if (cached && cached.expires > Date.now()) return cached.model;
    const model = this.client.models.retrieve(id).then(
      (found) => usable({ id, pricing: found.pricing ?? [] }),
      (error: unknown) => {
        this.#prices.delete(id);
        throw error;
      },
    );
    this.#prices.set(id, { model, expires: Date.now() + PRICE_TTL_MS });
    return model;
  }
}

function usable(model: Priced): Priced {
  if (model === undefined) return undefined;
  try {
    estimateCost({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, model);
    return model;
  } catch {
    return undefined;
  }
}
