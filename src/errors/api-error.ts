/**
 * `APIError`, the server's answer as an error: one subclass per status, and `fromResponse`, which
 * picks the class by status and reads the message and fields from the body (errors/body.ts). The
 * subclasses live here with it: `fromResponse` makes them, and they extend it.
 */
import { readErrorBody, type ErrorDetails } from './body';
import { InferenceError, type RequestTarget } from './base';

/**
 * The server answered with an error status (or an error body in a 200), or no answer came.
 * `status` is the HTTP status; for an error delivered inside a 200 response it is the numeric
 * `code` (or `status_code`) the provider gave, when that is an HTTP error status, else 200.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.completions.create({ model: 'acme/missing', messages: [] });
 * } catch (err) {
 *   if (err instanceof APIError) console.log(err.status, err.type, err.code, err.requestId);
 * }
 * ```
 */
export class APIError<
  TStatus extends number | undefined = number | undefined,
> extends InferenceError {
  override name = 'APIError';
  /** HTTP status, or `undefined` when no response arrived. */
  declare readonly status: TStatus;
  /** Response headers, or `undefined` when no response arrived. */
  declare readonly headers: Headers | undefined;
  /** The `x-request-id` response header, to quote when you contact support. */
  declare readonly requestId: string | undefined;
  /** The parsed response body (JSON value, or the text when it is not JSON), as the server sent it. */
  declare readonly error: unknown;
  /** The error's `type` (e.g. `invalid_request_error`), when the server gave one. */
  declare readonly type: string | undefined;
  /** The error's `code`: a string (`model_not_found`) or a number (`429`, OpenRouter), when given. */
  declare readonly code: string | number | undefined;
  /** The request field the error is about (e.g. `model`), when given. */
  declare readonly param: string | undefined;

  constructor(
    status: TStatus,
    message: string,
    init: {
      headers?: Headers | undefined;
      error?: unknown;
      details?: ErrorDetails | undefined;
      cause?: unknown;
    } = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = status;
    this.headers = init.headers;
    this.requestId = init.headers?.get('x-request-id') ?? undefined;
    this.error = init.error;
    this.type = init.details?.type;
    this.code = init.details?.code;
    this.param = init.details?.param;
  }

  /** The same as `requestId`, under the official `openai` client's name. */
  get requestID(): string | undefined {
    return this.requestId;
  }

  /**
   * Make the error for a response: the class follows the status, the message and fields come
   * from the body, whatever shape it has (see `readErrorBody`).
   * @internal
   */
  static fromResponse(
    target: RequestTarget,
    status: number,
    headers: Headers,
    body: unknown,
    hint?: string,
  ): APIError<number> {
    const details = readErrorBody(body);
    const init = { headers, error: body, details };
    // An error inside a 200 (OpenRouter) has no error status; its numeric code stands in, and
    // without one the status stays the one the server sent.
    const effective =
      status >= 400 ? status : (details.status ?? statusFromCode(details.code) ?? status);
    const message = `${effective} ${target.method} ${target.path}: ${details.message}${hint ? ` (${hint})` : ''}`;
    const Class: StatusErrorClass =
      (
        {
          400: BadRequestError,
          401: AuthenticationError,
          403: PermissionDeniedError,
          404: NotFoundError,
          409: ConflictError,
          422: UnprocessableEntityError,
          429: RateLimitError,
        } as Record<number, StatusErrorClass | undefined>
      )[effective] ?? (effective >= 500 ? InternalServerError : APIError);
    return new Class(effective, message, init);
  }
}

/** 400: the request was malformed or unsupported. @example `if (err instanceof BadRequestError) …` */
export class BadRequestError extends APIError<number> {
  override name = 'BadRequestError';
}
/** 401: the API key is missing, wrong or revoked. @example `if (err instanceof AuthenticationError) …` */
export class AuthenticationError extends APIError<number> {
  override name = 'AuthenticationError';
}
/** 403: the key may not do this. @example `if (err instanceof PermissionDeniedError) …` */
export class PermissionDeniedError extends APIError<number> {
  override name = 'PermissionDeniedError';
}
/** 404: no such model or path. @example `if (err instanceof NotFoundError) …` */
export class NotFoundError extends APIError<number> {
  override name = 'NotFoundError';
}
/** 409: a conflict; retried by default. @example `if (err instanceof ConflictError) …` */
export class ConflictError extends APIError<number> {
  override name = 'ConflictError';
}
/** 422: the body was well-formed but not acceptable. @example `if (err instanceof UnprocessableEntityError) …` */
export class UnprocessableEntityError extends APIError<number> {
  override name = 'UnprocessableEntityError';
}
/** 429: too many requests; retried by default, honouring `retry-after`. @example `if (err instanceof RateLimitError) …` */
export class RateLimitError extends APIError<number> {
  override name = 'RateLimitError';
}
/** 500 and above: the server failed; retried by default. @example `if (err instanceof InternalServerError) …` */
export class InternalServerError extends APIError<number> {
  override name = 'InternalServerError';
}

type StatusErrorClass = new (
  status: number,
  message: string,
  init: ConstructorParameters<typeof APIError>[2],
) => APIError<number>;

// The helpers of errors/ are arrows in consts, not function declarations: between the classes in a
// bundle, a declaration splits their one `var` statement in two (4 B each).
/** A provider code such as `429`, `"401"` or `502` names an HTTP error status; `"tool_use_failed"` does not. */
const statusFromCode = (code: string | number | undefined): number | undefined => {
  const n =
    typeof code === 'number'
      ? code
      : typeof code === 'string' && /^\d{3}$/.test(code)
        ? Number(code)
        : NaN;
  return n >= 400 && n <= 599 ? n : undefined;
};
