/** Type tests for tools, structured outputs and reasoning: what users see in their editor. */
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';
import type {
  APIPromise,
  AutoParseableResponseFormat,
  AutoParseableTool,
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionRunner,
  Client,
  CompletionUsage,
  ContentFilterFinishReasonError,
  DeepPartial,
  LengthFinishReasonError,
  OutputParseError,
  ParsedChatCompletion,
  ParsedChatCompletionStream,
  ParsedFunctionToolCall,
  RunnableZodTool,
  RunnerEvent,
  StandardSchema,
  ToolContext,
  ValidationIssue,
} from '../src/index';
import { readReasoning, toAssistantMessage } from '../src/index';
import { zodFunction, zodResponseFormat } from '../src/helpers/zod';

declare const client: Client;
const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }];

const Weather = z.object({ city: z.string(), celsius: z.number(), note: z.string().optional() });
type Weather = z.infer<typeof Weather>;

describe('zodResponseFormat', () => {
  it('carries the output type of zod classic, zod/mini and any Standard Schema', () => {
    expectTypeOf(zodResponseFormat(Weather, 'w')).toEqualTypeOf<AutoParseableResponseFormat<Weather>>();
    const mini = zm.object({ a: zm.string(), b: zm.optional(zm.number()) });
    expectTypeOf(zodResponseFormat(mini, 'm')).toEqualTypeOf<AutoParseableResponseFormat<{ a: string; b?: number | undefined }>>();
    const transformed = z.object({ n: z.string().transform(Number) });
    expectTypeOf(zodResponseFormat(transformed, 't')).toEqualTypeOf<AutoParseableResponseFormat<{ n: number }>>();
    expectTypeOf(zodResponseFormat({} as StandardSchema<unknown, { ok: boolean }>, 's')).toEqualTypeOf<AutoParseableResponseFormat<{ ok: boolean }>>();
  });

  it('is a json_schema response format', () => {
    expectTypeOf(zodResponseFormat(Weather, 'w').type).toEqualTypeOf<'json_schema'>();
    // @ts-expect-error: a name is required
    zodResponseFormat(Weather);
    // @ts-expect-error: not a schema
    zodResponseFormat({ type: 'object' }, 'x');
  });
});

describe('zodFunction', () => {
  it('keeps the literal name and types the function arguments', () => {
    const tool = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }) });
    expectTypeOf(tool).toEqualTypeOf<AutoParseableTool<'get_weather', { city: string }>>();
    expectTypeOf(tool.function.name).toEqualTypeOf<'get_weather'>();
    zodFunction({
      name: 'get_weather',
      parameters: z.object({ city: z.string() }),
      function: (args, context) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string }>();
        expectTypeOf(context).toEqualTypeOf<ToolContext>();
        expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
        return 1;
      },
    });
  });

  it('is a RunnableZodTool when it has a function', () => {
    const tool = zodFunction({ name: 'add', parameters: zm.object({ a: zm.number() }), function: ({ a }) => a + 1 });
    expectTypeOf(tool).toEqualTypeOf<RunnableZodTool<'add', { a: number }>>();
  });
});

describe('parse()', () => {
  it('types message.parsed from the response format', () => {
    const completion = client.chat.completions.parse({ model: 'm', messages, response_format: zodResponseFormat(Weather, 'w') });
    expectTypeOf(completion).toExtend<APIPromise<ParsedChatCompletion<Weather, ParsedFunctionToolCall>>>();
    type Message = Awaited<typeof completion>['choices'][number]['message'];
    expectTypeOf<Message['parsed']>().toEqualTypeOf<Weather | null>();
    expectTypeOf<Message['reasoning']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Message['refusal']>().toEqualTypeOf<string | null>();
    expectTypeOf<Message['content']>().toEqualTypeOf<string | null>();
  });

  it('gives parsed: null without a format, unknown for json_object', () => {
    const parsedOf = <T>(completion: APIPromise<ParsedChatCompletion<T>>) => completion.then((c) => c.choices[0]!.message.parsed);
    expectTypeOf(parsedOf(client.chat.completions.parse({ model: 'm', messages }))).toEqualTypeOf<Promise<null>>();
    expectTypeOf(parsedOf(client.chat.completions.parse({ model: 'm', messages, response_format: { type: 'json_object' } }))).toEqualTypeOf<Promise<unknown>>();
  });

  it('types parsed_arguments per tool, narrowed by the function name', async () => {
    const weather = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }) });
    const time = zodFunction({ name: 'get_time', parameters: z.object({ zone: z.string().optional() }) });
    const completion = await client.chat.completions.parse({ model: 'm', messages, tools: [weather, time] });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expectTypeOf(call).toEqualTypeOf<ParsedFunctionToolCall<'get_weather', { city: string }> | ParsedFunctionToolCall<'get_time', { zone?: string | undefined }>>();
    if (call.function.name === 'get_weather') expectTypeOf(call.function.parsed_arguments).toEqualTypeOf<{ city: string }>();
    else expectTypeOf(call.function.parsed_arguments).toEqualTypeOf<{ zone?: string | undefined }>();
  });

  it('gives a ParsedChatCompletionStream with stream: true', async () => {
    const stream = await client.chat.completions.parse({ model: 'm', messages, response_format: zodResponseFormat(Weather, 'w'), stream: true });
    expectTypeOf(stream).toEqualTypeOf<ParsedChatCompletionStream<Weather, ParsedFunctionToolCall>>();
    expectTypeOf(stream.parsedStream()).toEqualTypeOf<AsyncGenerator<DeepPartial<Weather>>>();
    expectTypeOf<DeepPartial<Weather>>().toEqualTypeOf<{ city?: string; celsius?: number; note?: string | undefined }>();
    expectTypeOf((await stream.finalChatCompletion()).choices[0]!.message.parsed).toEqualTypeOf<Weather | null>();
    for await (const chunk of stream) expectTypeOf(chunk).toEqualTypeOf<ChatCompletionChunk>();
  });

  it('keeps create() as it was', () => {
    // @ts-expect-error: create() has no parsed output
    void client.chat.completions.create({ model: 'm', messages }).then((c) => c.choices[0]!.message!.parsed.x);
  });
});

