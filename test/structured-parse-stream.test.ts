/**
 * Structured outputs end to end against the local server: parse({ stream: true }) and its partial
 * values; corpus captures of JSON replies where they exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ContentFilterFinishReasonError, LengthFinishReasonError, OutputParseError } from '../src/index';
import { zodResponseFormat } from '../src/helpers/zod';
import { useMockServer } from './support/mock-server';
import { messages, streams, Weather } from './support/structured';

const CORPUS = fileURLToPath(new URL('../../shared/corpus/', import.meta.url));
const corpusPresent = existsSync(`${CORPUS}MANIFEST.json`);
const corpusJSON = (file: string) => JSON.parse(readFileSync(CORPUS + file, 'utf8')) as object;
const corpusBytes = (file: string) => new Uint8Array(readFileSync(CORPUS + file));

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'requests' });

const sent = (i = 0) => server.requests[i]!.body as Record<string, unknown>;

describe('parse({ stream: true })', () => {
  const City = z.object({ name: z.string(), population: z.number(), districts: z.array(z.string()) });
  const format = zodResponseFormat(City, 'city');
  const json = '{"name":"Paris","population":2102650,"districts":["Louvre","Bourse","Temple"]}';

  it('yields partial values as the JSON grows, then the validated final value', async () => {
    server.enqueue(streams(json, 4));
    const stream = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format, stream: true });
    expect(sent().stream).toBe(true);
    const partials: unknown[] = [];
    for await (const partial of stream.parsedStream()) partials.push(partial);
    expect(partials.length).toBeGreaterThan(5);
    expect(partials).toContainEqual({ name: 'Par' });
    expect(partials.at(-1)).toEqual(JSON.parse(json));
    // Each partial is a different value from the one before.
    for (let i = 1; i < partials.length; i++) expect(partials[i]).not.toEqual(partials[i - 1]);
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.parsed).toEqual(JSON.parse(json));
    expect(final.choices[0]!.message.content).toBe(json);
  });

  it('works with for await over chunks too, then finalChatCompletion()', async () => {
    server.enqueue(streams(json, 10));
    const stream = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format, stream: true });
    let count = 0;
    for await (const chunk of stream) count += chunk.choices?.length ?? 0;
    expect(count).toBeGreaterThan(3);
    expect((await stream.finalChatCompletion()).choices[0]!.message.parsed?.districts).toHaveLength(3);
  });

  it('rejects finalChatCompletion() with OutputParseError when the finished JSON does not match', async () => {
    server.enqueue(streams('{"name":"Paris","population":"many","districts":[]}'));
    const stream = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format, stream: true });
    const partials: unknown[] = [];
    for await (const partial of stream.parsedStream()) partials.push(partial);
    expect(partials.at(-1)).toEqual({ name: 'Paris', population: 'many', districts: [] });
    await expect(stream.finalChatCompletion()).rejects.toBeInstanceOf(OutputParseError);
  });

  it('rejects with LengthFinishReasonError when the stream stopped at the token limit', async () => {
    server.enqueue(streams('{"name":"Pa', 3, 'length'));
    const stream = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format, stream: true });
    await expect(stream.finalChatCompletion()).rejects.toBeInstanceOf(LengthFinishReasonError);
  });

  it('skips an inline <think> block while streaming', async () => {
    server.enqueue(streams(`<think>plan</think>${json}`, 5));
    const stream = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format, stream: true });
    const partials: unknown[] = [];
    for await (const partial of stream.parsedStream()) partials.push(partial);
    expect(partials[0]).toMatchObject({});
    expect(partials.at(-1)).toEqual(JSON.parse(json));
  });

  it('parsedStream() needs a JSON response format', async () => {
    server.enqueue(streams('hello'));
    const stream = await client.chat.completions.parse({ model: 'mock/echo', messages, stream: true });
    await expect(stream.parsedStream().next()).rejects.toThrow(/needs a response_format of type json_schema/);
    await stream.finalChatCompletion();
  });
});

describe.skipIf(!corpusPresent)('corpus captures of JSON replies', () => {
  it('openai/chat-structured-output.json: parsed with a zod schema', async () => {
    server.enqueue({ body: corpusJSON('openai/chat-structured-output.json') });
    const Units = z.object({ city: z.string(), units: z.enum(['c', 'f']) });
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: zodResponseFormat(Units, 'units') });
    expect(completion.choices[0]!.message.parsed).toEqual({ city: 'San Francisco', units: 'c' });
    expect(completion.choices[0]!.message.refusal).toBeNull();
  });

  it('openai/chat-stream-logprobs-structured-output.sse: partials, then the typed value', async () => {
    server.enqueue({ raw: corpusBytes('openai/chat-stream-logprobs-structured-output.sse'), headers: { 'content-type': 'text/event-stream' } });
    const Units = z.object({ city: z.string(), units: z.enum(['c', 'f']) });
    const stream = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: zodResponseFormat(Units, 'units'), stream: true });
    const partials: unknown[] = [];
    for await (const partial of stream.parsedStream()) partials.push(partial);
    expect(partials).toContainEqual({ city: 'San Francisco' });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.parsed).toEqual({ city: 'San Francisco', units: 'f' });
    expect(final.usage?.total_tokens).toBe(27);
  });

  it('openai/chat-stream-refusal.sse: the refusal, and parsed null', async () => {
    server.enqueue({ raw: corpusBytes('openai/chat-stream-refusal.sse'), headers: { 'content-type': 'text/event-stream' } });
    const stream = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: zodResponseFormat(Weather, 'weather'), stream: true });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.refusal).toBe("I'm very sorry, but I can't assist with that request.");
    expect(final.choices[0]!.message.parsed).toBeNull();
  });

  it('azure/chat-content-filter-no-message.json: ContentFilterFinishReasonError', async () => {
    server.enqueue({ body: corpusJSON('azure/chat-content-filter-no-message.json') });
    await expect(client.chat.completions.parse({ model: 'mock/echo', messages, response_format: zodResponseFormat(Weather, 'weather') })).rejects.toBeInstanceOf(
      ContentFilterFinishReasonError,
    );
  });

  it('xai/chat-grok-beta-length.json: LengthFinishReasonError', async () => {
    server.enqueue({ body: corpusJSON('xai/chat-grok-beta-length.json') });
    await expect(client.chat.completions.parse({ model: 'mock/echo', messages })).rejects.toBeInstanceOf(LengthFinishReasonError);
  });

  it.each([
    ['deepseek/chat-json-mode.json', z.object({ location: z.string(), condition: z.string() })],
    ['tgi/chat-json-grammar.json', z.object({ unit: z.string(), temperature: z.array(z.number()) })],
    ['ollama/chat-json-schema-reasoning.json', z.object({ city: z.string(), country: z.string() })],
  ])('%s: parsed, reasoning kept apart', async (file, schema) => {
    const body = corpusJSON(file) as { choices: { message: { content: string } }[] };
    server.enqueue({ body });
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: zodResponseFormat(z.looseObject(schema.shape), 'out') });
    expect(completion.choices[0]!.message.parsed).toEqual(JSON.parse(body.choices[0]!.message.content));
  });
});
