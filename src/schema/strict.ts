/**
 * JSON Schema → the strict form structured outputs accept, and the way back for values.
 *
 * Strict mode (OpenAI's structured outputs, and servers that copy it) wants every object to list
 * all its properties in `required` and to set `additionalProperties: false`. An optional property
 * therefore becomes required-but-nullable: the model writes `null` where it would have left the
 * key out. {@link restoreOptional} undoes that before validation, so that a schema saying
 * "optional string" is not handed a `null` it would reject.
 */
import type { JSONSchema } from './standard';

const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = [
  '$defs',
  'definitions',
  'properties',
  'patternProperties',
  'dependentSchemas',
] as const;
const SUBSCHEMAS = [
  'items',
  'additionalItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
] as const;

/**
 * A strict copy of `schema` (the input is not changed): every object lists all its properties
 * as required and forbids others (`additionalProperties: false`, also where it was `true`); each
 * property that was optional accepts `null` instead. `oneOf`, which strict mode refuses, becomes
 * `anyOf`: a discriminated union's branches exclude each other, so nothing changes, and for other
 * unions the schema's own validation still checks the reply. The root's `$defs` move to
 * `definitions`, their `$ref`s with them, where the official client puts them. `additionalProperties`
 * that is a schema (a record type) is kept, since strict mode has no way to say it; servers that
 * enforce strict mode reject it with a message naming the field.
 */
export function toStrictJSONSchema(schema: JSONSchema): JSONSchema {
  // zod gives draft 2020-12's `$defs`; the official client asks zod for draft-07, whose
  // `definitions` OpenAI documents too. The same place at the root, under its name.
  const move = isObject(schema['$defs']) && !('definitions' in schema);
  const ref = move
    ? (value: string) => (value.startsWith(DEFS) ? DEFINITIONS + value.slice(DEFS.length) : value)
    : (value: string) => value;
  // `$schema` is metadata; some strict servers reject keys they do not know.
  const { $schema: _dialect, $defs, definitions, ...strict } = strictCopy(schema, ref);
  // Definitions last, as the official client places them.
  if (move) strict['definitions'] = $defs;
  else {
    if ($defs !== undefined) strict['$defs'] = $defs;
    if (definitions !== undefined) strict['definitions'] = definitions;
  }
  return strict;
}

const DEFS = '#/$defs/';
const DEFINITIONS = '#/definitions/';

function strictCopy(schema: JSONSchema, ref: (value: string) => string): JSONSchema {
  const strictValue = (value: unknown): unknown =>
    isObject(value) ? strictCopy(value, ref) : value;
  const out: JSONSchema = { ...schema };
  if (typeof out['$ref'] === 'string') out['$ref'] = ref(out['$ref']);
  // Strict mode refuses `oneOf`. With an `anyOf` beside it there is no single list to give:
  // it stays, and a strict server names it.
  if (Array.isArray(out['oneOf']) && !('anyOf' in out)) {
    out['anyOf'] = out['oneOf'];
    delete out['oneOf'];
  }
  for (const key of SUBSCHEMA_LISTS) {
    if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(strictValue);
  }
  for (const key of SUBSCHEMA_MAPS) {
    if (isObject(out[key]) && key !== 'properties') out[key] = mapValues(out[key], strictValue);
  }
  for (const key of SUBSCHEMAS) {
    if (isObject(out[key])) out[key] = strictCopy(out[key], ref);
  }
  // draft-07 tuples: `items` as a list.
  if (Array.isArray(out['items'])) out['items'] = out['items'].map(strictValue);
  if (isObject(out['additionalProperties']))
    out['additionalProperties'] = strictCopy(out['additionalProperties'], ref);

  if (isObject(out['properties'])) {
    const properties = out['properties'];
    const required = new Set(Array.isArray(out['required']) ? (out['required'] as string[]) : []);
    const strictProperties: JSONSchema = {};
    for (const [name, value] of Object.entries(properties)) {
      const property = strictValue(value);
      strictProperties[name] =
        required.has(name) || !isObject(property) ? property : nullable(property);
    }
    out['properties'] = strictProperties;
    out['required'] = Object.keys(properties);
  }
  if (isObjectSchema(out) && !isObject(out['additionalProperties']))
    out['additionalProperties'] = false;
  return out;
}

/** `schema` that also accepts `null` (unchanged when it already did). */
function nullable(schema: JSONSchema): JSONSchema {
  if (acceptsNull(schema, undefined)) return schema;
  const { description, title, ...rest } = schema;
  const out: JSONSchema = { anyOf: [rest, { type: 'null' }] };
  // Keep the description where the model reads it: on the property itself.
  if (description !== undefined) out['description'] = description;
  if (title !== undefined) out['title'] = title;
  return out;
}