describe('runTools()', () => {
  const tool = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }), function: ({ city }) => city });

  it('returns a runner whose final values are typed', () => {
    const runner = client.chat.completions.runTools({ model: 'm', messages, tools: [tool], response_format: zodResponseFormat(Weather, 'w') });
    expectTypeOf(runner).toEqualTypeOf<ChatCompletionRunner<Weather>>();
    expectTypeOf(runner.finalContent()).toEqualTypeOf<Promise<string | null>>();
    expectTypeOf(runner.finalMessage()).resolves.toHaveProperty('parsed').toEqualTypeOf<Weather | null>();
    expectTypeOf(runner.totalUsage()).toEqualTypeOf<Promise<CompletionUsage>>();
    expectTypeOf(runner.messages).toEqualTypeOf<ChatCompletionMessageParam[]>();
    expectTypeOf(runner).toExtend<AsyncIterable<RunnerEvent<Weather>>>();
  });

  it('takes plain tools with a function, and maxRounds with the request options', () => {
    client.chat.completions.runTools(
      { model: 'm', messages, tools: [tool, { type: 'function', function: { name: 'now', function: () => Date.now() } }], stream: true },
      { maxRounds: 3, timeout: 1000 },
    );
  });

  it('refuses tools it cannot run', () => {
    const noFunction = zodFunction({ name: 'x', parameters: z.object({}) });
    // @ts-expect-error: no function to run
    client.chat.completions.runTools({ model: 'm', messages, tools: [noFunction] });
    // @ts-expect-error: a plain tool definition has no function either
    client.chat.completions.runTools({ model: 'm', messages, tools: [{ type: 'function', function: { name: 'y' } }] });
  });

  it('narrows events by type', () => {
    const event = {} as RunnerEvent;
    if (event.type === 'chunk') expectTypeOf(event.chunk).toEqualTypeOf<ChatCompletionChunk>();
    if (event.type === 'message') expectTypeOf(event.message).toEqualTypeOf<ChatCompletionMessageParam>();
    if (event.type === 'completion') expectTypeOf(event.completion).toEqualTypeOf<ParsedChatCompletion<null>>();
  });
});

describe('reasoning and messages', () => {
  it('readReasoning reads messages and deltas', () => {
    expectTypeOf(readReasoning({ reasoning_content: 'x' })).toEqualTypeOf<string | undefined>();
    const chunk = {} as ChatCompletionChunk;
    readReasoning(chunk.choices[0]!.delta);
  });

  it('toAssistantMessage gives a message to send back', () => {
    expectTypeOf(toAssistantMessage({ role: 'assistant', content: 'x', refusal: null })).toEqualTypeOf<ChatCompletionAssistantMessageParam>();
    expectTypeOf<ChatCompletionAssistantMessageParam['reasoning_content']>().toEqualTypeOf<string | null | undefined>();
  });
});

describe('errors', () => {
  it('carry what went wrong', () => {
    expectTypeOf<OutputParseError['reason']>().toEqualTypeOf<'json' | 'schema'>();
    expectTypeOf<OutputParseError['raw']>().toEqualTypeOf<string>();
    expectTypeOf<OutputParseError['issues']>().toEqualTypeOf<readonly ValidationIssue[]>();
    expectTypeOf<OutputParseError['toolCall']>().toEqualTypeOf<{ id: string; name: string } | undefined>();
    expectTypeOf<LengthFinishReasonError['completion']['choices'][number]['finish_reason']>().toEqualTypeOf<string | null>();
    expectTypeOf<ContentFilterFinishReasonError['name']>().toEqualTypeOf<string>();
  });
});
