// Part of `npm run build`, after scripts/merge-chunks.mjs: the entries that need zod, an optional
// peer dependency, as Node, Deno and Bun load them.
//
// dist/helpers/zod.js and dist/schemas/index.js import zod statically, so that a bundler
// tree-shakes it and needs no top-level await; bundlers get them through the `module` export
// condition. A runtime that has no zod installed would fail to link them with its own message
// ("Cannot find package 'zod' imported from …/dist/helpers/zod.js"). So the `import` and
// `require` conditions lead to a loader written here, `<entry>.load.js` / `.load.cjs`: it loads
// the entry, and when what failed is zod, throws an InferenceError that says what to install,
// with the runtime's error as its cause. The ES loader uses a top-level `await import()`, the one
// way an ES module can catch a dependency that is not there.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
/** The entries that need zod: their ESM file under dist/, and how a user names them. */
export const PEER_ENTRIES = [
  { file: 'helpers/zod', entry: 'model-inference-sdk/helpers/zod' },
  { file: 'schemas/index', entry: 'model-inference-sdk/schemas' },
];

/** The names an esbuild ESM file exports (its last `export { a, b as c }` statement). */
function exportedNames(code, file) {
  const list = [...code.matchAll(/\bexport\s*\{([^}]*)\}/g)].at(-1)?.[1];
  if (list === undefined) throw new Error(`peer-entries: ${file} has no export list`);
  return list.split(',').map((item) => item.trim().split(/\s+as\s+/).at(-1)).filter(Boolean);
}

/** The function both loaders use: zod's own failure becomes the InferenceError, others pass. */
const missing = (entry) => `function missing(error) {
  const message = error instanceof Error ? error.message : String(error);
  // The runtime names the specifier ('zod', 'zod/mini') or, for a zod 3 without zod/mini, its path.
  if (!/['"]zod(?:\\/[\\w-]+)?['"]|node_modules[\\\\/]zod[\\\\/]/.test(message)) return error;
  return new InferenceError(${JSON.stringify(`${entry} needs zod 4, an optional peer dependency: install it with \`npm install zod@^4\``)} + ' (' + message.split('\\n')[0] + ')', { cause: error });
}`;

for (const { file, entry } of PEER_ENTRIES) {
  const base = path.basename(file);
  const up = path.relative(path.dirname(path.join(dist, file)), dist) || '.';
  const names = exportedNames(readFileSync(path.join(dist, `${file}.js`), 'utf8'), `${file}.js`);
  const header = `// ${entry} for Node, Deno and Bun: written by scripts/peer-entries.mjs (see there).`;
  writeFileSync(
    path.join(dist, `${file}.load.js`),
    `${header}
import { InferenceError } from '${up}/index.js';
${missing(entry)}
let loaded;
try {
  loaded = await import('./${base}.js');
} catch (error) {
  throw missing(error);
}
export const { ${names.join(', ')} } = loaded;
`,
  );
  writeFileSync(
    path.join(dist, `${file}.load.cjs`),
    `'use strict';
${header}
const { InferenceError } = require('${up}/index.cjs');
${missing(entry)}
try {
  module.exports = require('./${base}.cjs');
} catch (error) {
  throw missing(error);
}
`,
  );
}
console.error(`peer-entries: ${PEER_ENTRIES.map((e) => `${e.file}.load.js, .load.cjs`).join('; ')}`);
