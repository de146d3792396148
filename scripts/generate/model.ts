// The component schemas of spec/openapi.yaml as a small model the emitters share: one node per
// JSON Schema construct the spec uses, and, on response objects, the normalization extensions
// (`x-default`, `x-convert`, ...) that spec/openapi.yaml's description defines.
//
// Only what the spec uses is supported; anything else fails generation with the schema's path,
// so that a new construct is a conscious change here rather than a silent mistranslation.

/** A type, as the spec writes it (a `$ref`, a primitive, an array, an object or a union). */
export type Node =
  | { kind: 'ref'; name: string }
  | { kind: 'string'; values?: readonly string[]; open?: boolean }
  | { kind: 'integer' }
  | { kind: 'number' }
  | { kind: 'boolean' }
  | { kind: 'null' }
  | { kind: 'unknown' }
  | { kind: 'array'; items: Node }
  | ObjectNode
  | { kind: 'union'; of: readonly Node[] };

export interface ObjectNode {
  kind: 'object';
  props: readonly Prop[];
  /**
   * Keys beyond `props`: `'keep'` (a response object: kept at runtime, not typed), `'none'`
   * (a request object), or a node (a map: every value of that type).
   */
  extra: 'keep' | 'none' | Node;
}

/** The named conversions of `x-convert` (see the spec's description). */
export const CONVERSIONS = ['number-decimal', 'object-in-array', 'json-text', 'unix-seconds', 'text-parts'] as const;
export type Conversion = (typeof CONVERSIONS)[number];

/** The named rules of `x-derive`. */
export const DERIVATIONS = ['reasoning', 'reasoning-raw', 'content-parts', 'total-tokens'] as const;
export type Derivation = (typeof DERIVATIONS)[number];

/** A JSON value from the spec (a default). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Prop {
  name: string;
  node: Node;
  required: boolean;
  description: string | undefined;
  /** `x-default`: the value when the server sends none. */
  default?: { value: Json } | undefined;
  /** `x-default-position`: the item's position in its array. */
  defaultPosition?: boolean | undefined;
  /** `x-absent`: further wire values that count as none. */
  absent?: readonly Json[] | undefined;
  /** `x-aliases`: other wire names, read when this one is absent. */
  aliases?: readonly string[] | undefined;
  /** `x-fixed`: always the node's single value. */
  fixed?: boolean | undefined;
  /** `x-convert` */
  convert?: readonly Conversion[] | undefined;
  /** `x-wire`: the wire schema when wider than `node`. */
  wire?: Node | undefined;
  /** `x-derive` */
  derive?: Derivation | undefined;
  /** `x-wire-only`: checked on the wire, not part of the returned type. */
  wireOnly?: boolean | undefined;
  /** `x-sort-by`: the item field an array is ordered by. */
  sortBy?: string | undefined;
  /** `deprecated: true`: kept for old code; the type says `@deprecated`. */
  deprecated?: boolean | undefined;
}

/**
 * One name the official `openai` client gives a schema (`x-openai-names`): an alias of the schema
 * (or of a part of it, `of`) when the name differs from the schema's, and the namespace members
 * openai declares under that name (`ChatCompletion.Choice`).
 */
export interface OpenAIName {
  name: string;
  /** A path into the schema (`role`, `function.parameters`, `functions[]`); the schema itself when absent. */
  of?: string | undefined;
  /** Namespace members: dotted member path (`Choice.Logprobs`) → target (`Schema`, `Schema.prop[]`). */
  members: readonly { path: readonly string[]; target: string }[];
  /**
   * `streaming: true`: the name is the union of `<name>NonStreaming` and `<name>Streaming`, the
   * schema with its `stream` field narrowed (openai's request bodies that may stream).
   */
  streaming?: boolean | undefined;
}

export interface Schema {
  name: string;
  node: Node;
  description: string | undefined;
  example: Json;
  /** `x-synonyms` of a string schema: wire string → value (`null` for "none"). */
  synonyms?: ReadonlyMap<string, string | null> | undefined;
  /** True for response schemas (`additionalProperties: true` at the top): normalized, unknown keys kept. */
  response: boolean;
  /** `deprecated: true` */
  deprecated?: boolean | undefined;
  /** `x-openai-names`: the `openai` client's names for this schema and its parts. */
  openaiNames: readonly OpenAIName[];
}

const PROP_KEYS = new Set([
  'type', 'items', 'properties', 'required', 'additionalProperties', 'description', 'const', 'enum',
  'anyOf', 'oneOf', '$ref', 'example', 'minItems',
  'x-default', 'x-default-position', 'x-absent', 'x-aliases', 'x-fixed', 'x-convert', 'x-wire',
  'x-derive', 'x-wire-only', 'x-sort-by', 'x-synonyms', 'deprecated',
]);

/** An identifier usable as a TypeScript type or namespace name. */
const IDENTIFIER = /^[A-Z]\w*$/;

