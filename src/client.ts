/**
 * `Client`: options resolved once, the resources, and nothing else. Requests go through
 * `core/request.ts`; the key lives in a private field that no log, error or `util.inspect` shows.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './errors/api';
import type { Preflight } from './core/preflight';
import { Log, type LogLevel } from './util/log';
import type { ClientOptions, RequestOptions as RequestOptionsType } from './options/types';
import { resolveClientOptions } from './options/check';
import { callKeyFunction } from './options/key';
import type { RequestContext } from './core/request';
import { snapshotOf } from './core/limits/limits';
import type { RateLimitSnapshot } from './core/limits/snapshot';
import { Chat } from './chat/completions';
import { Completions } from './resources/completions';
import { Models } from './resources/models';

/**
 * The client for the Model Inference Service (and any server that speaks its wire format).
 *
 * @example
 * ```ts
 * import { Client } from 'model-inference-sdk';
 *
 * // Reads INFERENCE_API_KEY and INFERENCE_BASE_URL when not given.
 * const client = new Client({ apiKey: 'sk-…', baseURL: 'https://inference.example.com/v1' });
 *
 * const completion = await client.chat.completions.create({
 *   model: 'acme/chat-1',
 *   messages: [{ role: 'user', content: 'Hello!' }],
 * });
 * ```
 *
 * Code written for the `openai` client: the class carries its names (`OpenAI.Chat.…`, the error
 * classes as statics).
 *
 * ```ts
 * import { Client as OpenAI } from 'model-inference-sdk';
 *
 * const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hello!' }];
 * try {
 *   await new OpenAI().chat.completions.create({ model: 'acme/chat-1', messages });
 * } catch (err) {
 *   if (err instanceof OpenAI.RateLimitError) console.log('rate limited');
 * }
 * ```
 */
export class Client {
  // The error classes as statics, as the `openai` client has them (`err instanceof OpenAI.APIError`
  // with `import { Client as OpenAI }`): the package's own classes, not copies. A request already
  // needs every one of them, so they pull no other code into a bundle (the names: ~200 B gzip).
  /** The class {@link APIError}, as `OpenAI.APIError` in the `openai` client. */
  static readonly APIError = APIError;
  /** The class {@link APIConnectionError}, as `OpenAI.APIConnectionError` in the `openai` client. */
  static readonly APIConnectionError = APIConnectionError;
  /** The class {@link APIConnectionTimeoutError}, as `OpenAI.APIConnectionTimeoutError` in the `openai` client. */
  static readonly APIConnectionTimeoutError = APIConnectionTimeoutError;
  /** The class {@link APIUserAbortError}, as `OpenAI.APIUserAbortError` in the `openai` client. */
  static readonly APIUserAbortError = APIUserAbortError;
  /** The class {@link NotFoundError}, as `OpenAI.NotFoundError` in the `openai` client. */
  static readonly NotFoundError = NotFoundError;
  /** The class {@link ConflictError}, as `OpenAI.ConflictError` in the `openai` client. */
  static readonly ConflictError = ConflictError;
  /** The class {@link RateLimitError}, as `OpenAI.RateLimitError` in the `openai` client. */
  static readonly RateLimitError = RateLimitError;
  /** The class {@link BadRequestError}, as `OpenAI.BadRequestError` in the `openai` client. */
  static readonly BadRequestError = BadRequestError;
  /** The class {@link AuthenticationError}, as `OpenAI.AuthenticationError` in the `openai` client. */
  static readonly AuthenticationError = AuthenticationError;
  /** The class {@link InternalServerError}, as `OpenAI.InternalServerError` in the `openai` client. */
  static readonly InternalServerError = InternalServerError;
  /** The class {@link PermissionDeniedError}, as `OpenAI.PermissionDeniedError` in the `openai` client. */
  static readonly PermissionDeniedError = PermissionDeniedError;
  /** The class {@link UnprocessableEntityError}, as `OpenAI.UnprocessableEntityError` in the `openai` client. */
  static readonly UnprocessableEntityError = UnprocessableEntityError;

  /** `client.models.list()` and `client.models.retrieve(slug)`. */
  declare readonly models: Models;
  /** `client.chat.completions.create(body)`. */
  declare readonly chat: Chat;
  /** `client.completions.create(body)`: the legacy endpoint. */
  declare readonly completions: Completions;

