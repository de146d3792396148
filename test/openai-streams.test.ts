/**
 * The official client's streams and runners carry over (issue 23, items 3 to 6), through the public
 * API against the local server: `stream()` parsing with `zodResponseFormat()` and `zodFunction()`
 * (events and final message), the logprobs events, `message` / `chatCompletion` and the other
 * final events, the `chunk` event's snapshot, a streamed `function_call` joined into the final
 * message, `ChatCompletionStream.fromReadableStream()` on the browser side of a route handler, and
 * `runTools()` as openai users write it (plain function tools named by their function, a
 * streaming run that iterates chunks and has `toReadableStream()`). The type side is in
 * test/types-openai-carry-over.test-d.ts; test/third-party/carry-over/ compiles and runs the same
 * patterns against both clients.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import {
  APIConnectionError,
  ChatCompletionStream,
  ChatCompletionStreamingRunner,
  ListenerError,
  OutputParseError,
  ResponseValidationError,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionMessageParam,
  type ChatCompletionTokenLogprob,
  type StandardSchema,
} from '../src/index';
import { zodFunction, zodResponseFormat } from '../src/helpers/zod';
import { PartialJSON } from '../src/parse/partial-json';
import { useMockServer } from './support/mock-server';
import { startFaultServer, type FaultServer } from './support/fault-server';
import { streamsText } from './support/scripted-model';
import { within } from './support/settle';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'all' });

const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
/** What the plain tool below was called with. */
const called: unknown[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  called.length = 0;
});

/** A chunk of request `id` with one choice. */
const chunk = (delta: object, finish_reason: string | null = null, extra: object = {}, id = 'chatcmpl-s') => ({
  id,
  object: 'chat.completion.chunk',
  created: 1,
  model: 'mock/echo',
  choices: [{ index: 0, delta, finish_reason, ...extra }],
});
/** The model streams `text` in pieces of `size` characters. */
function streamsPieces(text: string, size = 5, id = 'chatcmpl-s') {
  const events: unknown[] = [chunk({ role: 'assistant', content: '' }, null, {}, id)];
  for (let i = 0; i < text.length; i += size) events.push(chunk({ content: text.slice(i, i + size) }, null, {}, id));
  events.push(chunk({}, 'stop', {}, id), '[DONE]');
  return { events };
}
/** The model streams one call of `name` with `args` in pieces of 4 characters. */
function streamsCall(name: string, args: string, id = 'call_1') {
  const events: unknown[] = [chunk({ role: 'assistant', content: null }), chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] })];
  for (let i = 0; i < args.length; i += 4) events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + 4) } }] }));
  events.push(chunk({}, 'tool_calls'), '[DONE]');
  return { events };
}

const Weather = z.object({ city: z.string(), celsius: z.number() });
const weatherFormat = zodResponseFormat(Weather, 'weather');
const weatherJSON = '{"city":"Paris","celsius":21}';

