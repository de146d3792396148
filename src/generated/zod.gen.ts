// Generated from spec/openapi.yaml by `npm run generate` (scripts/generate.ts). Do not edit:
// change the spec (or the generator) and regenerate.

// The contract as zod/mini schemas: what the SDK returns (after the normalizer), for users to
// validate stored or cached responses with (model-inference-sdk/schemas). zod is an optional
// peer dependency (the package loads this entry so that a missing zod says what to install).
import * as z from 'zod/mini';

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
 * import { zModelPricing } from 'model-inference-sdk/schemas';
 *
 * const modelPricing = zModelPricing.parse({
 *   prompt: '0.15',
 *   completion: '0.60',
 *   input_cache_read: '0.075',
 * });
 * ```
 */
export const zModelPricing = z.looseObject({
  prompt: z.exactOptional(z.string()),
  completion: z.exactOptional(z.string()),
  input_cache_read: z.exactOptional(z.string()),
  input_cache_write: z.exactOptional(z.string()),
  unit: z.exactOptional(z.string()),
});

/**
 * A model (Spec). The service sends every field; other OpenAI-compatible servers often send only
 * `id`, `object`, `created` and `owned_by`, so the fields beyond `id` and `object` are optional: a
 * field the server did not send stays absent (no value is invented). Extras are kept: vLLM `root`,
 * `parent`, `permission`; llama.cpp `meta`; Azure `capabilities`, `lifecycle_status`; Gemini
 * `display_name`; OpenRouter `architecture`, `top_provider`.
 *
 * @example
 * ```ts
 * import { zModel } from 'model-inference-sdk/schemas';
 *
 * const model = zModel.parse({
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
 * });
 * ```
 */
export const zModel = z.looseObject({
  id: z.string(),
  object: z.literal('model'),
  created: z.exactOptional(z.int()),
  owned_by: z.exactOptional(z.string()),
  name: z.exactOptional(z.string()),
  context_length: z.exactOptional(z.int()),
  max_output_length: z.exactOptional(z.int()),
  input_modalities: z.exactOptional(z.array(z.string())),
  output_modalities: z.exactOptional(z.array(z.string())),
  supported_features: z.exactOptional(z.array(z.string())),
  pricing: z.exactOptional(z.array(zModelPricing)),
  is_ready: z.exactOptional(z.boolean()),
});

/**
 * The models available to the caller's API key (Spec). Quirks: `object` absent (OpenRouter);
 * llama.cpp adds a top-level `models` array next to `data` (kept).
 *
 * @example
 * ```ts
 * import { zModelList } from 'model-inference-sdk/schemas';
 *
 * const modelList = zModelList.parse({
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
 * });
 * ```
 */
export const zModelList = z.looseObject({ object: z.literal('list'), data: z.array(zModel) });

/**
 * A text content part (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionContentPartText } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionContentPartText = zChatCompletionContentPartText.parse({
 *   type: 'text',
 *   text: 'What colour is this?',
 * });
 * ```
 */
export const zChatCompletionContentPartText = z.object({
  type: z.literal('text'),
  text: z.string(),
});

/**
 * System instructions (Spec).
 *
 * @example
 * ```ts
 * import { zChatCompletionSystemMessageParam } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionSystemMessageParam = zChatCompletionSystemMessageParam.parse({
 *   role: 'system',
 *   content: 'You are a concise assistant.',
 * });
 * ```
 */
export const zChatCompletionSystemMessageParam = z.object({
  role: z.literal('system'),
  content: z.union([z.string(), z.array(zChatCompletionContentPartText)]),
  name: z.optional(z.string()),
});

/**
 * Developer instructions, the newer name of system messages for some models (chat-completions
 * API). Servers that do not know the role may reject it; use `system` there.
 *
 * @example
 * ```ts
 * import { zChatCompletionDeveloperMessageParam } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionDeveloperMessageParam = zChatCompletionDeveloperMessageParam.parse({
 *   role: 'developer',
 *   content: 'Answer in one sentence.',
 * });
 * ```
 */
export const zChatCompletionDeveloperMessageParam = z.object({
  role: z.literal('developer'),
  content: z.union([z.string(), z.array(zChatCompletionContentPartText)]),
  name: z.optional(z.string()),
});

/**
 * An image content part (chat-completions API); the model must accept image input.
 *
 * @example
 * ```ts
 * import { zChatCompletionContentPartImage } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionContentPartImage = zChatCompletionContentPartImage.parse({
 *   type: 'image_url',
 *   image_url: { url: 'https://example.com/swatch.png', detail: 'low' },
 * });
 * ```
 */
export const zChatCompletionContentPartImage = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string(), detail: z.optional(z.enum(['auto', 'low', 'high'])) }),
});

/**
 * An audio content part (chat-completions API); the model must accept audio input. Not every
 * server accepts it.
 *
 * @example
 * ```ts
 * import { zChatCompletionContentPartInputAudio } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionContentPartInputAudio = zChatCompletionContentPartInputAudio.parse({
 *   type: 'input_audio',
 *   input_audio: {
 *     data: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=',
 *     format: 'wav',
 *   },
 * });
 * ```
 */