  /** The base URL every path is joined to (ends in `/v1` on the service). */
  declare readonly baseURL: string;
  /** Milliseconds before an attempt is abandoned. */
  declare readonly timeout: number;
  /** Retries after the first attempt. */
  declare readonly maxRetries: number;
  /**
   * The level the client logs at: the `logLevel` option, else `INFERENCE_LOG`, else `'warn'`
   * (as the official client's `client.logLevel`). Read-only: `withOptions({ logLevel })` makes a
   * client with another.
   *
   * @example
   * ```ts
   * if (client.logLevel === 'debug') console.warn('debug logging is on: request lines are printed');
   * ```
   */
  declare readonly logLevel: LogLevel;

  readonly #options: ClientOptions;
  /** What the request path is given: the options, the key, the log, the limiter, the cap. */
  readonly #ctx: RequestContext;

  /**
   * @throws InferenceError when the key or base URL is missing, an option is unknown or
   * invalid, or this runs in a web page without `dangerouslyAllowBrowser`.
   */
  constructor(options: ClientOptions = {}) {
    // A copy (withOptions) shares its parent's limiter, unless it talks to another server or
    // account, which has limits of its own; and its parent's cap, unless it sets its own. Taken
    // first, so that options that throw leave nothing for the next client.
    const from = copying;
    copying = undefined;
    const { resolved, apiKey } = resolveClientOptions(options);
    this.#options = { ...options };
    const shared = from?.ctx.options.baseURL === resolved.baseURL && from.ctx.limits.key === apiKey;

    const log = new Log(resolved.logLevel, resolved.logger, from?.ctx.log);
    const mode = resolved.preflight;
    let preflight: Promise<Preflight> | undefined;
    const ctx: RequestContext = (this.#ctx = {
      options: resolved,
      apiKey: typeof apiKey === 'string' ? () => apiKey : () => callKeyFunction(apiKey),
      log,
      limits: shared ? from.ctx.limits : { key: apiKey },
      pool:
        shared && !from.cap
          ? from.ctx.pool
          : resolved.maxConcurrency === undefined
            ? undefined
            : { cap: resolved.maxConcurrency, inFlight: 0 },
      // Loaded on the first check, so that clients without `preflight` never ship it. One attempt
      // per lookup: it is advisory, and a caller never waits longer than its own timeout.
      preflight:
        mode === 'off'
          ? undefined
          : async (body, wait) =>
              (
                await (preflight ??= import('./core/preflight').then(
                  ({ Preflight }) =>
                    new Preflight(
                      mode,
                      (slug, signal) => this.models.retrieve(slug, { signal, maxRetries: 0 }),
                      log,
                    ),
                ))
              ).check(body, wait),
    });
    if (typeof apiKey === 'string') log.addSecret(apiKey);
    this.models = new Models(ctx);
    this.chat = new Chat(ctx);
    this.completions = new Completions(ctx);
    this.baseURL = resolved.baseURL;
    this.timeout = resolved.timeout;
    this.maxRetries = resolved.maxRetries;
    this.logLevel = resolved.logLevel;
  }

  /**
   * A new client with some options changed; this one is left as it is. A copy with another
   * `apiKey` masks this client's key as well as its own (a server may still quote the old one).
   *
   * @example
   * ```ts
   * const patient = client.withOptions({ timeout: 30 * 60_000, maxRetries: 5 });
   * ```
   */
  withOptions(options: ClientOptions): Client {
    copying = { ctx: this.#ctx, cap: options?.maxConcurrency !== undefined };
    return new Client({ ...this.#options, ...options });
  }

  /**
   * What the client's rate limiter knows now, shared with its `withOptions()` copies: the calls in
   * flight and waiting, and per model what the server said of its limits (requests and tokens
   * left, when they reset, a 429's wait). A copy of the state: plain data, fit for a progress line
   * or a log.
   *
   * @example
   * ```ts
   * const { inFlight, queued, models } = client.rateLimits();
   * console.log(inFlight, queued, models['acme/chat-1']?.requests?.remaining);
   * ```
   */
  rateLimits(): RateLimitSnapshot {
    return snapshotOf(this.#ctx.limits, this.#ctx.pool);
  }
}

/** Set by `withOptions()` for the constructor of the copy: what it may share. */
let copying: { ctx: RequestContext; cap: boolean } | undefined;

// The error classes as types too, for `OpenAI.APIError` in a type (in the `openai` client they are
// values only). Exported from the namespace under another local name: a type alias named like the
// class inside the namespace makes the bundled declarations export the class as a type only.
/** `OpenAI.APIError` as a type: an {@link APIError}. */
type APIErrorInstance = APIError;
/** `OpenAI.APIConnectionError` as a type: an {@link APIConnectionError}. */
type APIConnectionErrorInstance = APIConnectionError;
/** `OpenAI.APIConnectionTimeoutError` as a type: an {@link APIConnectionTimeoutError}. */
type APIConnectionTimeoutErrorInstance = APIConnectionTimeoutError;
/** `OpenAI.APIUserAbortError` as a type: an {@link APIUserAbortError}. */
type APIUserAbortErrorInstance = APIUserAbortError;
/** `OpenAI.NotFoundError` as a type: an {@link NotFoundError}. */
type NotFoundErrorInstance = NotFoundError;
/** `OpenAI.ConflictError` as a type: an {@link ConflictError}. */
type ConflictErrorInstance = ConflictError;
/** `OpenAI.RateLimitError` as a type: an {@link RateLimitError}. */
type RateLimitErrorInstance = RateLimitError;
/** `OpenAI.BadRequestError` as a type: an {@link BadRequestError}. */
type BadRequestErrorInstance = BadRequestError;
/** `OpenAI.AuthenticationError` as a type: an {@link AuthenticationError}. */
type AuthenticationErrorInstance = AuthenticationError;
/** `OpenAI.InternalServerError` as a type: an {@link InternalServerError}. */
type InternalServerErrorInstance = InternalServerError;
/** `OpenAI.PermissionDeniedError` as a type: an {@link PermissionDeniedError}. */
type PermissionDeniedErrorInstance = PermissionDeniedError;
/** `OpenAI.UnprocessableEntityError` as a type: an {@link UnprocessableEntityError}. */
type UnprocessableEntityErrorInstance = UnprocessableEntityError;

// The error classes as types (`const e = err as OpenAI.APIError`), and `OpenAI.RequestOptions`.
// eslint-disable-next-line @typescript-eslint/no-namespace -- declaration merging with the class: types only
export declare namespace Client {
  export {
    type RequestOptionsType as RequestOptions,
    type APIErrorInstance as APIError,
    type APIConnectionErrorInstance as APIConnectionError,
    type APIConnectionTimeoutErrorInstance as APIConnectionTimeoutError,
    type APIUserAbortErrorInstance as APIUserAbortError,
    type NotFoundErrorInstance as NotFoundError,
    type ConflictErrorInstance as ConflictError,
    type RateLimitErrorInstance as RateLimitError,
    type BadRequestErrorInstance as BadRequestError,
    type AuthenticationErrorInstance as AuthenticationError,
    type InternalServerErrorInstance as InternalServerError,
    type PermissionDeniedErrorInstance as PermissionDeniedError,
    type UnprocessableEntityErrorInstance as UnprocessableEntityError,
  };
}

// <openai-names> Generated from spec/openapi.yaml by `npm run generate` (scripts/generate/openai-names.ts,
// `clientNamespace`): do not edit down to the closing marker; change the spec or the generator.
/* prettier-ignore */
import type {
  ChatCompletion, ChatCompletionAnnotation, ChatCompletionAssistantMessageParam,
  ChatCompletionAudioParam, ChatCompletionChoice, ChatCompletionChoiceLogprobs, ChatCompletionChunk,
  ChatCompletionChunkChoice, ChatCompletionChunkDelta, ChatCompletionChunkToolCall,
  ChatCompletionChunkToolCallFunction, ChatCompletionContentPart, ChatCompletionContentPartFile,
  ChatCompletionContentPartImage, ChatCompletionContentPartInputAudio,
  ChatCompletionContentPartRefusal, ChatCompletionContentPartText, ChatCompletionCreateParams,
  ChatCompletionCreateParamsBase, ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming, ChatCompletionDeveloperMessageParam,
  ChatCompletionFunctionCallOption, ChatCompletionFunctionMessageParam, ChatCompletionFunctionTool,
  ChatCompletionMessage, ChatCompletionMessageFunctionToolCall, ChatCompletionMessageParam,
  ChatCompletionMessageToolCall, ChatCompletionMessageToolCallFunction, ChatCompletionModality,
  ChatCompletionNamedToolChoice, ChatCompletionPredictionContent, ChatCompletionReasoningEffort,
  ChatCompletionResponseContentPart, ChatCompletionRole, ChatCompletionStreamOptions,
  ChatCompletionSystemMessageParam, ChatCompletionTokenLogprob, ChatCompletionTool,
  ChatCompletionToolChoiceOption, ChatCompletionToolMessageParam, ChatCompletionTopLogprob,
  ChatCompletionUserMessageParam, Completion, CompletionChoice, CompletionCreateParams,
  CompletionCreateParamsBase, CompletionCreateParamsNonStreaming, CompletionCreateParamsStreaming,
  CompletionLogprobs, CompletionTokensDetails, CompletionUsage, ErrorObject, ErrorResponse,
  FinishReason, FunctionDefinition, FunctionParameters, Metadata, Model, ModelList, ModelPricing,
  PromptTokensDetails, ReasoningDetail, ReasoningEffort, ResponseFormatJSONObject,
  ResponseFormatJSONSchema, ResponseFormatText,
} from './generated/types.gen';

// The `openai` client's type names, reachable through the class as through that client's default
// export, so that code written for it compiles with `import { Client as OpenAI } from
// 'model-inference-sdk'`: `OpenAI.ChatCompletionChunk`, `OpenAI.Chat.ChatCompletionMessageParam`,
// `OpenAI.Chat.Completions.ChatCompletionTool`. Types only.
/* eslint-disable @typescript-eslint/no-namespace -- declaration merging with the class: types only */
export declare namespace Client {
  // prettier-ignore
  export {
    type ChatCompletion, type ChatCompletionAnnotation, type ChatCompletionAssistantMessageParam,
    type ChatCompletionAudioParam, type ChatCompletionChoice, type ChatCompletionChoiceLogprobs,
    type ChatCompletionChunk, type ChatCompletionChunkChoice, type ChatCompletionChunkDelta,
    type ChatCompletionChunkToolCall, type ChatCompletionChunkToolCallFunction,
    type ChatCompletionContentPart, type ChatCompletionContentPartFile,
    type ChatCompletionContentPartImage, type ChatCompletionContentPartInputAudio,
    type ChatCompletionContentPartRefusal, type ChatCompletionContentPartText,
    type ChatCompletionCreateParams, type ChatCompletionCreateParamsBase,
    type ChatCompletionCreateParamsNonStreaming, type ChatCompletionCreateParamsStreaming,
    type ChatCompletionDeveloperMessageParam, type ChatCompletionFunctionCallOption,
    type ChatCompletionFunctionMessageParam, type ChatCompletionFunctionTool,
    type ChatCompletionMessage, type ChatCompletionMessageFunctionToolCall,
    type ChatCompletionMessageParam, type ChatCompletionMessageToolCall,
    type ChatCompletionMessageToolCallFunction, type ChatCompletionModality,
    type ChatCompletionNamedToolChoice, type ChatCompletionPredictionContent,
    type ChatCompletionReasoningEffort, type ChatCompletionResponseContentPart,
    type ChatCompletionRole, type ChatCompletionStreamOptions,
    type ChatCompletionSystemMessageParam, type ChatCompletionTokenLogprob, type ChatCompletionTool,
    type ChatCompletionToolChoiceOption, type ChatCompletionToolMessageParam,
    type ChatCompletionTopLogprob, type ChatCompletionUserMessageParam, type Completion,
    type CompletionChoice, type CompletionCreateParams, type CompletionCreateParamsBase,
    type CompletionCreateParamsNonStreaming, type CompletionCreateParamsStreaming,
    type CompletionLogprobs, type CompletionTokensDetails, type CompletionUsage, type ErrorObject,
    type ErrorResponse, type FinishReason, type FunctionDefinition, type FunctionParameters,
    type Metadata, type Model, type ModelList, type ModelPricing, type PromptTokensDetails,
    type ReasoningDetail, type ReasoningEffort, type ResponseFormatJSONObject,
    type ResponseFormatJSONSchema, type ResponseFormatText,
  };
  /** `OpenAI.Chat`: the chat completion types. */
  export namespace Chat {
    // prettier-ignore
    export {
      type ChatCompletion, type ChatCompletionAnnotation, type ChatCompletionAssistantMessageParam,
      type ChatCompletionAudioParam, type ChatCompletionChoice, type ChatCompletionChoiceLogprobs,
      type ChatCompletionChunk, type ChatCompletionChunkChoice, type ChatCompletionChunkDelta,
      type ChatCompletionChunkToolCall, type ChatCompletionChunkToolCallFunction,
      type ChatCompletionContentPart, type ChatCompletionContentPartFile,
      type ChatCompletionContentPartImage, type ChatCompletionContentPartInputAudio,
      type ChatCompletionContentPartRefusal, type ChatCompletionContentPartText,
      type ChatCompletionCreateParams, type ChatCompletionCreateParamsBase,
      type ChatCompletionCreateParamsNonStreaming, type ChatCompletionCreateParamsStreaming,
      type ChatCompletionDeveloperMessageParam, type ChatCompletionFunctionCallOption,
      type ChatCompletionFunctionMessageParam, type ChatCompletionFunctionTool,
      type ChatCompletionMessage, type ChatCompletionMessageFunctionToolCall,
      type ChatCompletionMessageParam, type ChatCompletionMessageToolCall,
      type ChatCompletionMessageToolCallFunction, type ChatCompletionModality,
      type ChatCompletionNamedToolChoice, type ChatCompletionPredictionContent,
      type ChatCompletionReasoningEffort, type ChatCompletionResponseContentPart,
      type ChatCompletionRole, type ChatCompletionStreamOptions,
      type ChatCompletionSystemMessageParam, type ChatCompletionTokenLogprob,
      type ChatCompletionTool, type ChatCompletionToolChoiceOption,
      type ChatCompletionToolMessageParam, type ChatCompletionTopLogprob,
      type ChatCompletionUserMessageParam,
    };
    /** `OpenAI.Chat.Completions`: the same types. */
    export namespace Completions {
      // prettier-ignore
      export {
        type ChatCompletion, type ChatCompletionAnnotation,
        type ChatCompletionAssistantMessageParam, type ChatCompletionAudioParam,
        type ChatCompletionChoice, type ChatCompletionChoiceLogprobs, type ChatCompletionChunk,
        type ChatCompletionChunkChoice, type ChatCompletionChunkDelta,
        type ChatCompletionChunkToolCall, type ChatCompletionChunkToolCallFunction,
        type ChatCompletionContentPart, type ChatCompletionContentPartFile,
        type ChatCompletionContentPartImage, type ChatCompletionContentPartInputAudio,
        type ChatCompletionContentPartRefusal, type ChatCompletionContentPartText,
        type ChatCompletionCreateParams, type ChatCompletionCreateParamsBase,
        type ChatCompletionCreateParamsNonStreaming, type ChatCompletionCreateParamsStreaming,
        type ChatCompletionDeveloperMessageParam, type ChatCompletionFunctionCallOption,
        type ChatCompletionFunctionMessageParam, type ChatCompletionFunctionTool,
        type ChatCompletionMessage, type ChatCompletionMessageFunctionToolCall,
        type ChatCompletionMessageParam, type ChatCompletionMessageToolCall,
        type ChatCompletionMessageToolCallFunction, type ChatCompletionModality,
        type ChatCompletionNamedToolChoice, type ChatCompletionPredictionContent,
        type ChatCompletionReasoningEffort, type ChatCompletionResponseContentPart,
        type ChatCompletionRole, type ChatCompletionStreamOptions,
        type ChatCompletionSystemMessageParam, type ChatCompletionTokenLogprob,
        type ChatCompletionTool, type ChatCompletionToolChoiceOption,
        type ChatCompletionToolMessageParam, type ChatCompletionTopLogprob,
        type ChatCompletionUserMessageParam,
      };
    }
  }
  /** `OpenAI.Completions`: the legacy completion types. */
  export namespace Completions {
    // prettier-ignore
    export {
      type Completion, type CompletionChoice, type CompletionCreateParams,
      type CompletionCreateParamsBase, type CompletionCreateParamsNonStreaming,
      type CompletionCreateParamsStreaming, type CompletionLogprobs, type CompletionTokensDetails,
      type CompletionUsage,
    };
  }
  /** `OpenAI.Models`: the model types. */
  export namespace Models {
    // prettier-ignore
    export {
      type Model, type ModelList, type ModelPricing,
    };
  }
}
/* eslint-enable @typescript-eslint/no-namespace */
// </openai-names>
