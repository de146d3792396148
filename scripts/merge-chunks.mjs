// Part of `npm run build`, after tsup: the SDK's ESM graph (dist/index.js, helpers/zod, schemas, otel) in
// as few files as its lazy loading allows.
//
// esbuild splits shared code into a chunk per set of entries (and lazily loaded modules) that use
// it, so `import { Client }` loaded eleven small files. Each one is a module Node resolves, reads
// and compiles at a cold start (about half a millisecond each in `npm run bench`'s cold start).
// Rollup reads esbuild's output and puts every file that the main entry loads before it runs (its
// static imports, to the end) into one chunk, `core`; what loads with `import()` (hooks,
// preflight, debug lines, parsing, the tool loop, the SSE reader) keeps its own files, as
// esbuild split them. The code itself is not changed, only where it sits; esbuild's minified
// output goes through as it is.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const ENTRIES = { index: 'index.js', 'helpers/zod': 'helpers/zod.js', 'schemas/index': 'schemas/index.js', 'otel/index': 'otel/index.js' };

/** Every .js file an import of `file` reaches: before it runs, or also with `import()` (`lazy`). */
function reached(file, lazy, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const m of code.matchAll(/(?:^|[\n;}])\s*(?:import|export)\s*(?:[^;'"]*?from\s*)?["'](\.{1,2}\/[^"']+)["']|\bimport\(["'](\.{1,2}\/[^"']+)["']\)/g)) {
    if (m[1] !== undefined || lazy) reached(path.resolve(path.dirname(file), m[1] ?? m[2]), lazy, seen);
  }
  return seen;
}

const inputs = Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(dist, file)]));
const before = new Set(Object.values(inputs).flatMap((file) => [...reached(file, true)]));
/** What `import { Client }` loads before it runs: one chunk. */
const upFront = reached(inputs.index, false);
const bundle = await rollup({
  input: inputs,
  // Only the graph's own files are read; packages and node: stay imports.
  external: (id, importer) => importer !== undefined && !id.startsWith('.') && !path.isAbsolute(id),
  treeshake: false,
  onwarn(warning, warn) {
    if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
  },
});
const { output } = await bundle.generate({
  format: 'es',
  manualChunks: (id) => (upFront.has(id) ? 'core' : undefined),
  entryFileNames: '[name].js',
  // `hook-runner-<rollup's hash>.js`, not esbuild's hash and rollup's one after the other.
  chunkFileNames: (chunk) => `${chunk.name.replace(/-[A-Z0-9]{8}$/, '')}-[hash].js`,
});
await bundle.close();

for (const file of before) rmSync(file, { force: true });
for (const item of output) {
  const target = path.join(dist, item.fileName);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, item.type === 'chunk' ? item.code : item.source);
}
const after = output.filter((item) => item.type === 'chunk');
const loaded = reached(path.join(dist, 'index.js'), false);
console.error(`merge-chunks: ${before.size} files -> ${after.length}; import { Client } loads ${loaded.size} (${[...loaded].map((f) => path.relative(dist, f)).join(', ')})`);

