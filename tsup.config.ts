import path from 'node:path';
import { defineConfig, type Options } from 'tsup';

// The JavaScript, in two graphs per module format, each with shared chunks:
//
// - the SDK: the main entry, helpers/zod, schemas and otel (ESM and CJS). Its code is in the tarball once
//   per format: the core the entries share is one chunk they import.
// - the tools around it: the test kit (testing, testing/msw), the route (proxy) and the CLI (ESM only, a shebang on
//   cli.js). They import the SDK as its users do, by the package's name: `'model-inference-sdk'`
//   is left external (an esbuild plugin maps src/index.ts to it), so they use the main entry's own
//   classes (an error from the test kit is `instanceof` the main entry's) and carry no copy of the
//   core. What they share with it besides (util/mask.ts, util/json.ts, util/suggest.ts: small leaf functions) is
//   bundled with them.
//
// Two graphs rather than one, because each entry that reaches a different part of the core splits
// the core into more chunks, and every chunk is one more module for `import { Client }` to resolve,
// read and compile at a serverless cold start (`npm run bench`, "cold start").
//
// Declarations are written once, as .d.cts (the SDK's CJS build, for all six library entries);
// each entry's .d.ts re-exports its .d.cts (scripts/dts-names.mjs), so a node10 consumer, whose
// `types` and `typesVersions` lead to .d.cts, and an ESM consumer see the same declarations.
//
// The core is platform-neutral (web-standard APIs only); the test kit and the CLI use `node:`
// modules, left external. `model-inference-sdk/otel` imports the SDK by name too. zod,
// eventsource-parser, msw and @opentelemetry/api (optional peers) stay external.
// `npm run build` empties dist/ first, then runs scripts/dts-names.mjs after tsup (and
// scripts/merge-chunks.mjs, scripts/peer-entries.mjs).

/**
 * Gives back their source names to the classes esbuild renames. A class that refers to itself
 * (`static fromResponse() { return new APIError(…) }`) is bundled as
 * `var APIError = class _APIError { … _APIError … }`, so `APIError.name`, `console.log(err)` and
 * stack traces say `_APIError`. esbuild's `keepNames` would fix that by wrapping every function and
 * class of the bundle in a `__name()` call (+2.4 KB gzip on a streaming chat, 13 %); this renames
 * just those classes: `var APIError = class APIError { … APIError … }` means the same, since inside
 * a class expression its own name is the class. `npm run check:package` checks every exported
 * class's name on the packed build.
 */
const sourceClassNames: NonNullable<Options['plugins']>[number] = {
  name: 'source-class-names',
  renderChunk(code) {
    // `var APIError = class _APIError`, or in a list: `,APIError=class _APIError` (minified),
    // `}, APIError = class _APIError` (the readable CommonJS build).
    const renamed = [...code.matchAll(/(?:\b(?:var|let|const) |,\s*)([A-Za-z][\w$]*) ?= ?class _\1\b/g)].map((m) => m[1]!);
    if (renamed.length === 0) return undefined;
    let next = code;
    for (const name of renamed) next = next.replace(new RegExp(`\\b_${name}\\b`, 'g'), name);
    return { code: next };
  },
};

/** The `#!/usr/bin/env node` line on dist/cli.js alone (a banner would put it on every chunk). */
const shebang: NonNullable<Options['plugins']>[number] = {
  name: 'cli-shebang',
  renderChunk(code, chunk) {
    if (!/[\\/]cli\.js$/.test(chunk.path)) return undefined;
    return { code: `#!/usr/bin/env node\n${code}` };
  },
};

/**
 * The CommonJS build loads its lazy parts with `require()`, never `import()`. jest runs CommonJS
 * in its own module system, and there, without `--experimental-vm-modules` (how most teams run
 * it), every `import()` rejects ("A dynamic import callback was invoked without
 * --experimental-vm-modules"): the limiter on a call's first attempt, the SSE reader, hooks,
 * parse(), the tool loop. `Promise.resolve().then(() => require(…))` keeps each part loaded on
 * first use, as before, and a failure to load still rejects the same promise rather than throwing.
 * Only the build's own chunks (`./…cjs`) are loaded lazily; packages are imported at the top.
 */
