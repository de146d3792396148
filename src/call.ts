/**
 * One JSON API call, start to finish: send (with retries) → validate → `APIPromise`.
 * Resources describe the call; this runs it.
 */
import type { ZodMiniType } from 'zod/mini';
import { APIPromise } from './api-promise';
import { readJSON, readNothing, send, type RequestContext, type RequestSpec } from './request';
import { validate } from './validate';

export function jsonCall<T>(ctx: RequestContext, spec: RequestSpec, schema: ZodMiniType<T>): APIPromise<T> {
  return new APIPromise<T>(async (raw) => {
    if (raw) return { response: await send(ctx, spec, readNothing) };
    const sent = await send(ctx, spec, readJSON);
    const data = validate(schema, sent.body, {
      mode: ctx.options.validation,
      log: ctx.log,
      target: sent.target,
      status: sent.response.status,
      headers: sent.response.headers,
    });
    return { data, response: sent.response };
  });
}
