import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // model-inference-sdk/otel imports the SDK as its users do, `from 'model-inference-sdk'`: here, the source.
  resolve: { alias: [{ find: /^model-inference-sdk$/, replacement: fileURLToPath(new URL('src/index.ts', import.meta.url)) }] },
  test: {
    include: ['test/**/*.test.ts'],
    // Their own package.json and node_modules (openai, ai, undici; the OpenTelemetry SDK):
    // `npm run test:third-party`, `npm run test:otel`.
    exclude: ['test/third-party/**', 'test/otel/**', '**/node_modules/**'],
    // Type tests (expectTypeOf in *.test-d.ts) are compiled by test/type-tests.test.ts.
    // Once per run: the line that says the corpus suites are skipped, when they are.
    globalSetup: ['test/support/global-setup.ts'],
    // Two files at a time even on two cores (vitest's default there is one): most tests wait on
    // servers and timers, not the CPU. Nothing may depend on the machine being idle.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Tests start real servers on 127.0.0.1; none may outlive its file.
    teardownTimeout: 5_000,
    testTimeout: 20_000,
  },
});
