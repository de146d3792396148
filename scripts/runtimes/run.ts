// `npm run test:runtimes`: the packed SDK, in every runtime we claim, against the local mock server.
//
// 1. Installs the runtimes if needed (install.ts), builds and packs the SDK, installs the tarball
//    into .cache/runtimes/app/ like a user would, and bundles the checks for the runtimes that
//    need a bundle (workerd, edge-runtime, Chromium) from that installed copy. src/ is never used.
// 2. Starts the mock server from the tarball's `model-inference-sdk/testing`, and a watching proxy in
//    front of it (watch-proxy.ts) that records whether the abort/break requests were cut off by the
//    client.
// 3. Runs test/runtimes/checks.ts in each runtime, one child process at a time, each in its own
//    process group with a time limit, and prints a runtime x check table.
//
// Exits 1 when any check fails; the last line is `N passed, M failed`.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { cacheDir, ensureBuilt, installTarball, pack, root } from '../package/artifact';
import type * as Testing from '../../src/testing/index';
import {
  CHECK_NAMES,
  type CheckConfig,
  type CheckResult,
  type RuntimeReport,
} from '../../test/runtimes/checks';
import { ensureRuntimes, runtimeBinary } from './install';
import { startWatchProxy } from './watch-proxy';

const appDir = path.join(cacheDir, 'runtimes', 'app');
const driver = (name: string): string =>
  path.join(root, 'scripts', 'runtimes', 'drivers', `${name}.ts`);
const RUNTIME_TIMEOUT_MS = 60_000;
/** Delay between streamed chunks: long enough that a cancel after chunk 2 is mid-stream. */
const CHUNK_DELAY_MS = 20;

// Hygiene (RUNTIMES.md): no update checks, no cf.json fetch, caches and configs inside .cache/.
const childEnv: NodeJS.ProcessEnv = {
  ...process.env,
  DENO_NO_UPDATE_CHECK: '1',
  DENO_DIR: path.join(cacheDir, 'deno'),
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  XDG_CONFIG_HOME: path.join(cacheDir, 'xdg-config'),
  XDG_CACHE_HOME: path.join(cacheDir, 'xdg-cache'),
  XDG_DATA_HOME: path.join(cacheDir, 'xdg-data'),
  DO_NOT_TRACK: '1',
  NO_COLOR: '1',
};
// The checks pass the key and URL explicitly; nothing from the caller's shell may leak in.
delete childEnv['INFERENCE_API_KEY'];
delete childEnv['INFERENCE_BASE_URL'];
delete childEnv['INFERENCE_LOG'];
delete childEnv['NODE_OPTIONS'];

interface Runtime {
  id: string;
  label: string;
  browser?: boolean;
  /** Binary and arguments; the last argument (the config JSON) is appended by run(). */
  command: () => [string, string[]];
  cwd: string;
}

const tsxNode = (node: string, name: string, bundle: string): [string, string[]] => [
  node,
  ['--import', 'tsx', driver(name), bundle],
];

const RUNTIMES: Runtime[] = [
  {
    id: 'node20',
    label: 'Node 20 (host)',
    command: () => [process.execPath, ['cli.mjs']],
    cwd: appDir,
  },
  {
    id: 'node22',
    label: 'Node 22',
    command: () => [runtimeBinary('node22'), ['cli.mjs']],
    cwd: appDir,
  },
  {
    id: 'node24',
    label: 'Node 24',
    command: () => [runtimeBinary('node24'), ['cli.mjs']],
    cwd: appDir,
  },
  {
    id: 'node26',
    label: 'Node 26',
    command: () => [runtimeBinary('node26'), ['cli.mjs']],
    cwd: appDir,
  },
  { id: 'bun', label: 'Bun', command: () => [runtimeBinary('bun'), ['cli.mjs']], cwd: appDir },
  {
    id: 'deno',
    label: 'Deno (--allow-net=127.0.0.1 only)',
    // No --allow-env: the client is given apiKey and baseURL, so it must not need the environment.
    command: () => [
      runtimeBinary('deno'),
      ['run', '--no-prompt', '--allow-net=127.0.0.1', 'cli.mjs'],
    ],
    cwd: appDir,
  },
  {
    id: 'workerd',
    label: 'workerd (miniflare)',
    command: () => tsxNode(runtimeBinary('node22'), 'workerd', path.join(appDir, 'worker.mjs')),
    cwd: root,
  },
  {
    id: 'edge',
    label: 'edge-runtime',
    command: () => tsxNode(process.execPath, 'edge', path.join(appDir, 'edge.js')),
    cwd: root,
  },
  {
    id: 'chromium',
    label: 'Chromium (headless)',
    browser: true,
    command: () => tsxNode(process.execPath, 'chromium', path.join(appDir, 'browser.js')),
    cwd: root,
  },
];

