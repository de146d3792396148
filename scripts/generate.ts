// Generates src/generated/ (types.gen.ts, zod.gen.ts) from spec/openapi.yaml.
//
//   npm run generate                      write src/generated/
//   tsx scripts/generate.ts --out <dir>   write the same files to <dir> (used by check-generated.ts)
//
// Steps: run @hey-api/openapi-ts with openapi-ts.config.ts, drop the client-only `ClientOptions`
// type it always emits, then format with prettier using the repository's configuration (resolved
// for src/generated/, so the output is identical wherever it is written).
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createClient } from '@hey-api/openapi-ts';
import * as prettier from 'prettier';

import config from '../openapi-ts.config';

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

async function main(): Promise<void> {
  const out = parseOut(process.argv.slice(2));
  const base = await config;
  if (Array.isArray(base) || typeof base.output !== 'object' || Array.isArray(base.output)) {
    throw new Error('openapi-ts.config.ts must export one config with an `output` object');
  }

  await createClient({
    ...base,
    input: path.join(root, 'spec', 'openapi.yaml'),
    output: { ...base.output, path: out, clean: true },
  });

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
    await writeFile(file, formatted);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
