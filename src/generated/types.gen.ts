// Generated from spec/openapi.yaml by `npm run generate` (scripts/generate.ts). Do not edit:
// change the spec (or the generator) and regenerate.

/**
 * A model (Spec). The service sends every field; other OpenAI-compatible servers often send only
 * `id`, `object`, `created` and `owned_by`, so the fields beyond `id` and `object` are optional: a
 * field the server did not send stays absent (no value is invented). Extras are kept: vLLM `root`,
 * `parent`, `permission`; llama.cpp `meta`; Azure `capabilities`, `lifecycle_status`; Gemini
 * `display_name`; OpenRouter `architecture`, `top_provider`.
 *
 * @example
 * ```ts
 * import type { Model } from 'model-inference-sdk';
 *
 * const model: Model = {
 *   id: 'acme/chat-1',
 *   object: 'model',
 *   owned_by: 'acme',
 *   created: 1735689600,
 *   name: 'Acme Chat 1',
 *   context_length: 131072,
 *   max_output_length: 8192,
 *   input_modalities: ['text'],
 *   output_modalities: ['text'],
 *   supported_features: ['tools', 'reasoning'],
 *   pricing: [{ prompt: '0.15', completion: '0.60', input_cache_read: '0.075' }],
 *   is_ready: true,
 * };
 * ```
 */
export interface Model {
  /**
   * The model slug, `<vendor>/<model_name>` on this service (Spec).
   */
  id: string;
  /**
   * Always `model` (Spec).
   */
  object: 'model';
  /**
   * Creation time, Unix seconds (Spec). Quirks: `null` (Azure OpenAI, Gemini compat) reads as
   * absent; milliseconds (watsonx) become seconds; `0` (Cerebras, Perplexity) is kept.
   */
  created?: number;
  /**
   * Owner name (Spec). Quirk - `null` (Azure OpenAI) reads as absent.
   */
  owned_by?: string;
  /**
   * Display name (Spec).
   */
  name?: string;
  /**
   * Context size of the model, bounds the input (Spec). Quirk - vLLM calls it `max_model_len`.
   */
  context_length?: number;
  /**
   * Maximum output size of the model, bounds generated output (Spec).
   */
  max_output_length?: number;
  /**
   * Input modalities; value seen `text`, full set not shown (Spec).
   */
  input_modalities?: string[];
  /**
   * Output modalities; value seen `text`, full set not shown (Spec).
   */
  output_modalities?: string[];
  /**
   * Supported features; values seen `tools`, `reasoning`, full set not shown (Spec).
   */
  supported_features?: string[];
  /**
   * Prices (Spec: an array of objects whose values are decimal numbers carried as strings).
   * Quirks: one object instead of an array (Perplexity, OpenRouter) becomes a one-element array;
   * see `ModelPricing` for numbers and other names.
   */
  pricing?: ModelPricing[];
  /**
   * Whether the model is ready (Spec). Transitions are not shown.
   */
  is_ready?: boolean;
}

/**
 * One price entry of `Model.pricing`. Every price is an exact decimal string, e.g. `"0.15"`
 * (Spec); the currency and unit are the server's (the spec shows neither). Quirks: JSON numbers
 * (Perplexity) become their exact decimal strings (`12.5` → `"12.5"`, `1e-7` → `"0.0000001"`);
 * Perplexity's names `input`, `output`, `cache_read`, `cache_write` are read as `prompt`,
 * `completion`, `input_cache_read`, `input_cache_write`, and its `unit` (e.g. `usd_per_1m_tokens`)
 * is kept. OpenRouter extras (`web_search`, `overrides`, ...) are kept.
 *
 * @example
 * ```ts
 * import type { ModelPricing } from 'model-inference-sdk';
 *
 * const modelPricing: ModelPricing = {
 *   prompt: '0.15',
 *   completion: '0.60',
 *   input_cache_read: '0.075',
 * };
 * ```
 */
export interface ModelPricing {
  /**
   * Price of prompt (input) tokens (Spec).
   */
  prompt?: string;
  /**
   * Price of completion (output) tokens (Spec).
   */
  completion?: string;
  /**
   * Price of prompt tokens read from cache (Spec).
   */
  input_cache_read?: string;
  /**
   * Price of prompt tokens written to cache (OpenRouter; Perplexity's `cache_write`).
   */
  input_cache_write?: string;
  /**
   * The unit of the prices when the server states one (Perplexity: `usd_per_1m_tokens`); absent on
   * the service, whose unit is not shown.
   */
  unit?: string;
}

/**
 * The models available to the caller's API key (Spec). Quirks: `object` absent (OpenRouter);
 * llama.cpp adds a top-level `models` array next to `data` (kept).
 *
 * @example
 * ```ts
 * import type { ModelList } from 'model-inference-sdk';
 *
 * const modelList: ModelList = {
 *   object: 'list',
 *   data: [
 *     {
 *       id: 'acme/chat-1',
 *       object: 'model',
 *       owned_by: 'acme',
 *       created: 1735689600,
 *       name: 'Acme Chat 1',
 *       context_length: 131072,
 *       max_output_length: 8192,
 *       input_modalities: ['text'],
 *       output_modalities: ['text'],
 *       supported_features: ['tools', 'reasoning'],
 *       pricing: [{ prompt: '0.15', completion: '0.60', input_cache_read: '0.075' }],
 *       is_ready: true,
 *     },
 *   ],
 * };
 * ```
 */
export interface ModelList {
  /**
   * Always `list` (Spec).
   */
  object: 'list';
  /**
   * Every model available to the caller's key (Spec).
   */
  data: Model[];
}

/**
 * Body of `POST /chat/completions`. `model`, `messages`, `temperature` and `stream` are shown by
 * the spec; the spec says tool calling and structured outputs are supported but does not show
 * their parameters, so the rest follows the chat-completions API. Not every OpenAI-compatible
 * server accepts every parameter.
 *
 * @example
 * ```ts
 * import type { ChatCompletionCreateParamsBase } from 'model-inference-sdk';
 *
 * const chatCompletionCreateParamsBase: ChatCompletionCreateParamsBase = {
 *   model: 'acme/chat-1',
 *   messages: [
 *     { role: 'system', content: 'You are a concise assistant.' },
 *     { role: 'user', content: 'Name the three primary colours.' },
 *   ],
 *   temperature: 0.2,
 *   max_tokens: 64,
 * };
 * ```
 */
export interface ChatCompletionCreateParamsBase {
  /**
   * Model slug, `<vendor>/<model_name>` (Spec).
   */
  model: string;
  /**
   * The conversation so far (Spec).
   */
  messages: ChatCompletionMessageParam[];
  /**
   * Sampling temperature (Spec), usually between 0 and 2.
   */
  temperature?: number | null;
  /**
   * `true` switches the response to server-sent events of `ChatCompletionChunk` (Spec).
   */
  stream?: boolean | null;
  stream_options?: ChatCompletionStreamOptions | null;
  /**
   * Functions the model may call (chat-completions API).
   */
  tools?: ChatCompletionTool[];
  tool_choice?: ChatCompletionToolChoiceOption;
  /**
   * Whether the model may call several tools in one turn (chat-completions API).
   */
  parallel_tool_calls?: boolean;
  /**
   * Output format: plain text, any JSON object, or JSON matching a schema (structured outputs)
   * (chat-completions API).
   */
  response_format?: ResponseFormatText | ResponseFormatJSONObject | ResponseFormatJSONSchema;
  /**
   * Maximum number of tokens to generate (chat-completions API). Widely supported by other
   * servers; OpenAI reasoning models reject it in favour of `max_completion_tokens`.
   */
  max_tokens?: number | null;
  /**
   * Upper bound on generated tokens, reasoning tokens included (chat-completions API). Not
   * accepted by every server.
   */
  max_completion_tokens?: number | null;
  /**
   * Up to 4 sequences where generation stops (chat-completions API).
   */
  stop?: string | string[] | null;
  /**
   * Number of choices to generate (chat-completions API).
   */
  n?: number | null;
  /**
   * Best-effort deterministic sampling seed (chat-completions API).
   */
  seed?: number | null;
  /**
   * Nucleus sampling probability mass (chat-completions API).
   */
  top_p?: number | null;
  /**
   * Penalty for tokens already present, -2.0 to 2.0 (chat-completions API).
   */
  presence_penalty?: number | null;
  /**
   * Penalty proportional to token frequency, -2.0 to 2.0 (chat-completions API).
   */
  frequency_penalty?: number | null;
  /**
   * Return log probabilities of the output tokens (chat-completions API).
   */
  logprobs?: boolean | null;
  /**
   * Number of most likely tokens (0-20) to return at each position; requires `logprobs`
   * (chat-completions API).
   */
  top_logprobs?: number | null;
  /**
   * Stable end-user identifier for abuse monitoring (chat-completions API).
   */
  user?: string;
  /**
   * Reasoning effort for reasoning models (chat-completions API). Not every model or server
   * accepts every value.
   */
  reasoning_effort?: ReasoningEffort;
  /**
   * How terse or detailed the answer should be, `medium` by default (chat-completions API). Not
   * every server accepts it.
   */
  verbosity?: 'low' | 'medium' | 'high' | null;
  /**
   * Token id (as a string key) → a bias from -100 to 100 added to that token's logit before
   * sampling: -100 bans the token, 100 forces it (chat-completions API). Token ids depend on the
   * model's tokenizer. Not every server accepts it.
   */
  logit_bias?: {
    [key: string]: number;
  } | null;
  /**
   * Up to 16 string key-value pairs stored with the completion (chat-completions API). Not every
   * server accepts it.
   */
  metadata?: Metadata | null;
  /**
   * Whether the provider keeps this completion for later use, e.g. OpenAI's distillation and evals
   * (chat-completions API). Not every server accepts it.
   */
  store?: boolean | null;
  /**
   * Processing tier: `auto`, `default`, `flex` (cheaper, slower), `priority`, ... The response's
   * `service_tier` says which tier served the request (chat-completions API). Other servers name
   * their own tiers (Groq `on_demand`); not every server accepts it.
   */
  service_tier?: 'auto' | 'default' | 'flex' | 'scale' | 'priority' | (string & {}) | null;
  /**
   * The output modalities: `['text']` by default; `['text', 'audio']` asks an audio-capable model
   * to speak too, with `audio` set (chat-completions API). Not every server accepts it. Audio
   * output is not typed in responses: read `message.audio` with `extras()`.
   */
  modalities?: ChatCompletionModality[] | null;
  /**
   * Voice and format of audio output, with `modalities: ['text', 'audio']` (chat-completions API).
   * Not every server accepts it.
   */
  audio?: ChatCompletionAudioParam | null;
  /**
   * Text the answer is expected to largely repeat (a file being edited), so that the server can
   * answer faster (chat-completions API). Not every server accepts it.
   */
  prediction?: ChatCompletionPredictionContent | null;
  /**
   * A stable identifier of your end user (hash it: no personal data), for the provider's abuse
   * detection; the successor of `user` (chat-completions API). Not every server accepts it.
   */
  safety_identifier?: string | null;
  /**
   * A key shared by requests with the same long prefix, so that the provider's prompt cache finds
   * them (chat-completions API). Not every server accepts it.
   */
  prompt_cache_key?: string | null;
  /**
   * Lets a search model look up the web before it answers (chat-completions API: OpenAI's search
   * models). Not every server accepts it.
   */
  web_search_options?: {
    /**
     * How much of the context window search results may fill; `medium` by default.
     */
    search_context_size?: 'low' | 'medium' | 'high';
    /**
     * Where the user roughly is, for local results.
     */
    user_location?: {
      type: 'approximate';
      approximate: {
        /**
         * City, free text, e.g. `Paris`.
         */
        city?: string;
        /**
         * Region, free text, e.g. `Île-de-France`.
         */
        region?: string;
        /**
         * Two-letter ISO 3166-1 country code, e.g. `FR`.
         */
        country?: string;
        /**
         * IANA time zone, e.g. `Europe/Paris`.
         */
        timezone?: string;
      };
    } | null;
  };
  /**
   * Deprecated: use `tools`. Functions the model may call, the older form of `tools`
   * (chat-completions API). Not every server accepts it.
   *
   * @deprecated
   */
  functions?: {
    /**
     * Function name (letters, digits, `_` and `-`, up to 64 characters).
     */
    name: string;
    /**
     * What the function does, for the model.
     */
    description?: string;
    parameters?: FunctionParameters;
  }[];
  /**
   * Deprecated: use `tool_choice`. How the model picks among `functions`: `none`, `auto`, or a
   * named function (chat-completions API). Not every server accepts it.
   *
   * @deprecated
   */
  function_call?: 'none' | 'auto' | ChatCompletionFunctionCallOption;
}