describe('stream() parses with zodResponseFormat and zodFunction (item 3)', () => {
  it('content.delta carries the structured output so far, content.done and the final message the validated value', async () => {
    server.enqueue(streamsPieces(weatherJSON));
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages, response_format: weatherFormat });
    const partials: unknown[] = [];
    const done: { content: string; parsed: z.infer<typeof Weather> | null }[] = [];
    stream.on('content.delta', ({ parsed }) => partials.push(parsed)).on('content.done', (event) => done.push(event));
    const completion = await stream.finalChatCompletion();
    // Partial values, growing: a key appears once its value has started, a string cut where it stops.
    expect(partials).toContainEqual({ city: 'P' });
    expect(partials).toContainEqual({ city: 'Paris' });
    expect(partials.at(-1)).toEqual({ city: 'Paris', celsius: 21 });
    expect(done).toEqual([{ content: weatherJSON, parsed: { city: 'Paris', celsius: 21 } }]);
    expect(completion.choices[0]?.message.parsed).toEqual({ city: 'Paris', celsius: 21 });
    expect((await stream.finalMessage()).parsed?.celsius).toBe(21);
  });

  it('tool calls from zodFunction(): parsed_arguments in the argument events and in the final message', async () => {
    const getWeather = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }) });
    server.enqueue(streamsCall('get_weather', '{"city":"Paris"}'));
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages, tools: [getWeather] });
    const partials: unknown[] = [];
    const done: unknown[] = [];
    stream
      .on('tool_calls.function.arguments.delta', ({ parsed_arguments }) => partials.push(parsed_arguments))
      .on('tool_calls.function.arguments.done', ({ name, parsed_arguments }) => done.push([name, parsed_arguments]));
    const message = await stream.finalMessage();
    expect(partials).toContainEqual({ city: 'Par' });
    expect(partials.at(-1)).toEqual({ city: 'Paris' });
    expect(done).toEqual([['get_weather', { city: 'Paris' }]]);
    const call = message.tool_calls?.[0];
    expect(call?.function.parsed_arguments).toEqual({ city: 'Paris' });
    expect(call?.function.parsed_arguments.city).toBe('Paris');
    expect(message.parsed).toBeNull();
  });

  it('output that does not match: finalChatCompletion() and done() reject with OutputParseError, error is told, the loop over chunks ends normally', async () => {
    server.enqueue(streamsPieces('{"city":"Paris","celsius":"warm"}'));
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages, response_format: weatherFormat });
    const told: unknown[] = [];
    const done: unknown[] = [];
    stream.on('error', (error) => told.push(error)).on('content.done', ({ parsed }) => done.push(parsed));
    let chunks = 0;
    for await (const _ of stream) chunks++;
    expect(chunks).toBeGreaterThan(3);
    const error = await stream.finalChatCompletion().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputParseError);
    expect((error as OutputParseError).issues[0]?.path).toBe('celsius');
    await expect(stream.done()).rejects.toBe(error);
    expect(told).toEqual([error]);
    expect(done).toEqual([null]);
    expect([stream.ended, stream.errored]).toEqual([true, true]);
  });

  it('a schema that validates asynchronously: null in the events, the value in finalChatCompletion()', async () => {
    const json = z.toJSONSchema(Weather);
    const slow: StandardSchema<unknown, { city: string }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: async (value) => ({ value: value as { city: string } }),
        jsonSchema: { input: () => json, output: () => json },
      },
    };
    server.enqueue(streamsPieces(weatherJSON));
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages, response_format: zodResponseFormat(slow, 'weather') });
    const done: unknown[] = [];
    const final: unknown[] = [];
    stream.on('content.done', ({ parsed }) => done.push(parsed)).on('finalChatCompletion', (c) => final.push(c.choices[0]?.message.parsed));
    const completion = await stream.finalChatCompletion();
    expect(done).toEqual([null]);
    expect(completion.choices[0]?.message.parsed).toEqual({ city: 'Paris', celsius: 21 });
    expect(final).toEqual([{ city: 'Paris', celsius: 21 }]);
  });

  it('a schema whose validation never settles: abort() ends the wait with APIUserAbortError, not a hang', async () => {
    const json = z.toJSONSchema(Weather);
    const stuck: StandardSchema<unknown, { city: string }> = {
      '~standard': { version: 1, vendor: 'test', validate: () => new Promise(() => {}), jsonSchema: { input: () => json, output: () => json } },
    };
    server.enqueue(streamsPieces(weatherJSON));
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages, response_format: zodResponseFormat(stuck, 'weather') });
    const told: string[] = [];
    stream.on('abort', () => told.push('abort')).on('end', () => told.push('end'));
    for await (const _ of stream); // every chunk came: the stream waits for the parse
    expect(stream.ended).toBe(false);
    stream.abort();
    const result = await within(stream.done(), 10_000);
    expect((result as { error: unknown }).error).toMatchObject({ name: 'APIUserAbortError' });
    expect(told).toEqual(['abort', 'end']);
    expect(stream.aborted).toBe(true);
  });

  it("a schema whose validation never settles: the call's timeout ends the wait with APIConnectionTimeoutError", async () => {
    const json = z.toJSONSchema(Weather);
    const stuck: StandardSchema<unknown, { city: string }> = {
      '~standard': { version: 1, vendor: 'test', validate: () => new Promise(() => {}), jsonSchema: { input: () => json, output: () => json } },
    };
    server.enqueue(streamsPieces(weatherJSON));
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages, response_format: zodResponseFormat(stuck, 'weather') }, { timeout: 1_000 });
    const result = await within(stream.finalChatCompletion(), 10_000);
    expect((result as { error: unknown }).error).toMatchObject({
      name: 'APIConnectionTimeoutError',
      message: 'The schema validating the reply did not settle within 1000 ms (timeout): POST /chat/completions',
    });
  });

  it('parses only what is listened to: no partial parsing without a content.delta listener, none at all without a schema', async () => {
    const push = vi.spyOn(PartialJSON.prototype, 'push');
    server.enqueue(streamsPieces(weatherJSON));
    const quiet = client.chat.completions.stream({ model: 'mock/echo', messages, response_format: weatherFormat });
    expect((await quiet.finalMessage()).parsed).toEqual({ city: 'Paris', celsius: 21 });
    expect(push).not.toHaveBeenCalled();

    server.enqueue(streamsPieces(weatherJSON));
    const plain = client.chat.completions.stream({ model: 'mock/echo', messages, response_format: { type: 'json_object' } });
    const parsed: unknown[] = [];
    plain.on('content.delta', (event) => parsed.push(event.parsed)).on('content.done', (event) => parsed.push(event.parsed));
    const message = await plain.finalMessage();
    expect(push).not.toHaveBeenCalled();
    expect(new Set(parsed)).toEqual(new Set([null]));
    expect(message).toMatchObject({ content: weatherJSON, parsed: null });

    server.enqueue(streamsPieces(weatherJSON));
    const listened = client.chat.completions.stream({ model: 'mock/echo', messages, response_format: weatherFormat });
    listened.on('content.delta', () => {});
    await listened.done();
    expect(push).toHaveBeenCalled();
  });

  it("create({ stream: true }) parses nothing: its final completion is the server's", async () => {
    server.enqueue(streamsPieces(weatherJSON));
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, response_format: weatherFormat, stream: true });
    const done: unknown[] = [];
    stream.on('content.done', ({ parsed }) => done.push(parsed));
    const message = await stream.finalMessage();
    expect(done).toEqual([null]);
    expect('parsed' in message).toBe(false);
  });
});

