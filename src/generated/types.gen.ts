// Generated from spec/openapi.yaml by `npm run generate` (@hey-api/openapi-ts). Do not edit:
// change the spec and regenerate.

/**
 * Body of an error response: `{ "error": { ... } }` (Spec).
 *
 * @example
 * ```ts
 * import type { ErrorResponse } from 'inference-sdk';
 *
 * const errorResponse: ErrorResponse = {
 *   error: {
 *     message: 'The model `acme/unknown` is not available on this API.',
 *     type: 'invalid_request_error',
 *   },
 * };
 * ```
 */
export type ErrorResponse = {
  error: ErrorObject;
  [key: string]: unknown;
};

/**
 * The error object (Spec). Short shape: `message` and `type` (models, chat completions); extended shape adds `param` and `code` (legacy completions). Quirks: `type` absent or `null` (OpenRouter, Azure), `code` an integer (OpenRouter, Perplexity, vLLM) or a string like `"401"` (Azure Foundry), extras such as `metadata` (OpenRouter), `failed_generation` (Groq), `innererror` (Azure). Some servers send no error object at all (`{"detail": ...}` from Mistral, a string `error` from xAI, an unwrapped object from old vLLM); those bodies are not `ErrorResponse`s.
 *
 * @example
 * ```ts
 * import type { ErrorObject } from 'inference-sdk';
 *
 * const errorObject: ErrorObject = {
 *   message: 'The model `acme/unknown` does not exist.',
 *   type: 'invalid_request_error',
 *   param: 'model',
 *   code: 'model_not_found',
 * };
 * ```
 */
export type ErrorObject = {
  /**
   * Human-readable description (Spec).
   */
  message: string;
  /**
   * Error category (Spec shows `invalid_request_error`). Others seen: `authentication_error`, `invalid_api_key`, `api_error`, `BadRequestError` (vLLM), `null`.
   */
  type?: string | null;
  /**
   * The offending request field, e.g. `model` (Spec, extended shape).
   */
  param?: string | null;
  /**
   * Machine-readable code (Spec shows `model_not_found`, extended shape). Quirk - an integer HTTP status (OpenRouter, Perplexity, vLLM) or `null`.
   */
  code?: string | number | null;
  [key: string]: unknown;
};

/**
 * One generated text of a legacy completion. Extras are kept: `stop_reason`, `token_ids`, `prompt_logprobs` (vLLM).
 *
 * @example
 * ```ts
 * import type { CompletionChoice } from 'inference-sdk';
 *
 * const completionChoice: CompletionChoice = {
 *   index: 0,
 *   text: ' there lived a lighthouse keeper.',
 *   finish_reason: 'stop',
 *   logprobs: null,
 * };
 * ```
 */
export type CompletionChoice = {
  /**
   * Position of this choice.
   */
  index: number;
  /**
   * The generated text (a fragment, when streamed).
   */
  text: string;
  /**
   * Why generation stopped: `stop`, `length`, `content_filter`. Any string is accepted. Quirks: `null` on streamed chunks before the end, `""` on intermediate chunks (TGI).
   */
  finish_reason?: string | null;
  /**
   * Token log probabilities when `logprobs` was requested.
   */
  logprobs?: {
    tokens?: Array<string> | null;
    token_logprobs?: Array<number | null> | null;
    top_logprobs?: Array<{
      [key: string]: number;
    } | null> | null;
    text_offset?: Array<number> | null;
    [key: string]: unknown;
  } | null;
  [key: string]: unknown;
};

/**
 * A legacy completion, and also each event of a streamed legacy completion (the spec does not show the fields; they follow the chat-completions API's legacy completions). Quirks: `object` `text.completion` (Together), `id` `""` (TGI), extras such as `prompt` (Together) and `kv_transfer_params` (vLLM) are kept.
 *
 * @example
 * ```ts
 * import type { Completion } from 'inference-sdk';
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
export type Completion = {
  /**
   * Completion identifier.
   */
  id?: string;
  /**
   * `text_completion`.
   */
  object?: string;
  /**
   * Timestamp, Unix seconds (see `ChatCompletion.created` for quirks).
   */
  created?: number;
  /**
   * Model used.
   */
  model?: string;
  /**
   * Generated texts. `[]` on a streamed usage-only chunk. Quirk - not ordered by `index` (TGI); with several prompts or `n > 1`, streamed chunks of different indexes interleave.
   */
  choices: Array<CompletionChoice>;
  /**
   * Token usage. Quirk - `null` on streamed chunks.
   */
  usage?: CompletionUsage | null;
  /**
   * Backend configuration fingerprint.
   */
  system_fingerprint?: string | null;
  [key: string]: unknown;
};

