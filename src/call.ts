/**
 * One API call, start to finish: send (with retries) → normalize → `APIPromise`, for a JSON
 * body or an event stream. Resources describe the call; this runs it.
 */
import { APIPromise, type Runner } from './api-promise';
import { readJSON, readNothing, send, type RequestContext, type RequestSpec } from './request';
import { readStream, type EventReader, type Stream } from './stream';
import { validator, type Normalizer } from './validate';

/**
 * One JSON API call: send (with retries) → the body read into its documented shape (`normalize`).
 * `Kind` is the class of promise returned (`PagePromise` for a list).
 */
export function jsonCall<T, P extends APIPromise<T> = APIPromise<T>>(
  ctx: RequestContext,
  spec: RequestSpec,
  normalize: Normalizer<T>,
  Kind: new (run: Runner<T>) => P = APIPromise as unknown as new (run: Runner<T>) => P,
): P {
  return new Kind(async (raw) => {
    if (raw) return { response: await send(ctx, spec, readNothing) };
    const sent = await send(ctx, spec, readJSON);
    const check = validator(normalize, {
      mode: ctx.options.validation,
      log: ctx.log,
      target: sent.target,
      status: sent.response.status,
      headers: sent.response.headers,
    });
    return { data: check(sent.body, sent.text), response: sent.response };
  });
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
  const streamed = { ...spec, stream: true };
  return new APIPromise<S>(async (raw) => {
    if (raw) return { response: await send(ctx, streamed, readNothing) };
    let response!: Response;
    const reader = readStream<T>({
      read,
      validation: ctx.options.validation,
      log: ctx.log,
      idleTimeout: spec.options?.streamIdleTimeout ?? ctx.options.streamIdleTimeout,
      wrap,
    });
    const data = await send(ctx, streamed, (sent) => {
      response = sent.response;
      return reader(sent);
    });
    return { data: data as S, response };
  });
}
