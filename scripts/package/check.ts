// `npm run check:package`: the artifact users install, checked as they will get it.
//
//   1. build if dist/ is stale, `npm pack`, and check the tarball holds exactly what users need, in
//      at most 300 kB, with no script that would run at a user's install
//   2. publint (strict) on the tarball
//   3. @arethetypeswrong/cli on the tarball (node10, node16 CJS/ESM, bundler)
//   4. every relative link in the packed Markdown (README, docs/) resolves inside the
//      tarball, anchors included: the README on npm and in node_modules has no dead link
//   5. the docs match package.json: getting-started names its dependencies, the README its scripts
//   6. gzip size ceilings (size.ts), with the biggest contributors
//   7. install the tarball into a temp dir and run a smoke there: ESM import and CJS require of
//      the entries against the packed mock server (model-inference-sdk/otel with @opentelemetry/api, its
//      optional peer, installed beside it; model-inference-sdk/proxy on Node's http in front of it);
//      without zod (an optional peer) a chat streams through the main entry and helpers/zod and
//      schemas say what to install, then with the lowest zod the peer range allows, /schemas
//      parses the mock's responses (peers.ts); names as written in the source (`console.log` of an
//      error says `APIError`), tsc (nodenext, skipLibCheck off) on a consumer file and tsc (commonjs,
//      node10) on the README's parse() and runTools() code, and the bin: `npx model-inference-sdk
//      --version` and a chat against the packed mock server
//
// publint and attw are installed on demand in scripts/package/ (`npm run check:package` does it).
// Every step runs even after a failure; exits 1 if any failed.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import ts from 'typescript';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { ensureBuilt, installTarball, pack, quietNpmEnv, root, type Packed } from './artifact';
import { deadLinks } from './links';
import type * as Testing from '../../src/testing/index';
import { smokeSchemas, smokeWithoutZod, zodFloor } from './peers';
import { CEILINGS, TARGET_STREAMING_CHAT, measureSizes } from './size';

/** A binary of this folder's tools (attw), else of the root (tsc). */
const bin = (name: string, where: 'tools' | 'root') =>
  path.join(where === 'tools' ? path.join(root, 'scripts', 'package') : root, 'node_modules', '.bin', name);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Every file in the tarball must match one of these; anything else is a leak (tests, src, maps). */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE(\.md)?$/,
  // The guides the README links to (not the contributors' architecture and performance pages).
  /^docs\/(?!architecture\.md$|performance\.md$)[\w-]+\.md$/,
  // Entries, their types, and the chunks they share (one graph per module format).
  /^dist\/(testing\/|helpers\/|schemas\/|otel\/|proxy\/|batch\/)?[\w.-]+\.(js|cjs|d\.ts|d\.cts)$/,
];

/**
 * The packed tarball's ceiling (issue 21: it had doubled to 441 kB with the CLI's own copy of the
 * core). Raised from 300 kB to 345 kB for model-inference-sdk/proxy (issue 32: its ESM, CJS and
 * declarations and docs/route.md, ~31 kB packed; main was at 302 959 B before it), then to
 * 365 kB for model-inference-sdk/schemas (issue 28: 358 481 B packed; its ESM and CJS builds
 * and its declarations, 87 kB unpacked, which carry every schema's inferred zod type and its
 * docs, are ~15 kB packed), then to 385 kB for the rate limiter and fallbacks (issues 31 and
 * 32: their chunks in ESM and CJS, their declarations and their docs, +20.5 kB packed: 355 937 B
 * over main's 335 420 B before the schemas), then to 410 kB for a readable CommonJS build (issue 30:
 * jest prints the line of a failure's top frame, and a whitespace-minified line is tens of kilobytes;
 * keeping the CJS files' line breaks and indentation is +25.7 kB packed, 404 825 B over 379 109 B,
 * +116 kB unpacked; the ES build stays minified), then to 440 kB for model-inference-sdk/batch
 * (issue 31: its ESM and CJS builds, its declarations, the CLI's batch command and docs/batch.md,
 * +22 kB packed: 426 864 B over 404 825 B), then to 450 kB for issues 29 and 30 (the hardening
 * round, `asResponse()` keeping the value, openai's statics and final tool calls: their code in
 * ESM and CJS, their declarations and docs, +16 kB packed: 443 130 B), then to 460 kB for the
 * strict-mode schemas, `await using`, rejected argument errors and `stream()` starting at once
 * (issues 28 and 30: code in both builds, declarations, docs; 449 751 B packed).
 */
const MAX_PACKED_BYTES = 460_000;

