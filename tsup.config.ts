import { defineConfig, type Options } from 'tsup';

// Library entries, each as ESM and CJS with its own .d.ts/.d.cts. The core entry is platform-neutral
// (web-standard APIs only), and so are helpers/zod and otel (built with it; otel imports the SDK
// as `model-inference-sdk`, left external like @opentelemetry/api, its optional peer); the testing entry
// uses node:http; testing/msw is platform-neutral and leaves msw (an optional peer) external. The
// CLI (package.json `bin`) is ESM only, with a shebang. After tsup, `npm run build` renames the
// shared declaration chunk (scripts/dts-names.mjs).

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
    const renamed = [...code.matchAll(/\b(?:var|let|const) ([A-Za-z][\w$]*) = class _\1\b/g)].map((m) => m[1]!);
    if (renamed.length === 0) return undefined;
    let next = code;
    for (const name of renamed) next = next.replace(new RegExp(`\\b_${name}\\b`, 'g'), name);
    return { code: next };
  },
};

export default defineConfig([
  {
    // One build for both entries, split into shared chunks (CJS too), so that the classes the
    // entries share (errors above all) exist once and `instanceof` holds across them.
    entry: { index: 'src/index.ts', 'helpers/zod': 'src/helpers/zod.ts', 'otel/index': 'src/otel/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'neutral',
    target: 'es2022',
    sourcemap: false,
    plugins: [sourceClassNames],
    // No `clean` here: the configs build in parallel, and one config cleaning dist/ raced with the
    // others' declaration files. `npm run build` empties dist/ first instead.
    treeshake: true,
    splitting: true,
    // @opentelemetry/api: an optional peer dependency, needed by the otel entry alone. The otel
    // entry's types import the SDK's as a user's code does (`from 'model-inference-sdk'`), so its
    // declarations point at dist/index.d.ts instead of splitting the shared declaration chunk.
    external: ['zod', 'eventsource-parser', '@opentelemetry/api', 'model-inference-sdk'],
  },
  {
    entry: { 'testing/index': 'src/testing/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'node',
    target: 'node20',
    sourcemap: false,
    plugins: [sourceClassNames],
    treeshake: true,
  },
  {
    entry: { 'testing/msw': 'src/testing/msw.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'neutral',
    target: 'es2022',
    sourcemap: false,
    plugins: [sourceClassNames],
    treeshake: true,
    external: ['msw'],
  },
  {
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    dts: false,
    platform: 'node',
    target: 'node20',
    sourcemap: false,
    plugins: [sourceClassNames],
    treeshake: true,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
