/** Type tests: what users see in their editor. Checked by tsc as part of `npm test`. */
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { extras, ChatCompletionStream as StreamClass } from '../src/index';
import { zodFunction, zodResponseFormat } from '../src/helpers/zod';
import type {
  PagePromise,
  APIPromise,
  APIError,
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
  ChatCompletionCreateParamsStreaming,
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
  ChatCompletionStreamEvents,
  ChatCompletionStreamingRunner,
  ChatCompletionRunner,
  ParsedChatCompletionMessage,
  ParsedFunctionToolCall,
  RunnableToolFunction,
  RunnerEvent,
  ChatCompletionStreamParams,
  ChatCompletionTokenLogprob,
  ChatCompletionTool,
  ChatCompletionTopLogprob,
  CompletionChoice,
  CompletionCreateParams,
  CompletionCreateParamsBase,
  CompletionCreateParamsNonStreaming,
  CompletionCreateParamsStreaming,
  CompletionLogprobs,
  CompletionTokensDetails,
  CompletionUsage,
  FinishReason,
  ChatCompletionCreateParams,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ClientOptions,
  Completion,
  FunctionDefinition,
  FunctionParameters,
  Metadata,
  PromptTokensDetails,
  ReasoningEffort,
  ResponseFormatJSONSchema,
  FetchOptions,
  ParsedChatCompletion,
  Model,
  ModelList,
  RateLimitError,
  RequestOptions,
  ResponseValidationError,
  ValidationIssue,
  WithResponse,
  WithRequestID,
  Stream,
} from '../src/index';

declare const client: Client;

describe('resources', () => {
  it('return APIPromises of the resource types', () => {
    expectTypeOf(client.models.list()).toEqualTypeOf<PagePromise<ModelList, Model>>();
    expectTypeOf(client.models.list()).toExtend<APIPromise<ModelList>>();
    expectTypeOf(client.models.list()).toExtend<AsyncIterable<Model>>();
    expectTypeOf(client.models.retrieve('a/b')).toEqualTypeOf<APIPromise<Model>>();
    expectTypeOf(client.chat.completions.create({ model: 'm', messages: [] })).toEqualTypeOf<APIPromise<ChatCompletion>>();
    expectTypeOf(client.completions.create({ model: 'm', prompt: 'p' })).toEqualTypeOf<APIPromise<Completion>>();
  });

  it('await to the data; withResponse and asResponse add the response', () => {
    expectTypeOf<Awaited<APIPromise<ModelList>>>().toEqualTypeOf<WithRequestID<ModelList>>();
    expectTypeOf<Awaited<APIPromise<ModelList>>>().toExtend<ModelList>();
    expectTypeOf(client.models.list().withResponse()).toEqualTypeOf<Promise<WithResponse<ModelList>>>();
    expectTypeOf<WithResponse<ModelList>['request_id']>().toEqualTypeOf<string | null>();
    expectTypeOf(client.models.list().asResponse()).toEqualTypeOf<Promise<Response>>();
  });

  it('take per-request options', () => {
    expectTypeOf(client.models.list).parameter(0).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf<RequestOptions['fetchOptions']>().toEqualTypeOf<FetchOptions | undefined>();
    expectTypeOf<RequestOptions['signal']>().toEqualTypeOf<AbortSignal | undefined>();
  });
});