/**
 * `ChatCompletionCreateParamsNonStreaming`: {@link ChatCompletionCreateParamsBase} without
 * streaming: `stream` left out, `false` or `null`, and the response is one object, as the `openai`
 * client declares it.
 *
 * @example
 * ```ts
 * import type { ChatCompletionCreateParamsNonStreaming } from 'model-inference-sdk';
 *
 * const chatCompletionCreateParamsNonStreaming: ChatCompletionCreateParamsNonStreaming = {
 *   model: 'acme/chat-1',
 *   messages: [
 *     { role: 'system', content: 'You are a concise assistant.' },
 *     { role: 'user', content: 'Name the three primary colours.' },
 *   ],
 *   temperature: 0.2,
 *   max_tokens: 64,
 * };
 * ```
 */
export interface ChatCompletionCreateParamsNonStreaming extends ChatCompletionCreateParamsBase {
  stream?: false | null;
}

/**
 * `ChatCompletionCreateParamsStreaming`: {@link ChatCompletionCreateParamsBase} with `stream:
 * true`: the response is a stream of server-sent events, as the `openai` client declares it.
 *
 * @example
 * ```ts
 * import type { ChatCompletionCreateParamsStreaming } from 'model-inference-sdk';
 *
 * const chatCompletionCreateParamsStreaming: ChatCompletionCreateParamsStreaming = {
 *   model: 'acme/chat-1',
 *   messages: [
 *     { role: 'system', content: 'You are a concise assistant.' },
 *     { role: 'user', content: 'Name the three primary colours.' },
 *   ],
 *   temperature: 0.2,
 *   max_tokens: 64,
 *   stream: true,
 * };
 * ```
 */
export interface ChatCompletionCreateParamsStreaming extends ChatCompletionCreateParamsBase {
  stream: true;
}

/**
 * `ChatCompletionCreateParams`: the body of either form,
 * {@link ChatCompletionCreateParamsNonStreaming} or {@link ChatCompletionCreateParamsStreaming},
 * as the `openai` client declares it. `if (body.stream)` tells them apart; a body declared with
 * one form picks the matching overload of `create()`.
 *
 * @example
 * ```ts
 * import type { ChatCompletionCreateParams } from 'model-inference-sdk';
 *
 * const chatCompletionCreateParams: ChatCompletionCreateParams = {
 *   model: 'acme/chat-1',
 *   messages: [
 *     { role: 'system', content: 'You are a concise assistant.' },
 *     { role: 'user', content: 'Name the three primary colours.' },
 *   ],
 *   temperature: 0.2,
 *   max_tokens: 64,
 * };
 * ```
 */
export type ChatCompletionCreateParams =
  ChatCompletionCreateParamsNonStreaming | ChatCompletionCreateParamsStreaming;

/**
 * The `openai` client's names for the parts of `ChatCompletionCreateParams`
 * (`ChatCompletionCreateParams.Function`, `ChatCompletionCreateParams.WebSearchOptions`,
 * `ChatCompletionCreateParams.WebSearchOptions.UserLocation`,
 * `ChatCompletionCreateParams.WebSearchOptions.UserLocation.Approximate`), so that code written
 * for that client compiles unchanged. Types only.
 */
export declare namespace ChatCompletionCreateParams {
  /**
   * `ChatCompletionCreateParams.Function` in the `openai` client: the `functions[]` of
   * {@link ChatCompletionCreateParamsBase}.
   */
  export type Function = NonNullable<ChatCompletionCreateParamsBase['functions']>[number];
  /**
   * `ChatCompletionCreateParams.WebSearchOptions` in the `openai` client: the `web_search_options`
   * of {@link ChatCompletionCreateParamsBase}.
   */
  export type WebSearchOptions = NonNullable<ChatCompletionCreateParamsBase['web_search_options']>;
  export namespace WebSearchOptions {
    /**
     * `ChatCompletionCreateParams.WebSearchOptions.UserLocation` in the `openai` client: the
     * `web_search_options.user_location` of {@link ChatCompletionCreateParamsBase}.
     */
    export type UserLocation = NonNullable<
      NonNullable<ChatCompletionCreateParamsBase['web_search_options']>['user_location']
    >;
    export namespace UserLocation {
      /**
       * `ChatCompletionCreateParams.WebSearchOptions.UserLocation.Approximate` in the `openai`
       * client: the `web_search_options.user_location.approximate` of
       * {@link ChatCompletionCreateParamsBase}.
       */
      export type Approximate = NonNullable<
        NonNullable<ChatCompletionCreateParamsBase['web_search_options']>['user_location']
      >['approximate'];
    }
  }
}

/**
 * How long a reasoning model thinks before it answers (chat-completions API); `null` leaves it to
 * the model. Not every model or server accepts every value.
 *
 * @example
 * ```ts
 * import type { ReasoningEffort } from 'model-inference-sdk';
 *
 * const reasoningEffort: ReasoningEffort = 'low';
 * ```
 */
export type ReasoningEffort =
  'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max' | null;

/**
 * `ChatCompletionReasoningEffort`, the name the `openai` client gives {@link ReasoningEffort}: the
 * same type, so that code written for that client compiles unchanged.
 *
 * How long a reasoning model thinks before it answers (chat-completions API); `null` leaves it to
 * the model. Not every model or server accepts every value.
 *
 * @example
 * ```ts
 * import type { ChatCompletionReasoningEffort } from 'model-inference-sdk';
 *
 * const chatCompletionReasoningEffort: ChatCompletionReasoningEffort = 'low';
 * ```
 */
export type ChatCompletionReasoningEffort = ReasoningEffort;

/**
 * Up to 16 string key-value pairs stored with the completion, keys up to 64 characters and values
 * up to 512 (chat-completions API). Not every server accepts it.
 *
 * @example
 * ```ts
 * import type { Metadata } from 'model-inference-sdk';
 *
 * const metadata: Metadata = { tenant: 'acme', feature: 'support-chat' };
 * ```
 */
export type Metadata = {
  [key: string]: string;
};

/**
 * An output modality (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionModality } from 'model-inference-sdk';
 *
 * const chatCompletionModality: ChatCompletionModality = 'text';
 * ```
 */
export type ChatCompletionModality = 'text' | 'audio';

/**
 * The voice and format of audio output, with `modalities: ['text', 'audio']` (chat-completions
 * API). Not every server accepts it. Audio output is not typed in responses: read `message.audio`
 * with `extras()`.
 *
 * @example
 * ```ts
 * import type { ChatCompletionAudioParam } from 'model-inference-sdk';
 *
 * const chatCompletionAudioParam: ChatCompletionAudioParam = { voice: 'alloy', format: 'mp3' };
 * ```
 */
export interface ChatCompletionAudioParam {
  /**
   * A built-in voice (`alloy`, `ash`, `coral`, ...) or a custom voice, `{ id }`.
   */
  voice:
    | 'alloy'
    | 'ash'
    | 'ballad'
    | 'coral'
    | 'echo'
    | 'fable'
    | 'nova'
    | 'onyx'
    | 'sage'
    | 'shimmer'
    | 'verse'
    | 'marin'
    | 'cedar'
    | (string & {})
    | {
        /**
         * The custom voice's id.
         */
        id: string;
      };
  /**
   * The audio encoding.
   */
  format: 'wav' | 'aac' | 'mp3' | 'flac' | 'opus' | 'pcm16';
}

/**
 * Predicted output: text the answer is expected to repeat largely unchanged (a file being edited),
 * which lets the server answer faster (chat-completions API). Not every server accepts it.
 *
 * @example
 * ```ts
 * import type { ChatCompletionPredictionContent } from 'model-inference-sdk';
 *
 * const chatCompletionPredictionContent: ChatCompletionPredictionContent = {
 *   type: 'content',
 *   content: 'export const primary = ["red", "yellow", "blue"];',
 * };
 * ```
 */
export interface ChatCompletionPredictionContent {
  type: 'content';
  /**
   * The predicted text, or text parts.
   */
  content: string | ChatCompletionContentPartText[];
}

/**
 * Forces a call to the named function, with the deprecated `function_call` parameter
 * (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionFunctionCallOption } from 'model-inference-sdk';
 *
 * const chatCompletionFunctionCallOption: ChatCompletionFunctionCallOption = { name: 'get_weather' };
 * ```
 */
export interface ChatCompletionFunctionCallOption {
  /**
   * Name of the function to call.
   */
  name: string;
}

