import { defineConfig } from 'tsup';

// Two entries, each as ESM and CJS with its own .d.ts/.d.cts. The core entry is platform-neutral
// (web-standard APIs only); the testing entry uses node:http.
export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'neutral',
    target: 'es2022',
    sourcemap: false,
    clean: true,
    treeshake: true,
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
]);