/**
 * Token consumption (Spec: `prompt_tokens`, `completion_tokens`, `total_tokens`, all integers). Accounting differs between servers: xAI's `completion_tokens` excludes reasoning tokens, so `total_tokens` may exceed their sum; cached tokens may exceed prompt tokens (Azure Foundry). Vendor extras are kept: `prompt_cache_hit_tokens`, `prompt_cache_miss_tokens` (DeepSeek), `cost`, `cost_details`, `is_byok` (OpenRouter), `cost_in_usd_ticks`, `num_sources_used` (xAI), `estimated_cost` (DeepInfra), timing fields (Groq, GPUStack).
 *
 * @example
 * ```ts
 * import type { CompletionUsage } from 'inference-sdk';
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
export type CompletionUsage = {
  /**
   * Tokens in the prompt (Spec).
   */
  prompt_tokens: number;
  /**
   * Tokens generated (Spec).
   */
  completion_tokens: number;
  /**
   * Prompt plus completion tokens (Spec).
   */
  total_tokens: number;
  /**
   * Breakdown of prompt tokens (chat-completions API). Quirk - `null`.
   */
  prompt_tokens_details?: {
    /**
     * Prompt tokens served from cache.
     */
    cached_tokens?: number;
    /**
     * Audio input tokens.
     */
    audio_tokens?: number;
    [key: string]: unknown;
  } | null;
  /**
   * Breakdown of completion tokens (chat-completions API). Quirk - `null`.
   */
  completion_tokens_details?: {
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
    [key: string]: unknown;
  } | null;
  [key: string]: unknown;
};

/**
 * Body of `POST /completions` (legacy). `model` and `prompt` are shown by the spec; the other fields follow the chat-completions API's legacy completions.
 *
 * @example
 * ```ts
 * import type { CompletionCreateParams } from 'inference-sdk';
 *
 * const completionCreateParams: CompletionCreateParams = {
 *   model: 'acme/base-1',
 *   prompt: 'Once upon a time',
 *   max_tokens: 16,
 *   temperature: 0.7,
 * };
 * ```
 */
export type CompletionCreateParams = {
  /**
   * Model slug (Spec).
   */
  model: string;
  /**
   * The prompt (Spec: a string), or several prompts, one choice set each.
   */
  prompt: string | Array<string>;
  /**
   * Maximum number of tokens to generate.
   */
  max_tokens?: number;
  /**
   * Sampling temperature, usually between 0 and 2.
   */
  temperature?: number;
  /**
   * Nucleus sampling probability mass.
   */
  top_p?: number;
  /**
   * Number of completions per prompt.
   */
  n?: number;
  /**
   * `true` switches the response to server-sent events of `Completion` objects.
   */
  stream?: boolean;
  stream_options?: ChatCompletionStreamOptions;
  /**
   * Up to 4 sequences where generation stops.
   */
  stop?: string | Array<string>;
  /**
   * Best-effort deterministic sampling seed.
   */
  seed?: number;
  /**
   * Echo the prompt before the completion.
   */
  echo?: boolean;
  /**
   * Text that follows the inserted completion.
   */
  suffix?: string;
  /**
   * Return log probabilities of this many most likely tokens (0-5) at each position.
   */
  logprobs?: number;
  /**
   * Penalty for tokens already present, -2.0 to 2.0.
   */
  presence_penalty?: number;
  /**
   * Penalty proportional to token frequency, -2.0 to 2.0.
   */
  frequency_penalty?: number;
  /**
   * Stable end-user identifier for abuse monitoring.
   */
  user?: string;
};

/**
 * Options for a streamed response; set only with `stream: true` (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionStreamOptions } from 'inference-sdk';
 *
 * const chatCompletionStreamOptions: ChatCompletionStreamOptions = { include_usage: true };
 * ```
 */
export type ChatCompletionStreamOptions = {
  /**
   * Ask for usage in the stream (chat-completions API): OpenAI sends it in an extra chunk with `choices: []` before `[DONE]`. Quirks: DeepSeek, Groq and Mistral put it on the finish chunk instead; some servers reject `stream_options` entirely.
   */
  include_usage?: boolean;
};

/**
 * A fragment of a streamed tool call (chat-completions API: the first fragment of a call carries `index`, `id`, `type` and `function.name`; later ones carry `index` and pieces of `function.arguments` to append). Quirks: the whole call in one fragment (xAI, Groq, Ollama); no `index` (Gemini compat, Mistral) - a new `id` then starts a new call; `index` starting at 1 (Anthropic compat); `id: ""` on continuations (DashScope); `function.name` `null` or `""` on continuations (TGI, Fireworks, Mistral); `type` omitted or not `function`; an empty `arguments` fragment after the call completed.
 *
 * @example
 * ```ts
 * import type { ChatCompletionChunkToolCall } from 'inference-sdk';
 *
 * const chatCompletionChunkToolCall: ChatCompletionChunkToolCall = {
 *   index: 0,
 *   id: 'call_1',
 *   type: 'function',
 *   function: { name: 'get_weather', arguments: '{"city":' },
 * };
 * ```
 */
