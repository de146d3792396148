// Emits src/generated/types.gen.ts: one exported type per component schema. Response objects
// name their declared fields only (no index signature: a misspelt field is a compile error);
// unknown fields are kept at runtime and read with `extras()`.
import { isNullable, withoutNull, type Node, type ObjectNode, type Schema } from './model';

/** `/** … *\/` lines for a description (and extra tag lines), wrapped, at `indent`. */
export function docComment(text: string | undefined, indent: string, tags: readonly string[] = []): string[] {
  const body = [...wrap(text ?? '', 96 - indent.length), ...(text && tags.length ? [''] : []), ...tags];
  if (body.length === 0) return [];
  return [`${indent}/**`, ...body.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)), `${indent} */`];
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    let line = '';
    // `{@link X}` is one word: a line break inside it would split the tag.
    for (const word of paragraph.replace(/\{@link\s+/g, '{@link\u0001').split(/\s+/).filter(Boolean).map((w) => w.replace('{@link\u0001', '{@link '))) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    if (line) lines.push(line);
    lines.push('');
  }
  while (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The declaration of one schema, with its doc comment (the example block is `tags`). */
export function emitType(schema: Schema, tags: readonly string[]): string {
  const doc = docComment(schema.description, '', [...(schema.deprecated ? ['@deprecated'] : []), ...tags]).join('\n');
  const node = schema.node;
  if (node.kind === 'object' && typeof node.extra !== 'object') {
    return `${doc}\nexport interface ${schema.name} ${objectType(node, '')}`;
  }
  return `${doc}\nexport type ${schema.name} = ${typeOf(node, '')};`;
}

function objectType(node: ObjectNode, indent: string): string {
  const inner = `${indent}  `;
  const lines: string[] = ['{'];
  for (const prop of node.props) {
    if (prop.wireOnly) continue;
    lines.push(...docComment(prop.description, inner, prop.deprecated ? ['@deprecated'] : []));
    lines.push(`${inner}${prop.name}${prop.required ? '' : '?'}: ${typeOf(prop.node, inner)};`);
  }
  if (typeof node.extra === 'object') lines.push(`${inner}[key: string]: ${typeOf(node.extra, inner)};`);
  lines.push(`${indent}}`);
  return lines.join('\n');
}

/** The TypeScript of a node. */
export function typeOf(node: Node, indent: string): string {
  switch (node.kind) {
    case 'ref':
      return node.name;
    case 'string':
      if (!node.values) return 'string';
      return [...node.values.map((v) => JSON.stringify(v).replace(/^"|"$/g, "'")), ...(node.open ? ['(string & {})'] : [])].join(' | ');
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'unknown':
      return 'unknown';
    case 'array': {
      const item = typeOf(node.items, indent);
      return /[|&]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      return objectType(node, indent);
    case 'union': {
      // Nullable first-class: `T | null`.
      const nonNull = withoutNull(node);
      const base = nonNull.kind === 'union' ? nonNull.of.map((m) => typeOf(m, indent)).join(' | ') : typeOf(nonNull, indent);
      return isNullable(node) ? `${base} | null` : base;
    }
  }
}