/**
 * Options for a streamed response; set only with `stream: true` (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionStreamOptions } from 'model-inference-sdk';
 *
 * const chatCompletionStreamOptions: ChatCompletionStreamOptions = { include_usage: true };
 * ```
 */
export interface ChatCompletionStreamOptions {
  /**
   * Ask for usage in the stream (chat-completions API): OpenAI sends it in an extra chunk with
   * `choices: []` before `[DONE]`. Quirks: DeepSeek, Groq and Mistral put it on the finish chunk
   * instead; some servers reject `stream_options` entirely.
   */
  include_usage?: boolean;
  /**
   * OpenAI pads each streamed delta with a random `obfuscation` field against side-channel
   * attacks; `false` leaves it out to save bandwidth (chat-completions API). Not every server
   * accepts it.
   */
  include_obfuscation?: boolean;
}

/**
 * One message of the conversation, discriminated by `role` (every variant fixes its `role` to one
 * value). The spec shows `role` and string `content` with roles `system`, `user`, `assistant`; the
 * `developer` and `tool` roles, the deprecated `function` role and array content follow the
 * chat-completions API.
 *
 * @example
 * ```ts
 * import type { ChatCompletionMessageParam } from 'model-inference-sdk';
 *
 * const chatCompletionMessageParam: ChatCompletionMessageParam = {
 *   role: 'user',
 *   content: 'Name the three primary colours.',
 * };
 * ```
 */
export type ChatCompletionMessageParam =
  | ChatCompletionSystemMessageParam
  | ChatCompletionDeveloperMessageParam
  | ChatCompletionUserMessageParam
  | ChatCompletionAssistantMessageParam
  | ChatCompletionToolMessageParam
  | ChatCompletionFunctionMessageParam;

/**
 * `ChatCompletionRole`, the name the `openai` client gives the `role` of
 * {@link ChatCompletionMessageParam}: the same type, so that code written for that client compiles
 * unchanged.
 *
 * @example
 * ```ts
 * import type { ChatCompletionRole } from 'model-inference-sdk';
 *
 * const chatCompletionRole: ChatCompletionRole = 'user';
 * ```
 */
export type ChatCompletionRole = ChatCompletionMessageParam['role'];

/**
 * System instructions (Spec).
 *
 * @example
 * ```ts
 * import type { ChatCompletionSystemMessageParam } from 'model-inference-sdk';
 *
 * const chatCompletionSystemMessageParam: ChatCompletionSystemMessageParam = {
 *   role: 'system',
 *   content: 'You are a concise assistant.',
 * };
 * ```
 */
export interface ChatCompletionSystemMessageParam {
  role: 'system';
  /**
   * Instruction text, or text parts (array form from the chat-completions API).
   */
  content: string | ChatCompletionContentPartText[];
  /**
   * Optional participant name (chat-completions API).
   */
  name?: string;
}

/**
 * Developer instructions, the newer name of system messages for some models (chat-completions
 * API). Servers that do not know the role may reject it; use `system` there.
 *
 * @example
 * ```ts
 * import type { ChatCompletionDeveloperMessageParam } from 'model-inference-sdk';
 *
 * const chatCompletionDeveloperMessageParam: ChatCompletionDeveloperMessageParam = {
 *   role: 'developer',
 *   content: 'Answer in one sentence.',
 * };
 * ```
 */
export interface ChatCompletionDeveloperMessageParam {
  role: 'developer';
  /**
   * Instruction text, or text parts.
   */
  content: string | ChatCompletionContentPartText[];
  /**
   * Optional participant name (chat-completions API).
   */
  name?: string;
}

/**
 * A user turn (Spec); array content with images, audio and files follows the chat-completions API.
 *
 * @example
 * ```ts
 * import type { ChatCompletionUserMessageParam } from 'model-inference-sdk';
 *
 * const chatCompletionUserMessageParam: ChatCompletionUserMessageParam = {
 *   role: 'user',
 *   content: [
 *     { type: 'text', text: 'What colour is this?' },
 *     { type: 'image_url', image_url: { url: 'https://example.com/swatch.png', detail: 'low' } },
 *   ],
 * };
 * ```
 */
export interface ChatCompletionUserMessageParam {
  role: 'user';
  /**
   * Text (Spec), or an array of text, image, audio and file parts (chat-completions API).
   */
  content: string | ChatCompletionContentPart[];
  /**
   * Optional participant name (chat-completions API).
   */
  name?: string;
}

/**
 * A previous assistant turn sent back (Spec shows role `assistant`). `content` may be omitted or
 * `null` when the turn only called tools (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionAssistantMessageParam } from 'model-inference-sdk';
 *
 * const chatCompletionAssistantMessageParam: ChatCompletionAssistantMessageParam = {
 *   role: 'assistant',
 *   content: null,
 *   tool_calls: [
 *     {
 *       id: 'call_1',
 *       type: 'function',
 *       function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
 *     },
 *   ],
 * };
 * ```
 */
export interface ChatCompletionAssistantMessageParam {
  role: 'assistant';
  /**
   * The assistant's text, text and refusal parts, or `null` when `tool_calls` is set.
   */
  content?: string | (ChatCompletionContentPartText | ChatCompletionContentPartRefusal)[] | null;
  /**
   * Optional participant name (chat-completions API).
   */
  name?: string;
  /**
   * The assistant's refusal message, if it refused (chat-completions API).
   */
  refusal?: string | null;
  /**
   * Tool calls the assistant made (chat-completions API). Send back the calls as received, extra
   * fields included (Gemini needs `extra_content.google.thought_signature` back).
   */
  tool_calls?: ChatCompletionMessageToolCall[];
  /**
   * Quirk (DeepSeek): the reasoning text of this turn. DeepSeek requires it to be sent back on
   * assistant messages inside a tool-call loop; other servers ignore or reject it.
   */
  reasoning_content?: string | null;
  /**
   * Deprecated: use `tool_calls`. The function the assistant called with the deprecated
   * `functions` parameter (chat-completions API).
   *
   * @deprecated
   */
  function_call?: {
    /**
     * Name of the function called.
     */
    name: string;
    /**
     * The arguments, as JSON text.
     */
    arguments: string;
  } | null;
}

/**
 * The `openai` client's names for the parts of `ChatCompletionAssistantMessageParam`
 * (`ChatCompletionAssistantMessageParam.FunctionCall`), so that code written for that client
 * compiles unchanged. Types only.
 */
export declare namespace ChatCompletionAssistantMessageParam {
  /**
   * `ChatCompletionAssistantMessageParam.FunctionCall` in the `openai` client: the `function_call`
   * of {@link ChatCompletionAssistantMessageParam}.
   */
  export type FunctionCall = NonNullable<ChatCompletionAssistantMessageParam['function_call']>;
}

/**
 * The result of a tool call (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionToolMessageParam } from 'model-inference-sdk';
 *
 * const chatCompletionToolMessageParam: ChatCompletionToolMessageParam = {
 *   role: 'tool',
 *   tool_call_id: 'call_1',
 *   content: '{"temperature_c":18,"condition":"cloudy"}',
 * };
 * ```
 */
export interface ChatCompletionToolMessageParam {
  role: 'tool';
  /**
   * The tool's result, as text or text parts.
   */
  content: string | ChatCompletionContentPartText[];
  /**
   * The `id` of the tool call this message answers.
   */
  tool_call_id: string;
}

/**
 * Deprecated: use a `tool` message. The result of a call made with the deprecated `functions`
 * parameter (chat-completions API). Not every server accepts it.
 *
 * @deprecated
 * @example
 * ```ts
 * import type { ChatCompletionFunctionMessageParam } from 'model-inference-sdk';
 *
 * const chatCompletionFunctionMessageParam: ChatCompletionFunctionMessageParam = {
 *   role: 'function',
 *   name: 'get_weather',
 *   content: '{"temperature_c":18,"condition":"cloudy"}',
 * };
 * ```
 */
export interface ChatCompletionFunctionMessageParam {
  role: 'function';
  /**
   * The function's result.
   */
  content: string | null;
  /**
   * Name of the function that was called.
   */
  name: string;
}

/**
 * One part of array-form user content (chat-completions API): text, an image, audio or a file. The
 * model must accept that kind of input.
 *
 * @example
 * ```ts
 * import type { ChatCompletionContentPart } from 'model-inference-sdk';
 *
 * const chatCompletionContentPart: ChatCompletionContentPart = {
 *   type: 'text',
 *   text: 'What colour is this?',
 * };
 * ```
 */
export type ChatCompletionContentPart =
  | ChatCompletionContentPartText
  | ChatCompletionContentPartImage
  | ChatCompletionContentPartInputAudio
  | ChatCompletionContentPartFile;

/**
 * The `openai` client's names for the parts of `ChatCompletionContentPart`
 * (`ChatCompletionContentPart.File`, `ChatCompletionContentPart.File.File`), so that code written
 * for that client compiles unchanged. Types only.
 */
export declare namespace ChatCompletionContentPart {
  /**
   * `ChatCompletionContentPart.File` in the `openai` client:
   * {@link ChatCompletionContentPartFile}.
   */
  export type File = ChatCompletionContentPartFile;
  export namespace File {
    /**
     * `ChatCompletionContentPart.File.File` in the `openai` client: the `file` of
     * {@link ChatCompletionContentPartFile}.
     */
    export type File = ChatCompletionContentPartFile['file'];
  }
}

/**
 * A text content part (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionContentPartText } from 'model-inference-sdk';
 *
 * const chatCompletionContentPartText: ChatCompletionContentPartText = {
 *   type: 'text',
 *   text: 'What colour is this?',
 * };
 * ```
 */
export interface ChatCompletionContentPartText {
  type: 'text';
  text: string;
}

/**
 * An image content part (chat-completions API); the model must accept image input.
 *
 * @example
 * ```ts
 * import type { ChatCompletionContentPartImage } from 'model-inference-sdk';
 *
 * const chatCompletionContentPartImage: ChatCompletionContentPartImage = {
 *   type: 'image_url',
 *   image_url: { url: 'https://example.com/swatch.png', detail: 'low' },
 * };
 * ```
 */
export interface ChatCompletionContentPartImage {
  type: 'image_url';
  image_url: {
    /**
     * An image URL or a `data:` URL with base64 image data.
     */
    url: string;
    /**
     * Image detail level.
     */
    detail?: 'auto' | 'low' | 'high';
  };
}

/**
 * The `openai` client's names for the parts of `ChatCompletionContentPartImage`
 * (`ChatCompletionContentPartImage.ImageURL`), so that code written for that client compiles
 * unchanged. Types only.
 */
