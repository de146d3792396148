/**
 * One API call, start to finish: send (with retries) → validate → `APIPromise`, for a JSON
 * body or an event stream. Resources describe the call; this runs it.
 */
import { APIPromise } from './api-promise';
import { readJSON, readNothing, send, type RequestContext, type RequestSpec } from './request';
import { readStream, type Stream } from './stream';
import { checker, type Schema } from './validate';

/**
 * One JSON API call: send (with retries) → validate → the typed body. `schema` is a zod schema
 * or a `LazySchema` (src/fast/schemas.ts).
 */
export function jsonCall<T>(ctx: RequestContext, spec: RequestSpec, schema: Schema<T>): APIPromise<T> {
  return new APIPromise<T>(async (raw) => {
    if (raw) return { response: await send(ctx, spec, readNothing) };
    const sent = await send(ctx, spec, readJSON);
    const checked = checker(schema, {
      mode: ctx.options.validation,
      log: ctx.log,
      target: sent.target,
      status: sent.response.status,
      headers: sent.response.headers,
    })(sent.body);
    const data = checked instanceof Promise ? await checked : checked;
    return { data, response: sent.response };
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