type Raw = Record<string, unknown>;

function fail(path: string, message: string): never {
  throw new Error(`spec/openapi.yaml ${path}: ${message}`);
}

function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every component schema of the spec, in the spec's order. */
export function readSchemas(spec: unknown): Schema[] {
  const schemas = isRaw(spec) && isRaw(spec.components) ? spec.components.schemas : undefined;
  if (!isRaw(schemas)) fail('components.schemas', 'missing');
  return Object.entries(schemas).map(([name, raw]) => {
    const path = `components.schemas.${name}`;
    if (!isRaw(raw)) fail(path, 'not an object');
    if (!('example' in raw)) {
      fail(path, 'every component schema needs an `example` (it becomes the @example of the generated type)');
    }
    const response = raw.additionalProperties === true;
    const synonyms = raw['x-synonyms'];
    const { 'x-openai-names': openaiNames, ...rest } = raw;
    return {
      name,
      node: readNode(rest, path, response),
      description: typeof raw.description === 'string' ? raw.description.trim() : undefined,
      example: raw.example as Json,
      synonyms: isRaw(synonyms) ? new Map(Object.entries(synonyms).map(([k, v]) => [k, v as string | null])) : undefined,
      response,
      deprecated: raw.deprecated === true || undefined,
      openaiNames: readOpenAINames(openaiNames, `${path}.x-openai-names`, name),
    };
  });
}

/** `x-openai-names`: `{ Name: { of?: path, members?: { 'A.B': target }, streaming?: true } }` (an entry may be `{}` or null). */
function readOpenAINames(raw: unknown, path: string, schema: string): OpenAIName[] {
  if (raw === undefined) return [];
  if (!isRaw(raw)) fail(path, 'a map of names');
  return Object.entries(raw).map(([name, entry]) => {
    const at = `${path}.${name}`;
    if (!IDENTIFIER.test(name)) fail(at, 'not a type name');
    const value: unknown = entry ?? {};
    if (!isRaw(value)) fail(at, 'an object (`of`, `members`, `streaming`) or null');
    for (const key of Object.keys(value)) if (key !== 'of' && key !== 'members' && key !== 'streaming') fail(at, `unsupported key ${key}`);
    if (value.of !== undefined && typeof value.of !== 'string') fail(at, '`of` is a path');
    if (value.streaming !== undefined && value.streaming !== true) fail(at, '`streaming` is `true` or left out');
    if (value.streaming === true && (name === schema || value.of !== undefined)) fail(at, '`streaming` names the union of the schema\'s two forms: another name than the schema\'s, without `of`');
    if (name === schema && value.of !== undefined) fail(at, 'the schema\'s own name takes no `of`');
    if (name === schema && value.members === undefined) fail(at, 'the schema\'s own name needs `members`');
    const members = value.members ?? {};
    if (!isRaw(members)) fail(at, '`members` is a map');
    return {
      name,
      of: value.of,
      streaming: value.streaming === true || undefined,
      members: Object.entries(members).map(([member, target]) => {
        const parts = member.split('.');
        if (!parts.every((p) => IDENTIFIER.test(p))) fail(`${at}.members.${member}`, 'not a dotted type name');
        if (typeof target !== 'string') fail(`${at}.members.${member}`, 'a target (`Schema` or `Schema.prop[]`)');
        return { path: parts, target };
      }),
    };
  });
}

