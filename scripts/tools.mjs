// On-demand tool folders: what build, test, demo and docs need is in the root package.json; each
// heavier tool set has its own package.json and lockfile in the folder that uses it, and is
// installed (`npm ci` there) the first time a script needs it, or again when its lockfile changed.
//
//   node scripts/tools.mjs run <folder> [--resolve] -- <command> [args...]
//       installs <folder> if needed, then runs the command with <folder>/node_modules/.bin first
//       on PATH. --resolve also lets files outside the folder (eslint.config.js, scripts/generate.ts)
//       import its packages: bare imports that fail from the root retry from <folder>.
//   node scripts/tools.mjs install <folder>... | --all
//   node scripts/tools.mjs typecheck      tsc for the root project and each folder that has a tsconfig.json
//                                         and is installed (with CI set: installs the missing ones)
//   node scripts/tools.mjs list
//
// Plain JavaScript with no dependencies, so it runs before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every tool folder, with what it holds and which scripts install it. */
export const TOOL_FOLDERS = {
  'scripts/lint': { holds: 'eslint, typescript-eslint, @redocly/cli', for: 'npm run lint' },
  'scripts/codegen': { holds: 'yaml, prettier', for: 'npm run generate, check:generated' },
  'scripts/package': { holds: 'publint, @arethetypeswrong/cli', for: 'npm run check:package' },
  'scripts/runtimes': { holds: 'miniflare, edge-runtime, playwright-core', for: 'npm run test:runtimes' },
  'test/third-party': { holds: 'openai, ai, @ai-sdk/openai-compatible, undici, hono, redis', for: 'npm run test:third-party' },
  'test/otel': { holds: '@opentelemetry/sdk-trace-base, sdk-metrics, context-async-hooks', for: 'npm run test:otel' },
  'examples/testing': { holds: 'jest', for: 'npm run examples:testing' },
  bench: { holds: 'openai', for: 'npm run bench' },
};

const quietEnv = {
  ...process.env,
  NO_UPDATE_NOTIFIER: '1',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

function folderOf(arg) {
  const rel = path.relative(root, path.resolve(root, arg)).split(path.sep).join('/');
  if (!(rel in TOOL_FOLDERS)) {
    throw new Error(`${arg} is not a tool folder; known: ${Object.keys(TOOL_FOLDERS).join(', ')}`);
  }
  return rel;
}

/** Hash of what `npm ci` installs from: when it changes, the folder is installed again. */
function lockHash(folder) {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) {
    hash.update(readFileSync(path.join(root, folder, file)));
  }
  return hash.digest('hex');
}

const stampOf = (folder) => path.join(root, folder, 'node_modules', '.tools-lock-hash');

export function isInstalled(folder) {
  const stamp = stampOf(folder);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === lockHash(folder);
}

