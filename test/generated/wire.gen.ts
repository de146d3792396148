// Generated from spec/openapi.yaml by `npm run generate` (scripts/generate.ts). Do not edit:
// change the spec (or the generator) and regenerate.

// What the normalizer (normalize.gen.ts) accepts from a server, written as zod schemas so that
// test/normalize-properties.test.ts can hold the two to each other. Not used by the SDK at runtime.
import * as z from 'zod/mini';

import { zFinishReason } from '../../src/generated/zod.gen';

/** What the normalizer accepts for `ModelPricing`. */
export const zModelPricingWire = z.looseObject({
  prompt: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  completion: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  input_cache_read: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  input_cache_write: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  unit: z.optional(z.nullable(z.string())),
  input: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  output: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  cache_read: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  cache_write: z.optional(z.nullable(z.union([z.string(), z.number()]))),
});

/** What the normalizer accepts for `Model`. */
export const zModelWire = z.looseObject({
  id: z.string(),
  object: z.optional(z.unknown()),
  created: z.optional(z.nullable(z.number().check(z.gte(-Number.MAX_SAFE_INTEGER), z.lt(1e14)))),
  owned_by: z.optional(z.nullable(z.string())),
  name: z.optional(z.nullable(z.string())),
  context_length: z.optional(z.nullable(z.int())),
  max_output_length: z.optional(z.nullable(z.int())),
  input_modalities: z.optional(z.nullable(z.array(z.string()))),
  output_modalities: z.optional(z.nullable(z.array(z.string()))),
  supported_features: z.optional(z.nullable(z.array(z.string()))),
  pricing: z.optional(z.nullable(z.union([z.array(zModelPricingWire), zModelPricingWire]))),
  is_ready: z.optional(z.nullable(z.boolean())),
  max_model_len: z.optional(z.nullable(z.int())),
});

/** What the normalizer accepts for `ModelList`. */
export const zModelListWire = z.looseObject({
  object: z.optional(z.unknown()),
  data: z.array(zModelWire),
});

/** What the normalizer accepts for `ChatCompletionResponseContentPart`. */
export const zChatCompletionResponseContentPartWire = z.looseObject({
  type: z.string(),
  text: z.optional(z.nullable(z.string())),
});

/** What the normalizer accepts for `ChatCompletionMessageToolCallFunction`. */
export const zChatCompletionMessageToolCallFunctionWire = z.looseObject({
  name: z.string(),
  arguments: z.optional(z.unknown()),
});

/** What the normalizer accepts for `ChatCompletionMessageToolCall`. */
export const zChatCompletionMessageToolCallWire = z.looseObject({
  id: z.optional(z.nullable(z.string())),
  type: z.optional(z.unknown()),
  function: zChatCompletionMessageToolCallFunctionWire,
});

/** What the normalizer accepts for `ChatCompletionAnnotation`. */
export const zChatCompletionAnnotationWire = z.looseObject({
  type: z.string(),
  url_citation: z.optional(
    z.nullable(
      z.looseObject({
        url: z.optional(z.nullable(z.string())),
        title: z.optional(z.nullable(z.string())),
        start_index: z.optional(z.nullable(z.int())),
        end_index: z.optional(z.nullable(z.int())),
      }),
    ),
  ),
});

/** What the normalizer accepts for `ReasoningDetail`. */
export const zReasoningDetailWire = z.looseObject({
  type: z.optional(z.nullable(z.string())),
  text: z.optional(z.nullable(z.string())),
  summary: z.optional(z.nullable(z.string())),
});

/** What the normalizer accepts for `ChatCompletionMessage`. */
export const zChatCompletionMessageWire = z.looseObject({
  role: z.optional(z.unknown()),
  content: z.optional(
    z.nullable(z.union([z.string(), z.array(zChatCompletionResponseContentPartWire)])),
  ),
  refusal: z.optional(z.nullable(z.string())),
  reasoning: z.optional(z.nullable(z.string())),
  reasoning_raw: z.optional(z.nullable(z.string())),
  tool_calls: z.optional(z.nullable(z.array(zChatCompletionMessageToolCallWire))),
  function_call: z.optional(z.nullable(zChatCompletionMessageToolCallFunctionWire)),
  annotations: z.optional(z.nullable(z.array(zChatCompletionAnnotationWire))),
  content_parts: z.optional(z.nullable(z.array(zChatCompletionResponseContentPartWire))),
  reasoning_content: z.optional(z.nullable(z.string())),
  reasoning_details: z.optional(z.nullable(z.array(zReasoningDetailWire))),
});