describe("the official client's stream events (item 4)", () => {
  const lp = (token: string, logprob: number): ChatCompletionTokenLogprob => ({ token, logprob, bytes: null, top_logprobs: [] });

  it('logprobs.content.delta / .done and logprobs.refusal.delta / .done; the final completion joins both lists', async () => {
    server.enqueue({
      events: [
        chunk({ role: 'assistant', content: 'Hi' }, null, { logprobs: { content: [lp('Hi', -0.1)], refusal: null } }),
        chunk({ content: ' there' }, null, { logprobs: { content: [lp(' there', -0.2)], refusal: null } }),
        chunk({ refusal: 'No' }, null, { logprobs: { content: null, refusal: [lp('No', -0.3)] } }),
        chunk({}, 'stop'),
        '[DONE]',
      ],
    });
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages, logprobs: true });
    const seen: [string, unknown][] = [];
    stream
      .on('logprobs.content.delta', ({ content, snapshot }) => seen.push(['content.delta', [content.map((t) => t.token), snapshot.map((t) => t.token)]]))
      .on('logprobs.content.done', ({ content }) => seen.push(['content.done', content.map((t) => t.token)]))
      .on('logprobs.refusal.delta', ({ refusal, snapshot }) => seen.push(['refusal.delta', [refusal.map((t) => t.token), snapshot.map((t) => t.token)]]))
      .on('logprobs.refusal.done', ({ refusal }) => seen.push(['refusal.done', refusal.map((t) => t.token)]));
    const completion = await stream.finalChatCompletion();
    expect(seen).toEqual([
      ['content.delta', [['Hi'], ['Hi']]],
      ['content.delta', [[' there'], ['Hi', ' there']]],
      ['refusal.delta', [['No'], ['No']]],
      ['content.done', ['Hi', ' there']],
      ['refusal.done', ['No']],
    ]);
    expect(completion.choices[0]?.logprobs).toEqual({ content: [lp('Hi', -0.1), lp(' there', -0.2)], refusal: [lp('No', -0.3)] });
  });

  it('connect, then the chunk events; at the end chatCompletion, message, functionToolCall, the final events, totalUsage, end', async () => {
    server.enqueue({
      events: [
        chunk({ role: 'assistant', content: 'Let me check.' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }),
        chunk({}, 'tool_calls'),
        { ...chunk({}), choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } },
        '[DONE]',
      ],
    });
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    const seen: [string, unknown][] = [];
    const names = ['connect', 'content', 'chatCompletion', 'message', 'functionToolCall', 'finalChatCompletion', 'finalMessage', 'finalContent', 'finalFunctionToolCall', 'totalUsage', 'end'] as const;
    for (const name of names) stream.on(name, ((value: unknown) => seen.push([name, value])) as never);
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0]!.message;
    expect(seen.map(([name]) => name)).toEqual([
      'connect',
      'content',
      'chatCompletion',
      'message',
      'functionToolCall',
      'finalChatCompletion',
      'finalMessage',
      'finalContent',
      'finalFunctionToolCall',
      'totalUsage',
      'end',
    ]);
    const of = (name: string) => seen.find(([n]) => n === name)?.[1];
    expect(of('chatCompletion')).toBe(completion);
    expect(of('finalChatCompletion')).toBe(completion);
    expect(of('message')).toBe(message);
    expect(of('finalMessage')).toBe(message);
    expect(of('finalContent')).toBe('Let me check.');
    expect(of('functionToolCall')).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(of('finalFunctionToolCall')).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(of('totalUsage')).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  });

  it("the chunk event's snapshot: the completion so far, as currentChatCompletionSnapshot gives it", async () => {
    server.enqueue(streamsText('one two three'));
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const texts: (string | null | undefined)[] = [];
    let last: ChatCompletion | undefined;
    stream.on('chunk', (chunk, snapshot) => {
      texts.push(snapshot.choices[0]?.message.content);
      expect(snapshot).toEqual(stream.currentChatCompletionSnapshot);
      last = snapshot;
      expect(chunk.object).toBe('chat.completion.chunk');
    });
    const final = await stream.finalChatCompletion();
    expect(texts).toEqual([null, 'one ', 'one two ', 'one two three', 'one two three']);
    expect(last).toEqual(final);
  });

  it('a streamed function_call (deprecated) is joined into finalChatCompletion() and finalMessage()', async () => {
    server.enqueue({
      events: [
        chunk({ role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '' } }),
        chunk({ function_call: { arguments: '{"city":' } }),
        chunk({ function_call: { arguments: '"Paris"}' } }),
        chunk({}, 'function_call'),
        '[DONE]',
      ],
    });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const message = await stream.finalMessage();
    expect(message.function_call).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(JSON.parse(message.function_call!.arguments)).toEqual({ city: 'Paris' });
    expect((await stream.finalChatCompletion()).choices[0]?.finish_reason).toBe('function_call');
  });

  it('a listener of message that throws fails the stream with a ListenerError; end is told once', async () => {
    server.enqueue(streamsText('Hello there'));
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    let ends = 0;
    stream
      .on('message', () => {
        throw new Error('listener failed');
      })
      .on('end', () => void ends++);
    const error = await stream.done().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListenerError);
    expect(error).toMatchObject({ event: 'message' });
    expect(ends).toBe(1);
    expect(stream.errored).toBe(true);
  });
});

