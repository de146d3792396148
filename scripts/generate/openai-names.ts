// Emits the official `openai` client's names for a schema (`x-openai-names`, defined in the spec's
// description), next to the schema's own declaration in src/generated/types.gen.ts:
//
//   - an alias, when openai names the schema (or a part of it) differently:
//       export type ChatCompletionFunctionTool = ChatCompletionTool;
//       export type ChatCompletionRole = ChatCompletionMessageParam['role'];
//   - a type-only namespace merged with the declaration, for the nested names openai declares
//     (`ChatCompletion.Choice`, `ChatCompletionChunk.Choice.Delta.ToolCall`):
//       export declare namespace ChatCompletion {
//         export type Choice = ChatCompletionChoice;
//         export namespace Choice { export type Logprobs = ChatCompletionChoiceLogprobs; }
//       }
//
// Code written against openai's types then compiles unchanged. Everything here is a type: no
// runtime code, no bundle bytes. The namespaces hold type aliases only, so they are not
// instantiated (nothing is emitted for them in JavaScript).
import { isNullable, withoutNull, type Json, type Node, type OpenAIName, type Schema } from './model';
import { docComment } from './types';

function fail(at: string, message: string): never {
  throw new Error(`spec/openapi.yaml ${at}: ${message}`);
}

/** A target resolved to its TypeScript, its node, and the matching part of the examples. */
interface Resolved {
  type: string;
  node: Node;
  example: Json | undefined;
}

/**
 * `Schema`, or a path into it: `.prop` steps into an object's property (into every member of a
 * union), `[]` into an array's items. Optional and nullable steps are unwrapped with `NonNullable`,
 * as openai's nested names are the object itself, never `undefined` or `null`.
 */
export function resolveTarget(target: string, byName: ReadonlyMap<string, Schema>, at: string): Resolved {
  const match = /^([A-Z]\w*)((?:\.\w+|\[\])*)$/.exec(target);
  if (!match?.[1]) fail(at, `target ${target}: not \`Schema\`, \`Schema.prop\` or \`Schema.list[]\``);
  const root = byName.get(match[1]);
  if (!root) fail(at, `target ${target}: no schema ${match[1]}`);
  let type = root.name;
  let node: Node = root.node;
  let example: Json | undefined = root.example;
  const deref = (n: Node): Node => {
    let current = withoutNull(n);
    while (current.kind === 'ref') {
      const schema = byName.get(current.name);
      if (!schema) fail(at, `target ${target}: no schema ${current.name}`);
      if (example === undefined) example = schema.example;
      current = withoutNull(schema.node);
    }
    return current;
  };
  for (const step of match[2]!.match(/\.\w+|\[\]/g) ?? []) {
    const current = deref(node);
    if (step === '[]') {
      if (current.kind !== 'array') fail(at, `target ${target}: ${type} is not an array`);
      type = `${type}[number]`;
      node = current.items;
      example = Array.isArray(example) ? example[0] : undefined;
      continue;
    }
    const name = step.slice(1);
    const objects = current.kind === 'union' ? current.of.map(deref) : [current];
    let optional = false;
    let next: Node | undefined;
    for (const object of objects) {
      const prop = object.kind === 'object' ? object.props.find((p) => p.name === name && !p.wireOnly) : undefined;
      if (!prop) fail(at, `target ${target}: ${type} has no property ${name}`);
      optional ||= !prop.required || isNullable(prop.node);
      next ??= prop.node;
    }
    type = optional ? `NonNullable<${type}['${name}']>` : `${type}['${name}']`;
    node = next!;
    example = example !== null && typeof example === 'object' && !Array.isArray(example) ? example[name] : undefined;
  }
  deref(node); // the example of a referenced schema, when the path's own example stopped short
  return { type, node, example };
}

/** One generated declaration: its code, and the example its doc comment needs (aliases only). */
export interface NameDeclaration {
  name: string;
  /** Renders the declaration, given the `@example` lines of the alias (none for a namespace alone). */
  render: (exampleTags: readonly string[]) => string;
  /** The alias's example value, when the declaration is an alias. */
  example?: Json;
}

