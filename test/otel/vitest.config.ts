// `npm run test:otel`: model-inference-sdk/otel with the OpenTelemetry SDK's in-memory span exporter and
// an in-memory metric reader, installed on demand into this folder's node_modules by
// scripts/tools.mjs, so that a fresh clone's `npm install` stays small.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // model-inference-sdk/otel imports the SDK as its users do, `from 'model-inference-sdk'`: here, the source.
  resolve: { alias: [{ find: /^model-inference-sdk$/, replacement: fileURLToPath(new URL('../../src/index.ts', import.meta.url)) }] },
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.ts'],
    teardownTimeout: 5_000,
    testTimeout: 20_000,
  },
});
