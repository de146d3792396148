// scripts/build.mjs is quiet (`npm install` in a clone builds dist/ in `prepare`): each step's
// output goes to a log file and the build prints one line, unless a step fails, which prints the
// whole log and the step. Run with steps of a few milliseconds, in a child process (a failed step
// exits), so the suite never runs the real build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = pathToFileURL(path.join(root, 'scripts', 'build.mjs')).href;
const dir = mkdtempSync(path.join(tmpdir(), 'build-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `runSteps(steps, { log })` of scripts/build.mjs in a child process. */
function runSteps(steps: [string, string[]][], log: string, verbose = false) {
  const code = `import { runSteps } from ${JSON.stringify(build)}; runSteps(${JSON.stringify(steps)}, { log: ${JSON.stringify(log)}, verbose: ${verbose} });`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
}

/** A step that writes `n` lines, alternately to stdout and stderr, then exits with `exit`. */
const noisy = (name: string, n: number, exit = 0): [string, string[]] => [
  process.execPath,
  ['-e', `for (let i = 0; i < ${n}; i++) (i % 2 ? console.error : console.log)('${name} line ' + i); process.exitCode = ${exit};`],
];

describe('the build prints one line, or its whole log when it fails', () => {
  it('steps that succeed print nothing; their output, interleaved, is in the log', () => {
    const log = path.join(dir, 'ok.log');
    const result = runSteps([noisy('tsup', 109), noisy('dts-names', 3)], log);
    expect(result.status).toBe(0);
    expect(result.stdout + result.stderr).toBe('');
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(112);
    expect(lines.slice(0, 3)).toEqual(['tsup line 0', 'tsup line 1', 'tsup line 2']);
  });

  it('a step that fails prints the whole log, names the step, exits with its code, and runs no later step', () => {
    const log = path.join(dir, 'failed.log');
    const marker = path.join(dir, 'never');
    const result = runSteps([noisy('tsup', 40), noisy('dts', 5, 3), [process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`]]], log);
    expect(result.status).toBe(3);
    expect(result.stdout).toBe('');
    const printed = result.stderr.split('\n');
    expect(printed.filter((l) => /^(tsup|dts) line \d+$/.test(l))).toHaveLength(45);
    expect(printed).toContain('tsup line 0');
    expect(printed).toContain('dts line 4');
    expect(result.stderr).toMatch(/\nbuild: node -e .* failed \(the log above is in .*failed\.log\)\n$/);
    expect(existsSync(marker)).toBe(false);
  });

  it('--verbose shows the output as it comes, on stderr', () => {
    const result = runSteps([noisy('tsup', 4)], path.join(dir, 'verbose.log'), true);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual(['tsup line 0', 'tsup line 1', 'tsup line 2', 'tsup line 3']);
  });
});
