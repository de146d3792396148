// Part of `npm run build`, after tsup: gives the shared declaration chunk a readable name.
//
// tsup bundles the declarations of `model-inference-sdk` and `model-inference-sdk/helpers/zod` together, and
// what both need lands in a chunk named after whichever module rollup saw first, with a hash
// (dist/zod-CVaYfNTm.d.ts). Go-to-definition in an editor opens that file, so the name is the
// first thing a user reads. This renames it to dist/shared.d.ts (and .d.cts) and rewrites the
// imports of the files that point at it. The declarations must stay in one shared file: they hold
// `unique symbol`s and classes, which would not match if each entry had its own copy.
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const SHARED = 'shared';

/** Every file below dist/, as paths relative to it. */
function files(dir = dist) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(path.join(dir, entry.name))
      : [path.relative(dist, path.join(dir, entry.name))],
  );
}

const all = files();
const declarations = all.filter((f) => /\.d\.c?ts$/.test(f));
// rollup's chunk names: `<name>-<8 character hash>.d.ts`; entries have no hash.
const chunks = declarations.filter((f) => /-[\w-]{8}\.d\.c?ts$/.test(path.basename(f)));

for (const ext of ['.d.ts', '.d.cts']) {
  // '.d.cts' does not end with '.d.ts', so each extension finds only its own files.
  const found = chunks.filter((f) => f.endsWith(ext));
  if (found.length === 0) continue;
  if (found.length > 1 || path.dirname(found[0]) !== '.') {
    console.error(
      `dts-names: expected at most one shared declaration chunk in dist/, found ${found.join(', ')}; ` +
        'give each a readable name in scripts/dts-names.mjs',
    );
    process.exit(1);
  }
  const chunk = found[0];
  const target = `${SHARED}${ext}`;
  if (all.includes(target)) {
    console.error(`dts-names: dist/${target} exists already; choose another name in scripts/dts-names.mjs`);
    process.exit(1);
  }
  renameSync(path.join(dist, chunk), path.join(dist, target));
  // Imports name the chunk with its JavaScript extension: './zod-CVaYfNTm.js' or '.cjs'.
  const stem = chunk.slice(0, -ext.length);
  const pattern = new RegExp(`(['"])((?:\\./|\\.\\./)+)${stem.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}(\\.c?js)\\1`, 'g');
  let rewritten = 0;
  for (const file of declarations.filter((f) => f.endsWith(ext) && f !== chunk)) {
    const full = path.join(dist, file);
    const text = readFileSync(full, 'utf8');
    const next = text.replace(pattern, (_m, quote, up, js) => {
      rewritten++;
      return `${quote}${up}${SHARED}${js}${quote}`;
    });
    if (next !== text) writeFileSync(full, next);
  }
  console.log(`dts-names: dist/${chunk} -> dist/${target} (${rewritten} imports rewritten)`);
}
