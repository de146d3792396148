/** Type tests: openai's code, streams and runners carry over (issue 23). Checked by tsc as part of `npm test`. */
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { ChatCompletionStream as StreamClass } from '../src/index';
import { zodFunction, zodResponseFormat } from '../src/helpers/zod';
import type {
  APIPromise,
  APIError,
  Client,
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChatCompletionChunkDelta,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageToolCall,
  ChatCompletionMessageToolCallFunction,
  ChatCompletionStream,
  ChatCompletionStreamingRunner,
  ChatCompletionRunner,
  ParsedChatCompletionMessage,
  ParsedFunctionToolCall,
  RunnableToolFunction,
  RunnerEvent,
  ChatCompletionTokenLogprob,
  ChatCompletionTool,
  CompletionCreateParams,
  CompletionCreateParamsNonStreaming,
  CompletionCreateParamsStreaming,
  CompletionUsage,
  ChatCompletionCreateParams,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  Completion,
  Model,
  RateLimitError,
  RequestOptions,
  Stream,
} from '../src/index';

declare const client: Client;

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