describe('request types', () => {
  it('accept every message role and content as a string or parts', () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'be brief' },
      { role: 'developer', content: 'internal' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: 'data:,' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '42' },
    ];
    expectTypeOf(messages).toExtend<ChatCompletionCreateParams['messages']>();
  });

  it('take a reply\'s message back into the conversation, as openai users do', () => {
    // The tool loop by hand: the assistant's message (normalized: `reasoning`, `refusal`,
    // annotations) is pushed as it is, then one tool message per call.
    expectTypeOf<ChatCompletionMessage>().toExtend<ChatCompletionMessageParam>();
    const continued = (messages: ChatCompletionMessageParam[], message: ChatCompletionMessage): ChatCompletionCreateParams['messages'] => {
      messages.push(message);
      for (const call of message.tool_calls ?? []) messages.push({ role: 'tool', tool_call_id: call.id, content: call.function.arguments });
      return messages;
    };
    expectTypeOf(continued).returns.toExtend<ChatCompletionMessageParam[]>();
  });

  it('reject an unknown role', () => {
    // @ts-expect-error: 'robot' is not a role
    const bad: ChatCompletionMessageParam = { role: 'robot', content: 'x' };
    void bad;
  });

  it('type the widely used request fields', () => {
    expectTypeOf<ChatCompletionCreateParams>().toHaveProperty('tools');
    expectTypeOf<ChatCompletionCreateParams>().toHaveProperty('response_format');
    expectTypeOf<ChatCompletionCreateParams>().toHaveProperty('reasoning_effort');
    expectTypeOf<ChatCompletionCreateParams>().toHaveProperty('stream_options');
  });

  it('reject a misspelt client option', () => {
    // @ts-expect-error: baseUrl is not an option (baseURL is)
    const options: ClientOptions = { baseUrl: 'x' };
    void options;
  });
});

describe('response types are as strict as the contract', () => {
  it('read the obvious way: no cast, only [0]! or ?. for array access', async () => {
    const completion = await client.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }] });
    expectTypeOf(completion.choices[0]!.message.content).toEqualTypeOf<string | null>();
    expectTypeOf(completion.choices[0]!.message.content?.toUpperCase()).toEqualTypeOf<string | undefined>();
    expectTypeOf(completion.choices[0]!.message.role).toEqualTypeOf<'assistant'>();
    expectTypeOf(completion.choices[0]!.message.refusal).toEqualTypeOf<string | null>();
    expectTypeOf(completion.choices[0]!.message.reasoning).toEqualTypeOf<string | undefined>();
    expectTypeOf(completion.choices[0]!.index).toEqualTypeOf<number>();
    expectTypeOf(completion.choices[0]!.finish_reason).toEqualTypeOf<FinishReason | null>();
    expectTypeOf(completion.usage).toEqualTypeOf<CompletionUsage | null>();
    expectTypeOf(completion.id).toEqualTypeOf<string>();
    expectTypeOf(completion.object).toEqualTypeOf<'chat.completion'>();
    expectTypeOf(completion.created).toEqualTypeOf<number>();
    const call = completion.choices[0]!.message.tool_calls?.[0];
    expectTypeOf(call?.function.arguments).toEqualTypeOf<string | undefined>();
    expectTypeOf(call?.type).toEqualTypeOf<'function' | undefined>();

    const model = await client.models.retrieve('acme/chat-1');
    expectTypeOf(model.pricing?.[0]?.prompt).toEqualTypeOf<string | undefined>();
    expectTypeOf(model.context_length).toEqualTypeOf<number | undefined>();
    expectTypeOf(model.object).toEqualTypeOf<'model'>();

    const legacy = await client.completions.create({ model: 'acme/base-1', prompt: 'p' });
    expectTypeOf(legacy.choices[0]!.text).toEqualTypeOf<string>();
    expectTypeOf(legacy.choices[0]!.index).toEqualTypeOf<number>();
  });

  it('stream: true gives chunks whose choices are never null', async () => {
    const stream = await client.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }], stream: true });
    expectTypeOf(stream).toEqualTypeOf<ChatCompletionStream>();
    for await (const chunk of stream) {
      expectTypeOf(chunk).toEqualTypeOf<ChatCompletionChunk>();
      expectTypeOf(chunk.choices).toEqualTypeOf<ChatCompletionChunkChoice[]>();
      expectTypeOf(chunk.choices[0]?.delta.content).toEqualTypeOf<string | undefined>();
      expectTypeOf(chunk.choices[0]?.delta.reasoning).toEqualTypeOf<string | undefined>();
      expectTypeOf(chunk.choices[0]!.delta.tool_calls?.[0]?.index).toEqualTypeOf<number | undefined>();
      expectTypeOf(chunk.usage).toEqualTypeOf<CompletionUsage | null | undefined>();
    }
  });

  it('reject misspelt fields (the objects keep unknown fields at runtime: extras() reads them)', async () => {
    const completion = await client.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }] });
    // @ts-expect-error: usgae is not a field (usage is)
    void completion.usgae;
    // @ts-expect-error: mesage is not a field (message is)
    void completion.choices[0]!.mesage;
    const model = await client.models.retrieve('acme/chat-1');
    // @ts-expect-error: contxt_length is not a field (context_length is)
    void model.contxt_length;
    const chunk = {} as ChatCompletionChunk;
    // @ts-expect-error: delta has no contnet
    void chunk.choices[0]?.delta.contnet;
    expectTypeOf(extras(completion)['x_groq']).toEqualTypeOf<unknown>();
    expectTypeOf(extras<{ provider?: string }>(completion).provider).toEqualTypeOf<string | undefined>();
  });

  it('name the finish reasons editors complete, and still take any string', () => {
    expectTypeOf<'stop'>().toExtend<FinishReason>();
    expectTypeOf<'tool_calls'>().toExtend<FinishReason>();
    expectTypeOf<'error'>().toExtend<FinishReason>();
  });

  it('leave optional what a server may omit and the SDK cannot fill', () => {
    expectTypeOf<Model['id']>().toEqualTypeOf<string>();
    expectTypeOf<Model>().toHaveProperty('context_length').toEqualTypeOf<number | undefined>();
    expectTypeOf<ChatCompletion['choices']>().toBeArray();
  });
});

