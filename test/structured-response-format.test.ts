/**
 * Structured outputs end to end against the local server: zodResponseFormat (zod 4 classic and
 * mini, any Standard JSON Schema, zod 3 refused) and the strict JSON Schema as sent.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';
import * as z3 from 'zod/v3';
import { InferenceError, OutputParseError, type StandardSchema } from '../src/index';
import { zodFunction, zodResponseFormat } from '../src/helpers/zod';
import { useMockServer } from './support/mock-server';
import { messages, says, Weather } from './support/structured';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'requests' });

const sent = (i = 0) => server.requests[i]!.body as Record<string, unknown>;

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