export declare namespace ChatCompletionContentPartImage {
  /**
   * `ChatCompletionContentPartImage.ImageURL` in the `openai` client: the `image_url` of
   * {@link ChatCompletionContentPartImage}.
   */
  export type ImageURL = ChatCompletionContentPartImage['image_url'];
}

/**
 * An audio content part (chat-completions API); the model must accept audio input. Not every
 * server accepts it.
 *
 * @example
 * ```ts
 * import type { ChatCompletionContentPartInputAudio } from 'model-inference-sdk';
 *
 * const chatCompletionContentPartInputAudio: ChatCompletionContentPartInputAudio = {
 *   type: 'input_audio',
 *   input_audio: {
 *     data: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=',
 *     format: 'wav',
 *   },
 * };
 * ```
 */
export interface ChatCompletionContentPartInputAudio {
  type: 'input_audio';
  input_audio: {
    /**
     * The audio, base64-encoded (no `data:` URL prefix).
     */
    data: string;
    /**
     * The audio encoding.
     */
    format: 'wav' | 'mp3';
  };
}

/**
 * The `openai` client's names for the parts of `ChatCompletionContentPartInputAudio`
 * (`ChatCompletionContentPartInputAudio.InputAudio`), so that code written for that client
 * compiles unchanged. Types only.
 */
export declare namespace ChatCompletionContentPartInputAudio {
  /**
   * `ChatCompletionContentPartInputAudio.InputAudio` in the `openai` client: the `input_audio` of
   * {@link ChatCompletionContentPartInputAudio}.
   */
  export type InputAudio = ChatCompletionContentPartInputAudio['input_audio'];
}

/**
 * A file content part, such as a PDF (chat-completions API): inline as `file_data` with a
 * `filename`, or an uploaded file's `file_id`. The model must accept file input; not every server
 * accepts it.
 *
 * @example
 * ```ts
 * import type { ChatCompletionContentPartFile } from 'model-inference-sdk';
 *
 * const chatCompletionContentPartFile: ChatCompletionContentPartFile = {
 *   type: 'file',
 *   file: { filename: 'colours.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' },
 * };
 * ```
 */
export interface ChatCompletionContentPartFile {
  type: 'file';
  file: {
    /**
     * The file's content as a base64 `data:` URL, e.g. `data:application/pdf;base64,...`.
     */
    file_data?: string;
    /**
     * The file's name, sent with `file_data`.
     */
    filename?: string;
    /**
     * The id of a file uploaded to the provider beforehand.
     */
    file_id?: string;
  };
}

/**
 * A refusal part of an assistant message sent back (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionContentPartRefusal } from 'model-inference-sdk';
 *
 * const chatCompletionContentPartRefusal: ChatCompletionContentPartRefusal = {
 *   type: 'refusal',
 *   refusal: "I can't help with that.",
 * };
 * ```
 */
export interface ChatCompletionContentPartRefusal {
  type: 'refusal';
  /**
   * The refusal text.
   */
  refusal: string;
}

/**
 * A function the model may call (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionTool } from 'model-inference-sdk';
 *
 * const chatCompletionTool: ChatCompletionTool = {
 *   type: 'function',
 *   function: {
 *     name: 'get_weather',
 *     description: 'Current weather in a city.',
 *     parameters: {
 *       type: 'object',
 *       properties: { city: { type: 'string' } },
 *       required: ['city'],
 *       additionalProperties: false,
 *     },
 *     strict: true,
 *   },
 * };
 * ```
 */
export interface ChatCompletionTool {
  type: 'function';
  function: FunctionDefinition;
}

/**
 * `ChatCompletionFunctionTool`, the name the `openai` client gives {@link ChatCompletionTool}: the
 * same type, so that code written for that client compiles unchanged.
 *
 * A function the model may call (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionFunctionTool } from 'model-inference-sdk';
 *
 * const chatCompletionFunctionTool: ChatCompletionFunctionTool = {
 *   type: 'function',
 *   function: {
 *     name: 'get_weather',
 *     description: 'Current weather in a city.',
 *     parameters: {
 *       type: 'object',
 *       properties: { city: { type: 'string' } },
 *       required: ['city'],
 *       additionalProperties: false,
 *     },
 *     strict: true,
 *   },
 * };
 * ```
 */
export type ChatCompletionFunctionTool = ChatCompletionTool;

/**
 * A function the model may call, in a `function` tool (chat-completions API).
 *
 * @example
 * ```ts
 * import type { FunctionDefinition } from 'model-inference-sdk';
 *
 * const functionDefinition: FunctionDefinition = {
 *   name: 'get_weather',
 *   description: 'Current weather in a city.',
 *   parameters: {
 *     type: 'object',
 *     properties: { city: { type: 'string' } },
 *     required: ['city'],
 *     additionalProperties: false,
 *   },
 *   strict: true,
 * };
 * ```
 */
export interface FunctionDefinition {
  /**
   * Function name (letters, digits, `_` and `-`, up to 64 characters).
   */
  name: string;
  /**
   * What the function does, for the model.
   */
  description?: string;
  parameters?: FunctionParameters;
  /**
   * Ask for arguments that follow `parameters` exactly (structured outputs).
   */
  strict?: boolean | null;
}

/**
 * A function's arguments as a JSON Schema object (free-form); left out, the function takes no
 * arguments (chat-completions API).
 *
 * @example
 * ```ts
 * import type { FunctionParameters } from 'model-inference-sdk';
 *
 * const functionParameters: FunctionParameters = {
 *   type: 'object',
 *   properties: { city: { type: 'string' } },
 *   required: ['city'],
 * };
 * ```
 */
export type FunctionParameters = {
  [key: string]: unknown;
};

/**
 * How the model picks tools (chat-completions API): `none`, `auto`, `required`, or a named
 * function.
 *
 * @example
 * ```ts
 * import type { ChatCompletionToolChoiceOption } from 'model-inference-sdk';
 *
 * const chatCompletionToolChoiceOption: ChatCompletionToolChoiceOption = 'auto';
 * ```
 */
export type ChatCompletionToolChoiceOption =
  'none' | 'auto' | 'required' | ChatCompletionNamedToolChoice;

/**
 * Forces a call to the named function (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionNamedToolChoice } from 'model-inference-sdk';
 *
 * const chatCompletionNamedToolChoice: ChatCompletionNamedToolChoice = {
 *   type: 'function',
 *   function: { name: 'get_weather' },
 * };
 * ```
 */
export interface ChatCompletionNamedToolChoice {
  type: 'function';
  function: {
    name: string;
  };
}

/**
 * The `openai` client's names for the parts of `ChatCompletionNamedToolChoice`
 * (`ChatCompletionNamedToolChoice.Function`), so that code written for that client compiles
 * unchanged. Types only.
 */
export declare namespace ChatCompletionNamedToolChoice {
  /**
   * `ChatCompletionNamedToolChoice.Function` in the `openai` client: the `function` of
   * {@link ChatCompletionNamedToolChoice}.
   */
  export type Function = ChatCompletionNamedToolChoice['function'];
}

/**
 * Plain text output (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ResponseFormatText } from 'model-inference-sdk';
 *
 * const responseFormatText: ResponseFormatText = { type: 'text' };
 * ```
 */
export interface ResponseFormatText {
  type: 'text';
}

/**
 * Output is a JSON object (JSON mode, chat-completions API); the prompt should also ask for JSON.
 *
 * @example
 * ```ts
 * import type { ResponseFormatJSONObject } from 'model-inference-sdk';
 *
 * const responseFormatJSONObject: ResponseFormatJSONObject = { type: 'json_object' };
 * ```
 */
export interface ResponseFormatJSONObject {
  type: 'json_object';
}

/**
 * Output follows a JSON Schema (structured outputs, chat-completions API).
 *
 * @example
 * ```ts
 * import type { ResponseFormatJSONSchema } from 'model-inference-sdk';
 *
 * const responseFormatJSONSchema: ResponseFormatJSONSchema = {
 *   type: 'json_schema',
 *   json_schema: {
 *     name: 'colours',
 *     description: 'A list of colour names.',
 *     schema: {
 *       type: 'object',
 *       properties: { colours: { type: 'array', items: { type: 'string' } } },
 *       required: ['colours'],
 *       additionalProperties: false,
 *     },
 *     strict: true,
 *   },
 * };
 * ```
 */
export interface ResponseFormatJSONSchema {
  type: 'json_schema';
  json_schema: {
    /**
     * Name of the format (letters, digits, `_` and `-`, up to 64 characters).
     */
    name: string;
    /**
     * What the format is for.
     */
    description?: string;
    /**
     * The JSON Schema the output must follow (free-form).
     */
    schema?: {
      [key: string]: unknown;
    };
    /**
     * Enforce the schema exactly.
     */
    strict?: boolean | null;
  };
}

/**
 * The `openai` client's names for the parts of `ResponseFormatJSONSchema`
 * (`ResponseFormatJSONSchema.JSONSchema`), so that code written for that client compiles
 * unchanged. Types only.
 */
export declare namespace ResponseFormatJSONSchema {
  /**
   * `ResponseFormatJSONSchema.JSONSchema` in the `openai` client: the `json_schema` of
   * {@link ResponseFormatJSONSchema}.
   */
  export type JSONSchema = ResponseFormatJSONSchema['json_schema'];
}

/**
 * Why generation stopped. The chat-completions API's values (`stop`, `length`, `tool_calls`,
 * `content_filter`, `function_call`) or another string a server sends (`error` from Mistral and
 * OpenRouter, Gemini's `MALFORMED_FUNCTION_CALL`, ...); editors complete the known ones. Synonyms
 * are read as the API's values: `eos` (Together) and `eos_token` (TGI before 2.2) as `stop`;
 * `model_length` (Mistral) as `length`; Anthropic's own names, which some proxies pass through,
 * `end_turn` and `stop_sequence` as `stop`, `max_tokens` as `length`, `tool_use` as `tool_calls`;
 * and `""` (Ollama 2024, Snowflake, TGI on intermediate chunks), which says nothing, as `null`.
 *
 * @example
 * ```ts
 * import type { FinishReason } from 'model-inference-sdk';
 *
 * const finishReason: FinishReason = 'stop';
 * ```
 */
export type FinishReason =
  'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call' | (string & {});

/**
 * A chat completion (Spec). Extras are kept: `x_groq`, `provider`, `citations`, `search_results`,
 * `prompt_filter_results` (Azure), `time_info` (Cerebras), `request_id` (Z.ai), `prompt`
 * (Together), `kv_transfer_params` (vLLM), ...
 *
 * @example
 * ```ts
 * import type { ChatCompletion } from 'model-inference-sdk';
 *
 * const chatCompletion: ChatCompletion = {
 *   id: 'chatcmpl-7f3a9c2e',
 *   object: 'chat.completion',
 *   created: 1735689600,
 *   model: 'acme/chat-1',
 *   choices: [
 *     {
 *       index: 0,
 *       message: { role: 'assistant', content: 'Red, yellow and blue.', refusal: null },
 *       finish_reason: 'stop',
 *       logprobs: null,
 *     },
 *   ],
 *   usage: { prompt_tokens: 21, completion_tokens: 6, total_tokens: 27 },
 * };
 * ```
 */
