// parse(), stream() with a schema and parsedStream(), taken at docs/structured-outputs.md's word,
// with schemas that misbehave (throw, answer nonsense, never settle) and models that write
// hostile JSON (`__proto__`, nesting a hundred thousand deep).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { APIConnectionTimeoutError, InferenceError, LengthFinishReasonError, OutputParseError } from '../../src/index';
import { zodFunction, zodResponseFormat } from '../../src/helpers/zod';
import { chunk, clientOf, completion, json, never, rejection, serve, sse, textChunks, USER, within, type TestServer } from './support';

let server: TestServer;
beforeAll(async () => {
  server = await serve((_req, res) => json(res, completion({ content: '{}' })));
});
afterAll(() => server.close());

const answer = (content: string | null, finish = 'stop', extra: Record<string, unknown> = {}) =>
  server.handle((_req, res) => json(res, completion({ content, ...extra }, finish)));
const Weather = z.object({ city: z.string(), celsius: z.number(), note: z.string().optional() });
const parse = (response_format: unknown, options: Record<string, unknown> = {}) =>
  clientOf(server.baseURL, options).chat.completions.parse({ model: 'acme/chat-1', messages: USER, response_format: response_format as never });

/** A Standard JSON Schema whose validate does what the test says. */
function standardSchema(validate: (value: unknown) => unknown): unknown {
  return {
    '~standard': {
      version: 1,
      vendor: 'adversarial',
      validate,
      jsonSchema: { input: () => ({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }), output: () => ({}) },
    },
  };
}

