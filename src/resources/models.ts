import { jsonCall } from '../call';
import { APIUserAbortError, InferenceError, ModelNotReadyError } from '../errors';
import { sleep } from '../wait';
import type { Model, ModelList } from '../generated/types.gen';
import { normalizeModel, normalizeModelList } from '../generated/normalize.gen';
import { PagePromise, type APIPromise } from '../api-promise';
import type { RequestOptions } from '../options';
import { checkRequestOptions } from '../options-check';
import type { RequestContext } from '../request';

/**
 * `client.models`: the models your key may use.
 *
 * @example
 * ```ts
 * const { data } = await client.models.list();
 * const model = await client.models.retrieve('acme/base-1');
 * ```
 */
export class Models {
  readonly #ctx: RequestContext;

  /** @internal */
  constructor(ctx: RequestContext) {
    this.#ctx = ctx;
  }

  /**
   * `GET /models`: every model available to the caller's API key. Await it for the list object,
   * or iterate it for the models.
   *
   * @example
   * ```ts
   * for await (const model of client.models.list()) console.log(model.id);
   * const { data } = await client.models.list();
   * ```
   */
  list(options?: RequestOptions): PagePromise<ModelList, Model> {
    checkRequestOptions(options, 'models.list', false);
    return jsonCall(this.#ctx, { method: 'GET', path: '/models', options }, normalizeModelList, PagePromise<ModelList, Model>);
  }

  /**
   * `GET /models/{slug}`: one model by its slug, `<vendor>/<model_name>`. The `/` stays a path
   * separator; each segment is percent-encoded.
   *
   * @throws InferenceError at the call site for an empty slug or an empty, `.` or `..` segment
   * (which would make the request leave `/models/`).
   * @example
   * ```ts
   * const model = await client.models.retrieve('acme/base-1');
   * console.log(model.context_length, model.is_ready);
   * ```
   */
  retrieve(slug: string, options?: RequestOptions): APIPromise<Model> {
    checkRequestOptions(options, 'models.retrieve', false);
    return jsonCall(this.#ctx, { method: 'GET', path: `/models/${encodeSlug(slug)}`, options }, normalizeModel);
  }

  /**
   * Poll `GET /models/{slug}` until the model reports `is_ready: true`, with backoff (1 s, 2 s,
   * 4 s … up to 30 s), and return it. A model without an `is_ready` field (other servers) counts
   * as ready. Errors of the requests themselves (404, 401 …) are thrown as they are; each poll
   * has the client's own `timeout` and retries.
   *
   * @throws ModelNotReadyError when `timeout` passes first; APIUserAbortError when `signal` aborts.
   * @example
   * ```ts
   * const model = await client.models.waitUntilReady('acme/chat-1', { timeout: 120_000 });
   * ```
   */
  async waitUntilReady(slug: string, options: WaitUntilReadyOptions = {}): Promise<Model> {
    const path = `/models/${encodeSlug(slug)}`;
    const timeout = options.timeout ?? 600_000;
    if (!(timeout >= 0)) throw new InferenceError('models.waitUntilReady: `timeout` must be a number of ms, 0 or more.');
    const started = Date.now();
    let pause = options.pollInterval ?? 1_000;
    for (;;) {
      const model = await this.retrieve(slug, { signal: options.signal });
      if (model.is_ready !== false) return model;
      const left = timeout - (Date.now() - started);
      if (left <= 0) throw new ModelNotReadyError(slug, Date.now() - started);
      try {
        await sleep(Math.min(pause, left), options.signal);
      } catch (reason) {
        throw new APIUserAbortError({ method: 'GET', path }, reason);
      }
      pause = Math.min(pause * 2, 30_000);
    }
  }
}

/**
 * Options of `models.waitUntilReady()`.
 *
 * @example
 * ```ts
 * const options: WaitUntilReadyOptions = { timeout: 120_000, signal: AbortSignal.timeout(150_000) };
 * await client.models.waitUntilReady('acme/chat-1', options);
 * ```
 */
export interface WaitUntilReadyOptions {
  /** Give up after this many ms with `ModelNotReadyError`. Default 600 000 (10 min). */
  timeout?: number | undefined;
  /** Stop waiting (rejects with `APIUserAbortError`). */
  signal?: AbortSignal | undefined;
  /** The first pause between polls, in ms; it doubles up to 30 s. Default 1 000. */
  pollInterval?: number | undefined;
}

/** `acme/base 1` → `acme/base%201`; rejects segments that would climb out of `/models/`. */
export function encodeSlug(slug: string): string {
  if (typeof slug !== 'string' || slug === '') {
    throw new InferenceError(`models.retrieve(slug): slug must be a non-empty string like "vendor/model"; got ${JSON.stringify(slug)}.`);
  }
  return slug
    .split('/')
    .map((segment) => {
      if (segment === '' || segment === '.' || segment === '..') {
        throw new InferenceError(
          `models.retrieve(slug): ${JSON.stringify(slug)} has an empty, "." or ".." segment; a slug looks like "vendor/model".`,
        );
      }
      try {
        return encodeURIComponent(segment);
      } catch {
        // URIError: a lone surrogate (half of an emoji, cut from a longer string) cannot be encoded.
        throw new InferenceError('models.retrieve(slug): the slug has a lone surrogate (half a UTF-16 character).');
      }
    })
    .join('/');
}
