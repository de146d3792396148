// Runs the vitest examples: `npx vitest run --config examples/testing/vitest.config.ts`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (file: string) => fileURLToPath(new URL(`../../src/${file}`, import.meta.url));

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['vitest/**/*.test.ts'],
  },
  resolve: {
    // Only because these examples live inside the SDK's own repository. In your project, delete
    // this block: `model-inference-sdk` resolves from node_modules.
    alias: [
      { find: /^model-inference-sdk\/testing\/msw$/, replacement: src('testing/msw.ts') },
      { find: /^model-inference-sdk\/testing$/, replacement: src('testing/index.ts') },
      { find: /^model-inference-sdk$/, replacement: src('index.ts') },
    ],
  },
});
