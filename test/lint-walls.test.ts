/**
 * The walls of src/ (eslint.config.js, docs/architecture.md) fire: each deliberate violation below,
 * linted as if it stood at its path in src/, fails `npm run lint` with the wall's message; the
 * same imports where they are allowed pass. ESLint lives in scripts/lint/ (installed on demand).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

interface Case {
  filePath: string;
  code: string;
}

function lint(cases: Case[]): { filePath: string; messages: { ruleId: string | null; message: string }[] }[] {
  const result = spawnSync(process.execPath, ['scripts/tools.mjs', 'run', 'scripts/lint', '--resolve', '--', 'node', 'test/support/lint-text.mjs'], {
    input: JSON.stringify(cases),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`lint-text failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ReturnType<typeof lint>;
}

const violations: [string, Case, RegExp][] = [
  ['the core imports a resource', { filePath: 'src/core/validate.ts', code: "import { Models } from '../resources/models';\nexport { Models };\n" }, /resources\/ \(the resources\) is a floor above/],
  ['a stream imports a helper', { filePath: 'src/stream/events.ts', code: "import { parseChatCompletion } from '../parse/completion';\nexport { parseChatCompletion };\n" }, /parse\/ \(parse\(\)\) is a floor above/],
  ['a resource imports a helper', { filePath: 'src/resources/chat.ts', code: "import { ChatCompletionRunner } from '../tools/runner';\nexport { ChatCompletionRunner };\n" }, /tools\/ \(runTools\(\)\) is a floor above/],
  ['a helper imports the testing kit', { filePath: 'src/parse/completion.ts', code: "import { startMockServer } from '../testing';\nexport { startMockServer };\n" }, /does not depend on its testing kit/],
  ['the core imports the CLI', { filePath: 'src/core/request.ts', code: "import { main } from '../cli/index';\nexport { main };\n" }, /Nothing depends on the CLI/],
  ['the core imports node:', { filePath: 'src/stream/sse.ts', code: "import { readFileSync } from 'node:fs';\nexport { readFileSync };\n" }, /web-standard APIs only/],
  ['the CLI imports past the public entries', { filePath: 'src/cli/chat.ts', code: "import { send } from '../core/retry';\nexport { send };\n" }, /public entries only/],
  ['the otel entry imports past the public entry', { filePath: 'src/otel/telemetry.ts', code: "import { send } from '../core/retry';\nexport { send };\n" }, /built on the public entry/],
  ['the otel entry imports the entry’s source', { filePath: 'src/otel/telemetry.ts', code: "import { Client } from '../index';\nexport { Client };\n" }, /as a user's code does/],
  ['the core imports the otel entry', { filePath: 'src/client.ts', code: "import { openTelemetry } from './otel/index';\nexport { openTelemetry };\n" }, /Nothing depends on the otel entry/],
  ['the proxy entry imports past the public entry', { filePath: 'src/proxy/proxy.ts', code: "import { send } from '../core/retry';\nexport { send };\n" }, /proxy is built on the public entry/],
  ['the proxy entry imports node:', { filePath: 'src/proxy/node.ts', code: "import { createServer } from 'node:http';\nexport { createServer };\n" }, /web-standard APIs only/],
  ['the core imports the proxy entry', { filePath: 'src/client.ts', code: "import { createProxy } from './proxy/index';\nexport { createProxy };\n" }, /the proxy entry \(model-inference-sdk\/proxy\)/],
  ['the batch entry imports past the public entry', { filePath: 'src/batch/runner.ts', code: "import { send } from '../core/retry';\nexport { send };\n" }, /batch is built on the public entry/],
  ['the core imports the batch entry', { filePath: 'src/client.ts', code: "import { runBatch } from './batch/index';\nexport { runBatch };\n" }, /or the batch entry/],
  ['generated code imports the SDK', { filePath: 'src/generated/types.gen.ts', code: "import { InferenceError } from '../errors/api';\nexport { InferenceError };\n" }, /Generated code imports nothing of the SDK/],
  ['an import cycle', { filePath: 'src/stream/sse.ts', code: "import { readStream } from './events';\nexport { readStream };\n" }, /cycle/i],
  // Type-only imports count: a cycle through `import type` alone is a cycle (import-x/no-cycle skips them).
  ['an import cycle through a type-only import', { filePath: 'src/errors/api.ts', code: "import type { Hooks } from '../options/hooks';\nexport type H = Hooks;\n" }, /Import cycle \(type-only and lazy imports count\): src\/errors\/api\.ts → src\/options\/hooks\.ts → src\/errors\/api\.ts/],
  // Lazy imports count too: across a wall, and in a cycle.
  ['a resource imports a helper lazily', { filePath: 'src/resources/call.ts', code: "export const load = () => import('../parse/completion');\n" }, /parse\/ \(parse\(\)\) is a floor above: every import in src\/ points down \(docs\/architecture\.md\)\. \(a lazy import\(\) crosses the wall too\)/],
  ['a resource names a helper\'s type with import()', { filePath: 'src/resources/call.ts', code: "export type P = import('../parse/completion').ParsedOutputOf<unknown>;\n" }, /an import\('…'\) type crosses the wall too/],
  ['the CLI imports past the public entries lazily', { filePath: 'src/cli/chat.ts', code: "export const load = () => import('../core/retry');\n" }, /public entries only .*lazy import/],
  ['an import cycle through a lazy import()', { filePath: 'src/util/mask.ts', code: "export const load = () => import('./log');\n" }, /Import cycle/],
];

// Each floor of src/, from the ground up (eslint.config.js): every one is walled off from the next.
const floors = ['errors', 'util', 'cost', 'schema', 'options', 'core', 'stream', 'hooks', 'resources', 'parse', 'tools', 'chat'];
for (const [i, below] of floors.slice(0, -1).entries()) {
  const above = floors[i + 1]!;
  violations.push([`${below}/ imports ${above}/, the floor above`, { filePath: `src/${below}/x.ts`, code: `import { y } from '../${above}/y';\nexport { y };\n` }, new RegExp(` ${above}/ \\(.*\\) is a floor above: every import in src/ points down`)]);
}

const allowed: [string, Case][] = [
  ['a helper imports a resource', { filePath: 'src/parse/completion.ts', code: "import { ChatCompletionsResource } from '../resources/chat';\nexport { ChatCompletionsResource };\n" }],
  ['the testing kit imports node:', { filePath: 'src/testing/mock-server.ts', code: "import { createServer } from 'node:http';\nexport { createServer };\n" }],
  ['the CLI imports the public entries', { filePath: 'src/cli/chat.ts', code: "import { Client } from '../index';\nimport { startMockServer } from '../testing';\nexport { Client, startMockServer };\n" }],
  ['the otel entry imports the public entry, @opentelemetry/api and the version', {
    filePath: 'src/otel/telemetry.ts',
    code: "import { InferenceError, type Hooks } from 'model-inference-sdk';\nimport { trace } from '@opentelemetry/api';\nimport { version } from '../../package.json';\nimport { spanName } from './attributes';\nexport type { Hooks };\nexport { InferenceError, trace, version, spanName };\n",
  }],
  ['the proxy entry imports the public entry and its three leaf files', {
    filePath: 'src/proxy/proxy.ts',
    code: "import { Client } from 'model-inference-sdk';\nimport { requestedCompletionTokens } from '../cost/tokens';\nimport { maskText } from '../util/mask';\nimport { closest } from '../util/suggest';\nimport { Refusal } from './errors';\nexport { Client, requestedCompletionTokens, maskText, closest, Refusal };\n",
  }],
  ['the batch entry imports the public entry, cost/decimal and node:fs', {
    filePath: 'src/batch/file.ts',
    code: "import { Client } from 'model-inference-sdk';\nimport { add } from '../cost/decimal';\nimport { openSync } from 'node:fs';\nimport { readLines } from './lines';\nexport { Client, add, openSync, readLines };\n",
  }],
  ['the CLI imports the batch entry', { filePath: 'src/cli/batch.ts', code: "import { runBatchFile } from '../batch/index';\nexport { runBatchFile };\n" }],
  ['the client imports the helpers', { filePath: 'src/client.ts', code: "import { Chat } from './chat/completions';\nexport { Chat };\n" }],
  ['a call loads the hook runner lazily, a floor below', { filePath: 'src/resources/call.ts', code: "export const load = () => import('../hooks/runner');\n" }],
  ['a type-only import that points down', { filePath: 'src/core/request.ts', code: "import type { Log } from '../util/log';\nexport type L = Log;\n" }],
];

describe('the walls of src/ (npm run lint)', () => {
  const results = lint([...violations.map(([, c]) => c), ...allowed.map(([, c]) => c)]);

  it.each(violations.map(([name, , message], i) => [name, i, message] as const))('%s fails lint', (_name, i, message) => {
    const messages = results[i]!.messages;
    expect(messages.map((m) => m.message).join('\n')).toMatch(message);
    // (An `import('…')` type is also against the style rule that wants `import type`.)
    expect(messages.every((m) => ['no-restricted-imports', 'no-restricted-syntax', 'walls/no-cycle', '@typescript-eslint/consistent-type-imports'].includes(m.ruleId ?? ''))).toBe(true);
    expect(messages.some((m) => m.ruleId !== '@typescript-eslint/consistent-type-imports')).toBe(true);
  });

  it.each(allowed.map(([name], i) => [name, violations.length + i] as const))('%s passes', (_name, i) => {
    expect(results[i]!.messages).toEqual([]);
  });
});