/** The declarations of every `x-openai-names` entry of `schema`. */
export function openAINames(schema: Schema, byName: ReadonlyMap<string, Schema>): NameDeclaration[] {
  return schema.openaiNames.flatMap((entry) => {
    const at = `components.schemas.${schema.name}.x-openai-names.${entry.name}`;
    if (entry.name !== schema.name && byName.has(entry.name)) fail(at, `${entry.name} is a schema of its own`);
    const namespace = emitNamespace(entry, byName, at);
    if (entry.streaming) return streamingForms(schema, entry.name, namespace, at);
    if (entry.name === schema.name) return { name: entry.name, render: () => namespace };
    const target = entry.of === undefined ? { type: schema.name, node: schema.node, example: schema.example } : resolveTarget(`${schema.name}.${entry.of}`, byName, at);
    if (target.example === undefined) fail(at, `no example for ${target.type}: extend the example of ${schema.name}`);
    const what = entry.of === undefined ? `{@link ${schema.name}}` : `the \`${entry.of}\` of {@link ${schema.name}}`;
    const description = `\`${entry.name}\`, the name the \`openai\` client gives ${what}: the same type, so that code written for that client compiles unchanged.${entry.of === undefined && schema.description ? `\n\n${schema.description}` : ''}`;
    return {
      name: entry.name,
      example: target.example,
      render: (tags) =>
        [
          ...docComment(description, '', [...(schema.deprecated ? ['@deprecated'] : []), ...tags]),
          `export type ${entry.name} = ${target.type};`,
          ...(namespace ? ['', namespace] : []),
        ].join('\n'),
    };
  });
}

/**
 * `streaming: true`: openai's request body that may stream, as openai declares it. The schema is
 * the fields (`…Base`); `<name>NonStreaming` and `<name>Streaming` narrow its `stream`, and
 * `<name>` is their union, so that `if (params.stream)` narrows a body and a body declared with
 * one form picks the matching overload of `create()`.
 */
function streamingForms(schema: Schema, name: string, namespace: string, at: string): NameDeclaration[] {
  const stream = schema.node.kind === 'object' ? schema.node.props.find((p) => p.name === 'stream') : undefined;
  const streamType = stream && withoutNull(stream.node);
  if (!stream || stream.required || streamType?.kind !== 'boolean') fail(at, `streaming: ${schema.name} needs an optional boolean \`stream\``);
  const example = schema.example;
  if (example === null || typeof example !== 'object' || Array.isArray(example)) fail(at, `streaming: the example of ${schema.name} is not an object`);
  const { stream: _stream, ...nonStreaming } = example;
  const deprecated = schema.deprecated ? ['@deprecated'] : [];
  const form = (suffix: string, what: string, field: string, value: Json): NameDeclaration => ({
    name: `${name}${suffix}`,
    example: value,
    render: (tags) =>
      [
        ...docComment(`\`${name}${suffix}\`: {@link ${schema.name}} ${what}, as the \`openai\` client declares it.`, '', [...deprecated, ...tags]),
        `export interface ${name}${suffix} extends ${schema.name} {`,
        field,
        '}',
      ].join('\n'),
  });
  return [
    form('NonStreaming', 'without streaming: `stream` left out, `false` or `null`, and the response is one object', '  stream?: false | null;', nonStreaming),
    form('Streaming', 'with `stream: true`: the response is a stream of server-sent events', '  stream: true;', { ...example, stream: true }),
    {
      name,
      example,
      render: (tags) =>
        [
          ...docComment(
            `\`${name}\`: the body of either form, {@link ${name}NonStreaming} or {@link ${name}Streaming}, as the \`openai\` client declares it. \`if (body.stream)\` tells them apart; a body declared with one form picks the matching overload of \`create()\`.`,
            '',
            [...deprecated, ...tags],
          ),
          `export type ${name} = ${name}NonStreaming | ${name}Streaming;`,
          ...(namespace ? ['', namespace] : []),
        ].join('\n'),
    },
  ];
}

/**
 * The `openai` client's names as its default export carries them (`OpenAI.ChatCompletionChunk`,
 * `OpenAI.Chat.ChatCompletionMessageParam`, `OpenAI.Chat.Completions.ChatCompletionTool`), as a
 * type-only namespace merged with the `Client` class in src/client.ts: every type of
 * types.gen.ts at the top; those that start with `ChatCompletion` in `Chat` and
 * `Chat.Completions` too (openai's chat module), `Completion` in `Completions`, `Model` in
 * `Models`. Returns the import and the namespace, for the generated region of client.ts.
 */
