// The build: `npm run build` (always), `npm install` in a clone (`prepare`: only when stale), and
// every script that needs dist/ (`ensureBuilt()`: only when stale).
//
//   node scripts/build.mjs              empty dist/, tsup, scripts/dts-names.mjs, scripts/merge-chunks.mjs,
//                                       scripts/peer-entries.mjs, then stamp
//   node scripts/build.mjs --if-stale   the same, unless dist/ was built from exactly these inputs
//   node scripts/build.mjs --if-stale --link-bin
//                                       `prepare`: also links node_modules/.bin/model-inference-sdk
//   node scripts/build.mjs --verbose    the steps' own output as they run (tsup's list of files …)
//
// Quiet by default: each step's output goes to .cache/build.log, and the build prints one line
// when it is done (`npm install` in a clone printed 109 lines of tsup's file list before). A step
// that fails prints the whole log, then which step failed, and the build exits with its code.
//
// Why a stamp and not "is dist/ there": after `npm install` in a clone, the first
// `npx model-inference-sdk` installed the clone into npm's npx cache as a link, and npm ran this
// package's `prepare` again there: a silent full rebuild of what install had just built (about 80 s
// on a slow machine). The stamp is a hash of every input of the build, so `--if-stale` skips that
// in a few milliseconds and rebuilds whenever anything the build reads has changed. The bin link
// lets `npx model-inference-sdk` in a clone find the command at once, as it finds a dependency's,
// without the npx cache at all.
//
// Plain JavaScript with no dependencies: it runs before anything but npm is known to work.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = path.join(root, '.cache', 'build-stamp');
const BIN = 'model-inference-sdk';

/** What the build reads. A change to any of these files makes dist/ stale. */
const INPUTS = ['src', 'tsup.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/dts-names.mjs', 'scripts/merge-chunks.mjs', 'scripts/peer-entries.mjs'];
/** What the build must have written (package.json's entries, the bin). */
const OUTPUTS = ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts', 'dist/cli.js', 'dist/testing/index.js', 'dist/helpers/zod.js', 'dist/helpers/zod.load.js', 'dist/schemas/index.js', 'dist/schemas/index.load.js', 'dist/schemas/index.load.cjs', 'dist/otel/index.js', 'dist/proxy/index.js', 'dist/batch/index.js'];

function* walk(p) {
  if (!existsSync(p)) return;
  if (!lstatSync(p).isDirectory()) {
    yield p;
    return;
  }
  for (const name of readdirSync(p).sort()) yield* walk(path.join(p, name));
}

/** A hash of the inputs' paths and bytes. `scripts` of package.json are left out: `npm pack`
 * takes out `prepare` for the tarball's manifest, and that changes nothing that is built. */
export function fingerprint() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of walk(path.join(root, input))) {
      let bytes = readFileSync(file);
      if (file === path.join(root, 'package.json')) {
        const { scripts: _scripts, ...rest } = JSON.parse(bytes.toString('utf8'));
        bytes = Buffer.from(JSON.stringify(rest));
      }
      hash.update(path.relative(root, file)).update('\0').update(bytes).update('\0');
    }
  }
  return hash.digest('hex');
}

/** Whether dist/ holds a build of exactly the current inputs. */
export function isFresh() {
  if (!OUTPUTS.every((f) => existsSync(path.join(root, f)))) return false;
  return existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === fingerprint();
}

const logFile = path.join(root, '.cache', 'build.log');

/**
 * Runs each `[command, args]` step in order with its output (stdout and stderr, interleaved as
 * written) in `log`, or on stderr with `verbose`. All on stderr: `npm pack --json` runs the build
 * in `prepack`, and its stdout must stay JSON. A failed step prints the whole log and exits.
 */
export function runSteps(steps, { log = logFile, verbose = false } = {}) {
  mkdirSync(path.dirname(log), { recursive: true });
  const fd = verbose ? 2 : openSync(log, 'w');
  try {
    for (const [command, args] of steps) {
      const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', fd, fd] });
      if (result.status === 0) continue;
      if (!verbose) process.stderr.write(readFileSync(log, 'utf8'));
      console.error(`build: ${[command === process.execPath ? 'node' : command, ...args.map((a) => (path.isAbsolute(a) ? path.relative(root, a) : a))].join(' ')} failed${result.error ? ` (${result.error.message})` : ''}${verbose ? '' : ` (the log above is in ${path.relative(root, log)})`}`);
      process.exit(result.status ?? 1);
    }
  } finally {
    if (fd !== 2) closeSync(fd);
  }
}

export function build({ verbose = false } = {}) {
  const started = Date.now();
  const inputs = fingerprint();
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  rmSync(stampFile, { force: true });
  runSteps(
    [
      [process.execPath, [path.join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js')]],
      [process.execPath, [path.join(root, 'scripts', 'dts-names.mjs')]],
      [process.execPath, [path.join(root, 'scripts', 'merge-chunks.mjs')]],
      [process.execPath, [path.join(root, 'scripts', 'peer-entries.mjs')]],
    ],
    { verbose },
  );
  chmodSync(path.join(root, 'dist', 'cli.js'), 0o755);
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, `${inputs}\n`);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.error(`build: dist/ built in ${seconds} s (ESM, CommonJS and types${verbose ? '' : `; log in ${path.relative(root, logFile)}`})`);
}

/** node_modules/.bin/model-inference-sdk → dist/cli.js, as npm links a dependency's bin. */
function linkBin() {
  const bin = path.join(root, 'node_modules', '.bin');
  if (process.platform === 'win32' || !existsSync(bin)) return;
  const link = path.join(bin, BIN);
  rmSync(link, { force: true });
  symlinkSync(path.relative(bin, path.join(root, 'dist', 'cli.js')), link);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--if-stale') && isFresh()) {
    console.error('build: dist/ is current (built from these sources); not rebuilding');
  } else {
    build({ verbose: args.includes('--verbose') });
  }
  if (args.includes('--link-bin')) linkBin();
}