export interface ChatCompletion {
  /**
   * Completion identifier (Spec). Quirks - absent or `""` (TGI, Snowflake) read as `""`.
   */
  id: string;
  /**
   * Always `chat.completion` (Spec). Quirk - absent (Zhipu GLM).
   */
  object: 'chat.completion';
  /**
   * Creation time, Unix seconds (Spec). Quirks: a fraction (SambaNova) is dropped; milliseconds
   * (mistral.rs, WebLLM) become seconds; absent reads as `0`, as some servers send it (Anthropic
   * compat).
   */
  created: number;
  /**
   * The model used (Spec); may differ from the requested slug (a file path on LM Studio, a route
   * name on LiteLLM). Absent reads as `""`.
   */
  model: string;
  /**
   * The generated choices (Spec), in `index` order (TGI sends them out of order).
   */
  choices: ChatCompletionChoice[];
  /**
   * Token usage (Spec); `null` when the server sent none.
   */
  usage: CompletionUsage | null;
  /**
   * Backend configuration fingerprint (chat-completions API). Often `null`, `""` or absent.
   */
  system_fingerprint?: string | null;
  /**
   * Service tier used (chat-completions API). Quirk - `""` (Snowflake), `null` (vLLM).
   */
  service_tier?: string | null;
}

/**
 * The `openai` client's names for the parts of `ChatCompletion` (`ChatCompletion.Choice`,
 * `ChatCompletion.Choice.Logprobs`), so that code written for that client compiles unchanged.
 * Types only.
 */
export declare namespace ChatCompletion {
  /**
   * `ChatCompletion.Choice` in the `openai` client: {@link ChatCompletionChoice}.
   */
  export type Choice = ChatCompletionChoice;
  export namespace Choice {
    /**
     * `ChatCompletion.Choice.Logprobs` in the `openai` client:
     * {@link ChatCompletionChoiceLogprobs}.
     */
    export type Logprobs = ChatCompletionChoiceLogprobs;
  }
}

/**
 * One choice of a chat completion (Spec). Extras are kept: `native_finish_reason` (OpenRouter),
 * `stop_reason` (vLLM), `content_filter_results` (Azure), `seed` (Together, may exceed 2^53 and
 * lose precision in JSON.parse).
 *
 * @example
 * ```ts
 * import type { ChatCompletionChoice } from 'model-inference-sdk';
 *
 * const chatCompletionChoice: ChatCompletionChoice = {
 *   index: 0,
 *   message: { role: 'assistant', content: 'Red, yellow and blue.', refusal: null },
 *   finish_reason: 'stop',
 *   logprobs: null,
 * };
 * ```
 */
export interface ChatCompletionChoice {
  /**
   * Position of this choice (Spec); its position in `choices` when the server left it out.
   */
  index: number;
  /**
   * The assistant message (Spec). Quirk - absent when Azure filtered the output (`finish_reason:
   * content_filter`): an empty assistant message (`content: null`).
   */
  message: ChatCompletionMessage;
  /**
   * Why generation stopped (Spec shows `stop`); `null` when the server gave no reason. See
   * `FinishReason` for the synonyms read. Quirk - `stop` after a tool call (TGI, and OpenAI itself
   * when `tool_choice` names a function) is kept as sent.
   */
  finish_reason: FinishReason | null;
  /**
   * Log probabilities of the output tokens when requested (chat-completions API), else `null`.
   */
  logprobs: ChatCompletionChoiceLogprobs | null;
}

/**
 * Log probabilities of a choice's tokens (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionChoiceLogprobs } from 'model-inference-sdk';
 *
 * const chatCompletionChoiceLogprobs: ChatCompletionChoiceLogprobs = {
 *   content: [{ token: 'Red', logprob: -0.0012, bytes: [82, 101, 100], top_logprobs: [] }],
 *   refusal: null,
 * };
 * ```
 */
export interface ChatCompletionChoiceLogprobs {
  /**
   * One entry per content token. Quirk - `null` (Snowflake, Novita).
   */
  content: ChatCompletionTokenLogprob[] | null;
  /**
   * One entry per refusal token.
   */
  refusal: ChatCompletionTokenLogprob[] | null;
}

/**
 * The assistant message of a choice (Spec shows `role` and string `content`). Raw fields a server
 * uses for reasoning (`reasoning_content`, `reasoning_details`) stay on the object, and
 * `reasoning` holds their text. Extras are kept: `audio`, `extra_content` (Gemini), ...
 *
 * @example
 * ```ts
 * import type { ChatCompletionMessage } from 'model-inference-sdk';
 *
 * const chatCompletionMessage: ChatCompletionMessage = {
 *   role: 'assistant',
 *   content: 'Red, yellow and blue.',
 *   refusal: null,
 * };
 * ```
 */
export interface ChatCompletionMessage {
  /**
   * Always `assistant` (Spec).
   */
  role: 'assistant';
  /**
   * The message text (Spec); `null` when the turn only called tools or refused. Quirk - an array
   * of typed parts (Mistral Magistral `thinking` and `text` parts): the text of its `text` parts,
   * joined (`null` when it has none); the array itself is in `content_parts`. Reasoning a server
   * writes inline as `<think>…</think>` (vLLM without a reasoning parser, Together) is the model's
   * text and is left in place.
   */
  content: string | null;
  /**
   * The refusal message when the model refused (chat-completions API), else `null`. Quirk - `""`
   * (Snowflake) reads as `null`.
   */
  refusal: string | null;
  /**
   * The model's reasoning, whichever field the server used: `reasoning_content` (DeepSeek, xAI,
   * Kimi, GLM / Z.ai, GPUStack, DashScope, vLLM up to 0.8), else `reasoning` (Groq, Cerebras,
   * Ollama, OpenRouter, newer vLLM, gpt-oss servers), else the text of Mistral's `thinking`
   * content parts, else the text of OpenRouter's `reasoning_details` (`reasoning.text` and
   * `reasoning.summary` blocks). Absent when the server sent none; `""` when it opened reasoning
   * and said nothing. A server's own `reasoning` that `reasoning_content` took precedence over is
   * in `reasoning_raw`.
   */
  reasoning?: string;
  /**
   * The server's own `reasoning` field, when it sent `reasoning_content` too (whose text
   * `reasoning` holds) with a different text, so that neither text is lost; absent otherwise (the
   * same text twice is kept once). A message sent back goes with `reasoning` set to this, as the
   * server sent it.
   */
  reasoning_raw?: string;
  /**
   * The tool calls the model made (chat-completions API); absent when there are none (servers send
   * `null` or `[]`).
   */
  tool_calls?: ChatCompletionMessageToolCall[];
  /**
   * Deprecated: `tool_calls` replaced it. The function the model called when the request gave
   * `functions` (chat-completions API); absent otherwise.
   *
   * @deprecated
   */
  function_call?: ChatCompletionMessageToolCallFunction | null;
  /**
   * Annotations such as `url_citation` (chat-completions API). Quirk - `null` reads as absent.
   */
  annotations?: ChatCompletionAnnotation[];
  /**
   * The content as the server sent it when that was an array of typed parts (Mistral `thinking`,
   * `text`, `reference` parts), so that no part is lost; absent when the content was a string or
   * `null`.
   */
  content_parts?: ChatCompletionResponseContentPart[];
}

/**
 * The `openai` client's names for the parts of `ChatCompletionMessage`
 * (`ChatCompletionMessage.Annotation`, `ChatCompletionMessage.Annotation.URLCitation`,
 * `ChatCompletionMessage.FunctionCall`), so that code written for that client compiles unchanged.
 * Types only.
 */
export declare namespace ChatCompletionMessage {
  /**
   * `ChatCompletionMessage.Annotation` in the `openai` client: {@link ChatCompletionAnnotation}.
   */
  export type Annotation = ChatCompletionAnnotation;
  export namespace Annotation {
    /**
     * `ChatCompletionMessage.Annotation.URLCitation` in the `openai` client: the `url_citation` of
     * {@link ChatCompletionAnnotation}.
     */
    export type URLCitation = NonNullable<ChatCompletionAnnotation['url_citation']>;
  }
  /**
   * `ChatCompletionMessage.FunctionCall` in the `openai` client: the `function_call` of
   * {@link ChatCompletionMessage}.
   */
  export type FunctionCall = NonNullable<ChatCompletionMessage['function_call']>;
}

/**
 * One typed part of content a server sent as an array (Mistral: `{"type": "text", "text"}`,
 * `{"type": "thinking", "thinking": [...]}`, `{"type": "reference", ...}`). Fields beyond `type`
 * and `text` are kept as sent.
 *
 * @example
 * ```ts
 * import type { ChatCompletionResponseContentPart } from 'model-inference-sdk';
 *
 * const chatCompletionResponseContentPart: ChatCompletionResponseContentPart = {
 *   type: 'text',
 *   text: 'Red, yellow and blue.',
 * };
 * ```
 */
export interface ChatCompletionResponseContentPart {
  /**
   * The part's type, e.g. `text`, `thinking`, `reference`.
   */
  type: string;
  /**
   * The text of a `text` part.
   */
  text?: string;
}

/**
 * One of OpenRouter's `reasoning_details` blocks, read for its text and kept as sent (every field
 * may be `null`).
 *
 * @example
 * ```ts
 * import type { ReasoningDetail } from 'model-inference-sdk';
 *
 * const reasoningDetail: ReasoningDetail = {
 *   type: 'reasoning.text',
 *   text: 'The user asks for primary colours.',
 * };
 * ```
 */
export interface ReasoningDetail {
  /**
   * `reasoning.text`, `reasoning.summary` or `reasoning.encrypted`.
   */
  type?: string | null;
  /**
   * The text of a `reasoning.text` block.
   */
  text?: string | null;
  /**
   * The text of a `reasoning.summary` block.
   */
  summary?: string | null;
}

/**
 * An annotation of a message, such as a URL citation (chat-completions API; OpenRouter).
 *
 * @example
 * ```ts
 * import type { ChatCompletionAnnotation } from 'model-inference-sdk';
 *
 * const chatCompletionAnnotation: ChatCompletionAnnotation = {
 *   type: 'url_citation',
 *   url_citation: {
 *     url: 'https://example.com/colours',
 *     title: 'Primary colours',
 *     start_index: 0,
 *     end_index: 20,
 *   },
 * };
 * ```
 */
