/**
 * Structured outputs end to end against the local server: zodResponseFormat (zod 4 classic and
 * mini, any Standard JSON Schema, zod 3 refused), the strict JSON Schema as sent, parse() with
 * its typed errors, and streaming partial values. Corpus captures of JSON replies where they exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';
import * as z3 from 'zod/v3';
import {
  ContentFilterFinishReasonError,
  InferenceError,
  LengthFinishReasonError,
  OutputParseError,
  type StandardSchema,
} from '../src/index';
import { zodFunction, zodResponseFormat } from '../src/helpers/zod';
import { useMockServer } from './support/mock-server';

const CORPUS = fileURLToPath(new URL('../../shared/corpus/', import.meta.url));
const corpusPresent = existsSync(`${CORPUS}MANIFEST.json`);
const corpusJSON = (file: string) => JSON.parse(readFileSync(CORPUS + file, 'utf8')) as object;
const corpusBytes = (file: string) => new Uint8Array(readFileSync(CORPUS + file));

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'requests' });

const messages = [{ role: 'user' as const, content: 'Weather in Paris?' }];
const sent = (i = 0) => server.requests[i]!.body as Record<string, unknown>;

/** The model answers with this message (a completion body). */
function answer(message: Record<string, unknown>, finish_reason = 'stop') {
  return {
    body: {
      id: 'chatcmpl-s',
      object: 'chat.completion',
      created: 1,
      model: 'mock/echo',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }],
      usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 },
    },
  };
}
/** The model answers with this text as its content. */
const says = (content: string, finish_reason = 'stop') => answer({ content }, finish_reason);

/** The model streams this text in pieces of `size` characters. */
function streams(text: string, size = 3, finish_reason = 'stop') {
  const events: unknown[] = [{ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }];
  for (let i = 0; i < text.length; i += size) events.push({ choices: [{ index: 0, delta: { content: text.slice(i, i + size) } }] });
  events.push({ choices: [{ index: 0, delta: {}, finish_reason }] }, '[DONE]');
  return { events };
}

const Weather = z.object({
  city: z.string().describe('City name'),
  celsius: z.number(),
  note: z.string().optional(),
  wind: z.number().nullable(),
});