export function clientNamespace(names: readonly string[]): string {
  const sorted = [...new Set(names)].sort();
  // The lists are written several names to a line and kept so (`prettier-ignore`): one name per
  // line made this region 268 of client.ts's lines, most of the file, for 72 names.
  const wrap = (words: string[], indent: string): string => {
    const lines: string[] = [];
    for (const word of words) {
      const last = lines.length - 1;
      if (last >= 0 && `${lines[last]} ${word}`.length <= 100) lines[last] += ` ${word}`;
      else lines.push(`${indent}${word}`);
    }
    return lines.join('\n');
  };
  const list = (prefix: string, indent: string): string => {
    const picked = sorted.filter((n) => n.startsWith(prefix)).map((n) => `type ${n},`);
    return [`${indent}// prettier-ignore`, `${indent}export {`, wrap(picked, `${indent}  `), `${indent}};`].join('\n');
  };
  return [
    // A block comment: a line comment here would read as part of the region's opening marker.
    '/* prettier-ignore */',
    'import type {',
    wrap(sorted.map((n) => `${n},`), '  '),
    "} from './generated/types.gen';",
    '',
    // A line comment: the class's doc comment is the one TypeDoc and editors show for `Client`.
    "// The `openai` client's type names, reachable through the class as through that client's default",
    "// export, so that code written for it compiles with `import { Client as OpenAI } from",
    "// 'model-inference-sdk'`: `OpenAI.ChatCompletionChunk`, `OpenAI.Chat.ChatCompletionMessageParam`,",
    '// `OpenAI.Chat.Completions.ChatCompletionTool`. Types only.',
    '/* eslint-disable @typescript-eslint/no-namespace -- declaration merging with the class: types only */',
    'export declare namespace Client {',
    list('', '  '),
    '  /** `OpenAI.Chat`: the chat completion types. */',
    '  export namespace Chat {',
    list('ChatCompletion', '    '),
    // Listed again, not `export import Completions = Chat`: the types bundler (rollup-plugin-dts)
    // cannot write a namespace alias.
    '    /** `OpenAI.Chat.Completions`: the same types. */',
    '    export namespace Completions {',
    list('ChatCompletion', '      '),
    '    }',
    '  }',
    '  /** `OpenAI.Completions`: the legacy completion types. */',
    '  export namespace Completions {',
    list('Completion', '    '),
    '  }',
    '  /** `OpenAI.Models`: the model types. */',
    '  export namespace Models {',
    list('Model', '    '),
    '  }',
    '}',
    '/* eslint-enable @typescript-eslint/no-namespace */',
  ].join('\n');
}

interface Tree {
  type?: string;
  doc?: string;
  children: Map<string, Tree>;
}

/** `export declare namespace Name { … }` for the entry's members, or `''` when it has none. */
function emitNamespace(entry: OpenAIName, byName: ReadonlyMap<string, Schema>, at: string): string {
  if (entry.members.length === 0) return '';
  const root: Tree = { children: new Map() };
  // Inside the namespace a member's name hides the schema of that name: `CompletionUsage.
  // PromptTokensDetails = PromptTokensDetails` would name itself. Such a target is written as a
  // path from another schema instead (`CompletionUsage.prompt_tokens_details`).
  const hidden = new Set(entry.members.flatMap((m) => m.path));
  for (const member of entry.members) {
    const targetRoot = member.target.split(/[.[]/)[0]!;
    if (hidden.has(targetRoot)) {
      fail(`${at}.members.${member.path.join('.')}`, `${targetRoot} is hidden by a member of that name inside the namespace: write the target as a path from another schema`);
    }
    const dotted = member.path.join('.');
    let tree = root;
    for (const [i, part] of member.path.entries()) {
      let child = tree.children.get(part);
      if (!child) {
        if (i < member.path.length - 1) fail(`${at}.members.${dotted}`, `declare ${member.path.slice(0, i + 1).join('.')} first`);
        child = { children: new Map() };
        tree.children.set(part, child);
      }
      tree = child;
    }
    if (tree.type !== undefined) fail(`${at}.members.${dotted}`, 'declared twice');
    const resolved = resolveTarget(member.target, byName, `${at}.members.${dotted}`);
    tree.type = resolved.type;
    const [schemaName, ...rest] = member.target.split('.');
    const what = rest.length === 0 ? `{@link ${schemaName}}` : `the \`${rest.join('.')}\` of {@link ${schemaName}}`;
    tree.doc = `\`${entry.name}.${dotted}\` in the \`openai\` client: ${what}.`;
  }
  const lines = [
    ...docComment(
      `The \`openai\` client's names for the parts of \`${entry.name}\` (${entry.members.map((m) => `\`${entry.name}.${m.path.join('.')}\``).join(', ')}), so that code written for that client compiles unchanged. Types only.`,
      '',
    ),
    `export declare namespace ${entry.name} {`,
    ...members(root, '  '),
    '}',
  ];
  return lines.join('\n');
}

function members(tree: Tree, indent: string): string[] {
  const out: string[] = [];
  for (const [name, child] of tree.children) {
    out.push(...docComment(child.doc, indent), `${indent}export type ${name} = ${child.type};`);
    if (child.children.size > 0) out.push(`${indent}export namespace ${name} {`, ...members(child, `${indent}  `), `${indent}}`);
  }
  return out;
}