export type ChatCompletionChunkToolCall = {
  /**
   * Which tool call this fragment belongs to.
   */
  index?: number;
  /**
   * Call id, on the first fragment of a call.
   */
  id?: string | null;
  /**
   * `function` on the first fragment (chat-completions API).
   */
  type?: string | null;
  function?: {
    /**
     * Function name, on the first fragment of a call.
     */
    name?: string | null;
    /**
     * A piece of the JSON arguments text; concatenate the pieces in order.
     */
    arguments?: string | null;
    [key: string]: unknown;
  };
  [key: string]: unknown;
};

/**
 * The fragment a chunk adds to its choice (Spec). All fields optional: the finish chunk's delta is `{}` (Spec). Extras are kept: `channel`, `executed_tools` (Groq), `index` inside the delta (Mistral serving GLM), `function_call` (legacy).
 *
 * @example
 * ```ts
 * import type { ChatCompletionChunkDelta } from 'inference-sdk';
 *
 * const chatCompletionChunkDelta: ChatCompletionChunkDelta = { role: 'assistant', content: '' };
 * ```
 */
export type ChatCompletionChunkDelta = {
  /**
   * `assistant` on the first chunk (Spec). Quirks: repeated on every chunk (Zhipu, Perplexity, TGI, Ollama), never sent (GPUStack), `""` (Zhipu via gateways), `null` (vLLM, SGLang).
   */
  role?: string | null;
  /**
   * Text fragment (Spec: `""` on the first chunk, absent on the final one). Quirks: `null` (Groq, DeepSeek, OpenAI on tool calls), an array of typed parts (Mistral Magistral `thinking` / `text` parts), `<think>` tags inline (vLLM, Groq compound).
   */
  content?:
    | string
    | null
    | Array<{
        /**
         * Part type, e.g. `text`, `thinking`, `reference`.
         */
        type: string;
        [key: string]: unknown;
      }>;
  /**
   * Refusal text fragment (chat-completions API structured outputs).
   */
  refusal?: string | null;
  /**
   * Tool-call fragments (chat-completions API). Quirk - `null` (DeepInfra, TGI, Azure Foundry).
   */
  tool_calls?: Array<ChatCompletionChunkToolCall> | null;
  /**
   * Quirk - reasoning text fragment (DeepSeek, xAI, Kimi, Z.ai, GPUStack, Alibaba); the first one may be `""`, and it is `null` once content streams.
   */
  reasoning_content?: string | null;
  /**
   * Quirk - reasoning text fragment under the newer name (Groq, Cerebras, Ollama, OpenRouter, vLLM).
   */
  reasoning?: string | null;
  /**
   * Annotations such as `url_citation` (chat-completions API; OpenRouter streams them in a delta).
   */
  annotations?: Array<{
    type?: string;
    [key: string]: unknown;
  }>;
  /**
   * Quirk (OpenRouter, Snowflake) - structured reasoning blocks of this fragment (`reasoning.text`, `reasoning.encrypted`, ...).
   */
  reasoning_details?: Array<{
    type?: string;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
};

/**
 * One choice of a chunk (Spec). Extras are kept: `native_finish_reason` (OpenRouter), `stop_reason`, `token_ids` (vLLM), `matched_stop` (SGLang), `content_filter_results` (Azure), and a full `message` next to `delta` (Writer, Perplexity's last chunk).
 *
 * @example
 * ```ts
 * import type { ChatCompletionChunkChoice } from 'inference-sdk';
 *
 * const chatCompletionChunkChoice: ChatCompletionChunkChoice = {
 *   index: 0,
 *   delta: { content: ' and blue.' },
 *   finish_reason: null,
 * };
 * ```
 */
export type ChatCompletionChunkChoice = {
  /**
   * Which choice this fragment belongs to (chat-completions API).
   */
  index: number;
  delta: ChatCompletionChunkDelta;
  /**
   * Set on the final chunk of this choice (Spec shows `stop`); `null` or absent before. Any string is accepted (see `ChatCompletionChoice.finish_reason`). Quirks: repeated on several chunks (OpenRouter), arriving with the last content fragment (Mistral, old xAI), never sent at all (Gemini compat, Snowflake), `""` (TGI legacy, Ollama).
   */
  finish_reason?: string | null;
  /**
   * Log probabilities of this fragment's tokens when requested (chat-completions API).
   */
  logprobs?: {
    /**
     * One entry per content token. Quirk - `null` (Snowflake, Novita).
     */
    content?: Array<ChatCompletionTokenLogprob> | null;
    /**
     * One entry per refusal token.
     */
    refusal?: Array<ChatCompletionTokenLogprob> | null;
    [key: string]: unknown;
  } | null;
  [key: string]: unknown;
};

/**
 * Log probability of one output token (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionTokenLogprob } from 'inference-sdk';
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
export type ChatCompletionTokenLogprob = {
  token: string;
  logprob: number;
  /**
   * UTF-8 bytes of the token, or `null`.
   */
  bytes?: Array<number> | null;
  /**
   * The most likely tokens at this position.
   */
  top_logprobs?: Array<{
    token?: string;
    logprob?: number;
    bytes?: Array<number> | null;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
};

/**
 * One server-sent event of a streamed chat completion (Spec). Order (Spec): a chunk whose delta has role `assistant` and empty content, chunks carrying content fragments, a chunk with an empty delta and a `finish_reason`, then `data: [DONE]`. Concatenating every `delta.content` rebuilds the message. Quirks: `id`, `created`, `object`, `model` may be absent or empty; a usage-only last chunk with `choices: []` (OpenAI with `include_usage`, xAI, DashScope); a first chunk with `choices: []` and only `prompt_filter_results` (Azure); object `chat.completion.done` on Perplexity's last chunk; extras such as `x_groq`, `provider`, `obfuscation`, `p` (padding), `citations` are kept. A data event with a top-level `error` object is an in-stream error, not a chunk.
 *
 * @example
 * ```ts
 * import type { ChatCompletionChunk } from 'inference-sdk';
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
export type ChatCompletionChunk = {
  /**
   * Completion identifier, the same on every chunk (chat-completions API). Quirks: absent (Gemini compat), `""` (Azure, Snowflake, TGI), a different id per chunk (Groq compound).
   */
  id?: string;
  /**
   * `chat.completion.chunk` (chat-completions API). Quirks: `""` (Azure filter chunk), `chat.completion.done` (Perplexity), absent (Zhipu).
   */
  object?: string;
  /**
   * Timestamp, Unix seconds. Quirks as for `ChatCompletion.created`; absent (Gemini compat).
   */
  created?: number;
  /**
   * Model used. Quirk - `""` (Azure filter chunk).
   */
  model?: string;
  /**
   * Choices of this chunk (Spec). Quirks: `[]` on usage-only and filter-only chunks, `null` (AgentRouter and similar gateways). With `n > 1`, chunks of different indexes interleave (Writer).
   */
  choices: Array<ChatCompletionChunkChoice> | null;
  /**
   * Token usage. Chat-completions API: `null` on every chunk and real usage on a last chunk with `choices: []` when `stream_options.include_usage` is set. Quirks: on the finish chunk (DeepSeek, Groq, Mistral), cumulative on every chunk (Perplexity, old xAI), after the finish chunk (OpenRouter). Use the last non-null value.
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
  [key: string]: unknown;
};

/**
 * A complete tool call in a non-streamed message (chat-completions API); also what an assistant message sends back. Extras are kept and should be sent back as received: `index` (Ollama), `extra_content.google.thought_signature` (Gemini), `custom` (Snowflake).
 *
 * @example
 * ```ts
 * import type { ChatCompletionMessageToolCall } from 'inference-sdk';
 *
 * const chatCompletionMessageToolCall: ChatCompletionMessageToolCall = {
 *   id: 'call_1',
 *   type: 'function',
 *   function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
 * };
 * ```
 */
export type ChatCompletionMessageToolCall = {
  /**
   * Call id, echoed in the tool message's `tool_call_id`. Quirks: `""` (Gemini compat), non-OpenAI formats (`toolu_...`, `0`, `functions.name:0`).
   */
  id: string;
  /**
   * `function` (chat-completions API). Typed as a string: some servers send another value (Novita) or omit it.
   */
  type?: string;
  function: {
    /**
     * Name of the function to call.
     */
    name: string;
    /**
     * The arguments as a JSON text, produced by the model and not guaranteed to be valid JSON. Quirk - absent when the tool takes no arguments (OpenRouter / Anthropic).
     */
    arguments?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
};

/**
 * The assistant message of a choice (Spec shows `role` and string `content`). Everything is optional: servers omit `content` on tool calls (Cerebras, Gemini compat). Extras are kept: `annotations`, `audio`, `function_call`, `reasoning_details` (OpenRouter, Snowflake), `extra_content` / `thought_signature` (Gemini).
 *
 * @example
 * ```ts
 * import type { ChatCompletionMessage } from 'inference-sdk';
 *
 * const chatCompletionMessage: ChatCompletionMessage = {
 *   role: 'assistant',
 *   content: 'Red, yellow and blue.',
 *   refusal: null,
 * };
 * ```
 */
export type ChatCompletionMessage = {
  /**
   * `assistant` (Spec). Typed as a string: servers are not checked against a literal.
   */
  role?: string;
  /**
   * The message text (Spec: a string). Quirks: `null` when the turn only called tools or refused; `""`; an array of typed parts (Mistral Magistral: `{"type":"thinking", "thinking":[...]}` and `{"type":"text","text":"..."}`); reasoning inline as `<think>...</think>` (vLLM without a reasoning parser, Together).
   */
  content?:
    | string
    | null
    | Array<{
        /**
         * Part type, e.g. `text`, `thinking`, `reference`.
         */
        type: string;
        [key: string]: unknown;
      }>;
  /**
   * Refusal message when the model refused (chat-completions API). Quirk - `""` (Snowflake).
   */
  refusal?: string | null;
  /**
   * Tool calls the model made (chat-completions API). Quirk - `null` or `[]` when none.
   */
  tool_calls?: Array<ChatCompletionMessageToolCall> | null;
  /**
   * Quirk - reasoning text (DeepSeek, xAI, Kimi, GLM / Z.ai, GPUStack, Alibaba, vLLM up to 0.8). DeepSeek wants it sent back in tool loops.
   */
  reasoning_content?: string | null;
  /**
   * Quirk - reasoning text under the newer name (Groq, Cerebras, Ollama, OpenRouter, vLLM, gpt-oss servers).
   */
  reasoning?: string | null;
  /**
   * Annotations such as `url_citation` (chat-completions API). Quirk - `null`.
   */
  annotations?: Array<{
    type?: string;
    [key: string]: unknown;
  }> | null;
  /**
   * Quirk (OpenRouter, Snowflake) - structured reasoning blocks (`reasoning.text`, `reasoning.encrypted`, ...).
   */
  reasoning_details?: Array<{
    type?: string;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
};

/**
 * One choice of a chat completion (Spec). Extras are kept: `native_finish_reason` (OpenRouter), `stop_reason` (vLLM), `content_filter_results` (Azure), `seed` (Together, may exceed 2^53 and lose precision in JSON.parse).
 *
 * @example
 * ```ts
 * import type { ChatCompletionChoice } from 'inference-sdk';
 *
 * const chatCompletionChoice: ChatCompletionChoice = {
 *   index: 0,
 *   message: { role: 'assistant', content: 'Red, yellow and blue.' },
 *   finish_reason: 'stop',
 * };
 * ```
 */
export type ChatCompletionChoice = {
  /**
   * Position of this choice (Spec).
   */
  index: number;
  message?: ChatCompletionMessage;
  /**
   * Why generation stopped (Spec shows `stop`). Any string is accepted, so this is not an enum. Chat-completions API values: `stop`, `length`, `tool_calls`, `content_filter`, `function_call` (legacy). Quirks: `eos` (Together), `eos_token` (older TGI), `""` (Snowflake, older Ollama), `model_length` and `error` (Mistral, OpenRouter), `stop` after a tool call (TGI), `null` or absent. `message` is absent when Azure filtered the output (`content_filter`).
   */
  finish_reason?: string | null;
  /**
   * Log probabilities of the output tokens when requested (chat-completions API).
   */
  logprobs?: {
    /**
     * One entry per content token. Quirk - `null` (Snowflake, Novita).
     */
    content?: Array<ChatCompletionTokenLogprob> | null;
    /**
     * One entry per refusal token.
     */
    refusal?: Array<ChatCompletionTokenLogprob> | null;
    [key: string]: unknown;
  } | null;
  [key: string]: unknown;
};

/**
 * Non-streamed chat completion (Spec). Only `choices` is required. Vendor extras are kept: `x_groq`, `provider`, `citations`, `search_results`, `prompt_filter_results` (Azure), `time_info` (Cerebras), `request_id` (Z.ai), `prompt` (Together), `kv_transfer_params` (vLLM), ...
 *
 * @example
 * ```ts
 * import type { ChatCompletion } from 'inference-sdk';
 *
 * const chatCompletion: ChatCompletion = {
 *   id: 'chatcmpl-7f3a9c2e',
 *   object: 'chat.completion',
 *   created: 1735689600,
 *   model: 'acme/chat-1',
 *   choices: [
 *     {
 *       index: 0,
 *       message: { role: 'assistant', content: 'Red, yellow and blue.' },
 *       finish_reason: 'stop',
 *     },
 *   ],
 *   usage: { prompt_tokens: 21, completion_tokens: 6, total_tokens: 27 },
 * };
 * ```
 */
export type ChatCompletion = {
  /**
   * Completion identifier (Spec). Quirk - empty string (TGI, Snowflake).
   */
  id?: string;
  /**
   * `chat.completion` (Spec). Quirk - missing (Zhipu GLM).
   */
  object?: string;
  /**
   * Timestamp, Unix seconds (Spec says integer). Quirks: a float (SambaNova), milliseconds (mistral.rs, WebLLM), `0` (recorders, Anthropic compat).
   */
  created?: number;
  /**
   * Model used (Spec). Quirk - may differ from the requested slug (a file path on LM Studio, a proxy route name on LiteLLM).
   */
  model?: string;
  /**
   * The generated choices (Spec). Quirk - not always ordered by `index` (TGI); use `index`.
   */
  choices: Array<ChatCompletionChoice>;
  /**
   * Token usage (Spec). Quirk - `null` or absent on some servers.
   */
  usage?: CompletionUsage | null;
  /**
   * Backend configuration fingerprint (chat-completions API). Often `null`, `""` or absent.
   */
  system_fingerprint?: string | null;
  /**
   * Service tier used (chat-completions API). Quirk - `""` (Snowflake), `null` (vLLM).
   */
  service_tier?: string | null;
  [key: string]: unknown;
};

/**
 * Output follows a JSON Schema (structured outputs, chat-completions API).
 *
 * @example
 * ```ts
 * import type { ResponseFormatJSONSchema } from 'inference-sdk';
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
export type ResponseFormatJSONSchema = {
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
};

/**
 * Output is a JSON object (JSON mode, chat-completions API); the prompt should also ask for JSON.
 *
 * @example
 * ```ts
 * import type { ResponseFormatJSONObject } from 'inference-sdk';
 *
 * const responseFormatJSONObject: ResponseFormatJSONObject = { type: 'json_object' };
 * ```
 */
export type ResponseFormatJSONObject = {
  type: 'json_object';
};

/**
 * Plain text output (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ResponseFormatText } from 'inference-sdk';
 *
 * const responseFormatText: ResponseFormatText = { type: 'text' };
 * ```
 */
export type ResponseFormatText = {
  type: 'text';
};

/**
 * Forces a call to the named function (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionNamedToolChoice } from 'inference-sdk';
 *
 * const chatCompletionNamedToolChoice: ChatCompletionNamedToolChoice = {
 *   type: 'function',
 *   function: { name: 'get_weather' },
 * };
 * ```
 */
export type ChatCompletionNamedToolChoice = {
  type: 'function';
  function: {
    name: string;
  };
};

/**
 * How the model picks tools (chat-completions API): `none`, `auto`, `required`, or a named function.
 *
 * @example
 * ```ts
 * import type { ChatCompletionToolChoiceOption } from 'inference-sdk';
 *
 * const chatCompletionToolChoiceOption: ChatCompletionToolChoiceOption = 'auto';
 * ```
 */
export type ChatCompletionToolChoiceOption =
  'none' | 'auto' | 'required' | ChatCompletionNamedToolChoice;

/**
 * A function the model may call (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionTool } from 'inference-sdk';
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
export type ChatCompletionTool = {
  type: 'function';
  function: {
    /**
     * Function name (letters, digits, `_` and `-`, up to 64 characters).
     */
    name: string;
    /**
     * What the function does, for the model.
     */
    description?: string;
    /**
     * The function's arguments as a JSON Schema object (free-form).
     */
    parameters?: {
      [key: string]: unknown;
    };
    /**
     * Ask for arguments that follow `parameters` exactly (structured outputs).
     */
    strict?: boolean | null;
  };
};

/**
 * An image content part (chat-completions API); the model must accept image input.
 *
 * @example
 * ```ts
 * import type { ChatCompletionContentPartImage } from 'inference-sdk';
 *
 * const chatCompletionContentPartImage: ChatCompletionContentPartImage = {
 *   type: 'image_url',
 *   image_url: { url: 'https://example.com/swatch.png', detail: 'low' },
 * };
 * ```
 */
export type ChatCompletionContentPartImage = {
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
};

/**
 * A text content part (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionContentPartText } from 'inference-sdk';
 *
 * const chatCompletionContentPartText: ChatCompletionContentPartText = {
 *   type: 'text',
 *   text: 'What colour is this?',
 * };
 * ```
 */
export type ChatCompletionContentPartText = {
  type: 'text';
  text: string;
};

/**
 * One part of array-form user content (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionContentPart } from 'inference-sdk';
 *
 * const chatCompletionContentPart: ChatCompletionContentPart = {
 *   type: 'text',
 *   text: 'What colour is this?',
 * };
 * ```
 */
export type ChatCompletionContentPart =
  ChatCompletionContentPartText | ChatCompletionContentPartImage;

/**
 * The result of a tool call (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionToolMessageParam } from 'inference-sdk';
 *
 * const chatCompletionToolMessageParam: ChatCompletionToolMessageParam = {
 *   role: 'tool',
 *   tool_call_id: 'call_1',
 *   content: '{"temperature_c":18,"condition":"cloudy"}',
 * };
 * ```
 */
export type ChatCompletionToolMessageParam = {
  role: 'tool';
  /**
   * The tool's result, as text or text parts.
   */
  content: string | Array<ChatCompletionContentPartText>;
  /**
   * The `id` of the tool call this message answers.
   */
  tool_call_id: string;
};

/**
 * A previous assistant turn sent back (Spec shows role `assistant`). `content` may be omitted or `null` when the turn only called tools (chat-completions API).
 *
 * @example
 * ```ts
 * import type { ChatCompletionAssistantMessageParam } from 'inference-sdk';
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
export type ChatCompletionAssistantMessageParam = {
  role: 'assistant';
  /**
   * The assistant's text, text parts, or `null` when `tool_calls` is set.
   */
  content?: string | Array<ChatCompletionContentPartText> | null;
  /**
   * Optional participant name (chat-completions API).
   */
  name?: string;
  /**
   * The assistant's refusal message, if it refused (chat-completions API).
   */
  refusal?: string | null;
  /**
   * Tool calls the assistant made (chat-completions API). Send back the calls as received, extra fields included (Gemini needs `extra_content.google.thought_signature` back).
   */
  tool_calls?: Array<ChatCompletionMessageToolCall>;
  /**
   * Quirk (DeepSeek): the reasoning text of this turn. DeepSeek requires it to be sent back on assistant messages inside a tool-call loop; other servers ignore or reject it.
   */
  reasoning_content?: string | null;
};

