// The published artifact, shared by `npm run check:package` and `npm run test:runtimes`:
// build dist/ when it is older than its sources, `npm pack` it, and install the tarball into a
// consumer directory the way a user would (`npm install ./model-inference-sdk-x.y.z.tgz`).
//
// Both commands test the tarball, never src/: whatever `files`, `exports` or the build gets
// wrong shows up here exactly as it would for a user.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cacheDir = path.join(root, '.cache');

/** A binary of scripts/package's own tools (attw), else of the root (tsc). */
export const bin = (name: string, where: 'tools' | 'root') =>
  path.join(where === 'tools' ? path.join(root, 'scripts', 'package') : root, 'node_modules', '.bin', name);

/** Every child inherits this: no update notices, audits or funding calls to the registry. */
export const quietNpmEnv: NodeJS.ProcessEnv = {
  ...process.env,
  NO_UPDATE_NOTIFIER: '1',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

/**
 * Builds dist/ unless it was built from exactly the current sources (scripts/build.mjs keeps a
 * hash of every input of the build). A stale dist/ would make every later check test yesterday's
 * code.
 */
export function ensureBuilt(): void {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: quietNpmEnv,
  });
}

export interface PackedFile {
  path: string;
  size: number;
}

export interface Packed {
  /** Absolute path of the .tgz. */
  tarball: string;
  /** What `npm pack` put into it. */
  files: PackedFile[];
  /** Size of the .tgz in bytes. */
  size: number;
  unpackedSize: number;
}

/** `npm pack` into .cache/pack/ (emptied first, so exactly one tarball is there). */
export function pack(): Packed {
  const dest = path.join(cacheDir, 'pack');
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  // With its scripts, as `npm publish` packs: `prepack` (a build only if dist/ is stale, then the
  // install-time scripts taken out of package.json) and `postpack` (package.json put back).
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dest], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: quietNpmEnv,
  });
  const [info] = JSON.parse(out) as {
    filename: string;
    files: PackedFile[];
    size: number;
    unpackedSize: number;
  }[];
  if (!info) throw new Error(`npm pack printed no result:\n${out}`);
  return {
    tarball: path.join(dest, info.filename),
    files: info.files,
    size: info.size,
    unpackedSize: info.unpackedSize,
  };
}

/**
 * A fresh consumer project in `dir` with the tarball installed as a dependency (its own
 * dependencies come from the registry, or the npm cache when they are there).
 */
export function installTarball(dir: string, tarball: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }, null, 2) + '\n',
  );
  execFileSync(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--loglevel=error',
      tarball,
    ],
    { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'], env: quietNpmEnv },
  );
  const installed = path.join(dir, 'node_modules', 'model-inference-sdk', 'package.json');
  if (!existsSync(installed))
    throw new Error(`installing ${tarball} into ${dir} left no ${installed}`);
}
