// `prepack` / `postpack`: the package.json in the tarball has no script that runs at a consumer's
// install (`prepare`, `preinstall`, `install`, `postinstall`) nor the packing ones, while a clone keeps `prepare`, so
// `npm install` there still builds.
//
//   node scripts/pack-manifest.mjs strip     (prepack) saves package.json, writes it without them
//   node scripts/pack-manifest.mjs restore   (postpack) puts the saved package.json back
//
// npm reads package.json for the tarball after `prepack`, and runs a `prepare` it still finds there
// while packing; with it taken out, packing builds nothing twice (prepack has just built). If a pack
// fails between the two, the next `strip` or `restore` puts the saved file back first.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = path.join(root, 'package.json');
const saved = path.join(root, '.cache', 'package.json.prepack');

/**
 * Scripts npm runs when a package is installed (a git or folder install runs `prepare`), and the
 * packing ones, which name files the tarball does not have.
 */
export const TAKEN_OUT = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare', 'prepack', 'postpack'];

function restore() {
  if (existsSync(saved)) renameSync(saved, manifest);
}

const mode = process.argv[2];
if (mode === 'strip') {
  restore();
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  for (const name of TAKEN_OUT) delete pkg.scripts?.[name];
  mkdirSync(path.dirname(saved), { recursive: true });
  writeFileSync(saved, text);
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (mode === 'restore') {
  restore();
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
