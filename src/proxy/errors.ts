/**
 * The route's answers when it refuses or fails: the service's error shape
 * (`{ "error": { "message", "type", "param"?, "code"? } }`) with a status a browser can act on.
 * An upstream failure is mapped to one of these by its kind alone: the upstream's own message,
 * URL and body never reach the browser (they may name the key, the host or the account).
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  ResponseValidationError,
} from 'model-inference-sdk';

/**
 * The service's error object, as the route sends it.
 *
 * @example
 * ```ts
 * import type { ProxyErrorBody } from 'model-inference-sdk/proxy';
 *
 * const refused: ProxyErrorBody = {
 *   error: { message: 'This route does not accept system messages.', type: 'permission_error', param: 'messages[0].role', code: 'role_not_allowed' },
 * };
 * ```
 */
export interface ProxyErrorBody {
  error: { message: string; type: string; param?: string; code?: string };
}

/** A refusal: thrown inside the route, answered as an error response. */
export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly extra: { param?: string; code?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }

  body(): ProxyErrorBody {
    const { param, code } = this.extra;
    return {
      error: {
        message: this.message,
        type: this.type,
        ...(param === undefined ? {} : { param }),
        ...(code === undefined ? {} : { code }),
      },
    };
  }
}

export const invalid = (message: string, param?: string, code?: string): Refusal =>
  new Refusal(400, 'invalid_request_error', message, {
    ...(param === undefined ? {} : { param }),
    ...(code === undefined ? {} : { code }),
  });

export const forbidden = (message: string, param: string, code: string): Refusal =>
  new Refusal(403, 'permission_error', message, { param, code });

export const modelNotFound = (param?: string): Refusal =>
  new Refusal(404, 'invalid_request_error', 'The model is not available on this API.', {
    ...(param === undefined ? {} : { param }),
    code: 'model_not_found',
  });

/** Headers of every answer: JSON or events, never cached, and the upstream request id when known. */
export function baseHeaders(contentType: string, requestId: string | undefined): Headers {
  const headers = new Headers({ 'content-type': contentType, 'cache-control': 'no-store' });
  if (requestId !== undefined) headers.set('x-request-id', requestId);
  return headers;
}

export function refusalResponse(refusal: Refusal, requestId?: string): Response {
  const headers = baseHeaders('application/json', requestId);
  for (const [name, value] of Object.entries(refusal.extra.headers ?? {})) headers.set(name, value);
  return new Response(JSON.stringify(refusal.body()), { status: refusal.status, headers });
}

/** A short identifier the upstream gave (`context_length_exceeded`), safe to pass on; else nothing. */
const identifier = (value: unknown): string | undefined =>
  typeof value === 'string' && /^[a-z][a-z0-9_.-]{0,63}$/i.test(value) ? value : undefined;

/**
 * What the browser is told of an upstream failure: a fixed message per kind, the status it
 * can act on (a 401 of the upstream is the app's key, not the visitor's: a 502), the upstream's
 * `code` and `param` when they are plain identifiers, and its wait (`retry-after`) on a 429.
 * `secretFree` says whether a string holds none of the route's secrets.
 */
export function upstreamRefusal(error: unknown, secretFree: (text: string) => boolean): Refusal {
  if (error instanceof Refusal) return error;
  if (error instanceof APIUserAbortError)
    return new Refusal(499, 'invalid_request_error', 'The request was cancelled.');
  if (error instanceof APIConnectionTimeoutError)
    return new Refusal(504, 'server_error', 'The model service did not answer in time.', {
      code: 'upstream_timeout',
    });
  if (error instanceof APIConnectionError)
    return new Refusal(502, 'server_error', 'The model service could not be reached.', {
      code: 'upstream_unavailable',
    });
  if (error instanceof ResponseValidationError)
    return new Refusal(
      502,
      'server_error',
      'The model service sent an answer the route could not read.',
      {
        code: 'upstream_invalid',
      },
    );
  // The route's own failure (its options, the app's `system` function): the app is told (onError).
  if (!(error instanceof APIError) || error.status === undefined)
    return new Refusal(500, 'server_error', 'The route failed.', { code: 'internal_error' });
  const status = error.status;
  const pass = (value: unknown) => {
    const id = identifier(value);
    return id !== undefined && secretFree(id) ? id : undefined;
  };
  const code = pass(error.code);
  const param = pass(error.param);
  const extra = {
    ...(code === undefined ? {} : { code }),
    ...(param === undefined ? {} : { param }),
  };
  if (status === 404) return modelNotFound('model');
  if (status === 429) {
    const headers: Record<string, string> = {};
    for (const name of ['retry-after', 'retry-after-ms']) {
      const value = error.headers?.get(name);
      if (value !== null && value !== undefined && /^\d{1,9}$/.test(value.trim()))
        headers[name] = value.trim();
    }
    return new Refusal(429, 'rate_limit_error', 'The model service is busy; try again later.', {
      ...extra,
      headers,
    });
  }
  if (status === 413)
    return new Refusal(
      413,
      'invalid_request_error',
      'The request is too large for the model service.',
      extra,
    );
  if (status === 400 || status === 409 || status === 422)
    return new Refusal(
      400,
      'invalid_request_error',
      'The model service refused the request.',
      extra,
    );
  if (status === 408 || status === 504)
    return new Refusal(504, 'server_error', 'The model service did not answer in time.', {
      code: 'upstream_timeout',
    });
  if (status === 401 || status === 403)
    return new Refusal(502, 'server_error', 'The route could not use the model service.', {
      code: 'upstream_auth',
    });
  return new Refusal(502, 'server_error', 'The model service failed.', { code: 'upstream_error' });
}
