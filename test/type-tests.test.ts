/**
 * The type tests (test/*.test-d.ts: `expectTypeOf`, `@ts-expect-error` on what must not compile),
 * compiled by TypeScript with the project's settings: a type test fails as a compile error. Run as
 * an ordinary test file, beside the others in `npm test` (vitest's own type-check mode announces
 * itself as experimental on every run).
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

it('the type tests compile under the project\'s strict settings', () => {
  const files = readdirSync(`${root}test`).filter((f) => f.endsWith('.test-d.ts')).map((f) => `${root}test/${f}`);
  expect(files.length).toBeGreaterThanOrEqual(2);
  const config = ts.getParsedCommandLineOfConfigFile(`${root}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (!config) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return `${d.file ? d.file.fileName.slice(root.length) : ''}${where ? `:${where.line + 1}:${where.character + 1}` : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  expect(problems).toEqual([]);
}, 120_000);