/** Scripts npm runs at an install (`prepare` for a git or folder install): none may be packed. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

const steps: { name: string; ok: boolean; ms: number }[] = [];

async function step(name: string, body: () => void | Promise<void>): Promise<void> {
  console.log(`\n=== ${name}`);
  const started = Date.now();
  try {
    await body();
    steps.push({ name, ok: true, ms: Date.now() - started });
  } catch (error) {
    console.log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
    steps.push({ name, ok: false, ms: Date.now() - started });
  }
}

/** Targets of `exports`, `main`, `module`, `types`, `typesVersions`: each must be in the tarball. */
function declaredFiles(pkg: Record<string, unknown>): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.startsWith('./')) found.add(value.slice(2));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const key of ['exports', 'main', 'module', 'types', 'typesVersions']) walk(pkg[key]);
  return [...found].sort();
}

async function main(): Promise<number> {
  let packed: Packed | undefined;

  await step('build and pack', () => {
    ensureBuilt();
    packed = pack();
    console.log(
      `${path.relative(root, packed.tarball)}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`,
    );
    for (const f of packed.files) console.log(`  ${String(f.size).padStart(7)}  ${f.path}`);
    const names = packed.files.map((f) => f.path);
    const unexpected = names.filter((n) => !ALLOWED.some((re) => re.test(n)));
    if (unexpected.length > 0)
      throw new Error(
        `files users do not need are in the tarball: ${unexpected.join(', ')} (fix "files" in package.json)`,
      );
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const missing = declaredFiles(pkg).filter((f) => f !== 'package.json' && !names.includes(f));
    if (missing.length > 0)
      throw new Error(
        `package.json points at files missing from the tarball: ${missing.join(', ')}`,
      );
    if (pkg['sideEffects'] !== false)
      throw new Error('package.json should say "sideEffects": false');
    if (packed.size > MAX_PACKED_BYTES)
      throw new Error(`the tarball is ${packed.size} bytes packed, over the ${MAX_PACKED_BYTES} B ceiling: is some code in it twice?`);
    console.log(`  ${packed.size} B packed, within the ${MAX_PACKED_BYTES} B ceiling`);
    const inTarball = JSON.parse(execFileSync('tar', ['-xzOf', packed.tarball, 'package/package.json'], { encoding: 'utf8' })) as { scripts?: Record<string, string> };
    const runAtInstall = INSTALL_SCRIPTS.filter((name) => inTarball.scripts?.[name] !== undefined);
    if (runAtInstall.length > 0) throw new Error(`the packed package.json has scripts that run at a user's install: ${runAtInstall.join(', ')}`);
    const here = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    if (here.scripts?.['prepare'] === undefined) throw new Error('package.json lost its `prepare` script after packing (postpack should put it back)');
    console.log('  the packed package.json has no install-time script; the clone keeps `prepare`');
  });
  if (!packed) return report();
  const tarball = packed.tarball;

  await step('publint (strict, on the tarball)', async () => {
    const buffer = readFileSync(tarball);
    const result = await publint({
      pack: {
        tarball: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength),
      },
      strict: true,
      level: 'suggestion',
    });
    if (result.pkg['name'] !== 'model-inference-sdk')
      throw new Error('publint did not read the package.json in the tarball');
    for (const message of result.messages)
      console.log(`  ${message.type}: ${formatMessage(message, result.pkg, { color: false })}`);
    if (result.messages.length > 0)
      throw new Error(`publint: ${result.messages.length} problem(s)`);
    console.log('  no problems');
  });

  await step('are the types wrong (attw, on the tarball)', () => {
    // Exits non-zero on any problem in any resolution mode; its table is the explanation.
    execFileSync(bin('attw', 'tools'), [tarball, '--format', 'table-flipped', '--no-color', '--no-emoji'], {
      stdio: 'inherit',
      env: quietNpmEnv,
    });
  });

  await step('links in the packed Markdown resolve inside the tarball', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-inference-sdk-links-'));
    try {
      execFileSync('tar', ['-xzf', tarball, '-C', dir]);
      const { checked, dead } = deadLinks(path.join(dir, 'package'));
      console.log(`  ${checked.links} relative links in ${checked.files.length} Markdown files: ${checked.files.join(", ")}`);
      if (!checked.files.includes('README.md')) throw new Error('README.md is not in the tarball');
      for (const link of dead) console.log(`  dead: ${link.file}:${link.line}: ${link.target} (${link.why})`);
      if (dead.length > 0) throw new Error(`${dead.length} dead link(s) in the packed Markdown`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  await step('the docs match package.json: its dependencies, its scripts', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      scripts?: Record<string, string>;
    };
    // The README's development section lists every script (`prepare` runs by itself; `npm test`).
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const development = readme.slice(readme.indexOf('## Development'));
    const undocumented = Object.keys(pkg.scripts ?? {}).filter(
      (name) => !['prepare', 'prepack', 'postpack'].includes(name) && !development.includes(name === 'test' ? '`npm test`' : `\`npm run ${name}\``),
    );
    console.log(`  README.md, Development: ${Object.keys(pkg.scripts ?? {}).length - undocumented.length} of the scripts`);
    if (undocumented.length > 0) throw new Error(`README.md's Development section does not list: ${undocumented.join(', ')}`);

    const names = Object.keys(pkg.dependencies ?? {});
    const guide = readFileSync(path.join(root, 'docs', 'getting-started.md'), 'utf8');
    const words = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    const count = /\b(\w+) dependenc(?:y|ies)\b/.exec(guide)?.[1];
    const missing = names.filter((name) => !guide.includes(`\`${name}\``));
    console.log(`  package.json: ${names.join(', ')}; the guide says "${count ?? '?'} dependencies"`);
    if (missing.length > 0) throw new Error(`docs/getting-started.md does not name ${missing.join(', ')}`);
    if (count !== words[names.length]) {
      throw new Error(`docs/getting-started.md says "${count} dependencies", package.json has ${names.length}`);
    }
  });

  await step(
    'gzip size ceilings (esbuild, platform browser, minified, deps included)',
    async () => {
      const sizes = await measureSizes();
      const rows = [
        {
          name: 'construct + one streaming chat',
          m: sizes.streamingChat,
          ceiling: CEILINGS.streamingChat,
        },
        { name: 'whole entry (export *)', m: sizes.wholeEntry, ceiling: CEILINGS.wholeEntry },
        { name: 'model-inference-sdk/proxy (export *)', m: sizes.proxyEntry, ceiling: CEILINGS.proxyEntry },
        { name: 'schemas entry, zod/mini included', m: sizes.schemas, ceiling: CEILINGS.schemas },
      ];
      for (const { name, m, ceiling } of rows) {
        console.log(
          `  ${name.padEnd(32)} ${String(m.minified).padStart(7)} B minified  ${String(m.gzip).padStart(6)} B gzip` +
            `  (ceiling ${ceiling} B)  + ${m.lazyGzip} B gzip in import() chunks`,
        );
      }
      for (const warning of sizes.streamingChat.warnings) {
        // The bare imports tsup writes between chunks (to keep their order) meet `sideEffects:
        // false`; esbuild warns about them here, bundling dist/ from the repository, but not for
        // a package under node_modules, where users have it (checked by bundling the tarball).
        if (/marked as having no side effects/.test(warning)) continue;
        console.log(`  note: esbuild warns every user who bundles the SDK: ${warning}`);
      }
      const chat = sizes.streamingChat.gzip;
      console.log(
        `  streaming chat vs the ${TARGET_STREAMING_CHAT} B (12 KiB) target: ${chat > TARGET_STREAMING_CHAT ? `${chat - TARGET_STREAMING_CHAT} B over` : 'within'};` +
          ` zod is ~${chat - sizes.withoutZod} B of it, eventsource-parser ~${chat - sizes.withoutParser} B`,
      );
      console.log(
        '  biggest contributors (minified bytes loaded up front, same bundle built from src/):',
      );
      for (const c of sizes.contributors.slice(0, 12))
        console.log(`    ${String(c.bytes).padStart(6)}  ${c.name}`);
      const over = rows.filter(({ m, ceiling }) => m.gzip > ceiling);
      if (over.length > 0) {
        const why = over.map(
          ({ name, m, ceiling }) =>
            `${name}: ${m.gzip} B gzip > ceiling ${ceiling} B (${kib(m.gzip)})`,
        );
        throw new Error(why.join('; '));
      }
    },
  );

  await step('install the tarball in a temp dir and run a smoke there', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-inference-sdk-smoke-'));
    try {
      installTarball(dir, tarball);
      installOptionalPeer(dir, '@opentelemetry/api');
      await smoke(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  return report();
}

// The smoke runs test/runtimes/checks.ts (the checks of the runtime matrix) through both module
// systems, against the mock server of the packed `model-inference-sdk/testing`.
const ESM_SMOKE = `
import * as sdk from 'model-inference-sdk';
import * as proxy from 'model-inference-sdk/proxy';
import { startMockServer } from 'model-inference-sdk/testing';
import { runChecks } from './checks.mjs';
const server = await startMockServer({ chunkDelayMs: 5 });
try {
  const { results } = await runChecks(sdk, { baseURL: server.url, apiKey: server.apiKey, runtime: 'esm', browser: false }, proxy);
  console.log(JSON.stringify(results));
} finally {
  await server.close();
}
`;
const CJS_SMOKE = `
const sdk = require('model-inference-sdk');
const proxy = require('model-inference-sdk/proxy');
const { startMockServer } = require('model-inference-sdk/testing');
const { runChecks } = require('./checks.cjs');
(async () => {
  const server = await startMockServer({ chunkDelayMs: 5 });
  try {
    const { results } = await runChecks(sdk, { baseURL: server.url, apiKey: server.apiKey, runtime: 'cjs', browser: false }, proxy);
    console.log(JSON.stringify(results));
  } finally {
    await server.close();
  }
})();
`;
// Names as written in the source, in both builds: bundlers rename a class that refers to itself
// (`class _APIError`), which `console.log(err)` and stack traces then show (tsup keepNames).
const NAMES_SMOKE = (load: string) => `
${load}
const { inspect } = require('node:util');
(async () => {
  const entries = { 'model-inference-sdk': sdk, 'model-inference-sdk/helpers/zod': zodHelpers, 'model-inference-sdk/schemas': schemas, 'model-inference-sdk/testing': testing, 'model-inference-sdk/otel': otel, 'model-inference-sdk/proxy': proxy };
  const wrong = [];
  for (const [entry, exports] of Object.entries(entries)) {
    for (const [key, value] of Object.entries(exports)) {
      if (typeof value === 'function' && value.name !== key) wrong.push(entry + ': ' + key + ' is named ' + value.name);
    }
  }
  const server = await testing.startMockServer();
  const printed = [];
  try {
    const client = new sdk.Client({ apiKey: server.apiKey, baseURL: server.url, maxRetries: 0 });
    const calls = [
      () => client.models.retrieve('nope/missing'),
      () => (server.enqueue({ error: { status: 418 } }), client.models.list()),
    ];
    for (const call of calls) {
      const err = await call().then(() => undefined, (e) => e);
      printed.push(inspect(err).split('\\n').slice(0, 2).join(' | '));
    }
  } finally {
    await server.close();
  }
  console.log(JSON.stringify({ wrong, printed }));
})();
`;
const NAMES_ESM = NAMES_SMOKE(`import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const sdk = await import('model-inference-sdk');
const zodHelpers = await import('model-inference-sdk/helpers/zod');
const schemas = await import('model-inference-sdk/schemas');
const testing = await import('model-inference-sdk/testing');
const otel = await import('model-inference-sdk/otel');
const proxy = await import('model-inference-sdk/proxy');`);
const NAMES_CJS = NAMES_SMOKE(`const sdk = require('model-inference-sdk');
const zodHelpers = require('model-inference-sdk/helpers/zod');
const schemas = require('model-inference-sdk/schemas');
const testing = require('model-inference-sdk/testing');
const otel = require('model-inference-sdk/otel');
const proxy = require('model-inference-sdk/proxy');`);

// model-inference-sdk/otel from the tarball, with the @opentelemetry/api a user installs: one chat call
// traced by a tracer provider that keeps its spans (metrics go to the API's no-op global).
const OTEL_SMOKE = (load: string) => `
${load}
(async () => {
  const spans = [];
  const tracerProvider = {
    getTracer: () => ({
      startSpan(name, options) {
        const span = {
          name, attributes: { ...options.attributes }, ended: false,
          setAttributes(a) { Object.assign(span.attributes, a); return span; },
          setAttribute(k, v) { span.attributes[k] = v; return span; },
          setStatus() { return span; }, recordException() {}, end() { span.ended = true; },
        };
        spans.push(span);
        return span;
      },
    }),
  };
  const server = await startMockServer();
  try {
    const client = new Client({ apiKey: server.apiKey, baseURL: server.url, hooks: [openTelemetry({ tracerProvider })] });
    await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] });
  } finally {
    await server.close();
  }
  console.log(JSON.stringify(spans.map((s) => [s.name, s.ended, s.attributes['gen_ai.operation.name'], s.attributes['gen_ai.usage.output_tokens']])));
})();
`;
const OTEL_ESM = OTEL_SMOKE(`import { Client } from 'model-inference-sdk';
import { openTelemetry } from 'model-inference-sdk/otel';
import { startMockServer } from 'model-inference-sdk/testing';`);
const OTEL_CJS = OTEL_SMOKE(`const { Client } = require('model-inference-sdk');
const { openTelemetry } = require('model-inference-sdk/otel');
const { startMockServer } = require('model-inference-sdk/testing');`);

// model-inference-sdk/proxy from the tarball: the route on Node's http (toNodeListener) in front of
// the packed mock server, and the packed Client reading a streamed answer through it.
const PROXY_SMOKE = (load: string) => `
${load}
(async () => {
  const mock = await startMockServer();
  const handler = createProxy({ models: ['mock/echo'], upstream: { apiKey: mock.apiKey, baseURL: mock.url } });
  const server = createServer(toNodeListener(handler));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const client = new Client({ apiKey: 'unused', baseURL: 'http://127.0.0.1:' + server.address().port + '/api/inference/v1', maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'through the route' }], stream: true });
    const text = await stream.finalContent();
    const refused = await client.models.retrieve('mock/sleeping').then(() => 'served', (e) => e.status);
    console.log(JSON.stringify([text, refused]));
  } finally {
    server.close();
    await mock.close();
  }
})();
`;
const PROXY_ESM = PROXY_SMOKE(`import { createServer } from 'node:http';
import { Client } from 'model-inference-sdk';
import { createProxy, toNodeListener } from 'model-inference-sdk/proxy';
import { startMockServer } from 'model-inference-sdk/testing';`);
const PROXY_CJS = PROXY_SMOKE(`const { createServer } = require('node:http');
const { Client } = require('model-inference-sdk');
const { createProxy, toNodeListener } = require('model-inference-sdk/proxy');
const { startMockServer } = require('model-inference-sdk/testing');`);

// model-inference-sdk/batch from the tarball: a two-line file run against the packed mock, then
// run again (resumed: nothing sent). Prints [done, resumed, lines in the output].
const BATCH_SMOKE = (imports: string) => `${imports}
(async () => {
  const mock = await startMockServer();
  try {
    const client = new Client({ apiKey: mock.apiKey, baseURL: mock.url });
    const line = (id) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'mock/echo', messages: [{ role: 'user', content: id }] } });
    writeFileSync('batch-in.jsonl', line('a') + '\\n' + line('b') + '\\n');
    rmSync('batch-out.jsonl', { force: true });
    const first = await runBatchFile(client, { input: 'batch-in.jsonl', output: 'batch-out.jsonl' });
    const again = await runBatchFile(client, { input: 'batch-in.jsonl', output: 'batch-out.jsonl' });
    console.log(JSON.stringify([first.done, again.resumed, readFileSync('batch-out.jsonl', 'utf8').trim().split('\\n').length]));
  } finally {
    await mock.close();
  }
})();
`;
const BATCH_ESM = BATCH_SMOKE(`import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Client } from 'model-inference-sdk';
import { runBatchFile } from 'model-inference-sdk/batch';
import { startMockServer } from 'model-inference-sdk/testing';`);
const BATCH_CJS = BATCH_SMOKE(`const { readFileSync, rmSync, writeFileSync } = require('node:fs');
const { Client } = require('model-inference-sdk');
const { runBatchFile } = require('model-inference-sdk/batch');
const { startMockServer } = require('model-inference-sdk/testing');`);

// Type-checked against the tarball's .d.ts/.d.cts with the resolution Node uses; not run.
const TYPES_SMOKE = `
import { Client, NotFoundError, type ChatCompletion, type ChatCompletionChunk, type ChatCompletionCreateParams, type ChatCompletionMessageFunctionToolCall, type ChatCompletionRole, type Hooks } from 'model-inference-sdk';
import { openTelemetry, type OpenTelemetryOptions } from 'model-inference-sdk/otel';
import { startMockServer, type MockServer } from 'model-inference-sdk/testing';
export async function main(): Promise<string> {
  const server: MockServer = await startMockServer();
  const options: OpenTelemetryOptions = { captureContent: false };
  const hooks: Hooks[] = [openTelemetry(options), { beforeRequest: (request) => request.headers.set('x-tenant', 'acme') }];
  const client = new Client({ apiKey: server.apiKey, baseURL: server.url, hooks });
  const completion: ChatCompletion = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] });
  const stream = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }], stream: true });
  let text = '';
  for await (const chunk of stream) text += chunk.choices?.[0]?.delta?.content ?? '';
  stream.controller.abort();
  await server.close();
  return String(NotFoundError.name) + (completion.choices[0]?.message?.content ?? '') + text;
}
// The openai client's names through the class (\`import { Client as OpenAI }\`): the namespace merged
// with it, and the error classes as statics (values) and as types.
export function throughTheClass(err: unknown, chunk: Client.ChatCompletionChunk): [Client.Chat.ChatCompletionMessageParam, Client.Chat.Completions.ChatCompletionTool[], Client.APIError | undefined] {
  const message: Client.Chat.ChatCompletionMessageParam = { role: 'user', content: chunk.choices[0]?.delta.content ?? '' };
  return [message, [], err instanceof Client.RateLimitError ? err : err instanceof Client.APIError ? err : undefined];
}
// The openai client's names: aliases and the type-only namespaces merged with the interfaces.
export function openaiNames(completion: ChatCompletion, chunk: ChatCompletionChunk): [ChatCompletion.Choice | undefined, ChatCompletionChunk.Choice.Delta.ToolCall.Function | undefined, ChatCompletionMessageFunctionToolCall.Function | undefined, ChatCompletionRole] {
  const where: ChatCompletionCreateParams.WebSearchOptions.UserLocation = { type: 'approximate', approximate: { city: 'Paris' } };
  void where;
  return [completion.choices[0], chunk.choices[0]?.delta.tool_calls?.[0]?.function, completion.choices[0]?.message.tool_calls?.[0]?.function, 'user'];
}
`;

async function smoke(dir: string): Promise<void> {
  const checks = path.join(root, 'test/runtimes/checks.ts');
  await build({
    entryPoints: [checks],
    outfile: path.join(dir, 'checks.mjs'),
    format: 'esm',
    platform: 'neutral',
    bundle: true, // route-checks.ts with it; the SDK itself is only a type here
    target: 'es2022',
    logLevel: 'warning',
  });
  await build({
    entryPoints: [checks],
    outfile: path.join(dir, 'checks.cjs'),
    format: 'cjs',
    platform: 'neutral',
    bundle: true, // route-checks.ts with it; the SDK itself is only a type here
    target: 'es2022',
    logLevel: 'warning',
  });
  writeFileSync(path.join(dir, 'smoke.mjs'), ESM_SMOKE);
  writeFileSync(path.join(dir, 'smoke.cjs'), CJS_SMOKE);
  for (const file of ['smoke.mjs', 'smoke.cjs']) {
    const out = execFileSync(process.execPath, [file], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...quietNpmEnv, INFERENCE_API_KEY: '', INFERENCE_BASE_URL: '' },
      timeout: 60_000,
    });
    const results = JSON.parse(out.trim().split('\n').at(-1) ?? '[]') as {
      name: string;
      ok: boolean;
      detail?: string;
    }[];
    // The watching proxy of test:runtimes is not here, so abort/break are checked client-side only.
    const failed = results.filter((r) => !r.ok);
    console.log(
      `  node ${file}: ${results.map((r) => `${r.name} ${r.ok ? 'ok' : 'FAIL'}`).join(', ')}`,
    );
    if (results.length === 0 || failed.length > 0) {
      throw new Error(
        `${file}: ${failed.map((r) => `${r.name}: ${r.detail ?? ''}`).join('; ') || 'no results'}`,
      );
    }
  }

  // zod, an optional peer: the entries that need it without it, then with the lowest version allowed.
  smokeWithoutZod(dir);
  installOptionalPeer(dir, 'zod', zodFloor());
  smokeSchemas(dir);

  writeFileSync(path.join(dir, 'names.mjs'), NAMES_ESM);
  writeFileSync(path.join(dir, 'names.cjs'), NAMES_CJS);
  for (const file of ['names.mjs', 'names.cjs']) {
    const out = execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', env: quietNpmEnv, timeout: 60_000 });
    const { wrong, printed } = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { wrong: string[]; printed: string[] };
    for (const line of printed) console.log(`  node ${file}: console.log(err) prints: ${line.slice(0, 110)}`);
    const expected = [/^NotFoundError: 404 /, /^APIError: 418 /];
    const problems = [
      ...wrong,
      ...expected.flatMap((re, i) => (re.test(printed[i] ?? '') ? [] : [`console.log(err) printed ${JSON.stringify(printed[i])}, expected ${re}`])),
      // File names are left out: a chunk's content hash (`core-O12Ik-_N.js`) may look like a renamed name.
      ...printed.flatMap((line) => (/\b_[A-Z]\w*/.test(line.replace(/[\w./:@-]+\.[cm]?js\b/g, '')) ? [`a renamed class in: ${line}`] : [])),
    ];
    if (problems.length > 0) throw new Error(`${file}: ${problems.join('; ')}`);
    console.log(`  node ${file}: every exported class and function has its source name`);
  }

  writeFileSync(path.join(dir, 'otel.mjs'), OTEL_ESM);
  writeFileSync(path.join(dir, 'otel.cjs'), OTEL_CJS);
  for (const file of ['otel.mjs', 'otel.cjs']) {
    const out = execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', env: quietNpmEnv, timeout: 60_000 });
    const spans = out.trim().split('\n').at(-1) ?? '';
    console.log(`  node ${file}: spans ${spans}`);
    if (spans !== JSON.stringify([['chat mock/echo', true, 'chat', 3]])) throw new Error(`${file}: expected one ended span "chat mock/echo" with its usage, got ${spans}`);
  }

  writeFileSync(path.join(dir, 'proxy.mjs'), PROXY_ESM);
  writeFileSync(path.join(dir, 'proxy.cjs'), PROXY_CJS);
  for (const file of ['proxy.mjs', 'proxy.cjs']) {
    const out = execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', env: quietNpmEnv, timeout: 60_000 });
    const result = out.trim().split('\n').at(-1) ?? '';
    console.log(`  node ${file}: through the route: ${result}`);
    if (result !== JSON.stringify(['You said: through the route', 404])) throw new Error(`${file}: expected the streamed reply and a 404 for a model not served, got ${result}`);
  }

  writeFileSync(path.join(dir, 'batch.mjs'), BATCH_ESM);
  writeFileSync(path.join(dir, 'batch.cjs'), BATCH_CJS);
  for (const file of ['batch.mjs', 'batch.cjs']) {
    const out = execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', env: quietNpmEnv, timeout: 60_000 });
    const result = out.trim().split('\n').at(-1) ?? '';
    console.log(`  node ${file}: a batch and its resume: ${result}`);
    if (result !== JSON.stringify([2, 2, 2])) throw new Error(`${file}: expected 2 lines done, 2 resumed and 2 output lines, got ${result}`);
  }

  // The same consumer as ESM (.mts → dist/*.d.ts) and as CJS (.cts → dist/*.d.cts), one program.
  writeFileSync(path.join(dir, 'consumer.mts'), TYPES_SMOKE);
  writeFileSync(path.join(dir, 'consumer.cts'), TYPES_SMOKE);
  // @types/node from the repo: the testing entry's types use node:http (it is a Node test kit).
  const tscArgs = ['--noEmit', '--strict', '--skipLibCheck', 'false', '--module', 'nodenext'];
  tscArgs.push(
    '--moduleResolution',
    'nodenext',
    '--target',
    'es2022',
    '--lib',
    'es2022,dom,dom.iterable',
  );
  tscArgs.push('--types', 'node', '--typeRoots', path.join(root, 'node_modules/@types'));
  execFileSync(bin('tsc', 'root'), [...tscArgs, 'consumer.mts', 'consumer.cts'], {
    cwd: dir,
    stdio: 'inherit',
  });
  console.log(
    '  tsc (nodenext, skipLibCheck false) consumer.mts (ESM types) + consumer.cts (CJS types): ok',
  );
  disposableTypes(dir);
  goToDefinition(dir);
  commonjsNode10(dir);
  await packedBin(dir);
}

// The README's parse() and runTools() code, compiled as a project on the oldest settings users
// still have: `module: commonjs` with `moduleResolution: node10`. There `types` and `typesVersions`
// pick the declarations; when the main entry's and helpers/zod's were two copies, `parsed` was `{}`
// (TS2339) and a zodFunction() tool was not a tool (TS2322).
const NODE10_CONSUMER = `
import * as z from 'zod';
import { Client, type ChatCompletion } from 'model-inference-sdk';
import { zodFunction, zodResponseFormat } from 'model-inference-sdk/helpers/zod';
import { startMockServer } from 'model-inference-sdk/testing';

declare function lookup(city: string): Promise<{ celsius: number }>;

export async function readme(client: Client): Promise<[string, number, string | null]> {
  const completion = await client.chat.completions.parse({
    model: 'acme/chat-1',
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    response_format: zodResponseFormat(z.object({ city: z.string(), celsius: z.number() }), 'weather'),
  });
  const parsed = completion.choices[0]?.message.parsed; // { city: string; celsius: number } | null
  const city: string = parsed?.city ?? '';
  const celsius: number = parsed?.celsius ?? 0;
  const plain: ChatCompletion = completion;

  const runner = client.chat.completions.runTools({
    model: 'acme/chat-1',
    messages: [{ role: 'user', content: 'Is it warmer in Paris or Oslo?' }],
    tools: [zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }), function: ({ city }) => lookup(city) })],
  });
  void plain;
  void startMockServer;
  return [city, celsius, await runner.finalContent()];
}
`;

// `await using` (issue 28): a stream and a runner are AsyncDisposable where the lib has
// `esnext.disposable`, and the types still compile where it has not and no @types/node declares
// Symbol.asyncDispose (a browser project; the SDK's .d.ts declares the symbol's type itself).
const DISPOSE_SMOKE = `
import { Client } from 'model-inference-sdk';
const client = new Client({ apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1' });
export async function f() {
  await using stream = await client.chat.completions.create({ model: 'm', messages: [], stream: true });
  await using runner = client.chat.completions.runTools({ model: 'm', messages: [], tools: [] });
  const both: AsyncDisposable[] = [stream, runner];
  return both;
}
`;
const NO_DISPOSABLE_LIB = `
import { Client } from 'model-inference-sdk';
const client = new Client({ apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1' });
export const stream = client.chat.completions.create({ model: 'm', messages: [], stream: true });
`;

function disposableTypes(dir: string): void {
  writeFileSync(path.join(dir, 'dispose.mts'), DISPOSE_SMOKE);
  writeFileSync(path.join(dir, 'no-disposable.mts'), NO_DISPOSABLE_LIB);
  const tsc = (lib: string[], file: string) => {
    const compilerOptions = { noEmit: true, strict: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib, types: [] };
    writeFileSync(path.join(dir, 'tsconfig.dispose.json'), JSON.stringify({ compilerOptions, files: [file] }));
    execFileSync(bin('tsc', 'root'), ['-p', 'tsconfig.dispose.json'], { cwd: dir, stdio: 'inherit' });
  };
  tsc(['es2022', 'esnext.disposable', 'dom'], 'dispose.mts');
  tsc(['es2022', 'dom'], 'no-disposable.mts');
  console.log('  tsc (skipLibCheck false, no @types/node): `await using` a stream and a runner (lib esnext.disposable): ok; lib es2022 alone: ok');
}

function commonjsNode10(dir: string): void {
  const project = path.join(dir, 'node10');
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'consumer.ts'), NODE10_CONSUMER);
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'commonjs',
        moduleResolution: 'node10',
        target: 'es2022',
        lib: ['es2022', 'dom', 'dom.iterable'],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        noEmit: true,
        ignoreDeprecations: '5.0',
        // As `tsc --init` writes it; zod's own CJS declarations need it.
        esModuleInterop: true,
        types: ['node'],
        typeRoots: [path.join(root, 'node_modules/@types')],
      },
      files: ['consumer.ts'],
    }),
  );
  execFileSync(bin('tsc', 'root'), ['-p', project], { cwd: project, stdio: 'inherit' });
  console.log("  tsc (module commonjs, moduleResolution node10) on the README's parse() and runTools(): ok, parsed typed");
}