describe('parse()', () => {
  it('a property that was optional, written as null by the model, reaches the schema as undefined', async () => {
    answer(JSON.stringify({ city: 'Paris', celsius: 21, note: null }));
    const message = (await parse(zodResponseFormat(Weather, 'weather'))).choices[0]!.message;
    expect(message.parsed).toEqual({ city: 'Paris', celsius: 21 });
    expect((message.parsed as { note?: unknown } | null)?.note).toBeUndefined();
  });

  it('a <think> block and a Markdown fence around the JSON are read past; content keeps the text as sent', async () => {
    const text = '<think>the user wants Paris</think>\n```json\n{"city":"Paris","celsius":21}\n```';
    answer(text);
    const message = (await parse(zodResponseFormat(Weather, 'weather'))).choices[0]!.message;
    expect(message.parsed).toEqual({ city: 'Paris', celsius: 21 });
    expect(message.content).toBe(text);
  });

  it('a refusal: parsed is null, refusal holds it', async () => {
    answer(null, 'stop', { refusal: 'I cannot help with that.' });
    const message = (await parse(zodResponseFormat(Weather, 'weather'))).choices[0]!.message;
    expect(message.parsed).toBeNull();
    expect(message.refusal).toBe('I cannot help with that.');
  });

  it('finish_reason length: LengthFinishReasonError, never retried', async () => {
    answer('{"city":"Par', 'length');
    const before = server.requests.length;
    const err = await rejection(() => parse(zodResponseFormat(Weather, 'weather'), { maxRetries: 2 }));
    expect(err).toBeInstanceOf(LengthFinishReasonError);
    expect(server.requests.length - before).toBe(1);
  });

  it('a json_object output with __proto__ keys: parsed holds them as data, no prototype changes', async () => {
    answer('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"a":1}');
    const parsed = (await parse({ type: 'json_object' })).choices[0]!.message.parsed as unknown as Record<string, unknown>;
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(parsed['a']).toBe(1);
    expect(parsed['polluted']).toBeUndefined();
  });

  // "Every failure is an InferenceError": a schema library that throws instead of returning issues.
  // Was a fault: a Standard Schema whose validate throws made parse() reject with the schema's raw Error.
  it("a schema whose validate throws: the call rejects with an InferenceError, with the schema's error as cause", async () => {
    answer('{"city":"Paris"}');
    const thrown = new Error('validator crashed');
    const err = await rejection(() => parse(zodResponseFormat(standardSchema(() => { throw thrown; }) as never, 'weather')));
    expect(err).toBeInstanceOf(InferenceError);
    expect((err as Error).cause).toBe(thrown);
  });

  // Was a fault (issue 29 §2): a validate that returned a thenable (not a native Promise) was never awaited; parsed was undefined.
  it('a schema whose validate returns a thenable: its value is awaited', async () => {
    answer('{"city":"Paris"}');
    const thenable = (value: unknown) => ({ then: (resolve: (v: unknown) => void) => resolve({ value }) });
    const completion = await parse(zodResponseFormat(standardSchema((v) => thenable(v)) as never, 'weather'));
    expect(completion.choices[0]!.message.parsed).toEqual({ city: 'Paris' });
  });

  it("a thenable's issues are read too, a Promise of another realm is awaited, and a rejecting one is an InferenceError", async () => {
    answer('{"city":"Paris"}');
    const issues = (value: unknown) => ({ then: (resolve: (v: unknown) => void) => resolve({ issues: [{ message: 'no cities today', path: ['city'] }], value }) });
    const bad = await rejection(() => parse(zodResponseFormat(standardSchema(issues) as never, 'weather')));
    expect(bad).toBeInstanceOf(OutputParseError);
    expect((bad as Error).message).toMatch(/no cities today/);
    const { runInNewContext } = await import('node:vm');
    const foreign = (value: unknown) => runInNewContext('Promise.resolve({ value: { city: v.city.toUpperCase() } })', { v: value }) as unknown;
    const parsed = (await parse(zodResponseFormat(standardSchema(foreign) as never, 'weather'))).choices[0]!.message.parsed;
    expect(parsed).toEqual({ city: 'PARIS' });
    const thrown = new Error('validator rejected');
    const err = await rejection(() => parse(zodResponseFormat(standardSchema(() => Promise.reject(thrown)) as never, 'weather')));
    expect(err).toBeInstanceOf(InferenceError);
    expect((err as Error).cause).toBe(thrown);
    expect((err as Error).message).toMatch(/adversarial/);
  });

  it('a validate that returns no result (undefined, or issues that are not an array): an InferenceError, not a TypeError', async () => {
    answer('{"city":"Paris"}');
    for (const result of [undefined, { issues: 'bad' }]) {
      const err = await rejection(() => parse(zodResponseFormat(standardSchema(() => result) as never, 'weather')));
      expect(err).toBeInstanceOf(InferenceError);
      expect(err).not.toBeInstanceOf(TypeError);
    }
  });

  it("a schema that never settles: the call's timeout ends it with APIConnectionTimeoutError", async () => {
    answer('{"city":"Paris"}');
    const result = await within(rejection(() => parse(zodResponseFormat(standardSchema(() => never()) as never, 'weather'), { timeout: 300 })), 20_000);
    expect(result).not.toBe('pending');
    expect((result as { value: unknown }).value).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('tool arguments that fail their schema: OutputParseError with toolCall { id, name }', async () => {
    server.handle((_req, res) =>
      json(res, completion({ tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{"city":7}' } }] }, 'tool_calls')),
    );
    const tool = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }) });
    const err = await rejection(() => clientOf(server.baseURL).chat.completions.parse({ model: 'acme/chat-1', messages: USER, tools: [tool] }));
    expect(err).toBeInstanceOf(OutputParseError);
    expect((err as OutputParseError & { toolCall: unknown }).toolCall).toEqual({ id: 'call_9', name: 'get_weather' });
  });

  it('output nested 100 000 deep: an OutputParseError or a value, never a RangeError', async () => {
    answer(`{"city":"x","celsius":1,"note":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const outcome = await parse(zodResponseFormat(Weather, 'weather')).then(
      () => 'value',
      (e: unknown) => e,
    );
    if (outcome !== 'value') expect(outcome).toBeInstanceOf(InferenceError);
  });
});

describe('streaming parse', () => {
  const streamOf = (text: string[]) => server.handle((_req, res) => sse(res, textChunks(text)));

  it('parsedStream(): each value differs from the one before, and the last is the final parsed value', async () => {
    streamOf(['{"ci', 'ty":"Pa', 'ris","cel', 'sius":2', '1}']);
    const stream = await clientOf(server.baseURL).chat.completions.parse({
      model: 'acme/chat-1',
      messages: USER,
      response_format: zodResponseFormat(Weather, 'weather'),
      stream: true,
    });
    const values: string[] = [];
    for await (const partial of stream.parsedStream()) values.push(JSON.stringify(partial));
    for (let i = 1; i < values.length; i++) expect(values[i]).not.toBe(values[i - 1]);
    expect(JSON.parse(values.at(-1)!)).toEqual({ city: 'Paris', celsius: 21 });
    expect((await stream.finalChatCompletion()).choices[0]!.message.parsed).toEqual({ city: 'Paris', celsius: 21 });
  });

  it('parsedStream() with __proto__ keys: no partial value has its prototype replaced, none pollutes Object', async () => {
    streamOf(['{"__proto__":{"polluted":', 'true},"city":"P', 'aris"}']);
    const stream = await clientOf(server.baseURL).chat.completions.parse({ model: 'acme/chat-1', messages: USER, response_format: { type: 'json_object' }, stream: true });
    const partials: unknown[] = [];
    for await (const partial of stream.parsedStream()) partials.push(partial);
    expect(partials.length).toBeGreaterThan(0);
    for (const p of partials) {
      if (p === null || typeof p !== 'object') continue;
      expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
      expect((p as Record<string, unknown>)['polluted']).toBeUndefined();
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('content.delta parsed values with a deep array: values or an InferenceError, never a RangeError', async () => {
    const deep = `{"city":"x","celsius":1,"note":${'['.repeat(50_000)}`;
    streamOf([deep.slice(0, 25_000), deep.slice(25_000), `${']'.repeat(50_000)}}`]);
    const stream = clientOf(server.baseURL).chat.completions.stream({ model: 'acme/chat-1', messages: USER, response_format: zodResponseFormat(Weather, 'weather') });
    let deltas = 0;
    stream.on('content.delta', () => void deltas++);
    const outcome = await stream.finalChatCompletion().then(
      () => 'value',
      (e: unknown) => e,
    );
    if (outcome !== 'value') expect(outcome).toBeInstanceOf(InferenceError);
    expect(deltas).toBeGreaterThan(0);
  });

  it("stream(): a reply that fails the schema rejects finalChatCompletion() with OutputParseError; the loop over chunks ends normally", async () => {
    streamOf(['{"city":', '5}']);
    const stream = clientOf(server.baseURL).chat.completions.stream({ model: 'acme/chat-1', messages: USER, response_format: zodResponseFormat(Weather, 'weather') });
    let chunks = 0;
    for await (const _ of stream) chunks++;
    expect(chunks).toBeGreaterThan(0);
    expect(await rejection(() => stream.finalChatCompletion())).toBeInstanceOf(OutputParseError);
  });

  it('tool_calls.function.arguments.done: parsed_arguments validated for a zodFunction tool', async () => {
    server.handle((_req, res) =>
      sse(res, [
        chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city"' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: ':"Oslo"}' } }] }),
        chunk({}, 'tool_calls'),
      ]),
    );
    const tool = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string().transform((c) => c.toUpperCase()) }) });
    const stream = clientOf(server.baseURL).chat.completions.stream({ model: 'acme/chat-1', messages: USER, tools: [tool] });
    const done: unknown[] = [];
    stream.on('tool_calls.function.arguments.done', ({ parsed_arguments }) => void done.push(parsed_arguments));
    const message = await stream.finalMessage();
    expect(done).toEqual([{ city: 'OSLO' }]);
    expect(message.tool_calls?.[0]?.function.parsed_arguments).toEqual({ city: 'OSLO' });
  });
});