/**
 * A user turn (Spec); array content with images follows the chat-completions API.
 *
 * @example
 * ```ts
 * import type { ChatCompletionUserMessageParam } from 'inference-sdk';
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
export type ChatCompletionUserMessageParam = {
  role: 'user';
  /**
   * Text (Spec), or an array of text and image parts (chat-completions API).
   */
  content: string | Array<ChatCompletionContentPart>;
  /**
   * Optional participant name (chat-completions API).
   */
  name?: string;
};

/**
 * Developer instructions, the newer name of system messages for some models (chat-completions API). Servers that do not know the role may reject it; use `system` there.
 *
 * @example
 * ```ts
 * import type { ChatCompletionDeveloperMessageParam } from 'inference-sdk';
 *
 * const chatCompletionDeveloperMessageParam: ChatCompletionDeveloperMessageParam = {
 *   role: 'developer',
 *   content: 'Answer in one sentence.',
 * };
 * ```
 */
export type ChatCompletionDeveloperMessageParam = {
  role: 'developer';
  /**
   * Instruction text, or text parts.
   */
  content: string | Array<ChatCompletionContentPartText>;
  /**
   * Optional participant name (chat-completions API).
   */
  name?: string;
};

/**
 * System instructions (Spec).
 *
 * @example
 * ```ts
 * import type { ChatCompletionSystemMessageParam } from 'inference-sdk';
 *
 * const chatCompletionSystemMessageParam: ChatCompletionSystemMessageParam = {
 *   role: 'system',
 *   content: 'You are a concise assistant.',
 * };
 * ```
 */
