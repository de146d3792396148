// Runs every example in examples/ against the bundled local server (CI: they must exit 0).
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const env = { ...process.env };
delete env.INFERENCE_API_KEY;
delete env.INFERENCE_BASE_URL;
const examples = readdirSync('examples').filter((f) => f.endsWith('.ts') && f !== 'setup.ts');
for (const file of examples) {
  process.stdout.write(`--- examples/${file}\n`);
  execFileSync(process.execPath, ['--import', 'tsx', `examples/${file}`], { stdio: 'inherit', env, timeout: 60_000 });
}
console.log(`${examples.length} examples ran`);
