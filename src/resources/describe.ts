/**
 * `describeCall()`: the one place where a call becomes its description (call-description.ts). The
 * checks that can fail at the call site run here, so that bad input throws where the caller made
 * it and nothing is sent: the request options, the body with the client's `defaultBody` and the
 * request's `extraBody` added, the body serialised. Every per-call setting is resolved over the
 * client's once; the request path, the hooks and telemetry read the result.
 */
import type { CallDescription } from '../core/call-description';
import { InferenceError, type RequestTarget } from '../errors/api';
import type { HookOperation } from '../options/hooks';
import type { RequestOptions } from '../options/types';
import { checkRequestOptions } from '../options/check';
import { buildURL, type RequestContext } from '../core/request';
import { withExtraBody } from './extra-body';

/** What a resource says of one call. */
export interface CallSite {
  operation: HookOperation;
  /** The method the caller called, for messages: `chat.completions.create`. */
  name: string;
  method: 'GET' | 'POST';
  /** Percent-encoded, under the base URL. */
  path: string;
  options: RequestOptions | undefined;
  /** The parameters (checked by the resource); absent for a call without a body. */
  body?: object;
  /** What goes on the wire for the body as sent, when it differs from it (chat: a reply's message pushed back loses the SDK's fields). */
  wire?: (body: object) => unknown;
  /** The model, when not `body.model` (`models.retrieve`: its id). */
  model?: string;
  /** The options were checked at a helper's call site (`parse()`, `stream()`): not again here. */
  checked?: boolean | undefined;
}

export function describeCall(ctx: RequestContext, site: CallSite): CallDescription {
  const { options: client } = ctx;
  const options = site.options ?? {};
  if (!site.checked) checkRequestOptions(site.options, site.name, site.body !== undefined);
  const body =
    site.body === undefined
      ? undefined
      : withExtraBody(site.body, client.defaultBody, options.extraBody, site.name);
  const url = buildURL(client.baseURL, site.path, client.defaultQuery, options.query);
  const parsed = new URL(url);
  const target: RequestTarget = {
    method: site.method,
    path: parsed.pathname,
    host: `${parsed.hostname}:${parsed.port || (parsed.protocol === 'https:' ? '443' : '80')}`,
  };
  const preflight = ctx.preflight;
  const describe = (body: object | undefined): CallDescription => {
    const model = site.model ?? (body as { model?: unknown } | undefined)?.model;
    return {
      operation: site.operation,
      name: site.name,
      method: site.method,
      path: site.path,
      url,
      target,
      model: typeof model === 'string' ? model : undefined,
      body,
      json:
        body === undefined
          ? undefined
          : serializeBody(site.wire ? site.wire(body) : body, `${site.name}(body)`),
      stream: (body as { stream?: unknown } | undefined)?.stream === true,
      timeout: options.timeout ?? client.timeout,
      maxRetries: options.maxRetries ?? client.maxRetries,
      signal: options.signal,
      maxBodySize: options.maxBodySize ?? client.maxBodySize,
      maxEventSize: options.maxEventSize ?? client.maxEventSize,
      streamIdleTimeout: options.streamIdleTimeout ?? client.streamIdleTimeout,
      headers: options.headers,
      fetchOptions: options.fetchOptions,
      idempotencyKey: options.idempotencyKey,
      hooks: options.hooks,
      before: preflight && body !== undefined ? (wait) => preflight(body, wait) : undefined,
      fallbacks: body === undefined ? [] : (options.fallbacks ?? client.fallbacks),
      to: (model) => describe({ ...body, model }),
    };
  };
  return describe(body);
}

/** `JSON.stringify`, with a BigInt, a cycle or a throwing `toJSON` turned into an `InferenceError`. */
export function serializeBody(body: unknown, where: string): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new InferenceError(
      `${where}: the body cannot be sent as JSON (${String(error).split('\n')[0]}).`,
      { cause: error },
    );
  }
}
