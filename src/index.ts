/**
 * inference-sdk: the public contract. Exports only; no logic.
 * @packageDocumentation
 */

// The client and its options
export { Client } from './client';
export type { ClientOptions, RequestOptions, ValidationMode, HeadersInit, QueryInit, FetchOptions } from './options';
export type { LogLevel, Logger } from './log';

// Promises of responses
export { APIPromise } from './api-promise';
export type { WithResponse } from './api-promise';

// Resources
export type { Models } from './resources/models';
export type {
  Chat,
  ChatCompletions,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from './resources/chat';
export type { Completions, CompletionCreateParamsNonStreaming, CompletionCreateParamsStreaming } from './resources/completions';

// Streams
export { Stream } from './stream';
export { ChatCompletionStream } from './lib/chat-stream';
export { ChatCompletionAccumulator } from './lib/accumulate';

// Errors
export {
  InferenceError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  ResponseValidationError,
} from './errors';
export type { ValidationIssue, RequestTarget } from './errors';

// Resource types, generated from spec/openapi.yaml
export type * from './generated/types.gen';
