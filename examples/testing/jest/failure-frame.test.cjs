// How a failure inside the SDK reads under jest: jest prints the source line of the error's top
// frame. The CommonJS build keeps its line breaks, so that is one short statement, not a
// whitespace-minified line of tens of kilobytes (tsup.config.ts, `readable`).
/* global require, __dirname */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose */
const { expect, test } = require('@jest/globals');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

test('a failing test shows a short frame in the SDK, with its message', () => {
  const run = spawnSync(
    process.execPath,
    [require.resolve('jest/bin/jest'), '--config', path.join(__dirname, '..', 'jest-failing', 'jest.config.cjs'), '--ci', '--colors=false'],
    { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, timeout: 60_000 },
  );
  const output = `${run.stdout}${run.stderr}`;
  expect(run.status).toBe(1);
  expect(output).toContain('InferenceError');
  expect(output).toMatch(/model/);
  // The frame: jest marks the failing line with `>`; it is a line of the SDK's build.
  const marked = output.split('\n').filter((line) => /^\s*>\s*\d+\s*\|/.test(line));
  expect(marked.length).toBeGreaterThan(0);
  const longest = Math.max(...output.split('\n').map((line) => line.length));
  expect(longest).toBeLessThan(300);
});
