/**
 * One API call, start to finish: send (with retries) → normalize → `APIPromise`, for a JSON
 * body or an event stream. Resources describe the call; this runs it.
 */
import { APIPromise, type Runner } from './api-promise';
import { InferenceError } from './errors';
import { bodyError } from './validation-error';
import type { RequestContext, RequestSpec } from './request';
import { readJSON, readNothing } from './response';
import { send } from './retry';
import { readStream, type EventReader } from './stream/events';
import type { Stream } from './stream/stream';
import { validator, type Normalizer } from './validate';

/**
 * One JSON API call: send (with retries) → the body read into its documented shape (`normalize`).
 * `Kind` is the class of promise returned (`PagePromise` for a list). The body is read inside the
 * attempt, so that its errors have the key masked like every other, and a reading that crashes
 * on a hostile body is a `ResponseValidationError` with the status, not a connection error that
 * would be retried.
 */
export function jsonCall<T, P extends APIPromise<T> = APIPromise<T>>(
  ctx: RequestContext,
  spec: RequestSpec,
  normalize: Normalizer<T>,
  Kind: new (run: Runner<T>) => P = APIPromise as unknown as new (run: Runner<T>) => P,
): P {
  return new Kind(withHooks(ctx, spec, async (raw, spec) => {
    if (raw) return { response: await send(ctx, spec, readNothing) };
    return send(ctx, spec, async (sent) => {
      const { response, body, text, target } = await readJSON(sent);
      const check = validator(normalize, { mode: ctx.options.validation, log: ctx.log, target, status: response.status, headers: response.headers });
      try {
        return { data: check(body, text), response };
      } catch (error) {
        if (error instanceof InferenceError) throw error;
        throw bodyError(target, response, `the body could not be read (${String(error)})`, body, undefined, undefined);
      }
    });
  }));
}

/** The events of a stream, each read by one normalizer and nothing else. */
export function eventsOf<T>(normalize: Normalizer<T>): EventReader<T> {
  return (context) => validator(normalize, context);
}

/** One streamed API call: send (retries until the first event) → a `Stream` of read events. */
export function streamCall<T, S extends Stream<T>>(
  ctx: RequestContext,
  spec: RequestSpec,
  read: EventReader<T>,
  wrap: (source: () => AsyncIterator<T>, controller: AbortController) => S,
): APIPromise<S> {
  return new APIPromise<S>(withHooks(ctx, { ...spec, stream: true }, async (raw, streamed) => {
    if (raw) return { response: await send(ctx, streamed, readNothing) };
    let response!: Response;
    const reader = readStream<T>({
      read,
      validation: ctx.options.validation,
      log: ctx.log,
      idleTimeout: spec.options?.streamIdleTimeout ?? ctx.options.streamIdleTimeout,
      // With hooks, they follow the stream from its first chunk on.
      wrap: streamed.call ? streamed.call.wrap(wrap) : wrap,
    });
    const data = await send(ctx, streamed, (sent) => {
      response = sent.response;
      return reader(sent);
    });
    return { data: data as S, response };
  }));
}

/**
 * The call as it is without hooks (the only cost then: this check), or run by hook-runner.ts,
 * loaded the first time a call has hooks: it gives `run` the spec with the call's hooks.
 */
function withHooks<T>(ctx: RequestContext, spec: RequestSpec, run: (raw: boolean, spec: RequestSpec) => ReturnType<Runner<T>>): Runner<T> {
  if (!ctx.options.hooks && !spec.options?.hooks) return (raw) => run(raw, spec);
  return async (raw) => (await import('./hook-runner')).runCall(ctx, spec, raw, run);
}