/** A route handler (`POST(request)` as in Next.js) served on a loopback server, with the browser's `fetch` to it. */
async function route(POST: (request: Request) => Promise<Response>): Promise<FaultServer> {
  return startFaultServer(async (req, res: ServerResponse, body) => {
    const method = req.method ?? 'GET';
    const response = await POST(new Request(`http://127.0.0.1${req.url}`, method === 'GET' ? { method } : { method, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body!.getReader();
    res.once('close', () => void reader.cancel().catch(() => {}));
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) res.write(r.value);
      res.end();
    } catch {
      res.destroy(); // the upstream failed mid-stream: the browser sees the connection drop
    }
  });
}

describe('ChatCompletionStream.fromReadableStream() on the browser side of a route handler (item 5)', () => {
  let handler: FaultServer | undefined;
  afterEach(async () => {
    await handler?.close();
    handler = undefined;
  });

  it('reads what toReadableStream() wrote: the chunks, the events, finalChatCompletion()', async () => {
    let served: ChatCompletion | undefined;
    handler = await route(async (request) => {
      const { question } = (await request.json()) as { question: string };
      const stream = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: question }], stream: true, stream_options: { include_usage: true } });
      stream.on('finalChatCompletion', (c) => (served = c)); // e.g. to log usage server-side while the body streams
      return new Response(stream.toReadableStream(), { headers: { 'content-type': 'application/x-ndjson' } });
    });
    const response = await fetch(`${handler.origin}/api/chat`, { method: 'POST', body: JSON.stringify({ question: 'Hello browser' }) });
    const stream = ChatCompletionStream.fromReadableStream(response.body!);
    expect(stream).toBeInstanceOf(ChatCompletionStream);
    const deltas: string[] = [];
    const seen: string[] = [];
    stream.on('content.delta', ({ delta }) => deltas.push(delta)).on('finalContent', (c) => seen.push(c)).on('end', () => seen.push('end'));
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    const completion = await stream.finalChatCompletion();
    expect(deltas.join('')).toBe('You said: Hello browser');
    expect(seen).toEqual(['You said: Hello browser', 'end']);
    expect(chunks.length).toBeGreaterThan(2);
    expect(completion).toEqual(served);
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("a line that is not a chunk is a ResponseValidationError with the raw value; a body cut short is an APIConnectionError", async () => {
    handler = await route(async () => new Response('{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":"\u001b[31mnope"}\n'));
    const bad = ChatCompletionStream.fromReadableStream((await fetch(handler.origin)).body!);
    const error = await bad.finalChatCompletion().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(JSON.stringify((error as ResponseValidationError).raw)).toContain('nope');
    await handler.close();

    handler = await route(async () => new Response(`${JSON.stringify(chunk({ role: 'assistant', content: 'Hel' }))}\n`));
    const cut = ChatCompletionStream.fromReadableStream((await fetch(handler.origin)).body!);
    const seen: unknown[] = [];
    cut.on('content', (delta) => seen.push(delta));
    await expect(cut.finalChatCompletion()).rejects.toBeInstanceOf(APIConnectionError);
    expect(seen).toEqual(['Hel']);
  });

  it('the upstream failing mid-stream reaches the browser as an APIConnectionError, not a hang', async () => {
    server.enqueue({ reply: { content: 'a b c d e f' }, fault: { kind: 'reset', after: 2 } });
    handler = await route(async () => {
      const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true });
      return new Response(stream.toReadableStream());
    });
    const stream = ChatCompletionStream.fromReadableStream((await fetch(handler.origin)).body!);
    const result = await within(stream.finalChatCompletion(), 10_000);
    expect(result).not.toBe('pending');
    expect((result as { error: unknown }).error).toBeInstanceOf(APIConnectionError);
  });

  it("a streaming run's body: every request's chunks, finalChatCompletion() the last request's", async () => {
    server.enqueue(streamsCall('get_weather', '{"city":"Paris"}'), streamsPieces('It is 21 degrees.', 5, 'chatcmpl-2'));
    handler = await route(async () => {
      const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [plainWeather], stream: true });
      return new Response(runner.toReadableStream());
    });
    const stream = ChatCompletionStream.fromReadableStream((await fetch(handler.origin)).body!);
    const args: string[] = [];
    stream.on('tool_calls.function.arguments.done', ({ arguments: a }) => args.push(a));
    const completion = await stream.finalChatCompletion();
    expect(args).toEqual(['{"city":"Paris"}']);
    expect(completion.choices[0]?.message.content).toBe('It is 21 degrees.');
    expect(completion.choices[0]?.message.tool_calls).toBeUndefined();
  });
});

