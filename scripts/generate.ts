// Generates from spec/openapi.yaml, into src/generated/ (what the SDK ships):
//
//   types.gen.ts      every component schema as a TypeScript type (responses as the SDK returns them)
//   normalize.gen.ts  the normalizer the SDK runs on every response and stream event
//   zod.gen.ts        every component schema as a zod/mini schema (the same contract), shipped as
//                     the entry model-inference-sdk/schemas (src/schemas/index.ts); the tests hold
//                     the normalizer to it
//
// and into test/generated/ (what only the tests use):
//
//   wire.gen.ts       what the normalizer accepts from a server, as zod/mini schemas (a test oracle)
//
//   docs/normalization-fields.md  every field the normalizer reads into shape, as a table
//   src/client.ts, between its `<openai-names>` markers: the openai client's names as a namespace
//                     merged with the `Client` class (`OpenAI.Chat.ChatCompletionMessageParam`);
//                     it has to be in the class's own file, so the rest of that file is not generated
//
//   npm run generate                      write src/generated/, test/generated/, docs/normalization-fields.md, src/client.ts
//   tsx scripts/generate.ts --out <dir> --test-out <dir> --docs <file> --client <file>
//                                         write the same files elsewhere (used by check-generated.ts)
//
// The spec's description defines the normalization extensions (`x-default`, `x-convert`, ...) and
// `x-openai-names` (the official `openai` client's names for a schema: aliases and type-only
// namespaces, scripts/generate/openai-names.ts); scripts/generate/model.ts reads them, and each
// emitter turns them into its file. Every component
// schema's `example` becomes the `@example` of its type and of its zod schema, which
// `npm run check:examples` type-checks and runs. Output is formatted with prettier, so it is the
// same wherever it is written.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as prettier from 'prettier';
import { parse } from 'yaml';

import { readSchemas, type Json, type Schema } from './generate/model';
import { ROOTS, emitNormalizer } from './generate/normalizer';
import { emitFieldsDoc } from './generate/docs';
import { clientNamespace, openAINames } from './generate/openai-names';
import { docComment, emitType } from './generate/types';
import { emitZod } from './generate/zod';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const defaultOut = path.join(root, 'src', 'generated');

const HEADER = [
  '// Generated from spec/openapi.yaml by `npm run generate` (scripts/generate.ts). Do not edit:',
  '// change the spec (or the generator) and regenerate.',
  '',
].join('\n');

function argument(argv: readonly string[], name: string, fallback: string): string {
  const i = argv.indexOf(name);
  if (i === -1) return fallback;
  const value = argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a path`);
  return path.resolve(value);
}

/** `ChatCompletion` -> `chatCompletion`: the name of the constant in a type's example. */
function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** The `@example` lines of a schema: a typed constant (types) or a zod parse (zod), formatted. */
async function exampleTags(file: 'types' | 'zod', name: string, value: Json, options: prettier.Options): Promise<string[]> {
  const literal = JSON.stringify(value);
  const code =
    file === 'types'
      ? `import type { ${name} } from 'model-inference-sdk';\n\nconst ${lowerFirst(name)}: ${name} = ${literal};\n`
      : `import { z${name} } from 'model-inference-sdk/schemas';\n\nconst ${lowerFirst(name)} = z${name}.parse(${literal});\n`;
  const formatted = (await prettier.format(code, { ...options, parser: 'typescript' })).trimEnd();
  if (formatted.includes('*/') || formatted.includes('```')) {
    throw new Error(`example of ${name}: contains '*/' or a code fence, which would end its comment`);
  }
  return ['@example', '```ts', ...formatted.split('\n'), '```'];
}

/** The response object schemas the normalizer reads (reachable from its roots). */
function readSchemaNames(schemas: readonly Schema[]): Set<string> {
  const byName = new Map(schemas.map((s) => [s.name, s]));
  const seen = new Set<string>();
  const visit = (node: Schema['node']): void => {
    switch (node.kind) {
      case 'ref': {
        const schema = byName.get(node.name);
        if (!schema || seen.has(node.name)) return;
        if (schema.node.kind === 'object') seen.add(node.name);
        visit(schema.node);
        return;
      }
      case 'array':
        return visit(node.items);
      case 'union':
        return node.of.forEach(visit);
      case 'object':
        for (const prop of node.props) {
          visit(prop.node);
          if (prop.wire) visit(prop.wire);
        }
        if (typeof node.extra === 'object') visit(node.extra);
        return;
      default:
        return;
    }
  };
  for (const name of ROOTS) visit({ kind: 'ref', name });
  return seen;
}

/** src/client.ts with the lines between its `<openai-names>` markers replaced by `region`. */
function withClientRegion(source: string, region: string): string {
  const open = /^\/\/ <openai-names>.*\n(?:\/\/ (?!<\/openai-names>).*\n)*/m.exec(source);
  const close = source.indexOf('// </openai-names>\n');
  if (!open || close < open.index + open[0].length) throw new Error('src/client.ts: the `// <openai-names>` … `// </openai-names>` markers are missing');
  return source.slice(0, open.index + open[0].length) + region + source.slice(close);
}

