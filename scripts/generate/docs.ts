// Emits docs/normalization-fields.md: every response field the SDK reads differently from a plain
// copy, with what it returns and what it reads, from the same spec the normalizer is generated
// from, so that the page cannot drift from the code.
import { isNullable, withoutNull, type Node, type Prop, type Schema } from './model';
import { typeOf } from './types';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

function shown(node: Node): string {
  return `\`${typeOf(node, '').replace(/\s+/g, ' ')}\``;
}

/** What the SDK does with a field, in words. */
function reading(prop: Prop): string[] {
  const out: string[] = [];
  const none = isNullable(prop.node) ? 'absent' : 'absent or `null`';
  if (prop.fixed) out.push(`always \`${JSON.stringify((withoutNull(prop.node) as { values: readonly string[] }).values[0])}\``);
  if (prop.default !== undefined && !prop.fixed) out.push(`${none}: \`${JSON.stringify(prop.default.value)}\``);
  if (prop.defaultPosition) out.push(`${none}: its position in the array`);
  if (prop.absent?.length) out.push(`${prop.absent.map((v) => `\`${JSON.stringify(v)}\``).join(', ')} read as absent`);
  if (prop.aliases?.length) out.push(`also read from ${prop.aliases.map((a) => `\`${a}\``).join(', ')}`);
  for (const c of prop.convert ?? []) {
    out.push(
      {
        'number-decimal': 'a number becomes its exact decimal string',
        'object-in-array': 'one object becomes a one-element array',
        'json-text': 'a JSON value becomes its JSON text',
        'unix-seconds': 'milliseconds and fractions become whole seconds',
        'text-parts': 'typed parts become the text of their `text` parts',
      }[c],
    );
  }
  if (prop.derive) out.push(`derived: the \`${prop.derive}\` rule`);
  if (prop.sortBy) out.push(`ordered by \`${prop.sortBy}\``);
  if (prop.wireOnly) out.push('read from the wire, kept as sent (`extras()`)');
  if (out.length === 0 && !prop.required && !isNullable(prop.node)) out.push('`null` read as absent');
  return out;
}

/** The page, for the response schemas the normalizer reads (in `order`). */
export function emitFieldsDoc(schemas: readonly Schema[], order: ReadonlySet<string>): string {
  const lines = [
    '<!-- Generated from spec/openapi.yaml by `npm run generate` (scripts/generate/docs.ts). Do not edit. -->',
    '',
    '# Every field the SDK reads into shape',
    '',
    'Generated from the extensions of the repository\'s `spec/openapi.yaml`, like the normalizer',
    'itself; [normalization.md](normalization.md) explains the rules. A field not listed is returned as',
    'the server sent it (and checked against its type); a `null` the type does not allow reads as absent.',
    '',
  ];
  for (const schema of schemas) {
    if (!order.has(schema.name) || schema.node.kind !== 'object') continue;
    const rows = schema.node.props
      .map((prop) => ({ prop, how: reading(prop) }))
      .filter(({ prop, how }) => how.length > 0 && (prop.required || prop.wireOnly || prop.default !== undefined || prop.fixed || prop.convert || prop.derive || prop.absent || prop.aliases || prop.sortBy || prop.defaultPosition));
    if (rows.length === 0) continue;
    lines.push(`## ${schema.name}`, '', '| field | returned as | read from what servers send | why |', '|---|---|---|---|');
    for (const { prop, how } of rows) {
      const type = prop.wireOnly ? '(not typed)' : `${shown(prop.node)}${prop.required ? '' : ', optional'}`;
      lines.push(`| \`${prop.name}\` | ${cell(type)} | ${cell(how.join('; '))} | ${cell(prop.description ?? '')} |`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