/** The bin, as a user runs it from their project: `npx model-inference-sdk …`. */
async function packedBin(dir: string): Promise<void> {
  const npx = (args: string[], input?: string) =>
    execFileSync('npx', ['--no-install', 'model-inference-sdk', ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...quietNpmEnv, INFERENCE_API_KEY: '', INFERENCE_BASE_URL: '', NO_COLOR: '1' },
      timeout: 60_000,
      ...(input === undefined ? { stdio: ['ignore', 'pipe', 'pipe'] } : { input }),
    });
  const version = npx(['--version']).trim();
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  if (version !== `model-inference-sdk ${pkg.version}`) throw new Error(`npx model-inference-sdk --version printed ${JSON.stringify(version)}`);
  console.log(`  npx model-inference-sdk --version: ${version}`);
  // The packed mock server, started by the packed test kit; the CLI talks to it over loopback.
  const testing = (await import(pathToFileURL(path.join(dir, 'node_modules/model-inference-sdk/dist/testing/index.js')).href)) as typeof Testing;
  const server = await testing.startMockServer();
  try {
    // Asynchronously: the server answers from this process's event loop.
    const { stdout: reply } = await promisify(execFile)('npx', ['--no-install', 'model-inference-sdk', 'chat', '-m', 'mock/echo', '--base-url', server.url, 'Hello from the tarball'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...quietNpmEnv, INFERENCE_API_KEY: server.apiKey, INFERENCE_BASE_URL: '', NO_COLOR: '1' },
      timeout: 60_000,
    });
    if (!reply.includes('Hello from the tarball')) throw new Error(`npx model-inference-sdk chat against the packed mock server printed ${JSON.stringify(reply)}`);
    console.log(`  npx model-inference-sdk chat against the packed mock server: ${JSON.stringify(reply.trim().slice(0, 80))}`);
  } finally {
    await server.close();
  }
}