export type ChatCompletionSystemMessageParam = {
  role: 'system';
  /**
   * Instruction text, or text parts (array form from the chat-completions API).
   */
  content: string | Array<ChatCompletionContentPartText>;
  /**
   * Optional participant name (chat-completions API).
   */
  name?: string;
};

/**
 * One message of the conversation, discriminated by `role` (every variant fixes its `role` to one value). The spec shows `role` and string `content` with roles `system`, `user`, `assistant`; the `developer` and `tool` roles and array content follow the chat-completions API.
 *
 * @example
 * ```ts
 * import type { ChatCompletionMessageParam } from 'inference-sdk';
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
  | ChatCompletionToolMessageParam;

/**
 * Body of `POST /chat/completions`. `model`, `messages`, `temperature` and `stream` are shown by the spec; the spec says tool calling and structured outputs are supported but does not show their parameters, so the rest follows the chat-completions API. Not every OpenAI-compatible server accepts every parameter.
 *
 * @example
 * ```ts
 * import type { ChatCompletionCreateParams } from 'inference-sdk';
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
export type ChatCompletionCreateParams = {
  /**
   * Model slug, `<vendor>/<model_name>` (Spec).
   */
  model: string;
  /**
   * The conversation so far (Spec).
   */
  messages: Array<ChatCompletionMessageParam>;
  /**
   * Sampling temperature (Spec), usually between 0 and 2.
   */
  temperature?: number;
  /**
   * `true` switches the response to server-sent events of `ChatCompletionChunk` (Spec).
   */
  stream?: boolean;
  stream_options?: ChatCompletionStreamOptions;
  /**
   * Functions the model may call (chat-completions API).
   */
  tools?: Array<ChatCompletionTool>;
  tool_choice?: ChatCompletionToolChoiceOption;
  /**
   * Whether the model may call several tools in one turn (chat-completions API).
   */
  parallel_tool_calls?: boolean;
  /**
   * Output format: plain text, any JSON object, or JSON matching a schema (structured outputs) (chat-completions API).
   */
  response_format?: ResponseFormatText | ResponseFormatJSONObject | ResponseFormatJSONSchema;
  /**
   * Maximum number of tokens to generate (chat-completions API). Widely supported by other servers; OpenAI reasoning models reject it in favour of `max_completion_tokens`.
   */
  max_tokens?: number;
  /**
   * Upper bound on generated tokens, reasoning tokens included (chat-completions API). Not accepted by every server.
   */
  max_completion_tokens?: number;
  /**
   * Up to 4 sequences where generation stops (chat-completions API).
   */
  stop?: string | Array<string>;
  /**
   * Number of choices to generate (chat-completions API).
   */
  n?: number;
  /**
   * Best-effort deterministic sampling seed (chat-completions API).
   */
  seed?: number;
  /**
   * Nucleus sampling probability mass (chat-completions API).
   */
  top_p?: number;
  /**
   * Penalty for tokens already present, -2.0 to 2.0 (chat-completions API).
   */
  presence_penalty?: number;
  /**
   * Penalty proportional to token frequency, -2.0 to 2.0 (chat-completions API).
   */
  frequency_penalty?: number;
  /**
   * Return log probabilities of the output tokens (chat-completions API).
   */
  logprobs?: boolean;
  /**
   * Number of most likely tokens (0-20) to return at each position; requires `logprobs` (chat-completions API).
   */
  top_logprobs?: number;
  /**
   * Stable end-user identifier for abuse monitoring (chat-completions API).
   */
  user?: string;
  /**
   * Reasoning effort for reasoning models (chat-completions API). Not every model or server accepts every value.
   */
  reasoning_effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
};

