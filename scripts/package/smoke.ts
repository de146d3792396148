// The installed tarball, run as users run it: the runtime checks through ESM and CJS, the entries
// that need an optional peer without it and with it, names, spans, the route, a batch, types, and
// the bin (check.ts's last step).
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import type * as Testing from '../../src/testing/index';
import { bin, quietNpmEnv, root } from './artifact';
import { commonjsNode10, disposableTypes, goToDefinition } from './consumer-types';
import { smokeSchemas, smokeWithoutZod, zodFloor } from './peers';
import { BATCH_CJS, BATCH_ESM, CJS_SMOKE, ESM_SMOKE, NAMES_CJS, NAMES_ESM, OTEL_CJS, OTEL_ESM, PROXY_CJS, PROXY_ESM, TYPES_SMOKE } from './smoke-sources';

export async function smoke(dir: string): Promise<void> {
  const checks = path.join(root, 'test/runtimes/checks.ts');
  for (const format of ['esm', 'cjs'] as const) {
    await build({
      entryPoints: [checks],
      outfile: path.join(dir, format === 'esm' ? 'checks.mjs' : 'checks.cjs'),
      format,
      platform: 'neutral',
      bundle: true, // route-checks.ts with it; the SDK itself is only a type here
      target: 'es2022',
      logLevel: 'warning',
    });
  }
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
 * An optional peer dependency beside the installed tarball, as a user of the entry that needs it
 * installs it: the version the repository pins for its own tests, or `pinned`.
 */
export function installOptionalPeer(dir: string, name: string, pinned?: string): void {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const version = pinned ?? pkg.devDependencies?.[name];
  if (version === undefined) throw new Error(`package.json pins no devDependency ${name}`);
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', `${name}@${version}`], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: quietNpmEnv,
  });
}
