/**
 * One API call, start to finish: send (with retries) → validate → `APIPromise`, for a JSON
 * body or an event stream. Resources describe the call; this runs it.
 */
import { APIPromise } from './api-promise';
import { bodyError, InferenceError } from './errors';
import { readJSON, readNothing, send, type RequestContext, type RequestSpec } from './request';
import { readStream, type Stream } from './stream';
import { checker, type Schema } from './validate';

/**
 * One JSON API call: send (with retries) → validate → the typed body. `schema` is a zod schema
 * or a `LazySchema` (src/fast/schemas.ts). Validation runs inside the attempt, so that its errors
 * have the key masked like every other, and a check that crashes on a hostile body (nesting
 * deeper than a recursive walk survives) is a `ResponseValidationError` with the status, not a
 * connection error that would be retried.
 */
export function jsonCall<T>(ctx: RequestContext, spec: RequestSpec, schema: Schema<T>): APIPromise<T> {
  return new APIPromise<T>(async (raw) => {
    if (raw) return { response: await send(ctx, spec, readNothing) };
    return send(ctx, spec, async (sent) => {
      const { response, body, target } = await readJSON(sent);
      const context = { mode: ctx.options.validation, log: ctx.log, target, status: response.status, headers: response.headers };
      try {
        const checked = checker(schema, context)(body);
        const data = checked instanceof Promise ? await checked : checked;
        return { data, response };
      } catch (error) {
        if (error instanceof InferenceError) throw error;
        throw bodyError(target, response, `the body could not be checked (${String(error)})`, body, undefined, undefined);
      }
    });
  });
}

/** One streamed API call: send (retries until the first event) → a `Stream` of validated items. */
export function streamCall<T, S extends Stream<T>>(
  ctx: RequestContext,
  spec: RequestSpec,
  schema: Schema<T>,
  wrap: (source: () => AsyncIterator<T>, controller: AbortController) => S,
): APIPromise<S> {
  const streamed = { ...spec, stream: true };
  return new APIPromise<S>(async (raw) => {
    if (raw) return { response: await send(ctx, streamed, readNothing) };
    let response!: Response;
    const read = readStream<T>({
      schema,
      validation: ctx.options.validation,
      log: ctx.log,
      idleTimeout: spec.options?.streamIdleTimeout ?? ctx.options.streamIdleTimeout,
      wrap,
    });
    const data = await send(ctx, streamed, (sent) => {
      response = sent.response;
      return read(sent);
    });
    return { data: data as S, response };
  });
}