export const zChatCompletionContentPartInputAudio = z.object({
  type: z.literal('input_audio'),
  input_audio: z.object({ data: z.string(), format: z.enum(['wav', 'mp3']) }),
});

/**
 * A file content part, such as a PDF (chat-completions API): inline as `file_data` with a
 * `filename`, or an uploaded file's `file_id`. The model must accept file input; not every server
 * accepts it.
 *
 * @example
 * ```ts
 * import { zChatCompletionContentPartFile } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionContentPartFile = zChatCompletionContentPartFile.parse({
 *   type: 'file',
 *   file: { filename: 'colours.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' },
 * });
 * ```
 */
export const zChatCompletionContentPartFile = z.object({
  type: z.literal('file'),
  file: z.object({
    file_data: z.optional(z.string()),
    filename: z.optional(z.string()),
    file_id: z.optional(z.string()),
  }),
});

/**
 * One part of array-form user content (chat-completions API): text, an image, audio or a file. The
 * model must accept that kind of input.
 *
 * @example
 * ```ts
 * import { zChatCompletionContentPart } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionContentPart = zChatCompletionContentPart.parse({
 *   type: 'text',
 *   text: 'What colour is this?',
 * });
 * ```
 */
export const zChatCompletionContentPart = z.union([
  zChatCompletionContentPartText,
  zChatCompletionContentPartImage,
  zChatCompletionContentPartInputAudio,
  zChatCompletionContentPartFile,
]);

/**
 * A user turn (Spec); array content with images, audio and files follows the chat-completions API.
 *
 * @example
 * ```ts
 * import { zChatCompletionUserMessageParam } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionUserMessageParam = zChatCompletionUserMessageParam.parse({
 *   role: 'user',
 *   content: [
 *     { type: 'text', text: 'What colour is this?' },
 *     { type: 'image_url', image_url: { url: 'https://example.com/swatch.png', detail: 'low' } },
 *   ],
 * });
 * ```
 */
export const zChatCompletionUserMessageParam = z.object({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(zChatCompletionContentPart)]),
  name: z.optional(z.string()),
});

/**
 * A refusal part of an assistant message sent back (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionContentPartRefusal } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionContentPartRefusal = zChatCompletionContentPartRefusal.parse({
 *   type: 'refusal',
 *   refusal: "I can't help with that.",
 * });
 * ```
 */
export const zChatCompletionContentPartRefusal = z.object({
  type: z.literal('refusal'),
  refusal: z.string(),
});

/**
 * The function a tool call names, and its arguments (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionMessageToolCallFunction } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionMessageToolCallFunction = zChatCompletionMessageToolCallFunction.parse({
 *   name: 'get_weather',
 *   arguments: '{"city":"Paris"}',
 * });
 * ```
 */
export const zChatCompletionMessageToolCallFunction = z.looseObject({
  name: z.string(),
  arguments: z.string(),
});

/**
 * A tool call in a message (chat-completions API); also what an assistant message sends back.
 * Extras are kept and should be sent back as received: `index` (Ollama),
 * `extra_content.google.thought_signature` (Gemini), `custom` (Snowflake).
 *
 * @example
 * ```ts
 * import { zChatCompletionMessageToolCall } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionMessageToolCall = zChatCompletionMessageToolCall.parse({
 *   id: 'call_1',
 *   type: 'function',
 *   function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
 * });
 * ```
 */
export const zChatCompletionMessageToolCall = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: zChatCompletionMessageToolCallFunction,
});

/**
 * A previous assistant turn sent back (Spec shows role `assistant`). `content` may be omitted or
 * `null` when the turn only called tools (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionAssistantMessageParam } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionAssistantMessageParam = zChatCompletionAssistantMessageParam.parse({
 *   role: 'assistant',
 *   content: null,
 *   tool_calls: [
 *     {
 *       id: 'call_1',
 *       type: 'function',
 *       function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
 *     },
 *   ],
 * });
 * ```
 */
export const zChatCompletionAssistantMessageParam = z.object({
  role: z.literal('assistant'),
  content: z.optional(
    z.nullable(
      z.union([
        z.string(),
        z.array(z.union([zChatCompletionContentPartText, zChatCompletionContentPartRefusal])),
      ]),
    ),
  ),
  name: z.optional(z.string()),
  refusal: z.optional(z.nullable(z.string())),
  tool_calls: z.optional(z.array(zChatCompletionMessageToolCall)),
  reasoning_content: z.optional(z.nullable(z.string())),
  function_call: z.optional(z.nullable(z.object({ name: z.string(), arguments: z.string() }))),
});

/**
 * The result of a tool call (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionToolMessageParam } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionToolMessageParam = zChatCompletionToolMessageParam.parse({
 *   role: 'tool',
 *   tool_call_id: 'call_1',
 *   content: '{"temperature_c":18,"condition":"cloudy"}',
 * });
 * ```
 */
export const zChatCompletionToolMessageParam = z.object({
  role: z.literal('tool'),
  content: z.union([z.string(), z.array(zChatCompletionContentPartText)]),
  tool_call_id: z.string(),
});

