import { jsonCall, rejected } from './call';
import type { CallDescription } from '../core/call-description';
import { APIError, APIUserAbortError, InferenceError, ModelNotReadyError } from '../errors/api';
import { link } from '../util/signals';
import { sleep } from '../util/wait';
import type { Model, ModelList } from '../generated/types.gen';
import { normalizeModel, normalizeModelList } from '../generated/normalize.gen';
import { PagePromise, type APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../options/types';
import type { RequestContext } from '../core/request';
import { describeCall } from './describe';
import { checkTimeout } from '../options/check';

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
    let call: CallDescription;
    try {
      call = describeCall(this.#ctx, {
        operation: 'models.list',
        name: 'models.list',
        method: 'GET',
        path: '/models',
        options,
      });
    } catch (error) {
      return rejected(error, PagePromise<ModelList, Model>);
    }
    return jsonCall(this.#ctx, call, normalizeModelList, PagePromise<ModelList, Model>);
  }

  /**
   * `GET /models/{slug}`: one model by its slug, `<vendor>/<model_name>`. The `/` stays a path
   * separator; each segment is percent-encoded. An id that is a file path, as llama.cpp and vLLM
   * list their model (`/models/qwen.gguf`), goes as one segment with its `/` encoded, as the
   * official client sends ids: `/models/%2Fmodels%2Fqwen.gguf`.
   *
   * Rejects with an `InferenceError`, before anything is sent, for an empty slug, `.`, or a slug with a `..` segment
   * (which could make the request leave `/models/`).
   * @example
   * ```ts
   * const model = await client.models.retrieve('acme/base-1');
   * console.log(model.context_length, model.is_ready);
   * ```
   */
  retrieve(slug: string, options?: RequestOptions): APIPromise<Model> {
    let call: CallDescription;
    try {
      call = describeCall(this.#ctx, {
        operation: 'models.retrieve',
        name: 'models.retrieve',
        method: 'GET',
        path: `/models/${encodeSlug(slug, 'models.retrieve')}`,
        options,
        model: slug,
      });
    } catch (error) {
      return rejected(error);
    }
    return jsonCall(this.#ctx, call, normalizeModel);
  }

  /**
   * Poll `GET /models/{slug}` until the model reports `is_ready: true`, with backoff (1 s, 2 s,
   * 4 s … up to 30 s), and return it. A model without an `is_ready` field (other servers) counts
   * as ready; a 503 (a server still loading the model) counts as not ready yet. Other errors of
   * the requests (404, 401 …) are thrown as they are. `timeout` bounds the whole wait, the polls
   * included: a server that stalls, or answers 503 with `retry-after: 30`, cannot hold it longer.
   *
   * @throws InferenceError at once for a `timeout` (0 to 2147483647 ms) or `pollInterval` (1 to
   * 2147483647 ms) out of range, `NaN` included; ModelNotReadyError when `timeout` passes first;
   * APIUserAbortError when `signal` aborts.
   * @example
   * ```ts
   * const model = await client.models.waitUntilReady('acme/chat-1', { timeout: 120_000 });
   * ```
   */
  async waitUntilReady(slug: string, options: WaitUntilReadyOptions = {}): Promise<Model> {
    const path = `/models/${encodeSlug(slug, 'models.waitUntilReady')}`;
    const timeout = checkTimeout(options.timeout ?? 600_000, 'timeout', 'models.waitUntilReady');
    let pause = checkTimeout(
      options.pollInterval ?? 1_000,
      'pollInterval',
      'models.waitUntilReady',
      1,
    );
    const userSignal = options.signal;
    if (userSignal?.aborted)
      throw new APIUserAbortError({ method: 'GET', path }, userSignal.reason);

    // One signal for the polls and the pauses: it aborts at the deadline or when the caller's does,
    // so neither a stalled poll nor a retry waiting out `retry-after` outlives `timeout`.
    const started = Date.now();
    const stop = link([userSignal], { ms: timeout });
    // What the last poll that finished said (a poll cut off by the deadline says nothing new).
    let why: string | undefined;
    let lastError: unknown;
    try {
      for (;;) {
        try {
          const model = await this.retrieve(slug, { signal: stop.signal });
          if (model.is_ready !== false) return model;
          why = 'is_ready stayed false';
          lastError = undefined;
        } catch (error) {
          if (stop.signal.aborted) {
            why ??= 'the last poll had not finished: the server stalled or asked to retry later';
          } else if (error instanceof APIError && error.status === 503) {
            why = 'the server answered 503, still loading';
            lastError = error;
          } else throw error;
        }
        if (!stop.signal.aborted) {
          // The deadline's abort ends this pause early; the checks below then say why.
          await sleep(Math.min(pause, timeout - (Date.now() - started)), stop.signal).catch(
            () => {},
          );
          pause = Math.min(pause * 2, Math.max(30_000, pause));
        }
        if (userSignal?.aborted)
          throw new APIUserAbortError({ method: 'GET', path }, userSignal.reason);
        if (stop.signal.aborted || Date.now() - started >= timeout)
          throw new ModelNotReadyError(slug, Date.now() - started, why, lastError);
      }
    } finally {
      stop.release();
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
  /** Give up after this many ms with `ModelNotReadyError`, polls included: 0 to 2147483647. Default 600 000 (10 min). */
  timeout?: number | undefined;
  /** Stop waiting (rejects with `APIUserAbortError`). */
  signal?: AbortSignal | undefined;
  /** The first pause between polls, in ms: 1 to 2147483647. It doubles up to 30 s (or stays, if longer). Default 1 000. */
  pollInterval?: number | undefined;
}

/**
 * The path of a model id under `/models/`, safe to send.
 *
 * - The service's ids go segment by segment, each percent-encoded: `acme/base 1` → `acme/base%201`
 *   (so `/models/acme/base%201`, as the service routes them).
 * - An id that cannot (an empty or `.` segment: a file path such as llama.cpp's and vLLM's
 *   `/models/qwen.gguf` or `./qwen.gguf`) goes as ONE segment with every `/` encoded, as the
 *   official client sends any id: `%2Fmodels%2Fqwen.gguf`. No URL parser can resolve anything in it.
 * - Refused: an empty id, `.`, and an id with a `..` segment (`/` or `\\` separated): a proxy that
 *   decodes `%2F` before resolving dot segments (nginx does) would otherwise leave `/models/`.
 */
export function encodeSlug(slug: string, method = 'models.retrieve'): string {
  if (typeof slug !== 'string' || slug === '' || slug === '.') {
    throw new InferenceError(
      `${method}(slug): slug must be a model id like "vendor/model"; got ${JSON.stringify(slug)}.`,
    );
  }
  const segments = slug.split('/');
  if (slug.split(/[/\\]/).includes('..')) {
    throw new InferenceError(
      `${method}(slug): ${JSON.stringify(slug)} has a ".." segment, which could leave /models/; a slug looks like "vendor/model".`,
    );
  }
  try {
    return segments.some((segment) => segment === '' || segment === '.')
      ? encodeURIComponent(slug)
      : segments.map(encodeURIComponent).join('/');
  } catch {
    // URIError: a lone surrogate (half of an emoji, cut from a longer string) cannot be encoded.
    throw new InferenceError(
      `${method}(slug): the slug has a lone surrogate (half a UTF-16 character).`,
    );
  }
}