const cjsRequire: NonNullable<Options['plugins']>[number] = {
  name: 'cjs-require',
  renderChunk(code, chunk) {
    if (!chunk.path.endsWith('.cjs')) return undefined;
    const next = code.replace(/\bimport\((['"])(\.{1,2}\/[^'"]+\.cjs)\1\)/g, 'Promise.resolve().then(() => require($1$2$1))');
    if (/\bimport\(/.test(next.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')))
      throw new Error(`cjs-require: ${chunk.path} still has an import() the rewrite does not cover`);
    return { code: next };
  },
};

/** Imports of src/index.ts, in the tools' graph, become imports of the package by its name. */
const sdkByName: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'sdk-by-name',
  setup(build) {
    const main = path.resolve('src/index.ts');
    build.onResolve({ filter: /^\.{1,2}\// }, (args) => {
      const target = path.resolve(args.resolveDir, args.path);
      return target === main || `${target}.ts` === main ? { path: 'model-inference-sdk', external: true } : undefined;
    });
  },
};

const sdk = {
  index: 'src/index.ts',
  'helpers/zod': 'src/helpers/zod.ts',
  'schemas/index': 'src/schemas/index.ts',
  'otel/index': 'src/otel/index.ts',
};
const kit = { 'testing/index': 'src/testing/index.ts', 'testing/msw': 'src/testing/msw.ts' };
// model-inference-sdk/proxy is built with the tools: it imports the SDK by its name, and the leaf
// files it shares with it (cost/tokens.ts, util/mask.ts, util/suggest.ts) are bundled with it, so the main
// entry's chunks do not change.
const route = { 'proxy/index': 'src/proxy/index.ts' };
// model-inference-sdk/batch likewise (it runs requests through a Client it is given, and reads and
// writes files with node:fs, left external).
const batch = { 'batch/index': 'src/batch/index.ts' };

const shared: Options = {
  // Whitespace and syntax minified, names kept: a quarter smaller in the tarball and faster to parse
  // at a cold start, while stack traces and `console.log(err)` still name every function and class.
  // The types (.d.cts, with their docs) are not minified.
  minifyWhitespace: true,
  minifySyntax: true,
  platform: 'neutral',
  target: 'es2022',
  sourcemap: false,
  treeshake: true,
  splitting: true,
  // No `clean` here: the builds run in parallel, and one cleaning dist/ would race with the
  // others. `npm run build` empties dist/ first instead.
  external: ['zod', 'eventsource-parser', '@opentelemetry/api', 'model-inference-sdk', 'msw', /^node:/],
};

/**
 * The tools' chunks are named `tools-<hash>`: a chunk of the same content in both graphs (util/suggest.ts,
 * shared by the CLI and the route here, by the client's checks and its hooks there) would otherwise
 * be one file name written by both, and scripts/merge-chunks.mjs removes the SDK graph's chunks.
 */
const toolChunks: Options['esbuildOptions'] = (options) => {
  options.chunkNames = 'tools-[hash]';
};

/**
 * The CommonJS build keeps its line breaks and indentation (syntax still minified). It is what
 * jest loads, and jest prints the line of the top stack frame: in a whitespace-minified build that
 * is one line of tens of kilobytes. Kept readable, a failing test shows a short frame, and a stack
 * trace's line points at one statement. The ES build, which bundlers and cold starts read, stays
 * minified. Costs the tarball 25.7 kB packed (scripts/package/check.ts).
 */
const readable: Options = { minifyWhitespace: false };

export default defineConfig([
  { ...shared, entry: sdk, format: ['esm'], dts: false, plugins: [sourceClassNames] },
  { ...shared, entry: sdk, format: ['cjs'], ...readable, dts: { entry: { ...sdk, ...kit, ...route, ...batch } }, plugins: [sourceClassNames, cjsRequire] },
  { ...shared, entry: { ...kit, ...route, ...batch, cli: 'src/cli/index.ts' }, format: ['esm'], dts: false, plugins: [sourceClassNames, shebang], esbuildPlugins: [sdkByName], esbuildOptions: toolChunks },
  { ...shared, entry: { ...kit, ...route, ...batch }, format: ['cjs'], ...readable, dts: false, plugins: [sourceClassNames, cjsRequire], esbuildPlugins: [sdkByName], esbuildOptions: toolChunks },
]);