/**
 * Deprecated: use a `tool` message. The result of a call made with the deprecated `functions`
 * parameter (chat-completions API). Not every server accepts it.
 *
 * @example
 * ```ts
 * import { zChatCompletionFunctionMessageParam } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionFunctionMessageParam = zChatCompletionFunctionMessageParam.parse({
 *   role: 'function',
 *   name: 'get_weather',
 *   content: '{"temperature_c":18,"condition":"cloudy"}',
 * });
 * ```
 */
export const zChatCompletionFunctionMessageParam = z.object({
  role: z.literal('function'),
  content: z.nullable(z.string()),
  name: z.string(),
});

/**
 * One message of the conversation, discriminated by `role` (every variant fixes its `role` to one
 * value). The spec shows `role` and string `content` with roles `system`, `user`, `assistant`; the
 * `developer` and `tool` roles, the deprecated `function` role and array content follow the
 * chat-completions API.
 *
 * @example
 * ```ts
 * import { zChatCompletionMessageParam } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionMessageParam = zChatCompletionMessageParam.parse({
 *   role: 'user',
 *   content: 'Name the three primary colours.',
 * });
 * ```
 */
export const zChatCompletionMessageParam = z.union([
  zChatCompletionSystemMessageParam,
  zChatCompletionDeveloperMessageParam,
  zChatCompletionUserMessageParam,
  zChatCompletionAssistantMessageParam,
  zChatCompletionToolMessageParam,
  zChatCompletionFunctionMessageParam,
]);

/**
 * Options for a streamed response; set only with `stream: true` (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionStreamOptions } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionStreamOptions = zChatCompletionStreamOptions.parse({ include_usage: true });
 * ```
 */
export const zChatCompletionStreamOptions = z.object({
  include_usage: z.optional(z.boolean()),
  include_obfuscation: z.optional(z.boolean()),
});

/**
 * A function's arguments as a JSON Schema object (free-form); left out, the function takes no
 * arguments (chat-completions API).
 *
 * @example
 * ```ts
 * import { zFunctionParameters } from 'model-inference-sdk/schemas';
 *
 * const functionParameters = zFunctionParameters.parse({
 *   type: 'object',
 *   properties: { city: { type: 'string' } },
 *   required: ['city'],
 * });
 * ```
 */
export const zFunctionParameters = z.record(z.string(), z.unknown());

/**
 * A function the model may call, in a `function` tool (chat-completions API).
 *
 * @example
 * ```ts
 * import { zFunctionDefinition } from 'model-inference-sdk/schemas';
 *
 * const functionDefinition = zFunctionDefinition.parse({
 *   name: 'get_weather',
 *   description: 'Current weather in a city.',
 *   parameters: {
 *     type: 'object',
 *     properties: { city: { type: 'string' } },
 *     required: ['city'],
 *     additionalProperties: false,
 *   },
 *   strict: true,
 * });
 * ```
 */
export const zFunctionDefinition = z.object({
  name: z.string(),
  description: z.optional(z.string()),
  parameters: z.optional(zFunctionParameters),
  strict: z.optional(z.nullable(z.boolean())),
});

/**
 * A function the model may call (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionTool } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionTool = zChatCompletionTool.parse({
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
 * });
 * ```
 */
export const zChatCompletionTool = z.object({
  type: z.literal('function'),
  function: zFunctionDefinition,
});

/**
 * Forces a call to the named function (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionNamedToolChoice } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionNamedToolChoice = zChatCompletionNamedToolChoice.parse({
 *   type: 'function',
 *   function: { name: 'get_weather' },
 * });
 * ```
 */
export const zChatCompletionNamedToolChoice = z.object({
  type: z.literal('function'),
  function: z.object({ name: z.string() }),
});

/**
 * How the model picks tools (chat-completions API): `none`, `auto`, `required`, or a named
 * function.
 *
 * @example
 * ```ts
 * import { zChatCompletionToolChoiceOption } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionToolChoiceOption = zChatCompletionToolChoiceOption.parse('auto');
 * ```
 */
export const zChatCompletionToolChoiceOption = z.union([
  z.enum(['none', 'auto', 'required']),
  zChatCompletionNamedToolChoice,
]);

/**
 * Plain text output (chat-completions API).
 *
 * @example
 * ```ts
 * import { zResponseFormatText } from 'model-inference-sdk/schemas';
 *
 * const responseFormatText = zResponseFormatText.parse({ type: 'text' });
 * ```
 */
export const zResponseFormatText = z.object({ type: z.literal('text') });

/**
 * Output is a JSON object (JSON mode, chat-completions API); the prompt should also ask for JSON.
 *
 * @example
 * ```ts
 * import { zResponseFormatJSONObject } from 'model-inference-sdk/schemas';
 *
 * const responseFormatJSONObject = zResponseFormatJSONObject.parse({ type: 'json_object' });
 * ```
 */
export const zResponseFormatJSONObject = z.object({ type: z.literal('json_object') });