/**
 * The models available to the caller's API key (Spec). Quirk: llama.cpp adds a top-level `models` array next to `data`.
 *
 * @example
 * ```ts
 * import type { ModelList } from 'inference-sdk';
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
export type ModelList = {
  /**
   * Always `list` (Spec).
   */
  object?: string;
  /**
   * Every model available to the caller's key (Spec).
   */
  data: Array<Model>;
  [key: string]: unknown;
};

/**
 * One price entry of `Model.pricing`. On this service every value is a decimal number carried as a string, e.g. `"0.15"` (Spec); other servers send JSON numbers (Perplexity), so each price is `string | number`. Convert with care: strings keep the exact decimal.
 *
 * @example
 * ```ts
 * import type { ModelPricing } from 'inference-sdk';
 *
 * const modelPricing: ModelPricing = {
 *   prompt: '0.15',
 *   completion: '0.60',
 *   input_cache_read: '0.075',
 * };
 * ```
 */
export type ModelPricing = {
  /**
   * Price of prompt (input) tokens (Spec).
   */
  prompt?: string | number;
  /**
   * Price of completion (output) tokens (Spec).
   */
  completion?: string | number;
  /**
   * Price of prompt tokens read from cache (Spec).
   */
  input_cache_read?: string | number;
  /**
   * Quirk (Perplexity) - price of input tokens.
   */
  input?: string | number;
  /**
   * Quirk (Perplexity) - price of output tokens.
   */
  output?: string | number;
  /**
   * Quirk (Perplexity) - price of cached input tokens.
   */
  cache_read?: string | number;
  /**
   * Quirk (Perplexity) - price of writing input tokens to cache.
   */
  cache_write?: string | number;
  /**
   * Quirk (Perplexity) - unit of the prices, e.g. `usd_per_1m_tokens`.
   */
  unit?: string;
  [key: string]: unknown;
};