/** Entries that import the *installed* package by its name; checks.mjs is test/runtimes/checks.ts compiled. */
// The route's entry too, where the route runs (not in the page: there it is served by the driver).
const ENTRIES = {
  cli: `import * as sdk from 'model-inference-sdk';\nimport * as proxy from 'model-inference-sdk/proxy';\nimport { cliMain } from './checks.mjs';\nawait cliMain(sdk, proxy);\n`,
  worker: `import * as sdk from 'model-inference-sdk';\nimport * as proxy from 'model-inference-sdk/proxy';\nimport { workerFetch } from './checks.mjs';\nexport default { fetch: (request) => workerFetch(sdk, request, proxy) };\n`,
  global: `import * as sdk from 'model-inference-sdk';\nimport * as proxy from 'model-inference-sdk/proxy';\nimport { exposeGlobal } from './checks.mjs';\nexposeGlobal(sdk, proxy);\n`,
  page: `import * as sdk from 'model-inference-sdk';\nimport { exposeGlobal } from './checks.mjs';\nexposeGlobal(sdk);\n`,
};

async function prepareApp(): Promise<void> {
  ensureBuilt();
  const packed = pack();
  console.log(
    `packed ${path.relative(root, packed.tarball)} (${packed.files.length} files, ${packed.size} bytes)`,
  );
  installTarball(appDir, packed.tarball);

  await build({
    entryPoints: [path.join(root, 'test/runtimes/checks.ts')],
    outfile: path.join(appDir, 'checks.mjs'),
    format: 'esm',
    platform: 'neutral',
    bundle: true, // route-checks.ts with it; the SDK itself is only a type here
    target: 'es2022',
    logLevel: 'warning',
  });
  writeFileSync(path.join(appDir, 'cli.mjs'), ENTRIES.cli);
  // Bundled from the installed package, with the export conditions each platform's own bundler uses.
  const bundle = (
    contents: string,
    outfile: string,
    format: 'esm' | 'iife',
    conditions: string[],
  ) =>
    build({
      stdin: {
        contents,
        resolveDir: appDir,
        sourcefile: `${path.basename(outfile)} entry`,
        loader: 'js',
      },
      outfile: path.join(appDir, outfile),
      bundle: true,
      format,
      platform: 'browser',
      conditions,
      target: 'es2022',
      logLevel: 'warning',
    });
  await Promise.all([
    bundle(ENTRIES.worker, 'worker.mjs', 'esm', ['workerd', 'worker', 'browser']),
    bundle(ENTRIES.global, 'edge.js', 'iife', ['edge-light', 'worker', 'browser']),
    bundle(ENTRIES.page, 'browser.js', 'iife', ['browser']),
  ]);
}

// --- running one runtime ------------------------------------------------------------------------

interface Outcome {
  runtime: Runtime;
  version: string;
  results: CheckResult[];
  /** Why there are no (or too few) results: crash, timeout, unparsable output. */
  error?: string;
  ms: number;
}

