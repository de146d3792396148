// Part of `npm run build`, after tsup: the declarations, once, with readable names.
//
// 1. tsup writes every declaration as .d.cts (the CJS build), and what several entries share lands
//    in chunks named after whichever module rollup saw first, with a hash (dist/zod-CVaYfNTm.d.cts).
//    Go-to-definition in an editor opens that file, so the name is the first thing a user reads:
//    the chunk the main entry imports becomes dist/shared.d.cts, any other loses its hash
//    (dist/scripted.d.cts), and the imports that point at them are rewritten.
// 2. Each entry's ESM declaration (dist/index.d.ts, for the `import` condition) re-exports its
//    .d.cts: `export * from './index.cjs'`. The declarations then exist once, whichever way a
//    consumer resolves them (nodenext ESM or CJS, bundler, node10 through `typesVersions`), so a
//    value typed by one entry fits a parameter typed by another. (Two copies would not: the
//    declarations hold classes with private fields and `unique symbol`s, which would differ.)
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** Every file below dist/, as paths relative to it, with forward slashes. */
function files(dir = dist) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(path.join(dir, entry.name))
      : [path.relative(dist, path.join(dir, entry.name)).split(path.sep).join('/')],
  );
}

function fail(message) {
  console.error(`dts-names: ${message}`);
  process.exit(1);
}

const all = files();
const declarations = all.filter((f) => f.endsWith('.d.cts'));
if (all.some((f) => f.endsWith('.d.ts'))) fail('expected only .d.cts declarations from tsup; is `dts` on in the ESM build?');
// rollup's chunk names: `<name>-<8 character hash>.d.cts`; entries have no hash.
const isChunk = (f) => /-[\w-]{8}\.d\.cts$/.test(path.basename(f));
const chunks = declarations.filter(isChunk);
const entries = declarations.filter((f) => !isChunk(f));
const main = readFileSync(path.join(dist, 'index.d.cts'), 'utf8');

const renames = new Map();
for (const chunk of chunks) {
  if (path.dirname(chunk) !== '.') fail(`a declaration chunk outside dist/: ${chunk}`);
  const stem = chunk.slice(0, -'.d.cts'.length);
  const name = main.includes(`'./${stem}.cjs'`) ? 'shared' : stem.replace(/-[\w-]{8}$/, '');
  if (all.includes(`${name}.d.cts`) || [...renames.values()].includes(name)) fail(`dist/${name}.d.cts exists already; name ${chunk} in scripts/dts-names.mjs`);
  renames.set(stem, name);
}

let rewritten = 0;
for (const file of declarations) {
  const full = path.join(dist, file);
  let text = readFileSync(full, 'utf8');
  for (const [stem, name] of renames) {
    // Imports name a chunk with its JavaScript extension: './zod-CVaYfNTm.cjs', '../zod-CVaYfNTm.cjs'.
    const pattern = new RegExp(`(['"])((?:\\./|\\.\\./)+)${stem.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}\\.cjs\\1`, 'g');
    text = text.replace(pattern, (_m, quote, up) => {
      rewritten++;
      return `${quote}${up}${name}.cjs${quote}`;
    });
  }
  writeFileSync(full, text);
}
for (const [stem, name] of renames) renameSync(path.join(dist, `${stem}.d.cts`), path.join(dist, `${name}.d.cts`));
for (const entry of entries) {
  const base = path.basename(entry, '.d.cts');
  writeFileSync(
    path.join(dist, entry.replace(/\.d\.cts$/, '.d.ts')),
    `// The ESM entry's types are its CJS declarations: one copy, whichever way they are resolved.\nexport * from './${base}.cjs';\n`,
  );
}
console.log(
  `dts-names: ${[...renames].map(([stem, name]) => `${stem}.d.cts -> ${name}.d.cts`).join(', ')} (${rewritten} imports rewritten); ` +
    `${entries.length} ESM declarations re-export their .d.cts`,
);
