/** Type tests: code written for the openai client's types compiles unchanged. Checked by tsc as part of `npm test`. */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  APIPromise,
  Client,
  ChatCompletion,
  ChatCompletionAnnotation,
  ChatCompletionAssistantMessageParam,
  ChatCompletionAudioParam,
  ChatCompletionChoice,
  ChatCompletionChoiceLogprobs,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionChunkDelta,
  ChatCompletionChunkToolCall,
  ChatCompletionChunkToolCallFunction,
  ChatCompletionContentPart,
  ChatCompletionContentPartFile,
  ChatCompletionContentPartImage,
  ChatCompletionContentPartInputAudio,
  ChatCompletionContentPartRefusal,
  ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionCallOption,
  ChatCompletionFunctionMessageParam,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageToolCall,
  ChatCompletionMessageToolCallFunction,
  ChatCompletionModality,
  ChatCompletionNamedToolChoice,
  ChatCompletionParseParams,
  ChatCompletionPredictionContent,
  ChatCompletionReasoningEffort,
  ChatCompletionRole,
  ChatCompletionStream,
  ChatCompletionStreamParams,
  ChatCompletionTokenLogprob,
  ChatCompletionTool,
  ChatCompletionTopLogprob,
  CompletionChoice,
  CompletionCreateParams,
  CompletionCreateParamsBase,
  CompletionLogprobs,
  CompletionTokensDetails,
  CompletionUsage,
  ChatCompletionCreateParams,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  Completion,
  FunctionDefinition,
  FunctionParameters,
  Metadata,
  PromptTokensDetails,
  ReasoningEffort,
  ResponseFormatJSONSchema,
  ParsedChatCompletion,
} from '../src/index';

declare const client: Client;