function readNode(raw: Raw, path: string, response: boolean): Node {
  for (const key of Object.keys(raw)) if (!PROP_KEYS.has(key)) fail(path, `unsupported keyword ${key}`);
  if (typeof raw.$ref === 'string') {
    const match = /^#\/components\/schemas\/(\w+)$/.exec(raw.$ref);
    if (!match?.[1]) fail(path, `unsupported $ref ${raw.$ref}`);
    return { kind: 'ref', name: match[1] };
  }
  const variants = raw.anyOf ?? raw.oneOf;
  if (Array.isArray(variants)) {
    const of = variants.map((v, i) => {
      if (!isRaw(v)) fail(`${path}.anyOf[${i}]`, 'not an object');
      return readNode(v, `${path}.anyOf[${i}]`, response);
    });
    // `anyOf: [{ enum: [...] }, { type: string }]` is an open enum: the known values, or any string.
    const [first, second] = of;
    if (of.length === 2 && first?.kind === 'string' && first.values && second?.kind === 'string' && !second.values) {
      return { kind: 'string', values: first.values, open: true };
    }
    return { kind: 'union', of };
  }
  if (Array.isArray(raw.type)) {
    const of = raw.type.map((type) => readNode({ ...raw, type }, path, response));
    return of.length === 1 ? of[0]! : { kind: 'union', of };
  }
  switch (raw.type) {
    case 'string':
      if (typeof raw.const === 'string') return { kind: 'string', values: [raw.const] };
      if (Array.isArray(raw.enum)) return { kind: 'string', values: raw.enum as string[] };
      return { kind: 'string' };
    case 'integer':
      return { kind: 'integer' };
    case 'number':
      return { kind: 'number' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'null':
      return { kind: 'null' };
    case 'array': {
      if (!isRaw(raw.items)) fail(path, 'array without items');
      return { kind: 'array', items: readNode(raw.items, `${path}.items`, response) };
    }
    case 'object':
      return readObject(raw, path, response);
    case undefined:
      return { kind: 'unknown' };
    default:
      return fail(path, `unsupported type ${String(raw.type)}`);
  }
}

function readObject(raw: Raw, path: string, response: boolean): ObjectNode {
  const required = new Set(Array.isArray(raw.required) ? (raw.required as string[]) : []);
  const properties = isRaw(raw.properties) ? raw.properties : {};
  const props = Object.entries(properties).map(([name, value]): Prop => {
    const at = `${path}.properties.${name}`;
    if (!isRaw(value)) fail(at, 'not an object');
    const prop: Prop = {
      name,
      node: readNode(stripExtensions(value), at, response),
      required: required.has(name),
      description: typeof value.description === 'string' ? value.description.trim() : undefined,
    };
    if ('x-default' in value) prop.default = { value: value['x-default'] as Json };
    if (value['x-default-position'] === true) prop.defaultPosition = true;
    if (Array.isArray(value['x-absent'])) prop.absent = value['x-absent'] as Json[];
    if (Array.isArray(value['x-aliases'])) prop.aliases = value['x-aliases'] as string[];
    if (value['x-fixed'] === true) prop.fixed = true;
    if (Array.isArray(value['x-convert'])) {
      for (const c of value['x-convert']) if (!(CONVERSIONS as readonly unknown[]).includes(c)) fail(at, `unknown x-convert ${String(c)}`);
      prop.convert = value['x-convert'] as Conversion[];
    }
    if (isRaw(value['x-wire'])) prop.wire = readNode(value['x-wire'], `${at}.x-wire`, response);
    if (value['x-derive'] !== undefined) {
      if (!(DERIVATIONS as readonly unknown[]).includes(value['x-derive'])) fail(at, `unknown x-derive ${String(value['x-derive'])}`);
      prop.derive = value['x-derive'] as Derivation;
    }
    if (value['x-wire-only'] === true) prop.wireOnly = true;
    if (typeof value['x-sort-by'] === 'string') prop.sortBy = value['x-sort-by'];
    if (value.deprecated === true) prop.deprecated = true;
    checkProp(prop, at, response);
    return prop;
  });
  for (const name of required) if (!(name in properties)) fail(path, `required ${name} is not a property`);
  const extra = raw.additionalProperties;
  let extraNode: ObjectNode['extra'] = 'none';
  if (extra === true) extraNode = props.length > 0 || response ? 'keep' : { kind: 'unknown' };
  else if (isRaw(extra)) extraNode = readNode(extra, `${path}.additionalProperties`, response);
  return { kind: 'object', props, extra: extraNode };
}

/** The keywords of a property schema without its extensions (they describe the property, not its type). */
function stripExtensions(value: Raw): Raw {
  const out: Raw = {};
  for (const [key, v] of Object.entries(value)) if (!key.startsWith('x-') && key !== 'description' && key !== 'example' && key !== 'deprecated') out[key] = v;
  return out;
}

function checkProp(prop: Prop, at: string, response: boolean): void {
  const extended =
    prop.default !== undefined || prop.defaultPosition || prop.absent || prop.aliases || prop.fixed || prop.convert || prop.wire || prop.derive || prop.wireOnly || prop.sortBy;
  if (extended && !response) fail(at, 'normalization extensions are for response schemas only');
  if (prop.default !== undefined && !prop.required) fail(at, 'x-default needs the property in `required` (it is always present)');
  if (prop.defaultPosition && !prop.required) fail(at, 'x-default-position needs the property in `required`');
  if (prop.fixed && !(prop.node.kind === 'string' && prop.node.values?.length === 1)) fail(at, 'x-fixed needs a `const`');
  if (prop.wire && !prop.convert) fail(at, 'x-wire needs an x-convert that reads it');
  // Responses only: a request field may be required and `null` (the caller sends it).
  if (response && prop.required && !prop.wireOnly && prop.default === undefined && !prop.defaultPosition && !prop.derive && !prop.fixed && isNullable(prop.node)) {
    fail(at, 'a required nullable property needs x-default (null when the server sends none)');
  }
}

/** True when `node` admits `null`. */
export function isNullable(node: Node): boolean {
  return node.kind === 'null' || (node.kind === 'union' && node.of.some(isNullable));
}

/** `node` without its `null` member. */
export function withoutNull(node: Node): Node {
  if (node.kind !== 'union') return node;
  const of = node.of.filter((n) => n.kind !== 'null');
  return of.length === 1 ? of[0]! : { kind: 'union', of };
}
