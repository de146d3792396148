import { defineConfig } from 'tsup';

// Library entries, each as ESM and CJS with its own .d.ts/.d.cts. The core entry is platform-neutral
// (web-standard APIs only); the testing entry uses node:http; testing/msw is platform-neutral and
// leaves msw (an optional peer) external. The CLI (package.json `bin`) is ESM only, with a shebang.
export default defineConfig([
  {
    // One build for both entries, split into shared chunks (CJS too), so that the classes the
    // entries share (errors above all) exist once and `instanceof` holds across them.
    entry: { index: 'src/index.ts', 'helpers/zod': 'src/helpers/zod.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'neutral',
    target: 'es2022',
    sourcemap: false,
    // No `clean` here: the configs build in parallel, and one config cleaning dist/ raced with the
    // others' declaration files. `npm run build` empties dist/ first instead.
    treeshake: true,
    splitting: true,
    external: ['zod', 'eventsource-parser'],
  },
  {
    entry: { 'testing/index': 'src/testing/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'node',
    target: 'node20',
    sourcemap: false,
    treeshake: true,
  },
  {
    entry: { 'testing/msw': 'src/testing/msw.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'neutral',
    target: 'es2022',
    sourcemap: false,
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
    treeshake: true,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
