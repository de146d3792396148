/**
 * The values the mock server's built-in model makes up from a JSON Schema: tool arguments and
 * `json_schema` replies (see src/testing/model.ts for the rules it follows).
 *
 * @module
 */

/**
 * A deterministic value that satisfies a JSON Schema, as the built-in model
 * uses for tool arguments and `json_schema` replies. Covers what tool and
 * structured-output schemas use: `type` (also as a list), `properties` (every
 * property is filled), `items`, `enum`, `const`, `default`, `anyOf` / `oneOf`
 * / `allOf` (first branch that is not `null`), local `$ref`s, `minimum`,
 * `minItems`, `minLength` and common string `format`s. Strings are `text`
 * (or `"mock"` when it is empty).
 *
 * @param schema - a JSON Schema object; anything else gives `null`.
 * @param text - the value for plain strings.
 * @example
 * ```ts
 * import { exampleFromSchema } from './schema-example'; // internal: not part of model-inference-sdk/testing
 *
 * exampleFromSchema({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } } }, 'Paris');
 * // { city: 'Paris', days: 1 }
 * ```
 */
export function exampleFromSchema(schema: unknown, text = ''): unknown {
  return example(schema, text === '' ? 'mock' : text, schema, 0);
}

function example(schema: unknown, text: string, root: unknown, depth: number): unknown {
  // Recursive schemas ($ref to an ancestor) stop here rather than loop.
  if (depth > 12 || !isRecord(schema)) return null;
  if ('const' in schema) return schema['const'];
  const enumValues = schema['enum'];
  if (Array.isArray(enumValues) && enumValues.length > 0) return enumValues[0];
  if ('default' in schema) return schema['default'];
  const ref = schema['$ref'];
  if (typeof ref === 'string') return example(resolveRef(root, ref), text, root, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const branch = branches.find((b) => !(isRecord(b) && b['type'] === 'null')) ?? branches[0];
    return example(branch, text, root, depth + 1);
  }
  const declared = schema['type'];
  const type = Array.isArray(declared)
    ? (declared.find((t) => t !== 'null') ?? 'null')
    : typeof declared === 'string'
      ? declared
      : isRecord(schema['properties'])
        ? 'object'
        : 'items' in schema
          ? 'array'
          : 'string';
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = schema['properties'];
      if (isRecord(properties)) {
        for (const [name, property] of Object.entries(properties))
          out[name] = example(property, text, root, depth + 1);
      }
      return out;
    }
    case 'array': {
      const minItems = typeof schema['minItems'] === 'number' ? schema['minItems'] : 1;
      return Array.from({ length: Math.max(1, Math.min(minItems, 16)) }, () =>
        example(schema['items'], text, root, depth + 1),
      );
    }
    case 'integer':
    case 'number': {
      const min = numberOr(
        schema['minimum'],
        numberOr(schema['exclusiveMinimum'], undefined, 1),
        0,
      );
      const max = numberOr(schema['maximum'], undefined, 0);
      let value = max !== undefined && max < (min ?? 0) ? max : (min ?? 0);
      if (type === 'integer') value = Math.ceil(value);
      return value;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return exampleString(schema, text);
  }
}

function exampleString(schema: Record<string, unknown>, text: string): string {
  const formats: Record<string, string> = {
    'date-time': '2025-01-01T00:00:00Z',
    date: '2025-01-01',
    time: '00:00:00Z',
    email: 'mock@example.com',
    uri: 'https://example.com/',
    url: 'https://example.com/',
    uuid: '00000000-0000-4000-8000-000000000000',
  };
  const format = schema['format'];
  let value = (typeof format === 'string' ? formats[format] : undefined) ?? text;
  const minLength = schema['minLength'];
  if (typeof minLength === 'number' && value.length < minLength)
    value = value.padEnd(minLength, '.');
  const maxLength = schema['maxLength'];
  if (typeof maxLength === 'number' && value.length > maxLength) value = value.slice(0, maxLength);
  return value;
}

/** `value` (plus `offset`) when it is a number, else `fallback`. */
function numberOr<T>(value: unknown, fallback: T, offset = 0): number | T {
  return typeof value === 'number' && Number.isFinite(value) ? value + offset : fallback;
}

/** Resolves a local JSON Pointer such as `#/$defs/City`; anything else gives undefined. */
function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