async function get_weather(args: { city: string }): Promise<string> {
  called.push(args);
  return JSON.stringify({ city: args.city, celsius: 21 });
}
/** A tool written the openai way: no name (the function's), `parse: JSON.parse`. */
const plainWeather = {
  type: 'function' as const,
  function: { function: get_weather, parse: JSON.parse, description: 'Current weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('runTools() as openai users write it (item 6)', () => {
  it("a plain function tool without a name is sent under its function's name, and called with what parse returns", async () => {
    server.enqueue({ reply: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } }, { reply: { content: 'It is 21 degrees.' } });
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [plainWeather] });
    expect(await runner.finalContent()).toBe('It is 21 degrees.');
    expect(called).toEqual([{ city: 'Paris' }]);
    const sent = server.requests[0]!.body as { tools: { function: Record<string, unknown> }[] };
    expect(sent.tools).toEqual([{ type: 'function', function: { name: 'get_weather', description: 'Current weather in a city.', parameters: plainWeather.function.parameters } }]);
  });

  it('a nameless tool whose function has no name either is a clear error: the run fails with it', async () => {
    const anonymous = { type: 'function' as const, function: { function: (() => () => 'x')(), parameters: { type: 'object' } } };
    await expect(client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [anonymous] }).done()).rejects.toThrow(/needs a `function.name` \(or a named `function.function`\)/);
  });

  it('stream: true gives a ChatCompletionStreamingRunner that iterates the chunks of every request', async () => {
    server.enqueue(streamsCall('get_weather', '{"city":"Paris"}'), streamsPieces('It is 21 degrees.', 5, 'chatcmpl-2'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [plainWeather], stream: true });
    expect(runner).toBeInstanceOf(ChatCompletionStreamingRunner);
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of runner) chunks.push(c);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('It is 21 degrees.');
    expect(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).map((t) => t.function?.arguments ?? '').join('')).toBe('{"city":"Paris"}');
    expect(await runner.finalContent()).toBe('It is 21 degrees.');
    expect(called).toEqual([{ city: 'Paris' }]);
  });

  it("a streaming run tells the stream's events, request by request, with the runner's", async () => {
    const getWeather = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }), function: ({ city }) => ({ city, celsius: 21 }) });
    server.enqueue(streamsCall('get_weather', '{"city":"Paris"}'), streamsPieces('It is 21 degrees.', 5, 'chatcmpl-2'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [getWeather], stream: true });
    const seen: string[] = [];
    let snapshots = 0;
    runner
      .on('connect', () => seen.push('connect'))
      .on('chunk', (_chunk, snapshot) => void (snapshot.choices.length > 0 && snapshots++))
      .on('tool_calls.function.arguments.done', ({ parsed_arguments }) => seen.push(`args ${JSON.stringify(parsed_arguments)}`))
      .on('content.done', ({ content }) => seen.push(`content ${content}`))
      .on('functionToolCallResult', (result) => seen.push(`result ${result}`))
      .on('finalContent', (content) => seen.push(`final ${content}`));
    await runner.done();
    expect(seen).toEqual(['connect', 'args {"city":"Paris"}', 'result {"city":"Paris","celsius":21}', 'connect', 'content It is 21 degrees.', 'final It is 21 degrees.']);
    expect(snapshots).toBeGreaterThan(5);
  });

  it('breaking out of the loop aborts the run, as leaving a stream does', async () => {
    server.enqueue({ events: [chunk({ role: 'assistant', content: 'one' }), chunk({ content: ' two' })], after: 'stall' }); // the run cannot end by itself
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [plainWeather], stream: true });
    for await (const _ of runner) break;
    await expect(runner.done()).rejects.toMatchObject({ name: 'APIUserAbortError' });
    expect(runner.aborted).toBe(true);
  });

  it('toReadableStream() writes the chunks of every request as NDJSON; cancelling it aborts the run', async () => {
    server.enqueue(streamsCall('get_weather', '{"city":"Paris"}'), streamsPieces('It is 21 degrees.', 5, 'chatcmpl-2'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [plainWeather], stream: true });
    const text = await new Response(runner.toReadableStream()).text();
    const lines = text.trim().split('\n').map((line) => JSON.parse(line) as ChatCompletionChunk);
    expect(new Set(lines.map((l) => l.id))).toEqual(new Set(['chatcmpl-s', 'chatcmpl-2']));
    expect(lines.map((l) => l.choices[0]?.delta.content ?? '').join('')).toBe('It is 21 degrees.');

    server.enqueue({ events: [chunk({ role: 'assistant', content: 'one' }), chunk({ content: ' two' })], after: 'stall' }); // the run cannot end by itself
    const second = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [plainWeather], stream: true });
    const reader = second.toReadableStream().getReader();
    await reader.read();
    await reader.cancel();
    await expect(second.done()).rejects.toMatchObject({ name: 'APIUserAbortError' });
  });

  it('maxChatCompletions, the official name of maxRounds', async () => {
    server.enqueue({ reply: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } });
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [plainWeather] }, { maxChatCompletions: 1 });
    expect(await runner.finalContent()).toBeNull();
    expect(server.requests).toHaveLength(1);
  });
});

