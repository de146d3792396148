/**
 * Structured outputs and tools from Standard Schemas that are not zod, above all those that are
 * functions: ArkType's types are callable (`Report(data)` validates), and a schema may be any
 * function carrying `~standard`. zodResponseFormat, zodFunction, parse() and runTools(), end to
 * end against the local server, with a real ArkType type.
 */
import { type } from 'arktype';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { InferenceError, OutputParseError, type StandardSchema } from '../src/index';
import { zodFunction, zodResponseFormat } from '../src/helpers/zod';
import { useMockServer } from './support/mock-server';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'requests' });

const messages = [{ role: 'user' as const, content: 'Report on Paris.' }];
const sent = (i = 0) => server.requests[i]!.body as { response_format?: unknown; tools?: unknown[]; messages: { role: string; content?: unknown; tool_call_id?: string }[] };

/** The model answers with this message (a completion body). */
function answer(message: Record<string, unknown>, finish_reason = 'stop') {
  return {
    body: {
      id: 'chatcmpl-a',
      object: 'chat.completion',
      created: 1,
      model: 'mock/echo',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }],
      usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 },
    },
  };
}
const says = (content: string) => answer({ content });
const calls = (...list: [id: string, name: string, args: string][]) =>
  answer({ content: null, tool_calls: list.map(([id, name, args]) => ({ id, type: 'function', function: { name, arguments: args } })) }, 'tool_calls');

// A real ArkType type: a function, with `~standard` (validate and the Standard JSON Schema converter).
const Report = type({
  city: 'string',
  celsius: 'number',
  'note?': 'string',
  tags: 'string[]',
});

describe('an ArkType type (a callable Standard Schema)', () => {
  it('is a function, and zodResponseFormat turns it into a strict JSON Schema', () => {
    expect(typeof Report).toBe('function');
    const format = zodResponseFormat(Report, 'report', { description: 'A weather report' });
    expect(format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'report',
        description: 'A weather report',
        strict: true,
        schema: {
          type: 'object',
          properties: {
            celsius: { type: 'number' },
            city: { type: 'string' },
            note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['celsius', 'city', 'tags', 'note'],
          additionalProperties: false,
        },
      },
    });
  });

  it('parse(): the reply is validated by the type, strict-mode nulls removed first', async () => {
    server.enqueue(says('{"city":"Paris","celsius":21.5,"note":null,"tags":["sunny"]}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: zodResponseFormat(Report, 'report') });
    const parsed = completion.choices[0]!.message.parsed;
    expect(parsed).toEqual({ city: 'Paris', celsius: 21.5, tags: ['sunny'] });
    expectTypeOf(parsed).toEqualTypeOf<{ city: string; celsius: number; note?: string; tags: string[] } | null>();
    // What went on the wire is plain JSON: the parser stays behind.
    expect(sent().response_format).toEqual(JSON.parse(JSON.stringify(zodResponseFormat(Report, 'report'))));
  });

  it('parse() against the mock model, which writes a reply from the schema sent', async () => {
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: zodResponseFormat(Report, 'report') });
    const parsed = completion.choices[0]!.message.parsed!;
    expect(Report.allows(parsed)).toBe(true);
    expect(Object.keys(parsed).sort()).toEqual(expect.arrayContaining(['celsius', 'city', 'tags']));
  });

  it('gives the output side of a morph: the model writes a numeric string, parsed holds a number', async () => {
    const Count = type({ count: 'string.numeric.parse' });
    const format = zodResponseFormat(Count, 'count');
    expect(format.json_schema.schema).toMatchObject({ properties: { count: { type: 'string' } } });
    server.enqueue(says('{"count":"42"}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format });
    expect(completion.choices[0]!.message.parsed).toEqual({ count: 42 });
    expectTypeOf(completion.choices[0]!.message.parsed).toEqualTypeOf<{ count: number } | null>();
  });

  it("throws OutputParseError with ArkType's own issues, their paths and the values found", async () => {
    server.enqueue(says('{"city":7,"celsius":"warm","note":null,"tags":[]}'));
    const error = (await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: zodResponseFormat(Report, 'report') }).catch((e: unknown) => e)) as OutputParseError;
    expect(error).toBeInstanceOf(OutputParseError);
    expect(error.reason).toBe('schema');
    expect(error.issues.map((i) => [i.path, i.received]).sort()).toEqual([
      ['celsius', 'warm'],
      ['city', 7],
    ]);
    expect(error.message).toMatch(/must be a number/);
  });

  it('zodFunction(): a strict tool, and parse() gives typed parsed_arguments', async () => {
    const Args = type({ city: 'string', 'unit?': "'c' | 'f'" });
    const tool = zodFunction({ name: 'get_weather', description: 'Weather in a city', parameters: Args });
    expect(tool.function).toEqual({
      name: 'get_weather',
      description: 'Weather in a city',
      strict: true,
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { anyOf: [{ enum: ['c', 'f'] }, { type: 'null' }] } },
        required: ['city', 'unit'],
        additionalProperties: false,
      },
    });
    server.enqueue(calls(['call_1', 'get_weather', '{"city":"Paris","unit":null}']));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, tools: [tool] });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(call.function.parsed_arguments).toEqual({ city: 'Paris' });
    expectTypeOf(call.function.parsed_arguments).toEqualTypeOf<{ city: string; unit?: 'c' | 'f' }>();
  });

  it('runTools(): the function gets arguments the type validated; invalid ones go back to the model', async () => {
    const seen: unknown[] = [];
    const getWeather = zodFunction({
      name: 'get_weather',
      parameters: type({ city: 'string', days: 'number.integer' }),
      function: ({ city, days }) => {
        seen.push({ city, days });
        return { city, days, celsius: 21 };
      },
    });
    server.enqueue(calls(['ok', 'get_weather', '{"city":"Paris","days":2}'], ['bad', 'get_weather', '{"city":"Oslo","days":1.5}']), says('Paris: 21 °C.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [getWeather] });
    expect(await runner.finalContent()).toBe('Paris: 21 °C.');
    expect(seen).toEqual([{ city: 'Paris', days: 2 }]);
    const results = sent(1).messages.filter((m) => m.role === 'tool');
    expect(results[0]).toEqual({ role: 'tool', tool_call_id: 'ok', content: '{"city":"Paris","days":2,"celsius":21}' });
    expect(results[1]).toMatchObject({ tool_call_id: 'bad', content: expect.stringMatching(/^Error: invalid arguments for get_weather: days: .*integer.*Call it again/) });
  });
});