describe('zodResponseFormat', () => {
  it('sends a strict JSON Schema: all properties required, no others, optional ones nullable', () => {
    const format = zodResponseFormat(Weather, 'weather', { description: 'The weather' });
    expect(format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'weather',
        description: 'The weather',
        strict: true,
        schema: {
          type: 'object',
          properties: {
            city: { type: 'string', description: 'City name' },
            celsius: { type: 'number' },
            note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
            wind: { type: ['number', 'null'] },
          },
          required: ['city', 'celsius', 'note', 'wind'],
          additionalProperties: false,
        },
      },
    });
  });

  it('makes nested objects, array items and $defs strict too', () => {
    const Node: z.ZodType<{ name: string; children?: unknown[] | undefined }> = z.lazy(() => z.object({ name: z.string(), children: z.array(Node).optional() }));
    const Tree = z.object({ root: Node, tags: z.array(z.object({ label: z.string(), weight: z.number().optional() })) });
    const schema = zodResponseFormat(Tree, 'tree').json_schema.schema as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(schema.properties.tags.items).toEqual({
      type: 'object',
      properties: { label: { type: 'string' }, weight: { anyOf: [{ type: 'number' }, { type: 'null' }] } },
      required: ['label', 'weight'],
      additionalProperties: false,
    });
    const defs = Object.values(schema.definitions) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(defs.length).toBeGreaterThan(0);
    for (const def of defs.filter((d) => d.type === 'object')) {
      expect(def.additionalProperties).toBe(false);
      expect(def.required).toEqual(Object.keys(def.properties));
    }
    expect(schema).not.toHaveProperty('$schema');
  });

  it('removes strict-mode nulls through $refs (recursive schemas)', async () => {
    const Node: z.ZodType<{ name: string; children?: unknown[] | undefined }> = z.lazy(() => z.object({ name: z.string(), children: z.array(Node).optional() }));
    server.enqueue(says('{"root":{"name":"a","children":[{"name":"b","children":null}]}}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: zodResponseFormat(z.object({ root: Node }), 'tree') });
    expect(completion.choices[0]!.message.parsed).toEqual({ root: { name: 'a', children: [{ name: 'b' }] } });
  });

  it('describes what the model writes: the input side of transforms', () => {
    const format = zodResponseFormat(z.object({ count: z.string().transform(Number) }), 'count');
    expect(format.json_schema.schema).toMatchObject({ properties: { count: { type: 'string' } } });
  });

  it('accepts zod/mini schemas', () => {
    const format = zodResponseFormat(zm.object({ a: zm.string(), b: zm.optional(zm.number()) }), 'mini');
    expect(format.json_schema.schema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { anyOf: [{ type: 'number' }, { type: 'null' }] } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
  });

  it('accepts any Standard JSON Schema, asking it for the 2020-12 dialect', async () => {
    const targets: string[] = [];
    const schema = standardSchema((options) => {
      targets.push(options.target);
      return { $schema: 'x', type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    });
    const format = zodResponseFormat(schema, 'acme');
    expect(targets).toEqual(['draft-2020-12']);
    expect(format.json_schema.schema).toEqual({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false });

    server.enqueue(says('{"n": 3}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format });
    expect(completion.choices[0]!.message.parsed).toEqual({ n: 3, checked: true });
  });

  it('falls back to draft-07 for a library without 2020-12', () => {
    const schema = standardSchema((options) => {
      if (options.target !== 'draft-07') throw new Error(`unsupported target ${options.target}`);
      return { type: 'object', properties: {} };
    });
    expect(zodResponseFormat(schema, 'old').json_schema.schema).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
  });

  it('sends the schema as it is with strict: false', () => {
    const format = zodResponseFormat(Weather, 'weather', { strict: false });
    expect(format.json_schema.strict).toBe(false);
    expect(format.json_schema.schema).toMatchObject({ required: ['city', 'celsius', 'wind'] });
    expect(format.json_schema.schema).not.toHaveProperty('$schema');
  });

  it('refuses a zod 3 schema, saying to upgrade or pass JSON Schema', () => {
    const old = z3.object({ a: z3.string() });
    expect(() => zodResponseFormat(old as unknown as StandardSchema, 'old')).toThrow(InferenceError);
    expect(() => zodResponseFormat(old as unknown as StandardSchema, 'old')).toThrow(/zod 3 schema.*Upgrade to zod 4.*pass the JSON Schema yourself/s);
  });

  it('refuses a Standard Schema without JSON Schema, and things that are not schemas', () => {
    const noJSON = { '~standard': { version: 1, vendor: 'acme', validate: (value: unknown) => ({ value }) } } as const;
    expect(() => zodResponseFormat(noJSON, 'x')).toThrow(/acme schema implements Standard Schema but not Standard JSON Schema/);
    expect(() => zodResponseFormat({ type: 'object' } as unknown as StandardSchema, 'x')).toThrow(/expected a zod 4 schema or a Standard JSON Schema/);
  });

  it('checks the name', () => {
    expect(() => zodResponseFormat(Weather, 'not ok!')).toThrow(/the name must be 1 to 64 letters/);
  });

  it('keeps its parser out of the request body', async () => {
    const format = zodResponseFormat(Weather, 'weather');
    server.enqueue(says('{"city":"Paris","celsius":21,"note":null,"wind":null}'));
    await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format });
    expect(sent().response_format).toEqual(JSON.parse(JSON.stringify(format)));
    expect(Object.getOwnPropertySymbols(sent().response_format as object)).toHaveLength(0);
  });
});

describe('what strict mode accepts (as the official client sends it)', () => {
  const object = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });
  const Shape = z.discriminatedUnion('kind', [z.object({ kind: z.literal('circle'), r: z.number() }), z.object({ kind: z.literal('square'), side: z.number().optional() })]);
  type TreeNode = { name: string; children: TreeNode[] };
  const TreeNode: z.ZodType<TreeNode> = z.lazy(() => z.object({ name: z.string(), children: z.array(TreeNode) }));
  const treeSchema = {
    ...object({ root: { $ref: '#/definitions/__schema0' } }),
    definitions: { __schema0: object({ name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/__schema0' } } }) },
  };

  it('sends a discriminated union as anyOf, not oneOf (strict mode refuses oneOf), nested ones too', () => {
    const circle = object({ kind: { type: 'string', const: 'circle' }, r: { type: 'number' } });
    const square = object({ kind: { type: 'string', const: 'square' }, side: { anyOf: [{ type: 'number' }, { type: 'null' }] } });
    expect(zodResponseFormat(z.object({ shape: Shape }), 'shape').json_schema.schema).toEqual(object({ shape: { anyOf: [circle, square] } }));
    const nested = zodResponseFormat(z.object({ shapes: z.array(z.object({ shape: Shape })), either: z.xor([z.string(), z.number()]) }), 'shapes');
    expect(nested.json_schema.schema).toEqual(object({ shapes: { type: 'array', items: object({ shape: { anyOf: [circle, square] } }) }, either: { anyOf: [{ type: 'string' }, { type: 'number' }] } }));
    expect(JSON.stringify(zodFunction({ name: 'draw', parameters: z.object({ shape: Shape }) }).function.parameters)).not.toContain('oneOf');
  });

  it('parses a discriminated union sent as anyOf: the branch the discriminator picks has its strict-mode nulls removed', async () => {
    const response_format = zodResponseFormat(z.object({ shape: Shape }), 'shape');
    server.enqueue(says('{"shape":{"kind":"square","side":null}}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format });
    expect(completion.choices[0]!.message.parsed).toEqual({ shape: { kind: 'square' } });
    // The schema still tells the branches apart: a circle has no side.
    server.enqueue(says('{"shape":{"kind":"circle","side":2}}'));
    await expect(client.chat.completions.parse({ model: 'mock/echo', messages, response_format })).rejects.toThrow(OutputParseError);
  });

  it('puts recursive definitions in the root definitions, with #/definitions/ refs, and parses the reply', async () => {
    const response_format = zodResponseFormat(z.object({ root: TreeNode }), 'tree');
    expect(response_format.json_schema.schema).toEqual(treeSchema);
    expect(zodFunction({ name: 'plant', parameters: z.object({ root: TreeNode }) }).function.parameters).toEqual(treeSchema);

    server.enqueue(says('{"root":{"name":"a","children":[{"name":"b","children":[{"name":"c","children":[]}]}]}}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format });
    expect((sent().response_format as { json_schema: unknown }).json_schema).toMatchObject({ name: 'tree', strict: true, schema: treeSchema });
    expect(completion.choices[0]!.message.parsed).toEqual({ root: { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] } });
    // Validated against the recursive schema at every depth.
    server.enqueue(says('{"root":{"name":"a","children":[{"name":7,"children":[]}]}}'));
    const bad = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(OutputParseError);
    expect((bad as OutputParseError).issues[0]).toMatchObject({ path: 'root.children[0].name', received: 7 });
  });

  it('schemaDefinitions: a shared schema sent once under its name, referred to where used, descriptions kept', async () => {
    const Address = z.object({ street: z.string().describe('Street and number'), unit: z.string().optional() });
    const Order = z.object({ billing: Address, shipping: Address, note: z.string().describe('For the courier') });
    const address = object({ street: { type: 'string', description: 'Street and number' }, unit: { anyOf: [{ type: 'string' }, { type: 'null' }] } });
    const expected = {
      ...object({ billing: { $ref: '#/definitions/Address' }, shipping: { $ref: '#/definitions/Address' }, note: { type: 'string', description: 'For the courier' } }),
      definitions: { Address: address },
    };
    const response_format = zodResponseFormat(Order, 'order', { schemaDefinitions: { Address } });
    expect(response_format.json_schema.schema).toEqual(expected);
    expect(zodFunction({ name: 'ship', parameters: Order, schemaDefinitions: { Address } }).function.parameters).toEqual(expected);
    // Without the option each use is written out.
    expect(zodResponseFormat(Order, 'order').json_schema.schema).not.toHaveProperty('definitions');

    server.enqueue(says('{"billing":{"street":"1 Rue A","unit":null},"shipping":{"street":"2 Rue B","unit":"3F"},"note":"ring"}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format });
    expect(completion.choices[0]!.message.parsed).toEqual({ billing: { street: '1 Rue A' }, shipping: { street: '2 Rue B', unit: '3F' }, note: 'ring' });
  });

  it('schemaDefinitions: refuses what is not a zod 4 schema, and the name __proto__', () => {
    const Address = z.object({ street: z.string() });
    const Order = z.object({ billing: Address });
    expect(() => zodResponseFormat(Order, 'order', { schemaDefinitions: { Address: { type: 'object' } as unknown as StandardSchema } })).toThrow(/schemaDefinitions\.Address` must be a zod 4 schema/);
    expect(() => zodResponseFormat(Order, 'order', { schemaDefinitions: JSON.parse('{"__proto__":{}}') as Record<string, StandardSchema> })).toThrow(/cannot name a definition "__proto__"/);
    const arktypeLike = standardSchema(() => ({ type: 'object', properties: {} }));
    expect(() => zodResponseFormat(arktypeLike, 'x', { schemaDefinitions: { Address } })).toThrow(InferenceError);
    expect(() => zodResponseFormat(arktypeLike, 'x', { schemaDefinitions: { Address } })).toThrow(/needs a zod 4 schema/);
  });
});

describe('parse()', () => {
  const format = zodResponseFormat(Weather, 'weather');

  it('gives message.parsed, validated, with the nulls strict mode asked for removed again', async () => {
    server.enqueue(says('{"city":"Paris","celsius":21.5,"note":null,"wind":null}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format });
    const message = completion.choices[0]!.message;
    expect(message.parsed).toEqual({ city: 'Paris', celsius: 21.5, wind: null });
    expect(message.content).toBe('{"city":"Paris","celsius":21.5,"note":null,"wind":null}');
    expect(completion.usage?.total_tokens).toBe(18);
  });

  describe('a schema whose validation never settles (an async check that hangs)', () => {
    const json = z.toJSONSchema(Weather);
    const stuck: StandardSchema<unknown, { city: string }> = {
      '~standard': { version: 1, vendor: 'test', validate: () => new Promise(() => {}), jsonSchema: { input: () => json, output: () => json } },
    };
    const stuckFormat = zodResponseFormat(stuck, 'weather');
    const pendingTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

    it("parse(): the call's timeout ends the wait with APIConnectionTimeoutError; no timer left", async () => {
      server.enqueue(says('{"city":"Paris","celsius":21}'));
      const timers = pendingTimers();
      // The timeout bounds the request too: long enough for a loaded machine's request, then the wait.
      await expect(client.chat.completions.parse({ model: 'mock/echo', messages, response_format: stuckFormat }, { timeout: 1_000 })).rejects.toThrow(
        expect.objectContaining({ name: 'APIConnectionTimeoutError', message: 'The schema validating the reply did not settle within 1000 ms (timeout): POST /chat/completions (parse)' }),
      );
      expect(pendingTimers()).toBeLessThanOrEqual(timers);
    });

    it("parse(): the call's signal ends the wait with APIUserAbortError at once", async () => {
      server.enqueue(says('{"city":"Paris","celsius":21}'));
      const controller = new AbortController();
      const parsing = client.chat.completions.parse({ model: 'mock/echo', messages, response_format: stuckFormat }, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 50)); // the reply is in; the schema hangs
      controller.abort();
      await expect(parsing).rejects.toMatchObject({ name: 'APIUserAbortError' });
    });

    it('runTools(): a round whose reply the schema never settles on ends at the timeout', async () => {
      server.enqueue(says('{"city":"Paris","celsius":21}'));
      const noop = { type: 'function' as const, function: { name: 'noop', parameters: { type: 'object' }, function: () => '' } };
      const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [noop], response_format: stuckFormat }, { timeout: 1_000 });
      await expect(runner.done()).rejects.toThrow('The schema validating the reply did not settle within 1000 ms (timeout): POST /chat/completions (runTools)');
    });
  });

  it('applies the schema: transforms and defaults', async () => {
    const Count = z.object({ count: z.string().transform(Number), unit: z.string().default('items') });
    server.enqueue(says('{"count":"12","unit":null}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: zodResponseFormat(Count, 'count') });
    expect(completion.choices[0]!.message.parsed).toEqual({ count: 12, unit: 'items' });
  });

  it('surfaces a refusal, with parsed null', async () => {
    server.enqueue(answer({ content: null, refusal: "I can't help with that." }));
    const message = (await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format })).choices[0]!.message;
    expect(message.refusal).toBe("I can't help with that.");
    expect(message.parsed).toBeNull();
  });

  it('throws OutputParseError for text that is not JSON, with the raw text', async () => {
    server.enqueue(says('Sure! The weather is nice.'));
    const error = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputParseError);
    expect(error).toMatchObject({ name: 'OutputParseError', reason: 'json', raw: 'Sure! The weather is nice.', toolCall: undefined });
    expect((error as OutputParseError).message).toMatch(/^The model's output is not valid JSON/);
  });

  it('throws OutputParseError for JSON the schema rejects, with each issue and the value found', async () => {
    server.enqueue(says('{"city":7,"celsius":"warm","note":null,"wind":null}'));
    const error = (await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format }).catch((e: unknown) => e)) as OutputParseError;
    expect(error).toBeInstanceOf(OutputParseError);
    expect(error.reason).toBe('schema');
    expect(error.issues.map((i) => [i.path, i.received])).toEqual([
      ['city', 7],
      ['celsius', 'warm'],
    ]);
    expect(error.message).toMatch(/does not match the schema: city: .*; celsius: /);
    expect(error.completion?.choices).toHaveLength(1);
  });

  it('throws LengthFinishReasonError when the output was cut at the token limit', async () => {
    server.enqueue(says('{"city":"Par', 'length'));
    const error = (await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format, max_tokens: 5 }).catch((e: unknown) => e)) as LengthFinishReasonError;
    expect(error).toBeInstanceOf(LengthFinishReasonError);
    expect(error.name).toBe('LengthFinishReasonError');
    expect(error.message).toMatch(/max_tokens/);
    expect(error.completion.choices[0]!.finish_reason).toBe('length');
  });

  it('throws ContentFilterFinishReasonError when the filter stopped the reply', async () => {
    server.enqueue(answer({ content: '' }, 'content_filter'));
    const error = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentFilterFinishReasonError);
    expect(error).toMatchObject({ name: 'ContentFilterFinishReasonError' });
  });

  it('reads JSON after an inline <think> block and inside a code fence', async () => {
    server.enqueue(says('<think>\nThe user wants JSON.\n</think>\n\n```json\n{"city":"Oslo","celsius":-2,"note":"snow","wind":4}\n```'));
    const message = (await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format })).choices[0]!.message;
    expect(message.parsed).toEqual({ city: 'Oslo', celsius: -2, note: 'snow', wind: 4 });
  });

  it('JSON-parses json_object and hand-written json_schema formats, without validation', async () => {
    server.enqueue(says('{"any": [1, 2]}'), says('{"x": true}'));
    const a = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: { type: 'json_object' } });
    expect(a.choices[0]!.message.parsed).toEqual({ any: [1, 2] });
    const b = await client.chat.completions.parse({
      model: 'mock/echo',
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' }, strict: true } },
    });
    expect(b.choices[0]!.message.parsed).toEqual({ x: true });
  });

  it('leaves parsed null without a JSON response format, and for a turn that only called tools', async () => {
    server.enqueue(says('{"looks": "like json"}'), answer({ content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }, 'tool_calls'));
    const plain = await client.chat.completions.parse({ model: 'mock/echo', messages });
    expect(plain.choices[0]!.message.parsed).toBeNull();
    const tools = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format });
    expect(tools.choices[0]!.message.parsed).toBeNull();
  });

  it('parses every choice when n > 1', async () => {
    server.enqueue({
      body: {
        choices: [
          { index: 0, message: { role: 'assistant', content: '{"city":"A","celsius":1,"note":null,"wind":null}' }, finish_reason: 'stop' },
          { index: 1, message: { role: 'assistant', content: '{"city":"B","celsius":2,"note":null,"wind":null}' }, finish_reason: 'stop' },
        ],
      },
    });
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format, n: 2 });
    expect(completion.choices.map((c) => c.message.parsed?.city)).toEqual(['A', 'B']);
  });

  it('keeps withResponse() and asResponse()', async () => {
    server.enqueue(says('{"city":"Rome","celsius":30,"note":null,"wind":null}'));
    const { data, response, requestId } = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format }).withResponse();
    expect(data.choices[0]!.message.parsed?.city).toBe('Rome');
    expect(response.status).toBe(200);
    expect(requestId).toMatch(/^req_/);

    server.enqueue(says('{"city":"Rome","celsius":30,"note":null,"wind":null}'));
    const pending = client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format });
    const raw = await pending.asResponse();
    expect(raw.bodyUsed).toBe(false);
    expect(await raw.json()).toMatchObject({ choices: [{ message: { content: '{"city":"Rome","celsius":30,"note":null,"wind":null}' } }] });
    // Awaited after asResponse(), it still parses (as the official client does).
    expect((await pending).choices[0]!.message.parsed?.city).toBe('Rome');
  });

  it('rejects at the call site for a bad body, before any request', async () => {
    await expect(client.chat.completions.parse({ model: '', messages })).rejects.toThrow(/`model` must be a non-empty string/);
    await expect(client.chat.completions.parse({ model: 'm', messages }, { timeoutt: 1 } as never)).rejects.toThrow(InferenceError);
    expect(server.requests).toHaveLength(0);
  });
});

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

/** A schema from an imaginary Standard Schema library ("acme"): validates numbers and marks the value. */
function standardSchema(input: (options: { target: string }) => Record<string, unknown>) {
  return {
    '~standard': {
      version: 1,
      vendor: 'acme',
      validate: (value: unknown) =>
        typeof (value as { n?: unknown })?.n === 'number' ? { value: { ...(value as { n: number }), checked: true } } : { issues: [{ message: 'n must be a number', path: ['n'] }] },
      jsonSchema: { input, output: input },
      types: undefined as unknown as { input: { n: number }; output: { n: number; checked: boolean } },
    },
  } as const;
}