/**
 * Output follows a JSON Schema (structured outputs, chat-completions API).
 *
 * @example
 * ```ts
 * import { zResponseFormatJSONSchema } from 'model-inference-sdk/schemas';
 *
 * const responseFormatJSONSchema = zResponseFormatJSONSchema.parse({
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
 * });
 * ```
 */
export const zResponseFormatJSONSchema = z.object({
  type: z.literal('json_schema'),
  json_schema: z.object({
    name: z.string(),
    description: z.optional(z.string()),
    schema: z.optional(z.record(z.string(), z.unknown())),
    strict: z.optional(z.nullable(z.boolean())),
  }),
});

/**
 * How long a reasoning model thinks before it answers (chat-completions API); `null` leaves it to
 * the model. Not every model or server accepts every value.
 *
 * @example
 * ```ts
 * import { zReasoningEffort } from 'model-inference-sdk/schemas';
 *
 * const reasoningEffort = zReasoningEffort.parse('low');
 * ```
 */
export const zReasoningEffort = z.nullable(
  z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']),
);

/**
 * Up to 16 string key-value pairs stored with the completion, keys up to 64 characters and values
 * up to 512 (chat-completions API). Not every server accepts it.
 *
 * @example
 * ```ts
 * import { zMetadata } from 'model-inference-sdk/schemas';
 *
 * const metadata = zMetadata.parse({ tenant: 'acme', feature: 'support-chat' });
 * ```
 */
export const zMetadata = z.record(z.string(), z.string());

/**
 * An output modality (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionModality } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionModality = zChatCompletionModality.parse('text');
 * ```
 */
export const zChatCompletionModality = z.enum(['text', 'audio']);

/**
 * The voice and format of audio output, with `modalities: ['text', 'audio']` (chat-completions
 * API). Not every server accepts it. Audio output is not typed in responses: read `message.audio`
 * with `extras()`.
 *
 * @example
 * ```ts
 * import { zChatCompletionAudioParam } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionAudioParam = zChatCompletionAudioParam.parse({ voice: 'alloy', format: 'mp3' });
 * ```
 */
export const zChatCompletionAudioParam = z.object({
  voice: z.union([z.string(), z.object({ id: z.string() })]),
  format: z.enum(['wav', 'aac', 'mp3', 'flac', 'opus', 'pcm16']),
});

/**
 * Predicted output: text the answer is expected to repeat largely unchanged (a file being edited),
 * which lets the server answer faster (chat-completions API). Not every server accepts it.
 *
 * @example
 * ```ts
 * import { zChatCompletionPredictionContent } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionPredictionContent = zChatCompletionPredictionContent.parse({
 *   type: 'content',
 *   content: 'export const primary = ["red", "yellow", "blue"];',
 * });
 * ```
 */
export const zChatCompletionPredictionContent = z.object({
  type: z.literal('content'),
  content: z.union([z.string(), z.array(zChatCompletionContentPartText)]),
});

/**
 * Forces a call to the named function, with the deprecated `function_call` parameter
 * (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionFunctionCallOption } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionFunctionCallOption = zChatCompletionFunctionCallOption.parse({
 *   name: 'get_weather',
 * });
 * ```
 */
export const zChatCompletionFunctionCallOption = z.object({ name: z.string() });

/**
 * Body of `POST /chat/completions`. `model`, `messages`, `temperature` and `stream` are shown by
 * the spec; the spec says tool calling and structured outputs are supported but does not show
 * their parameters, so the rest follows the chat-completions API. Not every OpenAI-compatible
 * server accepts every parameter.
 *
 * @example
 * ```ts
 * import { zChatCompletionCreateParamsBase } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionCreateParamsBase = zChatCompletionCreateParamsBase.parse({
 *   model: 'acme/chat-1',
 *   messages: [
 *     { role: 'system', content: 'You are a concise assistant.' },
 *     { role: 'user', content: 'Name the three primary colours.' },
 *   ],
 *   temperature: 0.2,
 *   max_tokens: 64,
 * });
 * ```
 */