/** What the normalizer accepts for `ChatCompletionTopLogprob`. */
export const zChatCompletionTopLogprobWire = z.looseObject({
  token: z.string(),
  logprob: z.number(),
  bytes: z.optional(z.nullable(z.array(z.int()))),
});

/** What the normalizer accepts for `ChatCompletionTokenLogprob`. */
export const zChatCompletionTokenLogprobWire = z.looseObject({
  token: z.string(),
  logprob: z.number(),
  bytes: z.optional(z.nullable(z.array(z.int()))),
  top_logprobs: z.optional(z.nullable(z.array(zChatCompletionTopLogprobWire))),
});

/** What the normalizer accepts for `ChatCompletionChoiceLogprobs`. */
export const zChatCompletionChoiceLogprobsWire = z.looseObject({
  content: z.optional(z.nullable(z.array(zChatCompletionTokenLogprobWire))),
  refusal: z.optional(z.nullable(z.array(zChatCompletionTokenLogprobWire))),
});

/** What the normalizer accepts for `ChatCompletionChoice`. */
export const zChatCompletionChoiceWire = z.looseObject({
  index: z.optional(z.nullable(z.int())),
  message: z.optional(z.nullable(zChatCompletionMessageWire)),
  finish_reason: z.optional(z.nullable(zFinishReason)),
  logprobs: z.optional(z.nullable(zChatCompletionChoiceLogprobsWire)),
});

/** What the normalizer accepts for `PromptTokensDetails`. */
export const zPromptTokensDetailsWire = z.looseObject({
  cached_tokens: z.optional(z.nullable(z.int())),
  audio_tokens: z.optional(z.nullable(z.int())),
});

/** What the normalizer accepts for `CompletionTokensDetails`. */
export const zCompletionTokensDetailsWire = z.looseObject({
  reasoning_tokens: z.optional(z.nullable(z.int())),
  audio_tokens: z.optional(z.nullable(z.int())),
  accepted_prediction_tokens: z.optional(z.nullable(z.int())),
  rejected_prediction_tokens: z.optional(z.nullable(z.int())),
});

/** What the normalizer accepts for `CompletionUsage`. */
export const zCompletionUsageWire = z
  .looseObject({
    prompt_tokens: z.int(),
    completion_tokens: z.int(),
    total_tokens: z.optional(z.nullable(z.int())),
    prompt_tokens_details: z.optional(z.nullable(zPromptTokensDetailsWire)),
    completion_tokens_details: z.optional(z.nullable(zCompletionTokensDetailsWire)),
  })
  .check(
    z.refine(
      (o: Record<string, unknown>) =>
        o['total_tokens'] != null ||
        !Number.isSafeInteger(o['prompt_tokens']) ||
        !Number.isSafeInteger(o['completion_tokens']) ||
        Number.isSafeInteger((o['prompt_tokens'] as number) + (o['completion_tokens'] as number)),
    ),
  );

/** What the normalizer accepts for `ChatCompletion`. */
export const zChatCompletionWire = z.looseObject({
  id: z.optional(z.nullable(z.string())),
  object: z.optional(z.unknown()),
  created: z.optional(z.nullable(z.number().check(z.gte(-Number.MAX_SAFE_INTEGER), z.lt(1e14)))),
  model: z.optional(z.nullable(z.string())),
  choices: z.array(zChatCompletionChoiceWire),
  usage: z.optional(z.nullable(zCompletionUsageWire)),
  system_fingerprint: z.optional(z.nullable(z.string())),
  service_tier: z.optional(z.nullable(z.string())),
});

/** What the normalizer accepts for `ChatCompletionChunkToolCallFunction`. */
export const zChatCompletionChunkToolCallFunctionWire = z.looseObject({
  name: z.optional(z.nullable(z.string())),
  arguments: z.optional(z.unknown()),
});