function run(rt: Runtime, config: CheckConfig): Promise<Outcome> {
  const started = Date.now();
  const [bin, args] = rt.command();
  return new Promise((resolve) => {
    // Its own process group, so a timeout can stop the runtime and whatever it started
    // (workerd under Miniflare, Chromium under playwright) by this one PID.
    const child = spawn(bin, [...args, JSON.stringify(config)], {
      cwd: rt.cwd,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, 'SIGTERM');
      setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5_000).unref();
    }, RUNTIME_TIMEOUT_MS);
    const finish = (
      code: number | null,
      signal: NodeJS.Signals | null,
      spawnError?: Error,
    ): void => {
      clearTimeout(timer);
      // Anything the runtime left behind in its group goes too.
      killGroup(child.pid, 'SIGKILL');
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      const tail = (stderr.trim() || stdout.trim()).split('\n').slice(-6).join('\n    ');
      const outcome: Outcome = { runtime: rt, version: '?', results: [], ms: Date.now() - started };
      if (line) {
        try {
          const report = JSON.parse(line.slice('RESULT '.length)) as RuntimeReport;
          outcome.version = report.runtime;
          outcome.results = report.results;
        } catch (error) {
          outcome.error = `unparsable RESULT line: ${String(error)}`;
        }
      }
      if (spawnError) outcome.error = `could not start ${bin}: ${spawnError.message}`;
      else if (timedOut) outcome.error = `timed out after ${RUNTIME_TIMEOUT_MS} ms\n    ${tail}`;
      else if (code !== 0 || !line)
        outcome.error = `exited with ${code ?? signal}${line ? '' : ' without a RESULT line'}\n    ${tail}`;
      resolve(outcome);
    };
    child.once('error', (error) => finish(null, null, error));
    child.once('close', (code, signal) => finish(code, signal));
  });
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

// --- report -------------------------------------------------------------------------------------

function printTable(outcomes: Outcome[]): { passed: number; failed: number } {
  const header = ['runtime', ...CHECK_NAMES, 'time'];
  const rows = outcomes.map((o) => [
    o.runtime.label,
    ...CHECK_NAMES.map((name) => {
      const r = o.results.find((x) => x.name === name);
      return r === undefined ? 'FAIL (not run)' : r.ok ? 'ok' : 'FAIL';
    }),
    `${(o.ms / 1000).toFixed(1)} s`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log('\n' + line(header));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const row of rows) console.log(line(row));

  console.log('\nversions: ' + outcomes.map((o) => `${o.runtime.id}=${o.version}`).join(', '));
  let passed = 0;
  let failed = 0;
  const problems: string[] = [];
  for (const o of outcomes) {
    if (o.error) problems.push(`${o.runtime.label}: ${o.error}`);
    for (const name of CHECK_NAMES) {
      const r = o.results.find((x) => x.name === name);
      if (r?.ok) passed++;
      else {
        failed++;
        if (r) problems.push(`${o.runtime.label} / ${name}: ${r.detail ?? 'failed'}`);
      }
    }
  }
  if (problems.length > 0) console.log('\nfailures:\n  ' + problems.join('\n  '));
  return { passed, failed };
}

async function main(): Promise<number> {
  const t0 = Date.now();
  ensureRuntimes();
  const tInstall = Date.now();
  await prepareApp();
  const tPrepare = Date.now();

  mkdirSync(childEnv['DENO_DIR']!, { recursive: true });
  // The mock server of the *packed* testing entry, with slow enough streams to cancel mid-way.
  const testing = (await import(
    pathToFileURL(path.join(appDir, 'node_modules/model-inference-sdk/dist/testing/index.js')).href
  )) as typeof Testing;
  const mock = await testing.startMockServer({ chunkDelayMs: CHUNK_DELAY_MS });
  const proxy = await startWatchProxy(new URL(mock.url));
  const outcomes: Outcome[] = [];
  try {
    for (const rt of RUNTIMES) {
      const config: CheckConfig = {
        baseURL: mock.url,
        apiKey: mock.apiKey,
        runtime: rt.id,
        browser: rt.browser ?? false,
        watchURL: proxy.url,
      };
      process.stdout.write(`${rt.label} ... `);
      const outcome = await run(rt, config);
      const bad =
        outcome.error !== undefined ||
        outcome.results.length !== CHECK_NAMES.length ||
        outcome.results.some((r) => !r.ok);
      console.log(`${bad ? 'FAILED' : 'ok'} (${(outcome.ms / 1000).toFixed(1)} s)`);
      outcomes.push(outcome);
    }
  } finally {
    proxy.server.closeAllConnections();
    proxy.server.close();
    await mock.close();
  }
  const { passed, failed } = printTable(outcomes);
  const t1 = Date.now();
  console.log(
    `\ntimes: install check ${((tInstall - t0) / 1000).toFixed(1)} s, build+pack+bundle ${((tPrepare - tInstall) / 1000).toFixed(1)} s, runtimes ${((t1 - tPrepare) / 1000).toFixed(1)} s`,
  );
  console.log(`\n${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    console.log('\n0 passed, 1 failed (the harness itself failed before the table)');
    process.exit(1);
  },
);