describe('errors', () => {
  it('carry typed fields', () => {
    expectTypeOf<APIError['status']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RateLimitError['status']>().toEqualTypeOf<number>();
    expectTypeOf<APIError['code']>().toEqualTypeOf<string | number | undefined>();
    expectTypeOf<ResponseValidationError['issues']>().toEqualTypeOf<readonly ValidationIssue[]>();
    expectTypeOf<ResponseValidationError>().not.toExtend<APIError>();
  });
});

describe('stream events are typed', () => {
  it('each listener gets its own event shape', async () => {
    const stream = client.chat.completions.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    stream.on('content.delta', ({ delta, snapshot }) => expectTypeOf(delta + snapshot).toEqualTypeOf<string>());
    stream.on('tool_calls.function.arguments.done', (event) => expectTypeOf(event.index).toEqualTypeOf<number>());
    // @ts-expect-error: no such event
    stream.on('contnet.delta', () => {});
    const listener: ChatCompletionStreamEvents['content'] = (delta, snapshot) => void [delta, snapshot];
    stream.off('content', listener);
    expectTypeOf(await stream.finalContent()).toEqualTypeOf<string | null>();
  });
});

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

describe('extraBody and defaultBody', () => {
  it("take a server's parameters typed as an interface (no index signature) or as a literal", async () => {
    interface VllmParams {
      top_k: number;
      repetition_penalty?: number;
    }
    const vllm: VllmParams = { top_k: 40 };
    const options: ClientOptions = { apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1', defaultBody: vllm };
    const sampled = client.withOptions(options);
    const completion = await sampled.chat.completions.create({ model: 'm', messages: [] }, { extraBody: { min_p: 0.1 } });
    expectTypeOf(completion).toEqualTypeOf<WithRequestID<ChatCompletion>>();
    const stream = await sampled.chat.completions.create({ model: 'm', messages: [], stream: true }, { extraBody: vllm });
    expectTypeOf(stream).toEqualTypeOf<ChatCompletionStream>();
    // @ts-expect-error: body fields, not a string
    void sampled.completions.create({ model: 'm', prompt: 'p' }, { extraBody: 'top_k=40' });
  });
});

describe("openai's code carries over (issue 23): import { Client as OpenAI }", () => {
  it("resolves openai's namespace-style names through the class (item 1)", () => {
    expectTypeOf<Client.Chat.ChatCompletionMessageParam>().toEqualTypeOf<ChatCompletionMessageParam>();
    expectTypeOf<Client.Chat.Completions.ChatCompletionTool>().toEqualTypeOf<ChatCompletionTool>();
    expectTypeOf<Client.Chat.Completions.ChatCompletionCreateParams>().toEqualTypeOf<ChatCompletionCreateParams>();
    expectTypeOf<Client.ChatCompletionChunk>().toEqualTypeOf<ChatCompletionChunk>();
    // The nested names come along: `OpenAI.ChatCompletionChunk.Choice.Delta`.
    expectTypeOf<Client.ChatCompletionChunk.Choice.Delta>().toEqualTypeOf<ChatCompletionChunkDelta>();
    expectTypeOf<Client.Chat.ChatCompletion.Choice>().toEqualTypeOf<ChatCompletionChoice>();
    expectTypeOf<Client.Completions.Completion>().toEqualTypeOf<Completion>();
    expectTypeOf<Client.Models.Model>().toEqualTypeOf<Model>();
    expectTypeOf<Client.RequestOptions>().toEqualTypeOf<RequestOptions>();
    // The error classes: values (statics) and types.
    expectTypeOf(null as unknown as typeof Client.APIError).toEqualTypeOf<typeof APIError>();
    expectTypeOf<Client.APIError>().toEqualTypeOf<APIError>();
    expectTypeOf<Client.RateLimitError>().toEqualTypeOf<RateLimitError>();
    // @ts-expect-error: not a name openai has (ChatCompletionMessageParams is misspelt)
    const misspelt = null as unknown as Client.Chat.ChatCompletionMessageParams;
    void misspelt;
  });

  it('ChatCompletionCreateParams is the union of the two forms, and a body typed with one picks its overload (item 2)', () => {
    expectTypeOf<ChatCompletionCreateParams>().toEqualTypeOf<ChatCompletionCreateParamsNonStreaming | ChatCompletionCreateParamsStreaming>();
    expectTypeOf<CompletionCreateParams>().toEqualTypeOf<CompletionCreateParamsNonStreaming | CompletionCreateParamsStreaming>();
    const streaming: ChatCompletionCreateParamsStreaming = { model: 'm', messages: [], stream: true };
    const plain: ChatCompletionCreateParamsNonStreaming = { model: 'm', messages: [] };
    expectTypeOf(client.chat.completions.create(streaming)).toEqualTypeOf<APIPromise<ChatCompletionStream>>();
    expectTypeOf(client.chat.completions.create(plain)).toEqualTypeOf<APIPromise<ChatCompletion>>();
    const legacy: CompletionCreateParamsStreaming = { model: 'm', prompt: 'p', stream: true };
    expectTypeOf(client.completions.create(legacy)).toEqualTypeOf<APIPromise<Stream<Completion>>>();
    // openai's way of writing one function for both: `if (params.stream)` narrows the union.
    const run = (params: ChatCompletionCreateParams) => {
      if (params.stream) {
        expectTypeOf(client.chat.completions.create(params)).toEqualTypeOf<APIPromise<ChatCompletionStream>>();
      } else {
        expectTypeOf(client.chat.completions.create(params)).toEqualTypeOf<APIPromise<ChatCompletion>>();
      }
      expectTypeOf(client.chat.completions.create(params)).toEqualTypeOf<APIPromise<ChatCompletion | ChatCompletionStream>>();
    };
    void run;
    // @ts-expect-error: `stream: true` is not a body without streaming
    const wrong: ChatCompletionCreateParamsNonStreaming = { model: 'm', messages: [], stream: true };
    void wrong;
  });

  it('types the deprecated function_call of a reply and of a delta (item 7)', () => {
    expectTypeOf<ChatCompletionMessage['function_call']>().toEqualTypeOf<ChatCompletionMessage.FunctionCall | null | undefined>();
    expectTypeOf<ChatCompletionMessage.FunctionCall>().toEqualTypeOf<ChatCompletionMessageToolCallFunction>();
    expectTypeOf<ChatCompletionMessage.FunctionCall['arguments']>().toEqualTypeOf<string>();
    expectTypeOf<ChatCompletionChunk.Choice.Delta['function_call']>().toEqualTypeOf<ChatCompletionChunk.Choice.Delta.FunctionCall | undefined>();
    expectTypeOf<ChatCompletionChunk.Choice.Delta.FunctionCall['name']>().toEqualTypeOf<string | undefined>();
    // A reply's message with a function call still goes back into `messages`.
    expectTypeOf<ChatCompletionMessage>().toExtend<ChatCompletionMessageParam>();
  });

  it('_request_id on an awaited response, not on a stream (item 8)', async () => {
    const completion = await client.chat.completions.create({ model: 'm', messages: [] });
    expectTypeOf(completion._request_id).toEqualTypeOf<string | null | undefined>();
    expectTypeOf((await client.models.retrieve('a/b'))._request_id).toEqualTypeOf<string | null | undefined>();
    const stream = await client.chat.completions.create({ model: 'm', messages: [], stream: true });
    // @ts-expect-error: a stream carries no request id (withResponse() gives it)
    void stream._request_id;
  });
});

describe("openai's streams and runners carry over (issue 23, items 3 to 6)", () => {
  const Weather = z.object({ city: z.string(), celsius: z.number() });
  type Weather = z.infer<typeof Weather>;
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }];

  it('stream() with zodResponseFormat: parsed in content.done and the final message (item 3)', async () => {
    const stream = client.chat.completions.stream({ model: 'm', messages, response_format: zodResponseFormat(Weather, 'weather') });
    expectTypeOf(stream).toEqualTypeOf<ChatCompletionStream<Weather, ChatCompletionMessageToolCall>>();
    stream.on('content.done', ({ parsed }) => expectTypeOf(parsed).toEqualTypeOf<Weather | null>());
    stream.on('content.delta', ({ parsed }) => expectTypeOf(parsed).toEqualTypeOf<unknown>());
    expectTypeOf((await stream.finalMessage()).parsed).toEqualTypeOf<Weather | null>();
    expectTypeOf((await stream.finalChatCompletion()).choices[0]!.message.parsed).toEqualTypeOf<Weather | null>();
    stream.on('finalChatCompletion', (completion) => expectTypeOf(completion.choices[0]!.message.parsed).toEqualTypeOf<Weather | null>());
  });

  it('stream() with zodFunction tools: parsed_arguments typed in the final message (item 3)', async () => {
    const getWeather = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }) });
    const stream = client.chat.completions.stream({ model: 'm', messages, tools: [getWeather] });
    const call = (await stream.finalMessage()).tool_calls?.[0];
    expectTypeOf(call).toEqualTypeOf<ParsedFunctionToolCall<'get_weather', { city: string }> | undefined>();
    expectTypeOf(call!.function.parsed_arguments.city).toEqualTypeOf<string>();
    stream.on('tool_calls.function.arguments.done', ({ parsed_arguments }) => expectTypeOf(parsed_arguments).toEqualTypeOf<unknown>());
  });

  it('stream() without schemas is the plain ChatCompletionStream, as in openai (item 3)', async () => {
    const stream = client.chat.completions.stream({ model: 'm', messages, tools: [{ type: 'function', function: { name: 'f' } }] });
    expectTypeOf(stream).toEqualTypeOf<ChatCompletionStream>();
    const take = (s: ChatCompletionStream) => s;
    take(stream);
    expectTypeOf(await stream.finalMessage()).toEqualTypeOf<ChatCompletionMessage>();
  });

  it('the events openai adds: logprobs, message, chatCompletion, the chunk snapshot (item 4)', () => {
    const stream = client.chat.completions.stream({ model: 'm', messages });
    stream.on('logprobs.content.delta', ({ content, snapshot }) => expectTypeOf([...content, ...snapshot]).toEqualTypeOf<ChatCompletionTokenLogprob[]>());
    stream.on('logprobs.refusal.done', ({ refusal }) => expectTypeOf(refusal).toEqualTypeOf<ChatCompletionTokenLogprob[]>());
    stream.on('chunk', (chunk, snapshot) => {
      expectTypeOf(chunk).toEqualTypeOf<ChatCompletionChunk>();
      expectTypeOf(snapshot).toEqualTypeOf<ChatCompletion>();
    });
    stream.on('message', (message) => expectTypeOf(message).toEqualTypeOf<ChatCompletionMessageParam>());
    stream.on('chatCompletion', (completion) => expectTypeOf(completion).toEqualTypeOf<ChatCompletion>());
    stream.on('totalUsage', (usage) => expectTypeOf(usage).toEqualTypeOf<CompletionUsage>());
    // openai-style listeners, annotated with openai's broader types, fit.
    stream.on('finalMessage', (message: ChatCompletionMessageParam) => void message);
  });

  it('ChatCompletionStream.fromReadableStream() gives a ChatCompletionStream (item 5)', async () => {
    const stream = StreamClass.fromReadableStream(new Response('').body!);
    expectTypeOf(stream).toExtend<ChatCompletionStream>();
    expectTypeOf(await stream.finalChatCompletion()).toEqualTypeOf<ChatCompletion>();
    stream.on('content.delta', ({ delta }) => expectTypeOf(delta).toEqualTypeOf<string>());
  });

  it('runTools(): openai\'s tool shapes and names; stream: true gives the streaming runner, iterating chunks (item 6)', async () => {
    async function get_weather(args: { city: string }) {
      return args.city;
    }
    const tool = { type: 'function' as const, function: { function: get_weather, parse: JSON.parse, parameters: { type: 'object' } } };
    const typed: RunnableToolFunction<{ city: string }> = { type: 'function', function: { function: get_weather, parse: JSON.parse, parameters: {} } };
    const runner = client.chat.completions.runTools({ model: 'm', messages, tools: [tool, typed] });
    expectTypeOf(runner).toEqualTypeOf<ChatCompletionRunner<null>>();
    for await (const event of runner) expectTypeOf(event).toEqualTypeOf<RunnerEvent<null>>();
    const streaming = client.chat.completions.runTools({ model: 'm', messages, tools: [tool], stream: true, response_format: zodResponseFormat(Weather, 'w') });
    expectTypeOf(streaming).toEqualTypeOf<ChatCompletionStreamingRunner<Weather>>();
    for await (const chunk of streaming) expectTypeOf(chunk).toEqualTypeOf<ChatCompletionChunk>();
    expectTypeOf(streaming.toReadableStream()).toEqualTypeOf<ReadableStream<Uint8Array>>();
    streaming.on('content.done', ({ parsed }) => expectTypeOf(parsed).toEqualTypeOf<Weather | null>());
    streaming.on('functionToolCallResult', (result) => expectTypeOf(result).toEqualTypeOf<string>());
    expectTypeOf(await streaming.finalMessage()).toEqualTypeOf<ParsedChatCompletionMessage<Weather>>();
    // @ts-expect-error: with openai's type name, the function takes what `parse` gives
    const wrong: RunnableToolFunction<{ city: string }> = { type: 'function', function: { function: (a: { n: number }) => a.n, parse: JSON.parse, parameters: {} } };
    void wrong;
  });
});

describe('await using', () => {
  it('streams and runners are AsyncDisposable, their dispose a Promise<void>', async () => {
    const client = {} as Client;
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
    expectTypeOf(stream).toExtend<AsyncDisposable>();
    expectTypeOf(stream[Symbol.asyncDispose]).returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf<Stream<Completion>>().toExtend<AsyncDisposable>();
    expectTypeOf<ChatCompletionStream>().toExtend<AsyncDisposable>();
    expectTypeOf<ChatCompletionRunner>().toExtend<AsyncDisposable>();
    expectTypeOf<ChatCompletionStreamingRunner>().toExtend<AsyncDisposable>();
    const runner = client.chat.completions.runTools({ model: 'm', messages, tools: [] });
    expectTypeOf(runner[Symbol.asyncDispose]()).toEqualTypeOf<Promise<void>>();
    // @ts-expect-error: a page of models is not disposable
    expectTypeOf(await client.models.list()).toExtend<AsyncDisposable>();
  });
});