/** `npm ci` in a tool folder: its command, and what is said before and after. */
function npmCi(folder) {
  const { holds, for: usedBy } = TOOL_FOLDERS[folder];
  return {
    command: 'npm',
    args: ['ci', '--no-audit', '--no-fund', '--loglevel=error'],
    options: {
      cwd: path.join(root, folder),
      // npm's report ("added 212 packages") to stderr: stdout is the wrapped command's own output,
      // which a caller may parse (test/lint-walls.test.ts reads JSON from it).
      stdio: ['ignore', 2, 'inherit'],
      env: quietEnv,
    },
    start: () => console.error(`[tools] installing ${folder}/ (${holds}; for ${usedBy}) from its lockfile ...`),
    finish: (status, started) => {
      if (status !== 0) throw new Error(`npm ci in ${folder}/ failed (exit ${status})`);
      writeFileSync(stampOf(folder), `${lockHash(folder)}\n`);
      console.error(`[tools] ${folder}/ installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
  };
}

export function ensureInstalled(folder) {
  if (isInstalled(folder)) return;
  const started = Date.now();
  const ci = npmCi(folder);
  ci.start();
  const result = spawnSync(ci.command, ci.args, ci.options);
  ci.finish(result.status ?? result.signal, started);
}

/**
 * Installs the folders that are not installed, one per core at a time (`npm ci` is mostly waiting
 * on the disk and the registry; separate folders share only npm's cache, which is safe to share).
 */
async function installAll(folders) {
  const queue = folders.filter((folder) => {
    if (!isInstalled(folder)) return true;
    console.error(`[tools] ${folder}/ is installed`);
    return false;
  });
  const install = (folder) =>
    new Promise((resolve, reject) => {
      const started = Date.now();
      const ci = npmCi(folder);
      ci.start();
      spawn(ci.command, ci.args, ci.options).on('error', reject).on('close', (status, signal) => {
        try {
          ci.finish(status ?? signal, started);
          resolve();
        } catch (error) {
          reject(error);
        }
      });
    });
  const worker = async () => {
    for (let folder = queue.shift(); folder !== undefined; folder = queue.shift()) await install(folder);
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(2, availableParallelism()), queue.length) }, worker));
  return 0;
}

/** The binary of a command: from the folder's node_modules/.bin, then the root's, else as given. */
function binary(folder, command) {
  for (const dir of [path.join(root, folder, 'node_modules', '.bin'), path.join(root, 'node_modules', '.bin')]) {
    const candidate = path.join(dir, command);
    if (existsSync(candidate)) return candidate;
  }
  return command;
}

function run(folder, resolve, command, args) {
  ensureInstalled(folder);
  const env = { ...quietEnv };
  env.PATH = [path.join(root, folder, 'node_modules', '.bin'), path.join(root, 'node_modules', '.bin'), env.PATH]
    .filter(Boolean)
    .join(path.delimiter);
  if (resolve) {
    // Inherited by child processes too (check-generated runs generate.ts in one).
    const hook = pathToFileURL(path.join(root, 'scripts', 'tools-resolve.mjs')).href;
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --import=${hook}`.trim();
    env.TOOLS_RESOLVE_FROM = path.join(root, folder);
  }
  const result = spawnSync(binary(folder, command), args, { cwd: root, stdio: 'inherit', env });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/**
 * `tsc --noEmit` for the root project and each installed tool folder, as many at once as the
 * machine has cores (each one is a single-threaded process): CI's typecheck step took the sum of
 * seven runs. Each run's output is printed whole when it ends, so the runs do not interleave.
 */
async function typecheck() {
  const projects = ['.'];
  for (const folder of Object.keys(TOOL_FOLDERS)) {
    if (!existsSync(path.join(root, folder, 'tsconfig.json'))) continue;
    if (!isInstalled(folder)) {
      if (!process.env.CI) {
        console.log(`typecheck ${folder}/: skipped, not installed (npm run tools:install installs every tool folder)`);
        continue;
      }
      ensureInstalled(folder);
    }
    projects.push(folder);
  }
  let failed = 0;
  const check = (project) =>
    new Promise((resolve) => {
      const child = spawn(binary('.', 'tsc'), ['--noEmit', '-p', project === '.' ? 'tsconfig.json' : project], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (data) => (output += data));
      child.stderr.on('data', (data) => (output += data));
      child.on('close', (status) => {
        if (output) process.stdout.write(output);
        console.log(`typecheck ${project === '.' ? 'the root project' : `${project}/`}: ${status === 0 ? 'ok' : 'FAILED'}`);
        if (status !== 0) failed++;
        resolve();
      });
    });
  const queue = [...projects];
  const worker = async () => {
    for (let project = queue.shift(); project !== undefined; project = queue.shift()) await check(project);
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), queue.length) }, worker));
  return failed === 0 ? 0 : 1;
}

function main(argv) {
  const [verb, ...rest] = argv;
  switch (verb) {
    case 'run': {
      const dash = rest.indexOf('--');
      if (dash < 1 || dash === rest.length - 1) throw new Error('usage: tools.mjs run <folder> [--resolve] -- <command> [args...]');
      const options = rest.slice(0, dash);
      const [command, ...args] = rest.slice(dash + 1);
      const folder = folderOf(options.find((o) => !o.startsWith('--')) ?? '');
      return run(folder, options.includes('--resolve'), command, args);
    }
    case 'install': {
      return installAll(rest.includes('--all') ? Object.keys(TOOL_FOLDERS) : rest.map(folderOf));
    }
    case 'typecheck':
      return typecheck();
    case 'list':
      for (const [folder, { holds, for: usedBy }] of Object.entries(TOOL_FOLDERS)) {
        console.log(`${isInstalled(folder) ? 'installed' : 'missing  '}  ${folder.padEnd(18)} ${holds} (${usedBy})`);
      }
      return 0;
    default:
      throw new Error('usage: tools.mjs run|install|typecheck|list (see the comment at the top)');
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    // `typecheck` is async (its runs go in parallel); the other verbs return their status.
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    console.error(`tools: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
