import { jsonCall } from '../call';
import { InferenceError } from '../errors';
import type { Model, ModelList } from '../generated/types.gen';
import { zModel, zModelList } from '../generated/zod.gen';
import type { APIPromise } from '../api-promise';
import { checkRequestOptions, type RequestOptions } from '../options';
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
   * `GET /models`: every model available to the caller's API key.
   *
   * @example
   * ```ts
   * for (const model of (await client.models.list()).data) console.log(model.id);
   * ```
   */
  list(options?: RequestOptions): APIPromise<ModelList> {
    checkRequestOptions(options, 'models.list');
    return jsonCall(this.#ctx, { method: 'GET', path: '/models', options }, zModelList);
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
    checkRequestOptions(options, 'models.retrieve');
    return jsonCall(this.#ctx, { method: 'GET', path: `/models/${encodeSlug(slug)}`, options }, zModel);
  }
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
      return encodeURIComponent(segment);
    })
    .join('/');
}
