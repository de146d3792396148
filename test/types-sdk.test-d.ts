/** Type tests: what users see in their editor (resources, requests, responses, errors, stream events, extraBody, await using). Checked by tsc as part of `npm test`. */
import { describe, expectTypeOf, it } from 'vitest';
import { extras } from '../src/index';
import type {
  PagePromise,
  APIPromise,
  APIError,
  Client,
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionStream,
  ChatCompletionStreamEvents,
  ChatCompletionStreamingRunner,
  ChatCompletionRunner,
  CompletionUsage,
  FinishReason,
  ChatCompletionCreateParams,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ClientOptions,
  Completion,
  FetchOptions,
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
