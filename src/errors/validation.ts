/**
 * `ResponseValidationError`: the server answered 2xx with a body the SDK cannot read as the
 * documented shape. Kept apart from the HTTP errors (errors/api.ts): the request itself succeeded.
 */
import { InferenceError, type RequestTarget } from './api';

/**
 * One problem found while checking a response against its schema.
 *
 * @example
 * ```ts
 * // err is a ResponseValidationError
 * for (const issue of err.issues) console.error(`${issue.path}: ${issue.message}`, issue.received);
 * // → "choices[0].message.content: expected string or null or array, got number" 42
 * ```
 */
export interface ValidationIssue {
  /** Where, as a path into the body: `choices[0].message.content`; `''` for the body itself. */
  path: string;
  /** What was expected there. */
  message: string;
  /** The value found there (`undefined` when missing). */
  received: unknown;
}

/**
 * The server answered 2xx, but a value the SDK's types promise cannot be derived from the body (no
 * `choices` array, `content` a number, a stream event that is not an object, a body that is not
 * JSON at all). Not an `APIError`: the request itself succeeded. Never retried. `raw` holds the
 * value as received; the message names each field, the value found there, and how to relax the
 * check (`validation: 'warn'`).
 *
 * Unknown fields, `null`s and the quirks of real servers (docs/normalization.md) do not cause it:
 * they are read into the documented shape.
 *
 * @example
 * ```ts
 * try {
 *   await client.models.list();
 * } catch (err) {
 *   if (err instanceof ResponseValidationError) {
 *     for (const issue of err.issues) console.error(issue.path, issue.message, issue.received);
 *     console.error(err.raw);
 *   }
 * }
 * ```
 */
export class ResponseValidationError extends InferenceError {
  override name = 'ResponseValidationError';
  declare readonly issues: readonly ValidationIssue[];
  /** The body (or stream event) as received: parsed JSON, or the text when it was not JSON. */
  declare readonly raw: unknown;
  declare readonly status: number;
  declare readonly headers: Headers | undefined;
  declare readonly requestId: string | undefined;

  constructor(
    /** The request whose response it is; `undefined` for a body read without one (`where` says what). */
    target: RequestTarget | undefined,
    init: {
      issues: ValidationIssue[];
      raw: unknown;
      status: number;
      headers?: Headers | undefined;
      what?: string | undefined;
      /** Replaces "status method path" at the start of the message (for bodies read without a request). */
      where?: string | undefined;
      /** The issues came from reading a JSON value into shape: the `validation` option can relax them. */
      relaxable?: boolean | undefined;
    },
  ) {
    const list = init.issues
      .slice(0, 5)
      .map(
        (i) =>
          `${i.path || '(body)'}: ${i.message}${i.received === undefined ? '' : ` (${preview(i.received)})`}`,
      )
      .join('; ');
    const more = init.issues.length > 5 ? ` (and ${init.issues.length - 5} more)` : '';
    super(
      `${init.where ?? `${init.status} ${target?.method} ${target?.path}`}: ${init.what ?? 'response'} cannot be read as the documented shape: ${list}${more}` +
        (init.relaxable
          ? ". To accept such responses as sent, set `validation: 'warn'` (or 'off') on the client."
          : ''),
    );
    this.issues = init.issues;
    this.raw = init.raw;
    this.status = init.status;
    this.headers = init.headers;
    this.requestId = init.headers?.get('x-request-id') ?? undefined;
  }
}

/**
 * A short, single-line rendering of a value for a message: scalars as JSON, containers by their
 * size only (never walked: a hostile value may be nested thousands deep).
 */
function preview(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object' && value !== null) return 'an object';
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * A `ResponseValidationError` with one issue about the whole body (or event): not JSON, too large,
 * empty, or impossible to check.
 * @internal
 */
export function bodyError(
  target: RequestTarget,
  response: Response,
  message: string,
  raw: unknown,
  what?: string,
  received: unknown = raw,
): ResponseValidationError {
  return new ResponseValidationError(target, {
    issues: [{ path: '', message, received }],
    raw,
    status: response.status,
    headers: response.headers,
    what,
  });
}
