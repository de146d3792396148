// ESLint rules of the walls of src/ that the stock rules miss (eslint.config.js uses them):
//
//   walls/no-cycle   no import cycle, counting every kind of import: `import type`, `export … from`,
//                    a lazy `import()` and an `import('…').T` type. (import-x/no-cycle skips type-only
//                    imports and cannot be told otherwise, so eight core files once formed a cycle
//                    through `import type` and linted clean.)
//
// The lazy imports across a wall are caught by `no-restricted-syntax` selectors built in
// eslint.config.js from the same walls as `no-restricted-imports`.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Relative specifiers of one file, every kind of import, with where each stands in the text. */
function specifiers(text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.filter((f) => f.fileName.startsWith('.'))
    .map((f) => ({ specifier: f.fileName, pos: f.pos }));
}

/** The file a relative specifier names, if it is a .ts file of the tree. */
function resolveFrom(file, specifier) {
  const base = path.resolve(path.dirname(file), specifier);
  const stem = base.replace(/\.(c|m)?js$/, '');
  for (const candidate of [base, `${stem}.ts`, path.join(base, 'index.ts')]) {
    try {
      if (candidate.endsWith('.ts') && statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Edges of files on disk, cached by modification time (one ESLint run lints every file). */
const cache = new Map();
function edgesOnDisk(file) {
  let mtime;
  try {
    mtime = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const hit = cache.get(file);
  if (hit && hit.mtime === mtime) return hit.edges;
  const edges = specifiers(readFileSync(file, 'utf8'))
    .map(({ specifier }) => resolveFrom(file, specifier))
    .filter((target) => target !== undefined);
  cache.set(file, { mtime, edges });
  return edges;
}

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle, counting type-only imports, `export … from` and lazy `import()`.' },
    schema: [],
    messages: { cycle: 'Import cycle (type-only and lazy imports count): {{route}}. Move what both need to a lower floor (docs/architecture.md).' },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!file.endsWith('.ts')) return {};
    return {
      'Program:exit'() {
        const source = context.sourceCode;
        for (const { specifier, pos } of specifiers(source.text)) {
          const first = resolveFrom(file, specifier);
          if (first === undefined || first === file) continue;
          // Breadth-first from the imported file back to this one: the shortest route, if any.
          const parent = new Map([[first, file]]);
          const queue = [first];
          let found = false;
          while (queue.length > 0 && !found) {
            const at = queue.shift();
            for (const next of edgesOnDisk(at)) {
              if (next === file) {
                parent.set(file, at);
                found = true;
                break;
              }
              if (!parent.has(next)) {
                parent.set(next, at);
                queue.push(next);
              }
            }
          }
          if (!found) continue;
          const chain = [];
          for (let at = parent.get(file); at !== file; at = parent.get(at)) chain.unshift(at);
          const route = [file, ...chain, file].map((f) => path.relative(process.cwd(), f)).join(' → ');
          context.report({ loc: source.getLocFromIndex(pos), messageId: 'cycle', data: { route } });
          // One report per file: its other imports in a loop name the same loop.
          return;
        }
      },
    };
  },
};

export default { meta: { name: 'walls' }, rules: { 'no-cycle': noCycle } };
