// Lints code as if it were at the given paths of the repository, with the project's ESLint
// config: stdin is JSON `[{ filePath, code }]`, stdout JSON `[{ filePath, messages }]`. Run
// through scripts/tools.mjs (`run scripts/lint --resolve`), where ESLint and its plugins live.
import { ESLint } from 'eslint';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const { filePath, code } of JSON.parse(input)) {
  const [result] = await eslint.lintText(code, { filePath });
  out.push({ filePath, messages: (result?.messages ?? []).map((m) => ({ ruleId: m.ruleId, message: m.message })) });
}
process.stdout.write(JSON.stringify(out));