export interface ChatCompletionAnnotation {
  /**
   * The annotation's type, e.g. `url_citation`.
   */
  type: string;
  /**
   * The cited page, for `url_citation`.
   */
  url_citation?: {
    url?: string;
    title?: string;
    start_index?: number;
    end_index?: number;
  };
}

/**
 * A tool call in a message (chat-completions API); also what an assistant message sends back.
 * Extras are kept and should be sent back as received: `index` (Ollama),
 * `extra_content.google.thought_signature` (Gemini), `custom` (Snowflake).
 *
 * @example
 * ```ts
 * import type { ChatCompletionMessageToolCall } from 'model-inference-sdk';
 *
 * const chatCompletionMessageToolCall: ChatCompletionMessageToolCall = {
 *   id: 'call_1',
 *   type: 'function',
 *   function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
 * };
 * ```
 */
export interface ChatCompletionMessageToolCall {
  /**
   * Call id, echoed in the tool message's `tool_call_id`. Quirks: `""` (Gemini compat), non-OpenAI
   * formats (`toolu_...`, `0`, `functions.name:0`); absent reads as `""`.
   */
  id: string;
  /**
   * Always `function` (chat-completions API). Quirk - absent, or another value (Novita).
   */
  type: 'function';
  function: ChatCompletionMessageToolCallFunction;
}

/**
 * The `openai` client's names for the parts of `ChatCompletionMessageToolCall`
 * (`ChatCompletionMessageToolCall.Function`), so that code written for that client compiles
 * unchanged. Types only.
 */
export declare namespace ChatCompletionMessageToolCall {
  /**
   * `ChatCompletionMessageToolCall.Function` in the `openai` client:
   * {@link ChatCompletionMessageToolCallFunction}.
   */
  export type Function = ChatCompletionMessageToolCallFunction;
}

/**
 * `ChatCompletionMessageFunctionToolCall`, the name the `openai` client gives
 * {@link ChatCompletionMessageToolCall}: the same type, so that code written for that client
 * compiles unchanged.
 *
 * A tool call in a message (chat-completions API); also what an assistant message sends back.
 * Extras are kept and should be sent back as received: `index` (Ollama),
 * `extra_content.google.thought_signature` (Gemini), `custom` (Snowflake).
 *
 * @example
 * ```ts
 * import type { ChatCompletionMessageFunctionToolCall } from 'model-inference-sdk';
 *
 * const chatCompletionMessageFunctionToolCall: ChatCompletionMessageFunctionToolCall = {
 *   id: 'call_1',
 *   type: 'function',
 *   function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
 * };
 * ```
 */
export type ChatCompletionMessageFunctionToolCall = ChatCompletionMessageToolCall;

/**
 * The `openai` client's names for the parts of `ChatCompletionMessageFunctionToolCall`
 * (`ChatCompletionMessageFunctionToolCall.Function`), so that code written for that client
 * compiles unchanged. Types only.
 */
export declare namespace ChatCompletionMessageFunctionToolCall {
  /**
   * `ChatCompletionMessageFunctionToolCall.Function` in the `openai` client:
   * {@link ChatCompletionMessageToolCallFunction}.
   */
  export type Function = ChatCompletionMessageToolCallFunction;
}

/**
 * The function a tool call names, and its arguments (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionMessageToolCallFunction } from 'model-inference-sdk';
 *
 * const chatCompletionMessageToolCallFunction: ChatCompletionMessageToolCallFunction = {
 *   name: 'get_weather',
 *   arguments: '{"city":"Paris"}',
 * };
 * ```
 */
export interface ChatCompletionMessageToolCallFunction {
  /**
   * Name of the function to call.
   */
  name: string;
  /**
   * The arguments as JSON text, produced by the model and not guaranteed to be valid JSON. Quirks:
   * absent or `""` when the tool takes no arguments (OpenRouter, Anthropic compat) reads as
   * `"{}"`; a JSON object instead of text becomes its JSON text.
   */
  arguments: string;
}

/**
 * Log probability of one output token (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionTokenLogprob } from 'model-inference-sdk';
 *
 * const chatCompletionTokenLogprob: ChatCompletionTokenLogprob = {
 *   token: 'Red',
 *   logprob: -0.0012,
 *   bytes: [82, 101, 100],
 *   top_logprobs: [
 *     { token: 'Red', logprob: -0.0012, bytes: [82, 101, 100] },
 *     { token: 'Blue', logprob: -6.9, bytes: [66, 108, 117, 101] },
 *   ],
 * };
 * ```
 */
export interface ChatCompletionTokenLogprob {
  token: string;
  logprob: number;
  /**
   * UTF-8 bytes of the token, or `null`.
   */
  bytes: number[] | null;
  /**
   * The most likely tokens at this position; `[]` when the server sent none.
   */
  top_logprobs: ChatCompletionTopLogprob[];
}

/**
 * The `openai` client's names for the parts of `ChatCompletionTokenLogprob`
 * (`ChatCompletionTokenLogprob.TopLogprob`), so that code written for that client compiles
 * unchanged. Types only.
 */
export declare namespace ChatCompletionTokenLogprob {
  /**
   * `ChatCompletionTokenLogprob.TopLogprob` in the `openai` client:
   * {@link ChatCompletionTopLogprob}.
   */
  export type TopLogprob = ChatCompletionTopLogprob;
}

/**
 * One of the most likely tokens at a position (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionTopLogprob } from 'model-inference-sdk';
 *
 * const chatCompletionTopLogprob: ChatCompletionTopLogprob = {
 *   token: 'Blue',
 *   logprob: -6.9,
 *   bytes: [66, 108, 117, 101],
 * };
 * ```
 */
export interface ChatCompletionTopLogprob {
  token: string;
  logprob: number;
  bytes: number[] | null;
}

/**
 * One server-sent event of a streamed chat completion (Spec). Order (Spec): a chunk whose delta
 * has role `assistant` and empty content, chunks carrying content fragments, a chunk with an empty
 * delta and a `finish_reason`, then `data: [DONE]`. Concatenating every `delta.content` rebuilds
 * the message. Quirks: a usage-only last chunk with `choices: []` (OpenAI with `include_usage`,
 * xAI, DashScope); a first chunk with `choices: []` and only `prompt_filter_results` (Azure);
 * extras such as `x_groq`, `provider`, `obfuscation`, `p` (padding), `citations` are kept. A data
 * event with a top-level `error` object is an in-stream error, not a chunk.
 *
 * @example
 * ```ts
 * import type { ChatCompletionChunk } from 'model-inference-sdk';
 *
 * const chatCompletionChunk: ChatCompletionChunk = {
 *   id: 'chatcmpl-7f3a9c2e',
 *   object: 'chat.completion.chunk',
 *   created: 1735689600,
 *   model: 'acme/chat-1',
 *   choices: [{ index: 0, delta: { content: 'Red, yellow' }, finish_reason: null }],
 * };
 * ```
 */
export interface ChatCompletionChunk {
  /**
   * Completion identifier, the same on every chunk (chat-completions API). Quirks: absent (Gemini
   * compat) or `""` (Azure, Snowflake, TGI) read as `""`; a different id per chunk (Groq
   * compound).
   */
  id: string;
  /**
   * Always `chat.completion.chunk` (chat-completions API). Quirks: `""` (Azure filter chunk),
   * `chat.completion.done` (Perplexity's last chunk), absent (Zhipu, AI21).
   */
  object: 'chat.completion.chunk';
  /**
   * Creation time, Unix seconds. Quirks as for `ChatCompletion.created`; absent (Gemini compat)
   * reads as `0`.
   */
  created: number;
  /**
   * The model used. Quirks - `""` (Azure filter chunk); absent (AI21) reads as `""`.
   */
  model: string;
  /**
   * Choices of this chunk (Spec), in `index` order. Quirks: `[]` on usage-only and filter-only
   * chunks; `null` (AgentRouter and similar gateways) reads as `[]`. With `n > 1`, chunks of
   * different indexes interleave (Writer).
   */
  choices: ChatCompletionChunkChoice[];
  /**
   * Token usage. Chat-completions API: `null` on every chunk and real usage on a last chunk with
   * `choices: []` when `stream_options.include_usage` is set. Quirks: on the finish chunk
   * (DeepSeek, Groq, Mistral), cumulative on every chunk (Perplexity, old xAI), after the finish
   * chunk (OpenRouter). Use the last non-null value.
   */
  usage?: CompletionUsage | null;
  /**
   * Backend configuration fingerprint (chat-completions API). Often `null`, `""` or absent.
   */
  system_fingerprint?: string | null;
  /**
   * Service tier used (chat-completions API). Quirk - `""`, `null`.
   */
  service_tier?: string | null;
}

/**
 * The `openai` client's names for the parts of `ChatCompletionChunk`
 * (`ChatCompletionChunk.Choice`, `ChatCompletionChunk.Choice.Delta`,
 * `ChatCompletionChunk.Choice.Delta.ToolCall`,
 * `ChatCompletionChunk.Choice.Delta.ToolCall.Function`,
 * `ChatCompletionChunk.Choice.Delta.FunctionCall`, `ChatCompletionChunk.Choice.Logprobs`), so that
 * code written for that client compiles unchanged. Types only.
 */
export declare namespace ChatCompletionChunk {
  /**
   * `ChatCompletionChunk.Choice` in the `openai` client: {@link ChatCompletionChunkChoice}.
   */
  export type Choice = ChatCompletionChunkChoice;
  export namespace Choice {
    /**
     * `ChatCompletionChunk.Choice.Delta` in the `openai` client: {@link ChatCompletionChunkDelta}.
     */
    export type Delta = ChatCompletionChunkDelta;
    export namespace Delta {
      /**
       * `ChatCompletionChunk.Choice.Delta.ToolCall` in the `openai` client:
       * {@link ChatCompletionChunkToolCall}.
       */
      export type ToolCall = ChatCompletionChunkToolCall;
      export namespace ToolCall {
        /**
         * `ChatCompletionChunk.Choice.Delta.ToolCall.Function` in the `openai` client:
         * {@link ChatCompletionChunkToolCallFunction}.
         */
        export type Function = ChatCompletionChunkToolCallFunction;
      }
      /**
       * `ChatCompletionChunk.Choice.Delta.FunctionCall` in the `openai` client: the
       * `function_call` of {@link ChatCompletionChunkDelta}.
       */
      export type FunctionCall = NonNullable<ChatCompletionChunkDelta['function_call']>;
    }
    /**
     * `ChatCompletionChunk.Choice.Logprobs` in the `openai` client:
     * {@link ChatCompletionChoiceLogprobs}.
     */
    export type Logprobs = ChatCompletionChoiceLogprobs;
  }
}