export const zChatCompletionCreateParamsBase = z.object({
  model: z.string(),
  messages: z.array(zChatCompletionMessageParam),
  temperature: z.optional(z.nullable(z.number())),
  stream: z.optional(z.nullable(z.boolean())),
  stream_options: z.optional(z.nullable(zChatCompletionStreamOptions)),
  tools: z.optional(z.array(zChatCompletionTool)),
  tool_choice: z.optional(zChatCompletionToolChoiceOption),
  parallel_tool_calls: z.optional(z.boolean()),
  response_format: z.optional(
    z.union([zResponseFormatText, zResponseFormatJSONObject, zResponseFormatJSONSchema]),
  ),
  max_tokens: z.optional(z.nullable(z.int())),
  max_completion_tokens: z.optional(z.nullable(z.int())),
  stop: z.optional(z.nullable(z.union([z.string(), z.array(z.string())]))),
  n: z.optional(z.nullable(z.int())),
  seed: z.optional(z.nullable(z.int())),
  top_p: z.optional(z.nullable(z.number())),
  presence_penalty: z.optional(z.nullable(z.number())),
  frequency_penalty: z.optional(z.nullable(z.number())),
  logprobs: z.optional(z.nullable(z.boolean())),
  top_logprobs: z.optional(z.nullable(z.int())),
  user: z.optional(z.string()),
  reasoning_effort: z.optional(zReasoningEffort),
  verbosity: z.optional(z.nullable(z.enum(['low', 'medium', 'high']))),
  logit_bias: z.optional(z.nullable(z.record(z.string(), z.number()))),
  metadata: z.optional(z.nullable(zMetadata)),
  store: z.optional(z.nullable(z.boolean())),
  service_tier: z.optional(z.nullable(z.string())),
  modalities: z.optional(z.nullable(z.array(zChatCompletionModality))),
  audio: z.optional(z.nullable(zChatCompletionAudioParam)),
  prediction: z.optional(z.nullable(zChatCompletionPredictionContent)),
  safety_identifier: z.optional(z.nullable(z.string())),
  prompt_cache_key: z.optional(z.nullable(z.string())),
  web_search_options: z.optional(
    z.object({
      search_context_size: z.optional(z.enum(['low', 'medium', 'high'])),
      user_location: z.optional(
        z.nullable(
          z.object({
            type: z.literal('approximate'),
            approximate: z.object({
              city: z.optional(z.string()),
              region: z.optional(z.string()),
              country: z.optional(z.string()),
              timezone: z.optional(z.string()),
            }),
          }),
        ),
      ),
    }),
  ),
  functions: z.optional(
    z.array(
      z.object({
        name: z.string(),
        description: z.optional(z.string()),
        parameters: z.optional(zFunctionParameters),
      }),
    ),
  ),
  function_call: z.optional(z.union([z.enum(['none', 'auto']), zChatCompletionFunctionCallOption])),
});

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
 * import { zFinishReason } from 'model-inference-sdk/schemas';
 *
 * const finishReason = zFinishReason.parse('stop');
 * ```
 */
export const zFinishReason = z.string();

/**
 * An annotation of a message, such as a URL citation (chat-completions API; OpenRouter).
 *
 * @example
 * ```ts
 * import { zChatCompletionAnnotation } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionAnnotation = zChatCompletionAnnotation.parse({
 *   type: 'url_citation',
 *   url_citation: {
 *     url: 'https://example.com/colours',
 *     title: 'Primary colours',
 *     start_index: 0,
 *     end_index: 20,
 *   },
 * });
 * ```
 */
export const zChatCompletionAnnotation = z.looseObject({
  type: z.string(),
  url_citation: z.exactOptional(
    z.looseObject({
      url: z.exactOptional(z.string()),
      title: z.exactOptional(z.string()),
      start_index: z.exactOptional(z.int()),
      end_index: z.exactOptional(z.int()),
    }),
  ),
});

/**
 * One typed part of content a server sent as an array (Mistral: `{"type": "text", "text"}`,
 * `{"type": "thinking", "thinking": [...]}`, `{"type": "reference", ...}`). Fields beyond `type`
 * and `text` are kept as sent.
 *
 * @example
 * ```ts
 * import { zChatCompletionResponseContentPart } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionResponseContentPart = zChatCompletionResponseContentPart.parse({
 *   type: 'text',
 *   text: 'Red, yellow and blue.',
 * });
 * ```
 */
export const zChatCompletionResponseContentPart = z.looseObject({
  type: z.string(),
  text: z.exactOptional(z.string()),
});

/**
 * One of OpenRouter's `reasoning_details` blocks, read for its text and kept as sent (every field
 * may be `null`).
 *
 * @example
 * ```ts
 * import { zReasoningDetail } from 'model-inference-sdk/schemas';
 *
 * const reasoningDetail = zReasoningDetail.parse({
 *   type: 'reasoning.text',
 *   text: 'The user asks for primary colours.',
 * });
 * ```
 */
export const zReasoningDetail = z.looseObject({
  type: z.exactOptional(z.nullable(z.string())),
  text: z.exactOptional(z.nullable(z.string())),
  summary: z.exactOptional(z.nullable(z.string())),
});

/**
 * The assistant message of a choice (Spec shows `role` and string `content`). Raw fields a server
 * uses for reasoning (`reasoning_content`, `reasoning_details`) stay on the object, and
 * `reasoning` holds their text. Extras are kept: `audio`, `extra_content` (Gemini), ...
 *
 * @example
 * ```ts
 * import { zChatCompletionMessage } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionMessage = zChatCompletionMessage.parse({
 *   role: 'assistant',
 *   content: 'Red, yellow and blue.',
 *   refusal: null,
 * });
 * ```
 */
export const zChatCompletionMessage = z.looseObject({
  role: z.literal('assistant'),
  content: z.nullable(z.string()),
  refusal: z.nullable(z.string()),
  reasoning: z.exactOptional(z.string()),
  reasoning_raw: z.exactOptional(z.string()),
  tool_calls: z.exactOptional(z.array(zChatCompletionMessageToolCall)),
  function_call: z.exactOptional(z.nullable(zChatCompletionMessageToolCallFunction)),
  annotations: z.exactOptional(z.array(zChatCompletionAnnotation)),
  content_parts: z.exactOptional(z.array(zChatCompletionResponseContentPart)),
});

/**
 * One of the most likely tokens at a position (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionTopLogprob } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionTopLogprob = zChatCompletionTopLogprob.parse({
 *   token: 'Blue',
 *   logprob: -6.9,
 *   bytes: [66, 108, 117, 101],
 * });
 * ```
 */
