// The zod helpers send the JSON Schema the official client's helpers send (openai/helpers/zod, zod
// 4), so that a schema OpenAI's strict mode accepts from one is accepted from the other: a
// discriminated union as `anyOf`, recursive and shared definitions in the root's `definitions`
// with `#/definitions/…` refs, and `schemaDefinitions`. What docs/structured-outputs.md lists as
// deliberately different is left out of the comparison: `$schema`, and optional fields (openai
// refuses them; the SDK makes them required and nullable).
import {
  zodFunction as openaiFunction,
  zodResponseFormat as openaiResponseFormat,
} from 'openai/helpers/zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodFunction, zodResponseFormat } from '../../src/helpers/zod';

/** openai's schema without `$schema`, which the SDK leaves out. */
const withoutDialect = (schema: Record<string, unknown> | undefined) => {
  const { $schema: _dialect, ...rest } = schema ?? {};
  return rest;
};

type TreeNode = { name: string; children: TreeNode[] };
const TreeNode: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({ name: z.string(), children: z.array(TreeNode) }),
);
const Shape = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('circle'), r: z.number() }),
  z.object({ kind: z.literal('square'), side: z.number() }),
]);
const Address = z.object({ street: z.string(), city: z.string() });
const Tagged = z.object({ street: z.string() }).meta({ id: 'Tagged' });

const CASES: [string, z.ZodObject][] = [
  ['a discriminated union (anyOf, not oneOf)', z.object({ shape: Shape })],
  ['a nested discriminated union', z.object({ items: z.array(z.object({ shape: Shape })) })],
  ['a recursive z.lazy schema (definitions at the root)', z.object({ root: TreeNode })],
  ['a schema with an id (.meta({ id }))', z.object({ a: Tagged, b: Tagged })],
];

describe('zodResponseFormat and zodFunction send the JSON Schema openai/helpers/zod sends', () => {
  it.each(CASES)('zodResponseFormat: %s', (_, schema) => {
    const theirs = openaiResponseFormat(schema, 'answer');
    const ours = zodResponseFormat(schema, 'answer');
    expect(ours.json_schema.schema).toEqual(withoutDialect(theirs.json_schema.schema));
    expect(JSON.stringify(ours.json_schema.schema)).not.toMatch(/oneOf|\$defs/);
  });

  it.each(CASES)('zodFunction: %s', (_, schema) => {
    const theirs = openaiFunction({ name: 'act', parameters: schema });
    const ours = zodFunction({ name: 'act', parameters: schema });
    expect(ours.function.parameters).toEqual(withoutDialect(theirs.function.parameters));
  });

  it('schemaDefinitions: the same definitions and refs', () => {
    const Order = z.object({ billing: Address, shipping: Address, root: TreeNode });
    const theirs = openaiResponseFormat(Order, 'order', { schemaDefinitions: { Address } });
    const ours = zodResponseFormat(Order, 'order', { schemaDefinitions: { Address } });
    expect(ours.json_schema.schema).toEqual(withoutDialect(theirs.json_schema.schema));
    expect(ours.json_schema.schema).toMatchObject({
      properties: { billing: { $ref: '#/definitions/Address' } },
    });
  });

  it("z.xor's oneOf goes as anyOf too, where openai leaves the oneOf strict mode refuses", () => {
    const schema = z.object({ either: z.xor([z.string(), z.number()]) });
    expect(withoutDialect(openaiResponseFormat(schema, 'x').json_schema.schema)).toMatchObject({
      properties: { either: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
    });
    expect(zodResponseFormat(schema, 'x').json_schema.schema).toMatchObject({
      properties: { either: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
    });
  });
});
