/**
 * The official client's streams and runners carry over (issue 23, items 5 and 6), through the public
 * API against the local server: `ChatCompletionStream.fromReadableStream()` on the browser side of a
 * route handler, `runTools()` as openai users write it (plain function tools named by their
 * function, a streaming run that iterates chunks and has `toReadableStream()`), and openai's statics
 * and final tool calls on streams (issue 30). The type side is in
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
  ResponseValidationError,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionMessageParam,
} from '../src/index';
import { zodFunction } from '../src/helpers/zod';
import { useMockServer } from './support/mock-server';
import { startFaultServer, type FaultServer } from './support/fault-server';
import { within } from './support/settle';
import { messages, chunk, streamsPieces, streamsCall } from './support/openai-streams';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'all' });

/** What the plain tool below was called with. */
const called: unknown[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  called.length = 0;
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
