/**
 * The official client's streams carry over (issue 23, item 3), through the public API against the
 * local server: `stream()` parsing with `zodResponseFormat()` and `zodFunction()` (events and final
 * message). The type side is in test/types-openai-carry-over.test-d.ts; test/third-party/carry-over/
 * compiles and runs the same patterns against both clients.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { OutputParseError, type StandardSchema } from '../src/index';
import { zodFunction, zodResponseFormat } from '../src/helpers/zod';
import { PartialJSON } from '../src/parse/partial-json';
import { useMockServer } from './support/mock-server';
import { within } from './support/settle';
import { messages, streamsPieces, streamsCall, Weather, weatherFormat, weatherJSON } from './support/openai-streams';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'all' });
afterEach(() => {
  vi.restoreAllMocks();
});

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
