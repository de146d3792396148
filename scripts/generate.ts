// Generates src/generated/ (types.gen.ts, zod.gen.ts) from spec/openapi.yaml.
//
//   npm run generate                      write src/generated/
//   tsx scripts/generate.ts --out <dir>   write the same files to <dir> (used by check-generated.ts)
//
// Steps: run @hey-api/openapi-ts with openapi-ts.config.ts, drop the client-only `ClientOptions`
// type it always emits, format with prettier using the repository's configuration (resolved for
// src/generated/, so the output is identical wherever it is written), then add each component
// schema's `example` from the spec to the TSDoc of its type and of its zod schema as an `@example`
// block (hey-api copies only descriptions into comments). Every component schema must have an
// example: the public API documents each export with one, and `npm run check:examples`
// type-checks and runs the injected blocks.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createClient } from '@hey-api/openapi-ts';
import * as prettier from 'prettier';

import config from './codegen/openapi-ts.config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const defaultOut = path.join(root, 'src', 'generated');
const expectedFiles = ['types.gen.ts', 'zod.gen.ts'];

function parseOut(argv: readonly string[]): string {
  const i = argv.indexOf('--out');
  if (i === -1) return defaultOut;
  const value = argv[i + 1];
  if (value === undefined || value.startsWith('--')) {
    throw new Error('--out needs a directory');
  }
  return path.resolve(value);
}

// hey-api's TypeScript plugin always emits a `ClientOptions` type for its HTTP clients. This SDK
// has its own client, so the type is removed. Fail loudly if the generator's output changes shape.
function dropClientOptions(source: string): string {
  const pattern = /export type ClientOptions = \{\n[\s\S]*?\n\};\n\n?/;
  if (!pattern.test(source)) {
    throw new Error(
      'types.gen.ts: expected a `ClientOptions` type to remove; generator output changed',
    );
  }
  return source.replace(pattern, '');
}

/** The `example` of every component schema of the spec hey-api read, by schema name. */
function componentExamples(spec: unknown): Map<string, unknown> {
  const schemas = (spec as { components?: { schemas?: Record<string, unknown> } }).components
    ?.schemas;
  if (schemas === undefined) throw new Error('spec/openapi.yaml: no components.schemas');
  const examples = new Map<string, unknown>();
  const missing: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    if (typeof schema === 'object' && schema !== null && 'example' in schema) {
      examples.set(name, schema.example);
    } else {
      missing.push(name);
    }
  }
  if (missing.length > 0) {
    throw new Error(
      `spec/openapi.yaml: every component schema needs an \`example\` (it becomes the @example of ` +
        `the generated type); missing on: ${missing.join(', ')}`,
    );
  }
  return examples;
}

/** `ChatCompletion` -> `chatCompletion`: the name of the constant in a type's example. */
function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/**
 * The TypeScript of one example: a typed constant (types.gen.ts, imported from the package entry
 * as a user would) or a zod parse (zod.gen.ts, an internal module), formatted by prettier.
 */
async function exampleSnippet(
  file: 'types.gen.ts' | 'zod.gen.ts',
  name: string,
  value: unknown,
  prettierConfig: prettier.Options,
): Promise<string> {
  const literal = JSON.stringify(value);
  const code =
    file === 'types.gen.ts'
      ? `import type { ${name} } from 'inference-sdk';\n\nconst ${lowerFirst(name)}: ${name} = ${literal};\n`
      : `const ${lowerFirst(name)} = z${name}.parse(${literal});\n`;
  const formatted = await prettier.format(code, { ...prettierConfig, parser: 'typescript' });
  if (formatted.includes('*/') || formatted.includes('```')) {
    throw new Error(
      `example of ${name}: contains '*/' or a code fence, which would end its comment`,
    );
  }
  return formatted.trimEnd();
}

/**
 * Appends an `@example` block to the TSDoc comment of every `export type X` (types.gen.ts) or
 * `export const zX` (zod.gen.ts). Fails when a declaration has no comment to extend, or when a
 * declaration and the spec's schemas do not match one to one.
 */
async function injectExamples(
  file: 'types.gen.ts' | 'zod.gen.ts',
  source: string,
  examples: ReadonlyMap<string, unknown>,
  prettierConfig: prettier.Options,
): Promise<string> {
  const kind = file === 'types.gen.ts' ? 'type' : 'const';
  const declaration = new RegExp(`^export ${kind} (\\w+)\\b`, 'gm');
  const documented = new RegExp(
    `^/\\*\\*\\n((?: \\*(?: .*)?\\n)*) \\*/\\nexport ${kind} (\\w+)\\b`,
    'gm',
  );
  const schemaName = (declared: string): string =>
    file === 'types.gen.ts' ? declared : declared.replace(/^z/, '');

  const declared = [...source.matchAll(declaration)].map((m) => schemaName(m[1] ?? ''));
  const unknown = declared.filter((name) => !examples.has(name));
  const absent = [...examples.keys()].filter((name) => !declared.includes(name));
  if (unknown.length > 0 || absent.length > 0) {
    throw new Error(
      `${file}: declarations and spec schemas differ (no schema: ${unknown.join(', ') || '-'}; ` +
        `not generated: ${absent.join(', ') || '-'}); generator output changed`,
    );
  }

  const snippets = new Map<string, string>();
  for (const name of declared) {
    snippets.set(name, await exampleSnippet(file, name, examples.get(name), prettierConfig));
  }
  const injected = new Set<string>();
  const result = source.replace(documented, (whole, body: string, declaredName: string) => {
    const name = schemaName(declaredName);
    const snippet = snippets.get(name);
    if (snippet === undefined) return whole;
    injected.add(name);
    const lines = ['', '@example', '```ts', ...snippet.split('\n'), '```'];
    const added = lines.map((line) => (line === '' ? ' *\n' : ` * ${line}\n`)).join('');
    return `/**\n${body}${added} */\nexport ${kind} ${declaredName}`;
  });
  const uncommented = declared.filter((name) => !injected.has(name));
  if (uncommented.length > 0) {
    throw new Error(`${file}: no TSDoc comment to add an example to on: ${uncommented.join(', ')}`);
  }
  return result;
}

async function main(): Promise<void> {
  const out = parseOut(process.argv.slice(2));
  const base = await config;
  if (Array.isArray(base) || typeof base.output !== 'object' || Array.isArray(base.output)) {
    throw new Error('openapi-ts.config.ts must export one config with an `output` object');
  }

  const [context] = await createClient({
    ...base,
    input: path.join(root, 'spec', 'openapi.yaml'),
    output: { ...base.output, path: out, clean: true },
  });

  if (context === undefined) throw new Error('@hey-api/openapi-ts returned no context');
  const examples = componentExamples(context.spec);

  const files = (await readdir(out)).sort();
  if (files.join(',') !== expectedFiles.join(',')) {
    throw new Error(`unexpected generated files in ${out}: ${files.join(', ')}`);
  }

  const prettierConfig = (await prettier.resolveConfig(path.join(defaultOut, 'zod.gen.ts'))) ?? {};
  for (const name of files) {
    const file = path.join(out, name);
    let source = await readFile(file, 'utf8');
    if (name === 'types.gen.ts') source = dropClientOptions(source);
    const formatted = await prettier.format(source, { ...prettierConfig, parser: 'typescript' });
    await writeFile(
      file,
      await injectExamples(
        name as 'types.gen.ts' | 'zod.gen.ts',
        formatted,
        examples,
        prettierConfig,
      ),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
