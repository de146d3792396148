// `npm run test:third-party`: the clients people use with the SDK or its mock server (the official
// `openai` client, the Vercel AI SDK, undici's ProxyAgent), installed on demand into this folder's
// node_modules by scripts/tools.mjs, so that a fresh clone's `npm install` stays small.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // 'model-inference-sdk' is this repository's source, for the files carry-over.test.ts runs with
  // their `openai` import swapped for it (TypeScript reads the same mapping from tsconfig paths).
  resolve: {
    alias: [
      { find: /^model-inference-sdk$/, replacement: fileURLToPath(new URL('../../src/index.ts', import.meta.url)) },
      { find: /^model-inference-sdk\/helpers\/zod$/, replacement: fileURLToPath(new URL('../../src/helpers/zod.ts', import.meta.url)) },
    ],
  },
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.ts'],
    teardownTimeout: 5_000,
    testTimeout: 20_000,
  },
});