describe('any callable Standard Schema', () => {
  /** A hand-written schema library whose schemas are functions, like ArkType's. */
  function callableSchema(withJSONSchema: boolean) {
    const validate = (value: unknown) =>
      typeof (value as { n?: unknown } | null)?.n === 'number'
        ? { value: { n: (value as { n: number }).n, doubled: (value as { n: number }).n * 2 } }
        : { issues: [{ message: 'n must be a number', path: [{ key: 'n' }] }] };
    const jsonSchema = () => ({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
    const schema = (value: unknown) => validate(value);
    return Object.assign(schema, {
      '~standard': {
        version: 1 as const,
        vendor: 'callable',
        validate,
        ...(withJSONSchema ? { jsonSchema: { input: jsonSchema, output: jsonSchema } } : {}),
        types: undefined as unknown as { input: { n: number }; output: { n: number; doubled: number } },
      },
    });
  }

  it('works with zodResponseFormat and parse()', async () => {
    const format = zodResponseFormat(callableSchema(true), 'doubling');
    expect(format.json_schema.schema).toEqual({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false });
    server.enqueue(says('{"n": 4}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format });
    expect(completion.choices[0]!.message.parsed).toEqual({ n: 4, doubled: 8 });
    expectTypeOf(completion.choices[0]!.message.parsed).toEqualTypeOf<{ n: number; doubled: number } | null>();

    server.enqueue(says('{"n": "four"}'));
    const error = (await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format }).catch((e: unknown) => e)) as OutputParseError;
    expect(error).toBeInstanceOf(OutputParseError);
    expect(error.issues).toEqual([{ path: 'n', message: 'n must be a number', received: 'four' }]);
  });

  it('works with zodFunction and runTools()', async () => {
    const seen: unknown[] = [];
    const tool = zodFunction({ name: 'double', parameters: callableSchema(true), function: (args) => seen.push(args) && args.doubled });
    server.enqueue(calls(['c1', 'double', '{"n":5}']), says('10'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [tool] });
    expect(await runner.finalContent()).toBe('10');
    expect(seen).toEqual([{ n: 5, doubled: 10 }]);
  });

  it('without a JSON Schema converter, or without ~standard at all, is refused with a clear error', () => {
    expect(() => zodResponseFormat(callableSchema(false), 'x')).toThrow(InferenceError);
    expect(() => zodResponseFormat(callableSchema(false), 'x')).toThrow(/callable schema implements Standard Schema but not Standard JSON Schema/);
    const notASchema = (() => undefined) as unknown as StandardSchema;
    expect(() => zodResponseFormat(notASchema, 'x')).toThrow(/expected a zod 4 schema or a Standard JSON Schema \(a schema with `~standard`\)/);
    expect(() => zodFunction({ name: 'f', parameters: notASchema })).toThrow(/^zodFunction\(\{ name: "f" \}\): expected a zod 4 schema/);
  });
});