/**
 * One choice of a chunk (Spec). Extras are kept: `native_finish_reason` (OpenRouter),
 * `stop_reason`, `token_ids` (vLLM), `matched_stop` (SGLang), `content_filter_results` (Azure),
 * and a full `message` next to `delta` (Writer, Perplexity's last chunk; the delta is what is
 * read), or `text` next to it (Together).
 *
 * @example
 * ```ts
 * import type { ChatCompletionChunkChoice } from 'model-inference-sdk';
 *
 * const chatCompletionChunkChoice: ChatCompletionChunkChoice = {
 *   index: 0,
 *   delta: { content: ' and blue.' },
 *   finish_reason: null,
 * };
 * ```
 */
export interface ChatCompletionChunkChoice {
  /**
   * Which choice this fragment belongs to (chat-completions API); its position when absent.
   */
  index: number;
  /**
   * The fragment this chunk adds to its choice (Spec). Absent reads as `{}`.
   */
  delta: ChatCompletionChunkDelta;
  /**
   * Set on the final chunk of this choice (Spec shows `stop`); `null` before. Quirks: repeated on
   * several chunks (OpenRouter), arriving with the last content fragment (Mistral, old xAI), never
   * sent at all (Gemini compat, Snowflake). See `FinishReason` for the synonyms read (`""` reads
   * as `null`).
   */
  finish_reason: FinishReason | null;
  /**
   * Log probabilities of this fragment's tokens when requested (chat-completions API).
   */
  logprobs?: ChatCompletionChoiceLogprobs | null;
}

/**
 * The fragment a chunk adds to its choice (Spec). Every field is optional: the finish chunk's
 * delta is `{}` (Spec). The same reading as `ChatCompletionMessage`: `content` is text,
 * `reasoning` holds the reasoning fragment whichever field the server used, raw fields stay on the
 * object. Extras are kept: `channel`, `executed_tools` (Groq), `index` inside the delta (Mistral
 * serving GLM).
 *
 * @example
 * ```ts
 * import type { ChatCompletionChunkDelta } from 'model-inference-sdk';
 *
 * const chatCompletionChunkDelta: ChatCompletionChunkDelta = { role: 'assistant', content: '' };
 * ```
 */
export interface ChatCompletionChunkDelta {
  /**
   * `assistant` on the first chunk (Spec). Quirks: repeated on every chunk (Zhipu, Perplexity,
   * TGI, Ollama), never sent (GPUStack); `""` (Zhipu via gateways) and `null` (vLLM, SGLang) read
   * as absent.
   */
  role?: 'assistant';
  /**
   * Text fragment (Spec: `""` on the first chunk, absent on the final one). Quirks: `null` (Groq,
   * DeepSeek, OpenAI on tool calls) reads as absent; an array of typed parts (Mistral Magistral)
   * reads as the text of its `text` parts (absent when it has none), the array itself in
   * `content_parts`; `<think>` tags inline (vLLM, Together) are left in place.
   */
  content?: string;
  /**
   * A reasoning fragment, whichever field the server used (the rule of
   * `ChatCompletionMessage.reasoning`). DeepSeek opens with `""`.
   */
  reasoning?: string;
  /**
   * The server's own `reasoning` fragment, when it sent `reasoning_content` too with a different
   * text (as `ChatCompletionMessage.reasoning_raw`).
   */
  reasoning_raw?: string;
  /**
   * Refusal text fragment (chat-completions API structured outputs). Quirk - `""` on every delta
   * (Snowflake) reads as absent.
   */
  refusal?: string;
  /**
   * Tool-call fragments (chat-completions API). Quirk - `null` or `[]` (DeepInfra, TGI, Azure
   * Foundry) read as absent.
   */
  tool_calls?: ChatCompletionChunkToolCall[];
  /**
   * Deprecated: `tool_calls` replaced it. A fragment of the function call the model makes when the
   * request gave `functions` (chat-completions API): `name` on the first, pieces of `arguments` to
   * append.
   *
   * @deprecated
   */
  function_call?: ChatCompletionChunkToolCallFunction;
  /**
   * Annotations such as `url_citation` (OpenRouter streams them in a delta).
   */
  annotations?: ChatCompletionAnnotation[];
  /**
   * The content as sent when it was an array of typed parts (as
   * `ChatCompletionMessage.content_parts`).
   */
  content_parts?: ChatCompletionResponseContentPart[];
}

/**
 * A fragment of a streamed tool call (chat-completions API: the first fragment of a call carries
 * `index`, `id`, `type` and `function.name`; later ones carry `index` and pieces of
 * `function.arguments` to append). In a stream the SDK reads, `index` numbers the calls of a
 * choice 0, 1, 2 … in order of their first fragment, whatever the server sent: no `index` (Gemini
 * compat, Mistral: a new `id` starts a new call), `index` starting at 1 (Anthropic compat), every
 * parallel call at `index` 0 (Ollama-style gateways: a new id or a new function name starts a new
 * call). Quirks read as absent: `id: ""` on continuations (DashScope), `function.name` `null` or
 * `""` on continuations (TGI, Fireworks, Mistral), `type` `null`.
 *
 * @example
 * ```ts
 * import type { ChatCompletionChunkToolCall } from 'model-inference-sdk';
 *
 * const chatCompletionChunkToolCall: ChatCompletionChunkToolCall = {
 *   index: 0,
 *   id: 'call_1',
 *   type: 'function',
 *   function: { name: 'get_weather', arguments: '{"city":' },
 * };
 * ```
 */
export interface ChatCompletionChunkToolCall {
  /**
   * Which tool call of the choice this fragment belongs to (0, 1, 2 … in a stream the SDK reads).
   */
  index: number;
  /**
   * Call id, on the first fragment of a call.
   */
  id?: string;
  /**
   * `function` on the first fragment (chat-completions API).
   */
  type?: 'function';
  function?: ChatCompletionChunkToolCallFunction;
}

/**
 * The function part of a tool-call fragment (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionChunkToolCallFunction } from 'model-inference-sdk';
 *
 * const chatCompletionChunkToolCallFunction: ChatCompletionChunkToolCallFunction = {
 *   name: 'get_weather',
 *   arguments: '{"city":',
 * };
 * ```
 */
export interface ChatCompletionChunkToolCallFunction {
  /**
   * Function name, on the first fragment of a call.
   */
  name?: string;
  /**
   * A piece of the JSON arguments text; concatenate the pieces in order.
   */
  arguments?: string;
}

/**
 * Token consumption (Spec: `prompt_tokens`, `completion_tokens`, `total_tokens`, all integers).
 * Accounting differs between servers: xAI's `completion_tokens` excludes reasoning tokens, so
 * `total_tokens` may exceed their sum; cached tokens may exceed prompt tokens (Azure Foundry).
 * Vendor extras are kept: `prompt_cache_hit_tokens`, `prompt_cache_miss_tokens` (DeepSeek),
 * `cost`, `cost_details`, `is_byok` (OpenRouter), `cost_in_usd_ticks`, `num_sources_used` (xAI),
 * `estimated_cost` (DeepInfra), timing fields (Groq, GPUStack).
 *
 * @example
 * ```ts
 * import type { CompletionUsage } from 'model-inference-sdk';
 *
 * const completionUsage: CompletionUsage = {
 *   prompt_tokens: 21,
 *   completion_tokens: 6,
 *   total_tokens: 27,
 *   prompt_tokens_details: { cached_tokens: 0 },
 *   completion_tokens_details: { reasoning_tokens: 0 },
 * };
 * ```
 */
export interface CompletionUsage {
  /**
   * Tokens in the prompt (Spec).
   */
  prompt_tokens: number;
  /**
   * Tokens generated (Spec).
   */
  completion_tokens: number;
  /**
   * Prompt plus completion tokens (Spec), as the server counted them; their sum when it sent none.
   */
  total_tokens: number;
  /**
   * Breakdown of prompt tokens (chat-completions API). Quirk - `null` reads as absent.
   */
  prompt_tokens_details?: PromptTokensDetails;
  /**
   * Breakdown of completion tokens (chat-completions API). Quirk - `null` reads as absent.
   */
  completion_tokens_details?: CompletionTokensDetails;
}

/**
 * The `openai` client's names for the parts of `CompletionUsage`
 * (`CompletionUsage.CompletionTokensDetails`, `CompletionUsage.PromptTokensDetails`), so that code
 * written for that client compiles unchanged. Types only.
 */
export declare namespace CompletionUsage {
  /**
   * `CompletionUsage.CompletionTokensDetails` in the `openai` client: the
   * `completion_tokens_details` of {@link CompletionUsage}.
   */
  export type CompletionTokensDetails = NonNullable<CompletionUsage['completion_tokens_details']>;
  /**
   * `CompletionUsage.PromptTokensDetails` in the `openai` client: the `prompt_tokens_details` of
   * {@link CompletionUsage}.
   */
  export type PromptTokensDetails = NonNullable<CompletionUsage['prompt_tokens_details']>;
}

/**
 * Breakdown of prompt tokens (chat-completions API). A count a server sends as `null` reads as
 * absent.
 *
 * @example
 * ```ts
 * import type { PromptTokensDetails } from 'model-inference-sdk';
 *
 * const promptTokensDetails: PromptTokensDetails = { cached_tokens: 0 };
 * ```
 */
export interface PromptTokensDetails {
  /**
   * Prompt tokens served from cache.
   */
  cached_tokens?: number;
  /**
   * Audio input tokens.
   */
  audio_tokens?: number;
}

/**
 * Breakdown of completion tokens (chat-completions API). A count a server sends as `null` reads as
 * absent.
 *
 * @example
 * ```ts
 * import type { CompletionTokensDetails } from 'model-inference-sdk';
 *
 * const completionTokensDetails: CompletionTokensDetails = { reasoning_tokens: 0 };
 * ```
 */
export interface CompletionTokensDetails {
  /**
   * Tokens spent on reasoning.
   */
  reasoning_tokens?: number;
  /**
   * Audio output tokens.
   */
  audio_tokens?: number;
  /**
   * Predicted-output tokens that appeared in the completion.
   */
  accepted_prediction_tokens?: number;
  /**
   * Predicted-output tokens that did not.
   */
  rejected_prediction_tokens?: number;
}