/**
 * Go-to-definition in an editor, as TypeScript's language service answers it for a consumer of the
 * tarball: every symbol must land in a file with a readable name (not a `zod-<hash>.d.ts` chunk).
 */
function goToDefinition(dir: string): void {
  const source = [
    "import { APIError, Client, type ChatCompletion } from 'model-inference-sdk';",
    "import { zodResponseFormat } from 'model-inference-sdk/helpers/zod';",
    "import { startMockServer } from 'model-inference-sdk/testing';",
    'export const used: [typeof APIError, typeof Client, ChatCompletion | undefined, typeof zodResponseFormat, typeof startMockServer] = [APIError, Client, undefined, zodResponseFormat, startMockServer];',
  ].join('\n');
  const landings: string[] = [];
  for (const ext of ['mts', 'cts']) {
    const file = path.join(dir, `definitions.${ext}`);
    writeFileSync(file, source);
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      types: [],
    };
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => [file],
      getScriptVersion: () => '1',
      getScriptSnapshot: (name) =>
        ts.sys.fileExists(name) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(name) ?? '') : undefined,
      getCurrentDirectory: () => dir,
      getCompilationSettings: () => options,
      getDefaultLibFileName: ts.getDefaultLibFilePath,
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    };
    const service = ts.createLanguageService(host);
    for (const name of ['APIError', 'Client', 'ChatCompletion', 'zodResponseFormat', 'startMockServer']) {
      const at = source.lastIndexOf(name);
      const found = service.getDefinitionAtPosition(file, at) ?? [];
      const target = found[0]?.fileName;
      if (target === undefined) throw new Error(`${ext}: go to definition of ${name} found nothing`);
      const shown = path.relative(path.join(dir, 'node_modules', 'model-inference-sdk'), target);
      landings.push(`${name} -> ${shown}`);
      if (!/^dist\/(?:[\w]+\/)?[a-z]+\.d\.c?ts$/.test(shown)) {
        throw new Error(`${ext}: go to definition of ${name} lands in ${shown}, not a readable file name`);
      }
    }
    service.dispose();
  }
  console.log(`  go to definition: ${[...new Set(landings)].join(', ')}`);
}

/**
 * An optional peer dependency beside the installed tarball, as a user of the entry that needs it
 * installs it: the version the repository pins for its own tests, or `pinned`.
 */
function installOptionalPeer(dir: string, name: string, pinned?: string): void {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const version = pinned ?? pkg.devDependencies?.[name];
  if (version === undefined) throw new Error(`package.json pins no devDependency ${name}`);
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', `${name}@${version}`], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: quietNpmEnv,
  });
}

function report(): number {
  console.log('\n=== check:package summary');
  for (const s of steps)
    console.log(`  ${s.ok ? 'ok  ' : 'FAIL'}  ${s.name}  (${(s.ms / 1000).toFixed(1)} s)`);
  const failed = steps.filter((s) => !s.ok).length;
  console.log(`\n${steps.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