/**
 * Whether a schema lets `null` through: a `null` type, a `null` in its enum or const, a
 * nullable branch of `anyOf`/`oneOf`, OpenAPI's `nullable: true`, or no constraint at all.
 */
function acceptsNull(
  schema: unknown,
  root: JSONSchema | undefined,
  seen = new Set<unknown>(),
): boolean {
  if (schema === true) return true;
  if (!isObject(schema) || seen.has(schema)) return false;
  seen.add(schema);
  const ref =
    typeof schema['$ref'] === 'string' && root ? resolveRef(root, schema['$ref']) : undefined;
  if (ref) return acceptsNull(ref, root, seen);
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema['nullable'] === true || schema['const'] === null) return true;
  if (Array.isArray(schema['enum'])) return schema['enum'].includes(null);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) return branches.some((branch) => acceptsNull(branch, root, seen));
  }
  const constraining = [
    'type',
    'const',
    'enum',
    'anyOf',
    'oneOf',
    'allOf',
    '$ref',
    'not',
    'properties',
    'items',
  ];
  return !constraining.some((key) => key in schema);
}

/**
 * `value` (parsed from the model's JSON) with the `null`s strict mode put in place of left-out
 * optional properties removed again, guided by the original (non-strict) schema. A `null` stays
 * where the original schema accepts `null`. Returns a new value; the input is not changed.
 */
export function restoreOptional(value: unknown, schema: JSONSchema): unknown {
  return restore(value, schema, schema);
}

function restore(value: unknown, schema: unknown, root: JSONSchema, depth = 0): unknown {
  if (!isObject(schema) || depth > 64) return value;
  if (typeof schema['$ref'] === 'string') {
    const target = resolveRef(root, schema['$ref']);
    return target ? restore(value, target, root, depth + 1) : value;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    // Follow a branch only when exactly one fits the value's JSON type: with two object branches
    // it is not knowable which one the model meant, and guessing could drop a real `null`.
    const fitting = branches.filter((branch) => fitsType(value, branch, root));
    if (fitting.length === 1) value = restore(value, fitting[0], root, depth + 1);
  }
  if (Array.isArray(schema['allOf'])) {
    for (const branch of schema['allOf']) value = restore(value, branch, root, depth + 1);
  }
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema['prefixItems']) ? schema['prefixItems'] : [];
    const items = schema['items'];
    return value.map((item, i) => {
      const itemSchema = i < prefix.length ? prefix[i] : Array.isArray(items) ? items[i] : items;
      return restore(item, itemSchema, root, depth + 1);
    });
  }
  if (isObject(value) && isObject(schema['properties'])) {
    const properties = schema['properties'];
    const required = new Set(
      Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [],
    );
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (
        item === null &&
        property !== undefined &&
        !required.has(key) &&
        !acceptsNull(property, root)
      )
        continue;
      out[key] = property === undefined ? item : restore(item, property, root, depth + 1);
    }
    return out;
  }
  return value;
}

/**
 * Whether `value`'s JSON type is one the branch could describe (used to pick an anyOf branch),
 * and, for an object, whether it has the values the branch's `const` properties fix: a
 * discriminated union's branches, all objects, differ there.
 */
function fitsType(value: unknown, branch: unknown, root: JSONSchema): boolean {
  if (!isObject(branch)) return branch === true;
  const target = typeof branch['$ref'] === 'string' ? resolveRef(root, branch['$ref']) : branch;
  if (!isObject(target)) return false;
  if (isObject(value) && isObject(target['properties'])) {
    for (const [key, property] of Object.entries(target['properties'])) {
      const fixed = isObject(property) ? property['const'] : undefined;
      // A scalar `const` only: JSON objects and arrays are not compared here.
      if (fixed !== undefined && typeof fixed !== 'object' && fixed !== value[key]) return false;
      if (fixed === null && value[key] !== null) return false;
    }
  }
  const type = target['type'];
  const types = Array.isArray(type) ? type : typeof type === 'string' ? [type] : undefined;
  if (!types) return isObjectSchema(target) ? isObject(value) : false;
  const actual =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'number'
          ? 'number'
          : typeof value;
  return types.some((t) => t === actual || (t === 'integer' && actual === 'number'));
}

/** A local `$ref` (`#/$defs/Name`, `#/definitions/Name`, `#`); others are left alone. */
function resolveRef(root: JSONSchema, ref: string): JSONSchema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return isObject(current) ? current : undefined;
}

function isObjectSchema(schema: JSONSchema): boolean {
  return (
    schema['type'] === 'object' ||
    (Array.isArray(schema['type']) && schema['type'].includes('object')) ||
    isObject(schema['properties'])
  );
}

function mapValues(record: JSONSchema, map: (value: unknown) => unknown): JSONSchema {
  const out: JSONSchema = {};
  for (const [key, value] of Object.entries(record)) out[key] = map(value);
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
