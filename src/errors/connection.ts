/**
 * The errors of a request that got no answer: the connection failed, the time ran out (the
 * request, a stream, a hook or a tool), or the caller aborted.
 */
import { APIError } from './api-error';
import type { RequestTarget } from './base';

/**
 * No response arrived: connection refused or reset, DNS or TLS failure. `cause` holds the
 * runtime's own error.
 *
 * @example
 * ```ts
 * if (err instanceof APIConnectionError) console.error('network problem:', err.cause);
 * ```
 */
export class APIConnectionError extends APIError<undefined> {
  override name = 'APIConnectionError';
  constructor(target: RequestTarget, init: { cause?: unknown; message?: string } = {}) {
    super(
      undefined,
      init.message ??
        `Connection error: ${target.method} ${target.path}: ${describeCause(init.cause)}${target.host ? ` reaching ${target.host}` : ''}`,
      { cause: init.cause },
    );
  }
}

/**
 * The request took longer than its `timeout` (or a stream stalled longer than its idle timeout).
 * Not the same as a user abort, which is `APIUserAbortError`.
 *
 * @example
 * ```ts
 * await client.models.list({ timeout: 5_000 }).catch((err) => {
 *   if (err instanceof APIConnectionTimeoutError) console.error('took more than 5 s');
 * });
 * ```
 */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  /**
   * `phase`: `'request'` (no headers within `timeout`), `'apiKey'` (the `apiKey` function did not
   * return within `timeout`), `'stream'` (no event within `streamIdleTimeout`),
   * `'keep-alive'` (the same, while the server sent only keep-alive comments), `'queue'` (the call
   * waited `timeout` for its turn: `maxConcurrency`, or a first contact), or a hook that did
   * not settle within the option named (`{ hook: 'onChunk hook of "audit"', option: 'timeout' }`;
   * a `runTools()` tool: `ToolTimeoutError`).
   */
  constructor(
    target: RequestTarget,
    timeoutMs: number,
    phase:
      | 'request'
      | 'apiKey'
      | 'stream'
      | 'keep-alive'
      | 'queue'
      | { hook: string; option: 'timeout' | 'streamIdleTimeout' | 'toolTimeout' } = 'request',
  ) {
    super(target, {
      message:
        typeof phase === 'object'
          ? `The ${phase.hook} did not settle within ${timeoutMs} ms (${phase.option}): ${target.method} ${target.path}`
          : phase === 'stream'
            ? `Stream stalled: no event for ${timeoutMs} ms (streamIdleTimeout): ${target.method} ${target.path}`
            : phase === 'keep-alive'
              ? `Stream stalled: no event for ${timeoutMs} ms (streamIdleTimeout), only keep-alive comments: ${target.method} ${target.path}`
              : phase === 'queue'
                ? `Waited ${timeoutMs} ms (timeout) in the client's queue; not sent: ${target.method} ${target.path}`
                : phase === 'apiKey'
                  ? `The \`apiKey\` function did not return within the timeout (${timeoutMs} ms): ${target.method} ${target.path}`
                  : `Request timed out after ${timeoutMs} ms: ${target.method} ${target.path}`,
    });
  }
}

/**
 * A `runTools()` tool, or its arguments' asynchronous validation, did not settle within
 * `toolTimeout`: the run ends with this error (an `APIConnectionTimeoutError`, as before it had
 * its own class). `tool` is the tool's name.
 *
 * @example
 * ```ts
 * const runner = client.chat.completions.runTools(body, { toolTimeout: 10_000 });
 * await runner.done().catch((err) => {
 *   if (err instanceof ToolTimeoutError) console.error(`${err.tool} took more than 10 s`);
 * });
 * ```
 */
export class ToolTimeoutError extends APIConnectionTimeoutError {
  override name = 'ToolTimeoutError';
  /** The name of the tool that did not settle. */
  declare readonly tool: string;

  /** @internal */
  constructor(target: RequestTarget, timeoutMs: number, tool: string) {
    super(target, timeoutMs, { hook: `tool ${JSON.stringify(tool)}`, option: 'toolTimeout' });
    this.tool = tool;
  }
}

/**
 * The caller's `signal` aborted the request. Never retried.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const pending = client.models.list({ signal: controller.signal });
 * controller.abort();
 * await pending.catch((err) => err instanceof APIUserAbortError); // true
 * ```
 */
export class APIUserAbortError extends APIError<undefined> {
  override name = 'APIUserAbortError';
  constructor(target: RequestTarget, reason?: unknown) {
    super(undefined, `Request was aborted: ${target.method} ${target.path}`, { cause: reason });
  }
}

// An arrow in a const, as the helpers of errors/api-error.ts: the classes keep one `var` in a bundle.
const describeCause = (cause: unknown): string => {
  if (cause instanceof Error) {
    // undici hides the useful part (ECONNREFUSED, ECONNRESET) in cause.cause.
    const inner = (cause as { cause?: { code?: unknown; message?: unknown } }).cause;
    const code = typeof inner?.code === 'string' ? ` (${inner.code})` : '';
    return `${cause.message}${code}`;
  }
  return String(cause);
};