describe("openai's statics and final tool calls on streams (issue 30, item 6)", () => {
  /** A conversation that already holds a function call and its result. */
  const history: ChatCompletionMessageParam[] = [
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'call_0', content: '{"celsius":21}' },
    { role: 'tool', tool_call_id: 'call_unknown', content: 'answers no call of the conversation' },
  ];

  it('finalFunctionToolCall() on stream() and on create({ stream: true }): the streamed call; no tool result', async () => {
    server.enqueue(streamsCall('get_weather', '{"city":"Paris"}'), streamsCall('get_time', '{"tz":"CET"}'));
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    expect(await stream.finalFunctionToolCall()).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(await stream.finalFunctionToolCallResult()).toBeUndefined();
    const created = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    expect(await created.finalFunctionToolCall()).toEqual({ name: 'get_time', arguments: '{"tz":"CET"}' });
  });

  it("stream() reads the request's messages too, as openai's stream does: the last call and the result that answers it", async () => {
    server.enqueue(streamsPieces('It is 21 degrees.'));
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages: history });
    expect(await stream.finalContent()).toBe('It is 21 degrees.');
    expect(await stream.finalFunctionToolCall()).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(await stream.finalFunctionToolCallResult()).toBe('{"celsius":21}');
  });

  it('ChatCompletionStream.createChatCompletion(client or client.chat.completions, params, options) streams', async () => {
    for (const target of [client, client.chat.completions]) {
      const stream = ChatCompletionStream.createChatCompletion(target, { model: 'mock/echo', messages: [{ role: 'user', content: 'hi there' }] }, { headers: { 'x-test': 'yes' } });
      expect(stream).toBeInstanceOf(ChatCompletionStream);
      expect(await stream.finalContent()).toBe('You said: hi there');
      expect(server.requests.at(-1)!.body).toMatchObject({ stream: true, model: 'mock/echo' });
      expect(server.requests.at(-1)!.headers['x-test']).toBe('yes');
    }
  });

  it("ChatCompletionStreamingRunner.fromReadableStream(body) reads a streaming run's body: the answer, and the run's last call", async () => {
    server.enqueue(streamsCall('get_weather', '{"city":"Paris"}'), streamsPieces('It is 21 degrees.', 5, 'chatcmpl-2'));
    const handler = await route(async () => {
      const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [plainWeather], stream: true });
      return new Response(runner.toReadableStream());
    });
    try {
      const runner = ChatCompletionStreamingRunner.fromReadableStream((await fetch(handler.origin)).body!);
      const seen: string[] = [];
      runner.on('content', (delta) => seen.push(delta));
      expect(await runner.finalContent()).toBe('It is 21 degrees.');
      expect(seen.join('')).toBe('It is 21 degrees.');
      expect(await runner.finalFunctionToolCall()).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
      expect(await runner.finalFunctionToolCallResult()).toBeUndefined();
    } finally {
      await handler.close();
    }
  });
});