async function main(): Promise<void> {
  const out = argument(process.argv.slice(2), '--out', defaultOut);
  const testOut = argument(process.argv.slice(2), '--test-out', path.join(root, 'test', 'generated'));
  const docs = argument(process.argv.slice(2), '--docs', path.join(root, 'docs', 'normalization-fields.md'));
  const client = argument(process.argv.slice(2), '--client', path.join(root, 'src', 'client.ts'));
  const spec: unknown = parse(readFileSync(path.join(root, 'spec', 'openapi.yaml'), 'utf8'));
  const schemas = readSchemas(spec);
  const wired = readSchemaNames(schemas);
  const options = (await prettier.resolveConfig(path.join(defaultOut, 'types.gen.ts'))) ?? {};

  const byName = new Map(schemas.map((s) => [s.name, s]));
  const types: string[] = [HEADER];
  const typeNames: string[] = [];
  for (const schema of schemas) {
    types.push(emitType(schema, await exampleTags('types', schema.name, schema.example, options)), '');
    typeNames.push(schema.name);
    // The `openai` client's names for it (`x-openai-names`): aliases and type-only namespaces.
    for (const declaration of openAINames(schema, byName)) {
      const tags = declaration.example === undefined ? [] : await exampleTags('types', declaration.name, declaration.example, options);
      types.push(declaration.render(tags), '');
      typeNames.push(declaration.name);
    }
  }

  const zod: string[] = [
    HEADER,
    '// The contract as zod/mini schemas: what the SDK returns (after the normalizer), for users to',
    '// validate stored or cached responses with (model-inference-sdk/schemas). zod is an optional',
    '// peer dependency (the package loads this entry so that a missing zod says what to install).',
    "import * as z from 'zod/mini';",
    '',
  ];
  for (const [name, code] of emitZod(schemas, 'contract', wired)) {
    const schema = schemas.find((s) => s.name === name)!;
    zod.push(...docComment(schema.description, '', await exampleTags('zod', name, schema.example, options)), code, '');
  }

  const wire: string[] = [
    HEADER,
    '// What the normalizer (normalize.gen.ts) accepts from a server, written as zod schemas so that',
    '// test/normalize-properties.test.ts can hold the two to each other. Not used by the SDK at runtime.',
    "import * as z from 'zod/mini';",
    '',
  ];
  const wireDecls = emitZod(schemas, 'wire', wired);
  const contractRefs = new Set<string>();
  for (const [, code] of wireDecls) for (const m of code.matchAll(/\bz([A-Z]\w*)\b/g)) if (!m[1]!.endsWith('Wire')) contractRefs.add(m[1]!);
  if (contractRefs.size) wire.push(`import { ${[...contractRefs].sort().map((n) => `z${n}`).join(', ')} } from '../../src/generated/zod.gen';`, '');
  for (const [name, code] of wireDecls) wire.push(`/** What the normalizer accepts for \`${name}\`. */`, code, '');

  const runtime = readFileSync(path.join(root, 'scripts', 'generate', 'runtime.ts'), 'utf8');
  const marker = '// --- copied into normalize.gen.ts below this line ---\n';
  const at = runtime.indexOf(marker);
  if (at < 0) throw new Error('scripts/generate/runtime.ts: marker line missing');
  const normalize = [
    HEADER,
    '// The normalizer: reads a parsed response into the shape spec/openapi.yaml declares, in place,',
    '// following its extensions (`x-default`, `x-convert`, ...). The runtime below is copied from',
    '// scripts/generate/runtime.ts; the functions after it are generated, one per response object.',
    `import type { ${ROOTS.join(', ')} } from './types.gen';`,
    '',
    runtime.slice(at + marker.length),
    emitNormalizer(schemas),
  ];

  const files: Record<string, Record<string, string>> = {
    [out]: { 'types.gen.ts': types.join('\n'), 'normalize.gen.ts': normalize.join('\n'), 'zod.gen.ts': zod.join('\n') },
    [testOut]: { 'wire.gen.ts': wire.join('\n') },
  };
  for (const [dir, sources] of Object.entries(files)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [name, source] of Object.entries(sources)) {
      writeFileSync(path.join(dir, name), await prettier.format(source, { ...options, parser: 'typescript' }));
    }
    const written = readdirSync(dir).sort();
    if (written.join(',') !== Object.keys(sources).sort().join(',')) throw new Error(`unexpected files in ${dir}: ${written.join(', ')}`);
  }
  writeFileSync(docs, emitFieldsDoc(schemas, wired));
  const region = await prettier.format(clientNamespace(typeNames), { ...options, parser: 'typescript' });
  writeFileSync(client, withClientRegion(readFileSync(path.join(root, 'src', 'client.ts'), 'utf8'), region));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