/** What the normalizer accepts for `ChatCompletionChunkToolCall`. */
export const zChatCompletionChunkToolCallWire = z.looseObject({
  index: z.optional(z.nullable(z.int())),
  id: z.optional(z.nullable(z.string())),
  type: z.optional(z.unknown()),
  function: z.optional(z.nullable(zChatCompletionChunkToolCallFunctionWire)),
});

/** What the normalizer accepts for `ChatCompletionChunkDelta`. */
export const zChatCompletionChunkDeltaWire = z.looseObject({
  role: z.optional(z.unknown()),
  content: z.optional(
    z.nullable(z.union([z.string(), z.array(zChatCompletionResponseContentPartWire)])),
  ),
  reasoning: z.optional(z.nullable(z.string())),
  reasoning_raw: z.optional(z.nullable(z.string())),
  refusal: z.optional(z.nullable(z.string())),
  tool_calls: z.optional(z.nullable(z.array(zChatCompletionChunkToolCallWire))),
  function_call: z.optional(z.nullable(zChatCompletionChunkToolCallFunctionWire)),
  annotations: z.optional(z.nullable(z.array(zChatCompletionAnnotationWire))),
  content_parts: z.optional(z.nullable(z.array(zChatCompletionResponseContentPartWire))),
  reasoning_content: z.optional(z.nullable(z.string())),
  reasoning_details: z.optional(z.nullable(z.array(zReasoningDetailWire))),
});

/** What the normalizer accepts for `ChatCompletionChunkChoice`. */
export const zChatCompletionChunkChoiceWire = z.looseObject({
  index: z.optional(z.nullable(z.int())),
  delta: z.optional(z.nullable(zChatCompletionChunkDeltaWire)),
  finish_reason: z.optional(z.nullable(zFinishReason)),
  logprobs: z.optional(z.nullable(zChatCompletionChoiceLogprobsWire)),
});

/** What the normalizer accepts for `ChatCompletionChunk`. */
export const zChatCompletionChunkWire = z.looseObject({
  id: z.optional(z.nullable(z.string())),
  object: z.optional(z.unknown()),
  created: z.optional(z.nullable(z.number().check(z.gte(-Number.MAX_SAFE_INTEGER), z.lt(1e14)))),
  model: z.optional(z.nullable(z.string())),
  choices: z.optional(z.nullable(z.array(zChatCompletionChunkChoiceWire))),
  usage: z.optional(z.nullable(zCompletionUsageWire)),
  system_fingerprint: z.optional(z.nullable(z.string())),
  service_tier: z.optional(z.nullable(z.string())),
});

/** What the normalizer accepts for `CompletionLogprobs`. */
export const zCompletionLogprobsWire = z.looseObject({
  tokens: z.optional(z.nullable(z.array(z.string()))),
  token_logprobs: z.optional(z.nullable(z.array(z.nullable(z.number())))),
  top_logprobs: z.optional(z.nullable(z.array(z.nullable(z.record(z.string(), z.number()))))),
  text_offset: z.optional(z.nullable(z.array(z.int()))),
});

/** What the normalizer accepts for `CompletionChoice`. */
export const zCompletionChoiceWire = z.looseObject({
  index: z.optional(z.nullable(z.int())),
  text: z.optional(z.nullable(z.string())),
  finish_reason: z.optional(z.nullable(zFinishReason)),
  logprobs: z.optional(z.nullable(zCompletionLogprobsWire)),
});

/** What the normalizer accepts for `Completion`. */
export const zCompletionWire = z.looseObject({
  id: z.optional(z.nullable(z.string())),
  object: z.optional(z.unknown()),
  created: z.optional(z.nullable(z.number().check(z.gte(-Number.MAX_SAFE_INTEGER), z.lt(1e14)))),
  model: z.optional(z.nullable(z.string())),
  choices: z.array(zCompletionChoiceWire),
  usage: z.optional(z.nullable(zCompletionUsageWire)),
  system_fingerprint: z.optional(z.nullable(z.string())),
});
