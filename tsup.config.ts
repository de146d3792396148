import { defineConfig, type Options } from 'tsup';

// Two builds, one per module format, each ONE graph of every entry it ships with shared chunks, so
// each piece of code is in the tarball once per format: the core that the main entry, the test
// kit and the CLI all use is one chunk they import, not a copy inside each (issue 21: the CLI's own
// copy of the core had doubled the tarball). The same graph also means one class per format:
// an error thrown by the test kit is `instanceof` the main entry's class.
//
// - ESM: the library entries and the CLI (package.json `bin`, ESM only, a shebang on cli.js).
// - CJS: the library entries, and every declaration file (.d.cts). The ESM entries' declarations
//   (.d.ts) re-export them (scripts/dts-names.mjs), so the types exist once too: a node10 consumer,
//   whose `types` and `typesVersions` lead to .d.cts, and an ESM consumer see the same
//   declarations, and a type from one entry fits a parameter of another.
//
// The core is platform-neutral (web-standard APIs only); the test kit and the CLI use `node:`
// modules, left external. `model-inference-sdk/otel` imports the SDK as a user's code does
// (`from 'model-inference-sdk'`), left external like zod, eventsource-parser, msw and
// @opentelemetry/api (optional peers). `npm run build` empties dist/ first, then runs
// scripts/dts-names.mjs after tsup.

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

/** The `#!/usr/bin/env node` line on dist/cli.js alone (a banner would put it on every chunk). */
const shebang: NonNullable<Options['plugins']>[number] = {
  name: 'cli-shebang',
  renderChunk(code, chunk) {
    if (!/[\\/]cli\.js$/.test(chunk.path)) return undefined;
    return { code: `#!/usr/bin/env node\n${code}` };
  },
};

const library = {
  index: 'src/index.ts',
  'helpers/zod': 'src/helpers/zod.ts',
  'otel/index': 'src/otel/index.ts',
  'testing/index': 'src/testing/index.ts',
  'testing/msw': 'src/testing/msw.ts',
};

const shared: Options = {
  platform: 'neutral',
  target: 'es2022',
  sourcemap: false,
  treeshake: true,
  splitting: true,
  // No `clean` here: the two builds run in parallel, and one cleaning dist/ would race with the
  // other. `npm run build` empties dist/ first instead.
  external: ['zod', 'eventsource-parser', '@opentelemetry/api', 'model-inference-sdk', 'msw', /^node:/],
};

export default defineConfig([
  { ...shared, entry: { ...library, cli: 'src/cli/index.ts' }, format: ['esm'], dts: false, plugins: [sourceClassNames, shebang] },
  { ...shared, entry: library, format: ['cjs'], dts: true, plugins: [sourceClassNames] },
]);