/**
 * Body of `POST /completions` (legacy). `model` and `prompt` are shown by the spec; the other
 * fields follow the chat-completions API's legacy completions.
 *
 * @example
 * ```ts
 * import type { CompletionCreateParamsBase } from 'model-inference-sdk';
 *
 * const completionCreateParamsBase: CompletionCreateParamsBase = {
 *   model: 'acme/base-1',
 *   prompt: 'Once upon a time',
 *   max_tokens: 16,
 *   temperature: 0.7,
 * };
 * ```
 */
export interface CompletionCreateParamsBase {
  /**
   * Model slug (Spec).
   */
  model: string;
  /**
   * The prompt (Spec: a string), or several prompts, one choice set each; a prompt may also be
   * given as token ids (an array of integers, or one such array per prompt). `null` leaves it to
   * the server (OpenAI starts from its end-of-text token).
   */
  prompt: string | string[] | number[] | number[][] | null;
  /**
   * Maximum number of tokens to generate.
   */
  max_tokens?: number | null;
  /**
   * Sampling temperature, usually between 0 and 2.
   */
  temperature?: number | null;
  /**
   * Nucleus sampling probability mass.
   */
  top_p?: number | null;
  /**
   * Number of completions per prompt.
   */
  n?: number | null;
  /**
   * `true` switches the response to server-sent events of `Completion` objects.
   */
  stream?: boolean | null;
  stream_options?: ChatCompletionStreamOptions | null;
  /**
   * Up to 4 sequences where generation stops.
   */
  stop?: string | string[] | null;
  /**
   * Best-effort deterministic sampling seed.
   */
  seed?: number | null;
  /**
   * Echo the prompt before the completion.
   */
  echo?: boolean | null;
  /**
   * Text that follows the inserted completion.
   */
  suffix?: string | null;
  /**
   * Return log probabilities of this many most likely tokens (0-5) at each position.
   */
  logprobs?: number | null;
  /**
   * Penalty for tokens already present, -2.0 to 2.0.
   */
  presence_penalty?: number | null;
  /**
   * Penalty proportional to token frequency, -2.0 to 2.0.
   */
  frequency_penalty?: number | null;
  /**
   * Stable end-user identifier for abuse monitoring.
   */
  user?: string;
  /**
   * Generate this many candidates on the server and return the `n` best (highest log probability
   * per token); must exceed `n`, and cannot be streamed. Not every server accepts it.
   */
  best_of?: number | null;
  /**
   * Token id (as a string key) → a bias from -100 to 100 added to that token's logit before
   * sampling: -100 bans the token, 100 forces it. Token ids depend on the model's tokenizer. Not
   * every server accepts it.
   */
  logit_bias?: {
    [key: string]: number;
  } | null;
}

/**
 * `CompletionCreateParamsNonStreaming`: {@link CompletionCreateParamsBase} without streaming:
 * `stream` left out, `false` or `null`, and the response is one object, as the `openai` client
 * declares it.
 *
 * @example
 * ```ts
 * import type { CompletionCreateParamsNonStreaming } from 'model-inference-sdk';
 *
 * const completionCreateParamsNonStreaming: CompletionCreateParamsNonStreaming = {
 *   model: 'acme/base-1',
 *   prompt: 'Once upon a time',
 *   max_tokens: 16,
 *   temperature: 0.7,
 * };
 * ```
 */
export interface CompletionCreateParamsNonStreaming extends CompletionCreateParamsBase {
  stream?: false | null;
}

/**
 * `CompletionCreateParamsStreaming`: {@link CompletionCreateParamsBase} with `stream: true`: the
 * response is a stream of server-sent events, as the `openai` client declares it.
 *
 * @example
 * ```ts
 * import type { CompletionCreateParamsStreaming } from 'model-inference-sdk';
 *
 * const completionCreateParamsStreaming: CompletionCreateParamsStreaming = {
 *   model: 'acme/base-1',
 *   prompt: 'Once upon a time',
 *   max_tokens: 16,
 *   temperature: 0.7,
 *   stream: true,
 * };
 * ```
 */
export interface CompletionCreateParamsStreaming extends CompletionCreateParamsBase {
  stream: true;
}

/**
 * `CompletionCreateParams`: the body of either form, {@link CompletionCreateParamsNonStreaming} or
 * {@link CompletionCreateParamsStreaming}, as the `openai` client declares it. `if (body.stream)`
 * tells them apart; a body declared with one form picks the matching overload of `create()`.
 *
 * @example
 * ```ts
 * import type { CompletionCreateParams } from 'model-inference-sdk';
 *
 * const completionCreateParams: CompletionCreateParams = {
 *   model: 'acme/base-1',
 *   prompt: 'Once upon a time',
 *   max_tokens: 16,
 *   temperature: 0.7,
 * };
 * ```
 */
export type CompletionCreateParams =
  CompletionCreateParamsNonStreaming | CompletionCreateParamsStreaming;

/**
 * A legacy completion, and also each event of a streamed legacy completion (the spec does not show
 * the fields; they follow the chat-completions API's legacy completions). Quirks: `id` and
 * `object` absent (Writer), `object` `text.completion` (Together), `id` `""` (TGI); extras such as
 * `prompt` (Together) and `kv_transfer_params` (vLLM) are kept.
 *
 * @example
 * ```ts
 * import type { Completion } from 'model-inference-sdk';
 *
 * const completion: Completion = {
 *   id: 'cmpl-2b8e41d0',
 *   object: 'text_completion',
 *   created: 1735689600,
 *   model: 'acme/base-1',
 *   choices: [
 *     { index: 0, text: ' there lived a lighthouse keeper.', finish_reason: 'stop', logprobs: null },
 *   ],
 *   usage: { prompt_tokens: 4, completion_tokens: 7, total_tokens: 11 },
 * };
 * ```
 */
export interface Completion {
  /**
   * Completion identifier; absent reads as `""`.
   */
  id: string;
  /**
   * Always `text_completion`.
   */
  object: 'text_completion';
  /**
   * Creation time, Unix seconds (quirks as for `ChatCompletion.created`).
   */
  created: number;
  /**
   * The model used; absent reads as `""`.
   */
  model: string;
  /**
   * Generated texts, in `index` order (TGI sends them out of order). `[]` on a streamed usage-only
   * chunk; with several prompts or `n > 1`, streamed chunks of different indexes interleave.
   */
  choices: CompletionChoice[];
  /**
   * Token usage; `null` when the server sent none (streamed chunks, Writer).
   */
  usage: CompletionUsage | null;
  /**
   * Backend configuration fingerprint.
   */
  system_fingerprint?: string | null;
}

/**
 * One generated text of a legacy completion. Extras are kept: `stop_reason`, `token_ids`,
 * `prompt_logprobs` (vLLM).
 *
 * @example
 * ```ts
 * import type { CompletionChoice } from 'model-inference-sdk';
 *
 * const completionChoice: CompletionChoice = {
 *   index: 0,
 *   text: ' there lived a lighthouse keeper.',
 *   finish_reason: 'stop',
 *   logprobs: null,
 * };
 * ```
 */
export interface CompletionChoice {
  /**
   * Position of this choice; its position in `choices` when the server left it out (Writer).
   */
  index: number;
  /**
   * The generated text (a fragment, when streamed).
   */
  text: string;
  /**
   * Why generation stopped (`stop`, `length`, `content_filter`); `null` on streamed chunks before
   * the end and when the server gave no reason (Writer). See `FinishReason` for the synonyms read.
   */
  finish_reason: FinishReason | null;
  /**
   * Token log probabilities when `logprobs` was requested, else `null`.
   */
  logprobs: CompletionLogprobs | null;
}

/**
 * The `openai` client's names for the parts of `CompletionChoice` (`CompletionChoice.Logprobs`),
 * so that code written for that client compiles unchanged. Types only.
 */
export declare namespace CompletionChoice {
  /**
   * `CompletionChoice.Logprobs` in the `openai` client: {@link CompletionLogprobs}.
   */
  export type Logprobs = CompletionLogprobs;
}

/**
 * Token log probabilities of a legacy completion choice. A list a server sends as `null` reads as
 * absent.
 *
 * @example
 * ```ts
 * import type { CompletionLogprobs } from 'model-inference-sdk';
 *
 * const completionLogprobs: CompletionLogprobs = {
 *   tokens: [' there', ' lived'],
 *   token_logprobs: [-0.4, -1.2],
 *   top_logprobs: [{ ' there': -0.4 }, { ' lived': -1.2 }],
 *   text_offset: [16, 22],
 * };
 * ```
 */
export interface CompletionLogprobs {
  tokens?: string[];
  token_logprobs?: (number | null)[];
  top_logprobs?:
    | {
        [key: string]: number;
      }
    | null[];
  text_offset?: number[];
}

/**
 * The error object (Spec). Short shape: `message` and `type` (models, chat completions); extended
 * shape adds `param` and `code` (legacy completions). Quirks: `type` absent or `null` (OpenRouter,
 * Azure), `code` an integer (OpenRouter, Perplexity, vLLM) or a string like `"401"` (Azure
 * Foundry), extras such as `metadata` (OpenRouter), `failed_generation` (Groq), `innererror`
 * (Azure). Some servers send no error object at all (`{"detail": ...}` from Mistral, a string
 * `error` from xAI, an unwrapped object from old vLLM); the SDK reads those too (`APIError`), but
 * they are not `ErrorResponse`s.
 *
 * @example
 * ```ts
 * import type { ErrorObject } from 'model-inference-sdk';
 *
 * const errorObject: ErrorObject = {
 *   message: 'The model `acme/unknown` does not exist.',
 *   type: 'invalid_request_error',
 *   param: 'model',
 *   code: 'model_not_found',
 * };
 * ```
 */
export interface ErrorObject {
  /**
   * Human-readable description (Spec).
   */
  message: string;
  /**
   * Error category (Spec shows `invalid_request_error`). Others seen: `authentication_error`,
   * `invalid_api_key`, `api_error`, `BadRequestError` (vLLM), `null`.
   */
  type?: string | null;
  /**
   * The offending request field, e.g. `model` (Spec, extended shape).
   */
  param?: string | null;
  /**
   * Machine-readable code (Spec shows `model_not_found`, extended shape). Quirk - an integer HTTP
   * status (OpenRouter, Perplexity, vLLM) or `null`.
   */
  code?: string | number | null;
}

/**
 * Body of an error response: `{ "error": { ... } }` (Spec).
 *
 * @example
 * ```ts
 * import type { ErrorResponse } from 'model-inference-sdk';
 *
 * const errorResponse: ErrorResponse = {
 *   error: {
 *     message: 'The model `acme/unknown` is not available on this API.',
 *     type: 'invalid_request_error',
 *   },
 * };
 * ```
 */
export interface ErrorResponse {
  error: ErrorObject;
}