export const zChatCompletionTopLogprob = z.looseObject({
  token: z.string(),
  logprob: z.number(),
  bytes: z.nullable(z.array(z.int())),
});

/**
 * Log probability of one output token (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionTokenLogprob } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionTokenLogprob = zChatCompletionTokenLogprob.parse({
 *   token: 'Red',
 *   logprob: -0.0012,
 *   bytes: [82, 101, 100],
 *   top_logprobs: [
 *     { token: 'Red', logprob: -0.0012, bytes: [82, 101, 100] },
 *     { token: 'Blue', logprob: -6.9, bytes: [66, 108, 117, 101] },
 *   ],
 * });
 * ```
 */
export const zChatCompletionTokenLogprob = z.looseObject({
  token: z.string(),
  logprob: z.number(),
  bytes: z.nullable(z.array(z.int())),
  top_logprobs: z.array(zChatCompletionTopLogprob),
});

/**
 * Log probabilities of a choice's tokens (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionChoiceLogprobs } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionChoiceLogprobs = zChatCompletionChoiceLogprobs.parse({
 *   content: [{ token: 'Red', logprob: -0.0012, bytes: [82, 101, 100], top_logprobs: [] }],
 *   refusal: null,
 * });
 * ```
 */
export const zChatCompletionChoiceLogprobs = z.looseObject({
  content: z.nullable(z.array(zChatCompletionTokenLogprob)),
  refusal: z.nullable(z.array(zChatCompletionTokenLogprob)),
});

/**
 * One choice of a chat completion (Spec). Extras are kept: `native_finish_reason` (OpenRouter),
 * `stop_reason` (vLLM), `content_filter_results` (Azure), `seed` (Together, may exceed 2^53 and
 * lose precision in JSON.parse).
 *
 * @example
 * ```ts
 * import { zChatCompletionChoice } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionChoice = zChatCompletionChoice.parse({
 *   index: 0,
 *   message: { role: 'assistant', content: 'Red, yellow and blue.', refusal: null },
 *   finish_reason: 'stop',
 *   logprobs: null,
 * });
 * ```
 */
export const zChatCompletionChoice = z.looseObject({
  index: z.int(),
  message: zChatCompletionMessage,
  finish_reason: z.nullable(zFinishReason),
  logprobs: z.nullable(zChatCompletionChoiceLogprobs),
});

/**
 * Breakdown of prompt tokens (chat-completions API). A count a server sends as `null` reads as
 * absent.
 *
 * @example
 * ```ts
 * import { zPromptTokensDetails } from 'model-inference-sdk/schemas';
 *
 * const promptTokensDetails = zPromptTokensDetails.parse({ cached_tokens: 0 });
 * ```
 */
export const zPromptTokensDetails = z.looseObject({
  cached_tokens: z.exactOptional(z.int()),
  audio_tokens: z.exactOptional(z.int()),
});

/**
 * Breakdown of completion tokens (chat-completions API). A count a server sends as `null` reads as
 * absent.
 *
 * @example
 * ```ts
 * import { zCompletionTokensDetails } from 'model-inference-sdk/schemas';
 *
 * const completionTokensDetails = zCompletionTokensDetails.parse({ reasoning_tokens: 0 });
 * ```
 */
export const zCompletionTokensDetails = z.looseObject({
  reasoning_tokens: z.exactOptional(z.int()),
  audio_tokens: z.exactOptional(z.int()),
  accepted_prediction_tokens: z.exactOptional(z.int()),
  rejected_prediction_tokens: z.exactOptional(z.int()),
});

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
 * import { zCompletionUsage } from 'model-inference-sdk/schemas';
 *
 * const completionUsage = zCompletionUsage.parse({
 *   prompt_tokens: 21,
 *   completion_tokens: 6,
 *   total_tokens: 27,
 *   prompt_tokens_details: { cached_tokens: 0 },
 *   completion_tokens_details: { reasoning_tokens: 0 },
 * });
 * ```
 */
export const zCompletionUsage = z.looseObject({
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
  total_tokens: z.int(),
  prompt_tokens_details: z.exactOptional(zPromptTokensDetails),
  completion_tokens_details: z.exactOptional(zCompletionTokensDetails),
});

/**
 * A chat completion (Spec). Extras are kept: `x_groq`, `provider`, `citations`, `search_results`,
 * `prompt_filter_results` (Azure), `time_info` (Cerebras), `request_id` (Z.ai), `prompt`
 * (Together), `kv_transfer_params` (vLLM), ...
 *
 * @example
 * ```ts
 * import { zChatCompletion } from 'model-inference-sdk/schemas';
 *
 * const chatCompletion = zChatCompletion.parse({
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
 * });
 * ```
 */
export const zChatCompletion = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.int(),
  model: z.string(),
  choices: z.array(zChatCompletionChoice),
  usage: z.nullable(zCompletionUsage),
  system_fingerprint: z.exactOptional(z.nullable(z.string())),
  service_tier: z.exactOptional(z.nullable(z.string())),
});

/**
 * The function part of a tool-call fragment (chat-completions API).
 *
 * @example
 * ```ts
 * import { zChatCompletionChunkToolCallFunction } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionChunkToolCallFunction = zChatCompletionChunkToolCallFunction.parse({
 *   name: 'get_weather',
 *   arguments: '{"city":',
 * });
 * ```
 */
export const zChatCompletionChunkToolCallFunction = z.looseObject({
  name: z.exactOptional(z.string()),
  arguments: z.exactOptional(z.string()),
});

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
 * import { zChatCompletionChunkToolCall } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionChunkToolCall = zChatCompletionChunkToolCall.parse({
 *   index: 0,
 *   id: 'call_1',
 *   type: 'function',
 *   function: { name: 'get_weather', arguments: '{"city":' },
 * });
 * ```
 */
