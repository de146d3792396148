// Emits the zod schemas of the spec:
// - src/generated/zod.gen.ts: `zX` for every component schema, the contract: what the SDK returns
//   (responses) or what a caller sends (requests);
// - test/generated/wire.gen.ts: `zXWire` for every response object schema the normalizer reads:
//   what the normalizer accepts from a server, written independently of it, so that the tests can
//   hold the two to each other (test/normalize-properties.test.ts).
// Neither is imported by the SDK at runtime: the normalizer (normalize.gen.ts) is what runs.
import { isNullable, withoutNull, type Node, type ObjectNode, type Prop, type Schema } from './model';

type Mode = 'contract' | 'wire';

interface Ctx {
  schemas: ReadonlyMap<string, Schema>;
  mode: Mode;
  /** Schemas that have a wire schema (response objects). */
  wired: ReadonlySet<string>;
}

/** The declarations of `schemas` in `mode`, in dependency order, each as `[name, code]`. */
export function emitZod(schemas: readonly Schema[], mode: Mode, wired: ReadonlySet<string>): [string, string][] {
  const ctx: Ctx = { schemas: new Map(schemas.map((s) => [s.name, s])), mode, wired };
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const dep of refs(ctx.schemas.get(name)!.node, ctx)) visit(dep);
    order.push(name);
  };
  const names = mode === 'wire' ? schemas.filter((s) => wired.has(s.name)).map((s) => s.name) : schemas.map((s) => s.name);
  names.forEach(visit);
  return order
    .filter((name) => mode === 'contract' || wired.has(name))
    .map((name) => {
      const schema = ctx.schemas.get(name)!;
      return [name, `export const z${name}${mode === 'wire' ? 'Wire' : ''} = ${zod(schema.node, ctx, schema.response)};`];
    });
}

/** The schemas a node refers to (wire: props' wire forms included). */
function refs(node: Node, ctx: Ctx): string[] {
  switch (node.kind) {
    case 'ref':
      return [node.name];
    case 'array':
      return refs(node.items, ctx);
    case 'union':
      return node.of.flatMap((m) => refs(m, ctx));
    case 'object':
      return [
        ...node.props.flatMap((p) => [...refs(p.node, ctx), ...(ctx.mode === 'wire' && p.wire ? refs(p.wire, ctx) : [])]),
        ...(typeof node.extra === 'object' ? refs(node.extra, ctx) : []),
      ];
    default:
      return [];
  }
}

function zod(node: Node, ctx: Ctx, response: boolean): string {
  switch (node.kind) {
    case 'ref':
      return ctx.mode === 'wire' && ctx.wired.has(node.name) ? `z${node.name}Wire` : `z${node.name}`;
    case 'string':
      if (!node.values || node.open) return 'z.string()';
      if (node.values.length === 1) return `z.literal(${JSON.stringify(node.values[0])})`;
      return `z.enum(${JSON.stringify(node.values)})`;
    case 'integer':
      return 'z.int()';
    case 'number':
      return 'z.number()';
    case 'boolean':
      return 'z.boolean()';
    case 'null':
      return 'z.null()';
    case 'unknown':
      return 'z.unknown()';
    case 'array':
      return `z.array(${zod(node.items, ctx, response)})`;
    case 'union': {
      const nonNull = withoutNull(node);
      const base = nonNull.kind === 'union' ? `z.union([${nonNull.of.map((m) => zod(m, ctx, response)).join(', ')}])` : zod(nonNull, ctx, response);
      return isNullable(node) ? `z.nullable(${base})` : base;
    }
    case 'object':
      return object(node, ctx, response);
  }
}

function object(node: ObjectNode, ctx: Ctx, response: boolean): string {
  if (node.props.length === 0 && typeof node.extra === 'object') return `z.record(z.string(), ${zod(node.extra, ctx, response)})`;
  const fields = node.props
    .filter((p) => ctx.mode === 'wire' || !p.wireOnly)
    .map((p) => `${JSON.stringify(p.name)}: ${ctx.mode === 'wire' ? wireField(p, ctx) : contractField(p, ctx, response)}`);
  const aliases = ctx.mode === 'wire' ? node.props.flatMap((p) => (p.aliases ?? []).map((a) => `${JSON.stringify(a)}: ${wireField({ ...p, aliases: undefined, required: false, default: undefined }, ctx)}`)) : [];
  const body = `{ ${[...fields, ...aliases].join(', ')} }`;
  // A derived total needs its parts: re-stated here so that the schema rejects what the rule cannot derive.
  const checks = ctx.mode === 'wire' && node.props.some((p) => p.derive === 'total-tokens') ? TOTAL_TOKENS_CHECK : '';
  if (node.extra === 'keep') return `z.looseObject(${body})${checks}`;
  return `z.object(${body})`;
}

const TOTAL_TOKENS_CHECK =
  '.check(z.refine((o: Record<string, unknown>) => o["total_tokens"] != null || !Number.isSafeInteger(o["prompt_tokens"]) || ' +
  '!Number.isSafeInteger(o["completion_tokens"]) || Number.isSafeInteger((o["prompt_tokens"] as number) + (o["completion_tokens"] as number))))';

function contractField(prop: Prop, ctx: Ctx, response: boolean): string {
  const type = zod(prop.node, ctx, response);
  if (prop.required) return type;
  // Responses come from JSON, which has no `undefined`: an absent key, never an `undefined` value.
  return response ? `z.exactOptional(${type})` : `z.optional(${type})`;
}

/**
 * What the normalizer accepts for a field: its declared type widened by the field's extensions.
 * The field may be absent (and `null`) unless it is required with no way to fill it.
 */
function wireField(prop: Prop, ctx: Ctx): string {
  // Anything is read (a fixed value replaces it); `z.unknown()` alone would make the key required.
  if (prop.fixed) return 'z.optional(z.unknown())';
  const convert = new Set(prop.convert ?? []);
  const base = withoutNull(prop.wire ?? prop.node);
  let type = zod(base, ctx, true);
  if (convert.has('unix-seconds')) type = 'z.number().check(z.gte(-Number.MAX_SAFE_INTEGER), z.lt(1e14))';
  if (convert.has('number-decimal')) type = `z.union([${type}, z.number()])`;
  if (convert.has('json-text')) type = 'z.unknown()';
  if (convert.has('object-in-array') && base.kind === 'array') type = `z.union([${type}, ${zod(base.items, ctx, true)}])`;
  const fillable = !prop.required || prop.default !== undefined || prop.defaultPosition || prop.derive !== undefined || prop.aliases !== undefined;
  if (type === 'z.unknown()') return fillable ? 'z.optional(z.unknown())' : type;
  return fillable ? `z.optional(z.nullable(${type}))` : isNullable(prop.wire ?? prop.node) ? `z.nullable(${type})` : type;
}
