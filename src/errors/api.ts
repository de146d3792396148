/**
 * The error hierarchy. Every error the SDK throws is an `InferenceError`:
 *
 * ```
 * InferenceError                    bad options or arguments (the call's promise rejects)
 * ├── APIError                      the server answered with an error, or the request failed
 * │   ├── BadRequestError (400) … InternalServerError (>=500)      one class per status
 * │   ├── APIConnectionError        no response (refused, reset, DNS, TLS)
 * │   │   └── APIConnectionTimeoutError
 * │   │       └── ToolTimeoutError
 * │   └── APIUserAbortError         the caller's AbortSignal fired
 * ├── ResponseValidationError       the server answered 2xx, but the body is not what the types promise
 * ├── HookError                     a hook (the `hooks` option) threw
 * ├── ListenerError                 a listener (`stream.on(…)`, `runner.on(…)`) threw
 * └── EventNotEmittedError          `emitted(name)`: the stream or run ended without that event
 * ```
 *
 * Messages name the method, the path and the status, and never hold the API key: the key
 * travels in the Authorization header, which no error copies, and where a server echoes it back
 * (in a message, a body, a header) the request path masks it as `***` (util/mask.ts).
 *
 * This file gathers the classes, which live by job: the root in `base.ts`, `APIError` with its
 * status subclasses and `fromResponse` in `api-error.ts`, the errors without an answer in
 * `connection.ts`, the model's readiness and limits in `model.ts`, the errors of hooks, listeners
 * and `emitted()` in `events.ts`; `ResponseValidationError` in `validation.ts`, the structured
 * output errors in `output.ts`.
 */
export { InferenceError, type RequestTarget } from './base';
export {
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
} from './api-error';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  ToolTimeoutError,
  APIUserAbortError,
} from './connection';
export { ModelNotReadyError, PreflightError } from './model';
export { HookError, ListenerError, EventNotEmittedError, type HookName } from './events';