export const zChatCompletionChunkToolCall = z.looseObject({
  index: z.int(),
  id: z.exactOptional(z.string()),
  type: z.exactOptional(z.literal('function')),
  function: z.exactOptional(zChatCompletionChunkToolCallFunction),
});

/**
 * The fragment a chunk adds to its choice (Spec). Every field is optional: the finish chunk's
 * delta is `{}` (Spec). The same reading as `ChatCompletionMessage`: `content` is text,
 * `reasoning` holds the reasoning fragment whichever field the server used, raw fields stay on the
 * object. Extras are kept: `channel`, `executed_tools` (Groq), `index` inside the delta (Mistral
 * serving GLM).
 *
 * @example
 * ```ts
 * import { zChatCompletionChunkDelta } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionChunkDelta = zChatCompletionChunkDelta.parse({
 *   role: 'assistant',
 *   content: '',
 * });
 * ```
 */
export const zChatCompletionChunkDelta = z.looseObject({
  role: z.exactOptional(z.literal('assistant')),
  content: z.exactOptional(z.string()),
  reasoning: z.exactOptional(z.string()),
  reasoning_raw: z.exactOptional(z.string()),
  refusal: z.exactOptional(z.string()),
  tool_calls: z.exactOptional(z.array(zChatCompletionChunkToolCall)),
  function_call: z.exactOptional(zChatCompletionChunkToolCallFunction),
  annotations: z.exactOptional(z.array(zChatCompletionAnnotation)),
  content_parts: z.exactOptional(z.array(zChatCompletionResponseContentPart)),
});

/**
 * One choice of a chunk (Spec). Extras are kept: `native_finish_reason` (OpenRouter),
 * `stop_reason`, `token_ids` (vLLM), `matched_stop` (SGLang), `content_filter_results` (Azure),
 * and a full `message` next to `delta` (Writer, Perplexity's last chunk; the delta is what is
 * read), or `text` next to it (Together).
 *
 * @example
 * ```ts
 * import { zChatCompletionChunkChoice } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionChunkChoice = zChatCompletionChunkChoice.parse({
 *   index: 0,
 *   delta: { content: ' and blue.' },
 *   finish_reason: null,
 * });
 * ```
 */
