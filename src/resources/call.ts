/**
 * One API call, start to finish: send (with retries) → normalize → `APIPromise`, for a JSON
 * body or an event stream. Resources describe the call (resources/describe.ts); this runs it.
 */
import { APIPromise, type Later, type Runner } from '../core/api-promise';
import { InferenceError } from '../errors/api';
import { bodyError } from '../errors/validation';
import type { CallDescription } from '../core/call-description';
import type { CallHooks } from '../options/hooks';
import type { RequestContext } from '../core/request';
import { readJSON, type Reader } from '../core/response';
import { send } from '../core/retry';
import type { EventReader } from '../stream/events';
import { readStream } from '../stream/read-stream';
import type { Stream } from '../stream/stream';
import { validator, type Normalizer } from '../core/validate';

/**
 * One JSON API call: send (with retries) → the body read into its documented shape (`normalize`).
 * `Kind` is the class of promise returned (`PagePromise` for a list). The body is read inside the
 * attempt, so that its errors have the key masked like every other, and a reading that crashes
 * on a hostile body is a `ResponseValidationError` with the status, not a connection error that
 * would be retried.
 */
export function jsonCall<T, P extends APIPromise<T> = APIPromise<T>>(
  ctx: RequestContext,
  call: CallDescription,
  normalize: Normalizer<T>,
  Kind: new (run: Runner<T>) => P = APIPromise as unknown as new (run: Runner<T>) => P,
): P {
  return new Kind(
    withHooks(ctx, call, async (raw, hooks) => {
      const read: Reader<{ data: T; response: Response }> = async (sent) => {
        const { response, body, text, target } = await readJSON(sent);
        const check = validator(normalize, {
          mode: ctx.options.validation,
          log: ctx.log,
          target,
          status: response.status,
          headers: response.headers,
        });
        try {
          return { data: check(body, text), response };
        } catch (error) {
          if (error instanceof InferenceError) throw error;
          throw bodyError(
            target,
            response,
            `the body could not be read (${String(error)})`,
            body,
            undefined,
            undefined,
          );
        }
      };
      if (raw)
        return send(
          ctx,
          call,
          readRaw(async (sent) => (await read(sent)).data),
          hooks,
        );
      return send(ctx, call, read, hooks);
    }),
  );
}

/**
 * The promise a method returns when its arguments are bad (the checks threw, nothing was sent):
 * rejected with that error, made at the call so that its stack names the caller. As openai's
 * methods do: `.catch()` and `.then()` chains see it, and `await` throws it. (Not a closure around
 * the call: one made in the method would keep the resource alive from the stream's callbacks.)
 */
export function rejected<P extends APIPromise<unknown>>(
  error: unknown,
  Kind: new (run: Runner<never>) => P = APIPromise as unknown as new (run: Runner<never>) => P,
): P {
  return new Kind(() => Promise.reject(error));
}

/** The events of a stream, each read by one normalizer and nothing else. */
export function eventsOf<T>(normalize: Normalizer<T>): EventReader<T> {
  return (context) => validator(normalize, context);
}

/** One streamed API call: send (retries until the first event) → a `Stream` of read events. */
export function streamCall<T, S extends Stream<T>>(
  ctx: RequestContext,
  call: CallDescription,
  read: EventReader<T>,
  wrap: (source: () => AsyncIterator<T>, controller: AbortController) => S,
): APIPromise<S> {
  return new APIPromise<S>(
    withHooks(ctx, call, async (raw, hooks) => {
      const reader = readStream<T>({
        read,
        validation: ctx.options.validation,
        log: ctx.log,
        idleTimeout: call.streamIdleTimeout,
        untilContent: call.fallbacks.length > 0,
        // With hooks, they follow the stream from its first chunk on (not after `asResponse()`:
        // the call, and its hooks, ended at the headers).
        wrap: hooks && !raw ? hooks.wrap(wrap) : wrap,
      });
      if (raw) return send(ctx, call, readRaw(reader as Reader<S>), hooks);
      let response!: Response;
      const data = await send(
        ctx,
        call,
        (sent) => {
          response = sent.response;
          return reader(sent);
        },
        hooks,
      );
      return { data: data as S, response };
    }),
  );
}

/**
 * `asResponse()`'s reader (resources/raw-response.ts), loaded by the first `asResponse()`: stop at
 * the headers, keep a copy of the body in case the promise is awaited too.
 */
function readRaw<T>(read: Reader<T>): Reader<{ response: Response; later: Later<T> }> {
  return async (sent) => (await import('./raw-response')).readRaw(read, sent);
}

/**
 * The call as it is without hooks (the only cost then: this check), or run by hooks/runner.ts,
 * loaded the first time a call has hooks: it gives `run` the call's hooks.
 */
function withHooks<T>(
  ctx: RequestContext,
  call: CallDescription,
  run: (raw: boolean, hooks: CallHooks | undefined) => ReturnType<Runner<T>>,
): Runner<T> {
  if (!ctx.options.hooks && !call.hooks) return (raw) => run(raw, undefined);
  return async (raw) => (await import('../hooks/runner')).runCall(ctx, call, raw, run);
}
