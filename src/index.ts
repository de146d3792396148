/**
 * The TypeScript client for the Model Inference Service, and for any server that speaks the
 * chat-completions wire format. Construct a {@link Client}, then call its resources:
 * `client.models`, `client.chat.completions` (streaming, structured outputs, tools) and
 * `client.completions`. Every failure is an {@link InferenceError}; its subclasses below say what
 * went wrong. Test helpers are in `model-inference-sdk/testing`, the zod helpers in
 * `model-inference-sdk/helpers/zod`.
 *
 * @example
 * ```ts
 * import { Client } from 'model-inference-sdk';
 *
 * const client = new Client(); // reads INFERENCE_API_KEY and INFERENCE_BASE_URL
 * const stream = await client.chat.completions.create({
 *   model: 'acme/chat-1',
 *   messages: [{ role: 'user', content: 'Hello!' }],
 *   stream: true,
 * });
 * for await (const text of stream.textStream()) process.stdout.write(text);
 * ```
 *
 * @packageDocumentation
 */

// The public contract: exports only, no logic.

// The client and its options
export { Client } from './client';
export type {
  ClientOptions,
  RequestOptions,
  ValidationMode,
  HeadersInit,
  QueryInit,
  FetchOptions,
} from './options/types';
export type { LogLevel, Logger } from './util/log';
export type { PreflightMode } from './options/types';
export type {
  Hooks,
  HookInfo,
  RetryInfo,
  CallSummary,
  HookName,
  HookOperation,
} from './options/hooks';
export type { RateLimitSnapshot, ModelRateLimits, RateLimitWindow } from './core/limits/snapshot';

// Promises of responses
export { APIPromise, PagePromise } from './core/api-promise';
export type { WithResponse, WithRequestID } from './core/api-promise';

// Resources
export type { Models, WaitUntilReadyOptions } from './resources/models';
export type {
  Chat,
  ChatCompletions,
  ChatCompletionParseParams,
  ChatCompletionStreamParams,
} from './chat/completions';
export type { Completions } from './resources/completions';

// Fields a server sends beyond the documented ones
export { extras } from './util/extras';

// Streams
export { Stream } from './stream/stream';
export { ChatCompletionStream } from './stream/chat-stream';
export type { ChatCompletionStreamEvents, StreamedChatCompletion } from './stream/chat-event-types';
export { ChatCompletionAccumulator } from './stream/accumulate';

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
  ToolTimeoutError,
  APIUserAbortError,
  ModelNotReadyError,
  PreflightError,
  HookError,
  ListenerError,
  EventNotEmittedError,
} from './errors/api';
export type { RequestTarget } from './errors/api';
export { ResponseValidationError } from './errors/validation';
export type { ValidationIssue } from './errors/validation';

// Model utilities
export { estimateCost } from './cost/estimate';
export { CostTracker, sumCosts, streamUsage } from './cost/tracker';
export type { CostTotals, CostReport, StreamUsage } from './cost/tracker';
export { estimatePromptTokens, estimateTextTokens } from './cost/tokens';
export type { CostEstimate } from './cost/estimate';

// Tools, structured outputs and reasoning
// zodResponseFormat and zodFunction live in 'model-inference-sdk/helpers/zod' (they load zod's JSON
// Schema conversion, which the main entry never imports at startup).
export type { ZodFunctionOptions } from './schema/helpers';
export type {
  AutoParseableResponseFormat,
  AutoParseableTool,
  RunnableZodTool,
  ToolContext,
  ToolFunction,
} from './schema/parsers';
export type { StandardSchema, StandardResult, InferOutput, JSONSchema } from './schema/standard';
export type {
  ParsedChatCompletion,
  ParsedChatCompletionFor,
  ParsedChatCompletionMessage,
  ParsedChoice,
  ParsedFunctionToolCall,
  ParsedOutputOf,
  ParsedToolCallOf,
  StreamedOutputOf,
  StreamedToolCallOf,
} from './parse/completion';
// A type here, not a value: the class (and its partial-JSON parser) then load only when a parse() stream starts.
export type { ParsedChatCompletionStream, DeepPartial } from './parse/stream';
export { ChatCompletionRunner, ChatCompletionStreamingRunner } from './tools/runner';
export type {
  RunnableTool,
  RunnableFunctionTool,
  RunToolsParams,
  RunToolsOptions,
  RunnerEvent,
  RunnerOptions,
  ChatCompletionToolRunnerParams,
  ChatCompletionStreamingToolRunnerParams,
  RunnableFunction,
  RunnableFunctionWithParse,
  RunnableFunctionWithoutParse,
  RunnableToolFunction,
  RunnableToolFunctionWithParse,
  RunnableToolFunctionWithoutParse,
  RunnableTools,
} from './tools/runner';
export type { ChatCompletionRunnerEvents, FunctionToolCall } from './tools/events';
export { toAssistantMessage } from './tools/messages';
export { readReasoning } from './chat/reasoning';
export {
  LengthFinishReasonError,
  ContentFilterFinishReasonError,
  OutputParseError,
  CostEstimateError,
} from './errors/output';

// Resource types, generated from spec/openapi.yaml
export type * from './generated/types.gen';