/**
 * A model (Spec). Only `id` is required: other OpenAI-compatible servers often send only `id`, `object`, `created` and `owned_by`, and some add their own fields (vLLM `root`, `max_model_len`, `permission`; llama.cpp `meta`; Azure `capabilities`, `lifecycle_status`; Gemini `display_name`), which are kept.
 *
 * @example
 * ```ts
 * import type { Model } from 'inference-sdk';
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
export type Model = {
  /**
   * The model slug, `<vendor>/<model_name>` on this service (Spec).
   */
  id: string;
  /**
   * Always `model` on this service (Spec).
   */
  object?: string;
  /**
   * Creation timestamp, Unix seconds (Spec says integer). Quirks: `null` (Azure OpenAI, Gemini compat), `0` (Cerebras, Perplexity), milliseconds instead of seconds (watsonx).
   */
  created?: number | null;
  /**
   * Owner name (Spec). Quirk - `null` (Azure OpenAI).
   */
  owned_by?: string | null;
  /**
   * Display name (Spec).
   */
  name?: string;
  /**
   * Context size of the model, bounds the input (Spec).
   */
  context_length?: number;
  /**
   * Maximum output size of the model, bounds generated output (Spec).
   */
  max_output_length?: number;
  /**
   * Input modalities; value seen `text`, full set not shown (Spec).
   */
  input_modalities?: Array<string>;
  /**
   * Output modalities; value seen `text`, full set not shown (Spec).
   */
  output_modalities?: Array<string>;
  /**
   * Supported features; values seen `tools`, `reasoning`, full set not shown (Spec).
   */
  supported_features?: Array<string>;
  /**
   * Prices (Spec: an array of objects, each with `prompt`, `completion` and `input_cache_read`, every value a decimal number carried as a string; currency and unit not shown). Quirk: Perplexity sends a single object (not an array) with numeric `input`, `output`, `cache_read`, `cache_write` and a `unit` string. Both forms are accepted.
   */
  pricing?: Array<ModelPricing> | ModelPricing;
  /**
   * Whether the model is ready (Spec). Transitions are not shown.
   */
  is_ready?: boolean;
  [key: string]: unknown;
};