describe("code written for the openai client's types compiles unchanged", () => {
  it('takes its request parameters', () => {
    // As openai users write it: the body as a literal, `satisfies` the params type.
    const params = {
      model: 'acme/chat-1',
      messages: [{ role: 'user', content: 'hi' }],
      logit_bias: { '50256': -100 },
      metadata: { tenant: 'acme' },
      store: false,
      service_tier: 'flex',
      modalities: ['text', 'audio'],
      audio: { voice: 'alloy', format: 'mp3' },
      prediction: { type: 'content', content: 'export const x = 1;' },
      verbosity: 'low',
      reasoning_effort: 'max',
      safety_identifier: 'user-7f3a',
      prompt_cache_key: 'support-bot-v2',
      web_search_options: {
        search_context_size: 'medium',
        user_location: { type: 'approximate', approximate: { city: 'Paris', country: 'FR', timezone: 'Europe/Paris' } },
      },
      stream_options: { include_usage: true, include_obfuscation: false },
    } satisfies ChatCompletionCreateParams;
    expectTypeOf(client.chat.completions.create(params)).toEqualTypeOf<APIPromise<ChatCompletion>>();
    expectTypeOf(client.chat.completions.create({ ...params, stream: true })).toEqualTypeOf<APIPromise<ChatCompletionStream>>();
    // Other servers' tiers and custom voices are strings too.
    expectTypeOf<'on_demand'>().toExtend<NonNullable<ChatCompletionCreateParams['service_tier']>>();
    expectTypeOf<{ id: 'voice_1234' }>().toExtend<ChatCompletionAudioParam['voice']>();
    const legacy = { model: 'acme/base-1', prompt: 'Once', best_of: 3, n: 1, logit_bias: { '50256': -100 } } satisfies CompletionCreateParams;
    expectTypeOf(client.completions.create(legacy)).toEqualTypeOf<APIPromise<Completion>>();
  });

  it('takes the deprecated functions API, marked @deprecated', () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { role: 'function', name: 'get_weather', content: '{"celsius":18}' },
    ];
    const functions: ChatCompletionCreateParams.Function[] = [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    const callOption: ChatCompletionFunctionCallOption = { name: 'get_weather' };
    const params: ChatCompletionCreateParams = { model: 'acme/chat-1', messages, functions, function_call: callOption };
    expectTypeOf(params.function_call).toEqualTypeOf<'none' | 'auto' | ChatCompletionFunctionCallOption | undefined>();
    expectTypeOf<ChatCompletionFunctionMessageParam>().toExtend<ChatCompletionMessageParam>();
    expectTypeOf<ChatCompletionAssistantMessageParam.FunctionCall>().toEqualTypeOf<{ name: string; arguments: string }>();
  });

  it('takes audio, file and refusal content parts', () => {
    const audio: ChatCompletionContentPartInputAudio = { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } };
    const file: ChatCompletionContentPart.File = { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } };
    const uploaded: ChatCompletionContentPart.File.File = { file_id: 'file-abc' };
    const refusal: ChatCompletionContentPartRefusal = { type: 'refusal', refusal: 'No.' };
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'Transcribe and summarise' }, audio, file, { type: 'file', file: uploaded }] },
      { role: 'assistant', content: [refusal] },
    ];
    expectTypeOf(messages).toExtend<ChatCompletionCreateParams['messages']>();
    expectTypeOf<ChatCompletionContentPartInputAudio>().toExtend<ChatCompletionContentPart>();
    expectTypeOf<ChatCompletionContentPartFile>().toEqualTypeOf<ChatCompletionContentPart.File>();
    expectTypeOf<ChatCompletionContentPartInputAudio.InputAudio>().toEqualTypeOf<{ data: string; format: 'wav' | 'mp3' }>();
    expectTypeOf<ChatCompletionContentPartImage.ImageURL['url']>().toEqualTypeOf<string>();
  });

  it('names the types as openai does (aliases of the same types)', () => {
    expectTypeOf<ChatCompletionRole>().toEqualTypeOf<'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'function'>();
    expectTypeOf<ChatCompletionFunctionTool>().toEqualTypeOf<ChatCompletionTool>();
    expectTypeOf<ChatCompletionMessageFunctionToolCall>().toEqualTypeOf<ChatCompletionMessageToolCall>();
    expectTypeOf<FunctionDefinition>().toEqualTypeOf<ChatCompletionTool['function']>();
    expectTypeOf<FunctionParameters>().toEqualTypeOf<{ [key: string]: unknown }>();
    expectTypeOf<NonNullable<FunctionDefinition['parameters']>>().toEqualTypeOf<FunctionParameters>();
    expectTypeOf<ChatCompletionReasoningEffort>().toEqualTypeOf<ReasoningEffort>();
    expectTypeOf<ChatCompletionCreateParams['reasoning_effort']>().toEqualTypeOf<ReasoningEffort | undefined>();
    expectTypeOf<ChatCompletionModality>().toEqualTypeOf<'text' | 'audio'>();
    expectTypeOf<Metadata>().toEqualTypeOf<{ [key: string]: string }>();
    expectTypeOf<ChatCompletionCreateParams>().toExtend<ChatCompletionCreateParamsBase>();
    expectTypeOf<CompletionCreateParams>().toExtend<CompletionCreateParamsBase>();
    expectTypeOf<NonNullable<ChatCompletionCreateParams['prediction']>>().toEqualTypeOf<ChatCompletionPredictionContent>();
    expectTypeOf<CompletionChoice>().toEqualTypeOf<Completion['choices'][number]>();
    const tool: ChatCompletionFunctionTool = { type: 'function', function: { name: 'f', parameters: { type: 'object' } } };
    expectTypeOf(tool).toExtend<NonNullable<ChatCompletionCreateParams['tools']>[number]>();
  });

  it("names the nested types as openai does (ChatCompletion.Choice, ChatCompletionChunk.Choice.Delta.ToolCall, ...)", async () => {
    expectTypeOf<ChatCompletion.Choice>().toEqualTypeOf<ChatCompletionChoice>();
    expectTypeOf<ChatCompletion.Choice.Logprobs>().toEqualTypeOf<ChatCompletionChoiceLogprobs>();
    expectTypeOf<ChatCompletionChunk.Choice>().toEqualTypeOf<ChatCompletionChunkChoice>();
    expectTypeOf<ChatCompletionChunk.Choice.Delta>().toEqualTypeOf<ChatCompletionChunkDelta>();
    expectTypeOf<ChatCompletionChunk.Choice.Delta.ToolCall>().toEqualTypeOf<ChatCompletionChunkToolCall>();
    expectTypeOf<ChatCompletionChunk.Choice.Delta.ToolCall.Function>().toEqualTypeOf<ChatCompletionChunkToolCallFunction>();
    expectTypeOf<ChatCompletionChunk.Choice.Logprobs>().toEqualTypeOf<ChatCompletionChoiceLogprobs>();
    expectTypeOf<ChatCompletionMessage.Annotation>().toEqualTypeOf<ChatCompletionAnnotation>();
    expectTypeOf<ChatCompletionMessage.Annotation.URLCitation['url']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ChatCompletionMessageToolCall.Function>().toEqualTypeOf<ChatCompletionMessageToolCallFunction>();
    expectTypeOf<ChatCompletionMessageFunctionToolCall.Function>().toEqualTypeOf<ChatCompletionMessageToolCallFunction>();
    expectTypeOf<ChatCompletionTokenLogprob.TopLogprob>().toEqualTypeOf<ChatCompletionTopLogprob>();
    expectTypeOf<ChatCompletionNamedToolChoice.Function>().toEqualTypeOf<{ name: string }>();
    expectTypeOf<ResponseFormatJSONSchema.JSONSchema>().toEqualTypeOf<ResponseFormatJSONSchema['json_schema']>();
    expectTypeOf<ChatCompletionCreateParams.WebSearchOptions.UserLocation.Approximate['country']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ChatCompletionCreateParams.WebSearchOptions.UserLocation['type']>().toEqualTypeOf<'approximate'>();
    expectTypeOf<CompletionChoice.Logprobs>().toEqualTypeOf<CompletionLogprobs>();
    expectTypeOf<CompletionUsage.CompletionTokensDetails>().toEqualTypeOf<CompletionTokensDetails>();
    expectTypeOf<CompletionUsage.PromptTokensDetails>().toEqualTypeOf<PromptTokensDetails>();

    // openai-style code, as pasted: helpers typed with the nested names.
    const firstChoice = (completion: ChatCompletion): ChatCompletion.Choice => completion.choices[0]!;
    const argumentsOf = (call: ChatCompletionMessageFunctionToolCall): ChatCompletionMessageFunctionToolCall.Function['arguments'] => call.function.arguments;
    const calls: ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    const onDelta = (delta: ChatCompletionChunk.Choice.Delta): void => {
      for (const call of delta.tool_calls ?? []) calls.push(call);
    };
    const stream = await client.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }], stream: true });
    for await (const chunk of stream) for (const choice of chunk.choices) onDelta(choice.delta);
    const completion = await client.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }] });
    expectTypeOf(firstChoice(completion).message.tool_calls?.map(argumentsOf)).toEqualTypeOf<string[] | undefined>();
    expectTypeOf(calls[0]?.function?.arguments).toEqualTypeOf<string | undefined>();
  });

  it("takes null wherever openai's params do, as code ported from it writes them", async () => {
    // `?? null` on every kind of field: numbers, booleans, strings, enums, objects, arrays.
    const opts: { maxTokens?: number; temperature?: number; stop?: string[] } = {};
    const params = {
      model: 'acme/chat-1',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, refusal: null, function_call: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'function', name: 'f', content: null },
      ],
      max_tokens: opts.maxTokens ?? null,
      max_completion_tokens: null,
      temperature: opts.temperature ?? null,
      top_p: null,
      n: null,
      seed: null,
      presence_penalty: null,
      frequency_penalty: null,
      logprobs: null,
      top_logprobs: null,
      stop: opts.stop ?? null,
      stream: null,
      stream_options: null,
      store: null,
      verbosity: null,
      reasoning_effort: null,
      service_tier: null,
      logit_bias: null,
      metadata: null,
      modalities: null,
      audio: null,
      prediction: null,
      safety_identifier: null,
      prompt_cache_key: null,
      web_search_options: { user_location: null },
      response_format: { type: 'json_schema', json_schema: { name: 'out', strict: null } },
    } satisfies ChatCompletionCreateParams;
    expectTypeOf(client.chat.completions.create(params)).toEqualTypeOf<APIPromise<ChatCompletion>>();
    const tool: ChatCompletionTool = { type: 'function', function: { name: 'f', strict: null } };
    void tool;
    const legacy = {
      model: 'acme/base-1',
      prompt: null,
      max_tokens: null,
      temperature: null,
      top_p: null,
      n: null,
      stream: null,
      stream_options: null,
      stop: null,
      seed: null,
      echo: null,
      suffix: null,
      logprobs: null,
      presence_penalty: null,
      frequency_penalty: null,
      best_of: null,
      logit_bias: null,
    } satisfies CompletionCreateParams;
    expectTypeOf(client.completions.create(legacy)).toEqualTypeOf<APIPromise<Completion>>();
    // Prompts as token ids, as openai takes them.
    expectTypeOf(client.completions.create({ model: 'acme/base-1', prompt: [1212, 318] })).toEqualTypeOf<APIPromise<Completion>>();
    expectTypeOf(client.completions.create({ model: 'acme/base-1', prompt: [[1212, 318], [257]] })).toEqualTypeOf<APIPromise<Completion>>();
    expectTypeOf(client.completions.create({ model: 'acme/base-1', prompt: ['a', 'b'] })).toEqualTypeOf<APIPromise<Completion>>();
  });

  it('types stream: null as not streaming, as openai does', async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }];
    expectTypeOf(client.chat.completions.create({ model: 'm', messages, stream: null })).toEqualTypeOf<APIPromise<ChatCompletion>>();
    expectTypeOf(client.completions.create({ model: 'm', prompt: 'p', stream: null })).toEqualTypeOf<APIPromise<Completion>>();
    expectTypeOf(client.chat.completions.parse({ model: 'm', messages, stream: null })).toEqualTypeOf<APIPromise<ParsedChatCompletion<null>>>();
    expectTypeOf<{ model: string; messages: []; stream: null }>().toExtend<ChatCompletionParseParams>();
    expectTypeOf<ChatCompletionParseParams>().toEqualTypeOf<ChatCompletionCreateParamsNonStreaming>();
    // stream() always streams: `stream` may be left out or `true`, not null or false.
    const body: ChatCompletionStreamParams = { model: 'm', messages };
    expectTypeOf(client.chat.completions.stream(body)).toEqualTypeOf<ChatCompletionStream>();
    expectTypeOf<{ model: string; messages: []; stream: null }>().not.toExtend<ChatCompletionStreamParams>();
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
    expectTypeOf(stream).toEqualTypeOf<ChatCompletionStream>();
  });

  it('takes null only where openai does: not on required fields, nor on tools, tool_choice, response_format, user', () => {
    // @ts-expect-error: model is required and not nullable
    const noModel: ChatCompletionCreateParams = { model: null, messages: [] };
    // @ts-expect-error: messages is required and not nullable
    const noMessages: ChatCompletionCreateParams = { model: 'm', messages: null };
    // @ts-expect-error: tools is not nullable in openai either (leave it out)
    const noTools: ChatCompletionCreateParams = { model: 'm', messages: [], tools: null };
    // @ts-expect-error: tool_choice is not nullable in openai either
    const noChoice: ChatCompletionCreateParams = { model: 'm', messages: [], tool_choice: null };
    // @ts-expect-error: response_format is not nullable in openai either
    const noFormat: ChatCompletionCreateParams = { model: 'm', messages: [], response_format: null };
    // @ts-expect-error: the legacy prompt is required (null is a value, absent is not)
    const noPrompt: CompletionCreateParams = { model: 'm' };
    // @ts-expect-error: a prompt of token ids holds integers, not strings and numbers mixed
    const mixed: CompletionCreateParams = { model: 'm', prompt: ['a', 1] };
    void [noModel, noMessages, noTools, noChoice, noFormat, noPrompt, mixed];
  });

  it('still rejects misspelt parameters and names', () => {
    // @ts-expect-error: max_token is not a parameter (max_tokens is), null or not
    const nulled: ChatCompletionCreateParams = { model: 'm', messages: [], max_token: null };
    // @ts-expect-error: temprature is not a parameter, null or not
    void client.chat.completions.create({ model: 'm', messages: [], temprature: null });
    // @ts-expect-error: echos is not a parameter (echo is), null or not
    const legacyNulled: CompletionCreateParams = { model: 'm', prompt: 'p', echos: null };
    void [nulled, legacyNulled];
    // @ts-expect-error: temprature is not a parameter (temperature is)
    const params: ChatCompletionCreateParams = { model: 'm', messages: [], temprature: 0.2 };
    // @ts-expect-error: logit_bais is not a parameter (logit_bias is)
    const legacy: CompletionCreateParams = { model: 'm', prompt: 'p', logit_bais: {} };
    // @ts-expect-error: the user location's `approximate` has no `zip`
    const where: ChatCompletionCreateParams.WebSearchOptions = { user_location: { type: 'approximate', approximate: { zip: '75001' } } };
    // @ts-expect-error: 'loud' is not a verbosity
    const verbose: ChatCompletionCreateParams['verbosity'] = 'loud';
    // @ts-expect-error: Choise is not a member of the ChatCompletion namespace (Choice is)
    const choice = null as unknown as ChatCompletion.Choise;
    // @ts-expect-error: ToolCalls is not a member (ToolCall is)
    const call = null as unknown as ChatCompletionChunk.Choice.Delta.ToolCalls;
    void [params, legacy, where, verbose, choice, call];
  });
});