export const zChatCompletionChunkChoice = z.looseObject({
  index: z.int(),
  delta: zChatCompletionChunkDelta,
  finish_reason: z.nullable(zFinishReason),
  logprobs: z.exactOptional(z.nullable(zChatCompletionChoiceLogprobs)),
});

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
 * import { zChatCompletionChunk } from 'model-inference-sdk/schemas';
 *
 * const chatCompletionChunk = zChatCompletionChunk.parse({
 *   id: 'chatcmpl-7f3a9c2e',
 *   object: 'chat.completion.chunk',
 *   created: 1735689600,
 *   model: 'acme/chat-1',
 *   choices: [{ index: 0, delta: { content: 'Red, yellow' }, finish_reason: null }],
 * });
 * ```
 */
export const zChatCompletionChunk = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.int(),
  model: z.string(),
  choices: z.array(zChatCompletionChunkChoice),
  usage: z.exactOptional(z.nullable(zCompletionUsage)),
  system_fingerprint: z.exactOptional(z.nullable(z.string())),
  service_tier: z.exactOptional(z.nullable(z.string())),
});

/**
 * Body of `POST /completions` (legacy). `model` and `prompt` are shown by the spec; the other
 * fields follow the chat-completions API's legacy completions.
 *
 * @example
 * ```ts
 * import { zCompletionCreateParamsBase } from 'model-inference-sdk/schemas';
 *
 * const completionCreateParamsBase = zCompletionCreateParamsBase.parse({
 *   model: 'acme/base-1',
 *   prompt: 'Once upon a time',
 *   max_tokens: 16,
 *   temperature: 0.7,
 * });
 * ```
 */
export const zCompletionCreateParamsBase = z.object({
  model: z.string(),
  prompt: z.nullable(
    z.union([z.string(), z.array(z.string()), z.array(z.int()), z.array(z.array(z.int()))]),
  ),
  max_tokens: z.optional(z.nullable(z.int())),
  temperature: z.optional(z.nullable(z.number())),
  top_p: z.optional(z.nullable(z.number())),
  n: z.optional(z.nullable(z.int())),
  stream: z.optional(z.nullable(z.boolean())),
  stream_options: z.optional(z.nullable(zChatCompletionStreamOptions)),
  stop: z.optional(z.nullable(z.union([z.string(), z.array(z.string())]))),
  seed: z.optional(z.nullable(z.int())),
  echo: z.optional(z.nullable(z.boolean())),
  suffix: z.optional(z.nullable(z.string())),
  logprobs: z.optional(z.nullable(z.int())),
  presence_penalty: z.optional(z.nullable(z.number())),
  frequency_penalty: z.optional(z.nullable(z.number())),
  user: z.optional(z.string()),
  best_of: z.optional(z.nullable(z.int())),
  logit_bias: z.optional(z.nullable(z.record(z.string(), z.number()))),
});

/**
 * Token log probabilities of a legacy completion choice. A list a server sends as `null` reads as
 * absent.
 *
 * @example
 * ```ts
 * import { zCompletionLogprobs } from 'model-inference-sdk/schemas';
 *
 * const completionLogprobs = zCompletionLogprobs.parse({
 *   tokens: [' there', ' lived'],
 *   token_logprobs: [-0.4, -1.2],
 *   top_logprobs: [{ ' there': -0.4 }, { ' lived': -1.2 }],
 *   text_offset: [16, 22],
 * });
 * ```
 */
export const zCompletionLogprobs = z.looseObject({
  tokens: z.exactOptional(z.array(z.string())),
  token_logprobs: z.exactOptional(z.array(z.nullable(z.number()))),
  top_logprobs: z.exactOptional(z.array(z.nullable(z.record(z.string(), z.number())))),
  text_offset: z.exactOptional(z.array(z.int())),
});

/**
 * One generated text of a legacy completion. Extras are kept: `stop_reason`, `token_ids`,
 * `prompt_logprobs` (vLLM).
 *
 * @example
 * ```ts
 * import { zCompletionChoice } from 'model-inference-sdk/schemas';
 *
 * const completionChoice = zCompletionChoice.parse({
 *   index: 0,
 *   text: ' there lived a lighthouse keeper.',
 *   finish_reason: 'stop',
 *   logprobs: null,
 * });
 * ```
 */
export const zCompletionChoice = z.looseObject({
  index: z.int(),
  text: z.string(),
  finish_reason: z.nullable(zFinishReason),
  logprobs: z.nullable(zCompletionLogprobs),
});

/**
 * A legacy completion, and also each event of a streamed legacy completion (the spec does not show
 * the fields; they follow the chat-completions API's legacy completions). Quirks: `id` and
 * `object` absent (Writer), `object` `text.completion` (Together), `id` `""` (TGI); extras such as
 * `prompt` (Together) and `kv_transfer_params` (vLLM) are kept.
 *
 * @example
 * ```ts
 * import { zCompletion } from 'model-inference-sdk/schemas';
 *
 * const completion = zCompletion.parse({
 *   id: 'cmpl-2b8e41d0',
 *   object: 'text_completion',
 *   created: 1735689600,
 *   model: 'acme/base-1',
 *   choices: [
 *     { index: 0, text: ' there lived a lighthouse keeper.', finish_reason: 'stop', logprobs: null },
 *   ],
 *   usage: { prompt_tokens: 4, completion_tokens: 7, total_tokens: 11 },
 * });
 * ```
 */
export const zCompletion = z.looseObject({
  id: z.string(),
  object: z.literal('text_completion'),
  created: z.int(),
  model: z.string(),
  choices: z.array(zCompletionChoice),
  usage: z.nullable(zCompletionUsage),
  system_fingerprint: z.exactOptional(z.nullable(z.string())),
});

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
 * import { zErrorObject } from 'model-inference-sdk/schemas';
 *
 * const errorObject = zErrorObject.parse({
 *   message: 'The model `acme/unknown` does not exist.',
 *   type: 'invalid_request_error',
 *   param: 'model',
 *   code: 'model_not_found',
 * });
 * ```
 */
export const zErrorObject = z.looseObject({
  message: z.string(),
  type: z.exactOptional(z.nullable(z.string())),
  param: z.exactOptional(z.nullable(z.string())),
  code: z.exactOptional(z.nullable(z.union([z.string(), z.int()]))),
});

/**
 * Body of an error response: `{ "error": { ... } }` (Spec).
 *
 * @example
 * ```ts
 * import { zErrorResponse } from 'model-inference-sdk/schemas';
 *
 * const errorResponse = zErrorResponse.parse({
 *   error: {
 *     message: 'The model `acme/unknown` is not available on this API.',
 *     type: 'invalid_request_error',
 *   },
 * });
 * ```
 */
export const zErrorResponse = z.looseObject({ error: zErrorObject });
