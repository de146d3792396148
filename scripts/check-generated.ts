// Fails when src/generated/ (or docs/normalization-fields.md, or the `<openai-names>` region of
// src/client.ts) is not exactly what `npm run generate`
// produces from spec/openapi.yaml.
//
//   npm run check:generated        (tsx scripts/check-generated.ts)
//
// Regenerates into a temporary directory (src/generated/ is left untouched) and compares the two
// trees file by file. Does not use git, so it also catches uncommitted hand edits.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The generated folders, each compared with a fresh generation: what the SDK ships, what the tests use. */
const committed = { generated: path.join(root, 'src', 'generated'), 'test-generated': path.join(root, 'test', 'generated') };
const hint = 'Run `npm run generate` and commit src/generated/, test/generated/ (and src/client.ts).';

/** First differing line of two texts, 1-based, with both versions of it. */
function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] !== right[i]) {
      return `line ${i + 1}:\n    on disk:     ${left[i] ?? '<end of file>'}\n    regenerated: ${right[i] ?? '<end of file>'}`;
    }
  }
  return 'no line differs (line endings?)';
}

function main(): number {
  for (const dir of Object.values(committed)) {
    if (!existsSync(dir)) {
      console.error(`check-generated: ${path.relative(root, dir)}/ is missing. ${hint}`);
      return 1;
    }
  }
  const tmp = mkdtempSync(path.join(tmpdir(), 'model-inference-sdk-generated-'));
  try {
    try {
      execFileSync(
        process.execPath,
        ['--import', 'tsx', path.join(root, 'scripts', 'generate.ts'), '--out', path.join(tmp, 'generated'), '--test-out', path.join(tmp, 'test-generated'), '--docs', path.join(tmp, 'normalization-fields.md'), '--client', path.join(tmp, 'client.ts')],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
    } catch (error) {
      const e = error as { stdout?: Buffer; stderr?: Buffer };
      process.stderr.write(e.stdout ?? '');
      process.stderr.write(e.stderr ?? '');
      console.error('check-generated: generation from spec/openapi.yaml failed (see above).');
      return 1;
    }

    const problems: string[] = [];
    const docsOnDisk = path.join(root, 'docs', 'normalization-fields.md');
    const docsFresh = readFileSync(path.join(tmp, 'normalization-fields.md'), 'utf8');
    if (!existsSync(docsOnDisk)) problems.push('docs/normalization-fields.md: generated but missing on disk');
    else if (readFileSync(docsOnDisk, 'utf8') !== docsFresh) problems.push(`docs/normalization-fields.md: differs at ${firstDifference(readFileSync(docsOnDisk, 'utf8'), docsFresh)}`);
    const clientOnDisk = readFileSync(path.join(root, 'src', 'client.ts'), 'utf8');
    const clientFresh = readFileSync(path.join(tmp, 'client.ts'), 'utf8');
    if (clientOnDisk !== clientFresh) problems.push(`src/client.ts (the <openai-names> region): differs at ${firstDifference(clientOnDisk, clientFresh)}`);
    for (const [name, dir] of Object.entries(committed)) {
      const fresh = path.join(tmp, name);
      const onDisk = new Set(readdirSync(dir));
      const regenerated = new Set(readdirSync(fresh));
      for (const file of [...new Set([...onDisk, ...regenerated])].sort()) {
        const shown = `${path.relative(root, dir)}/${file}`;
        if (!regenerated.has(file)) {
          problems.push(`${shown}: on disk but not generated (remove it)`);
        } else if (!onDisk.has(file)) {
          problems.push(`${shown}: generated but missing on disk`);
        } else {
          const a = readFileSync(path.join(dir, file), 'utf8');
          const b = readFileSync(path.join(fresh, file), 'utf8');
          if (a !== b) problems.push(`${shown}: differs at ${firstDifference(a, b)}`);
        }
      }
    }
    if (problems.length > 0) {
      console.error(
        'check-generated: generated code is out of date with spec/openapi.yaml (or was edited by hand).',
      );
      for (const p of problems) console.error(`  - ${p}`);
      console.error(hint);
      return 1;
    }
    console.log('check-generated: src/generated/, test/generated/, docs/normalization-fields.md and the <openai-names> region of src/client.ts are up to date.');
    return 0;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

process.exitCode = main();
