// @ts-check
/**
 * The batch runner's figures, each in a fresh process (bench/run.mjs runs them):
 *
 *   node bench/batch.mjs run <port> <lines>   <lines> chat lines through runBatchFile() against the
 *                                              bench server: lines/s and the process's peak RSS
 *   node bench/batch.mjs read <lines>         checkBatchInput() over a file of <lines> lines (nothing
 *                                              sent): ms and peak RSS, to compare 100,000 with 1,000,000
 *
 * The package is the snapshot bench/run.mjs took (BENCH_SDK: its index.js; batch/index.js beside it).
 * Prints one JSON line; a run that does not write one output line per input line exits non-zero.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { MODEL } from './workload.mjs';

const [mode = '', a = '', b = ''] = process.argv.slice(2);
const sdkURL = process.env.BENCH_SDK;
if (!sdkURL) throw new Error('BENCH_SDK is not set (bench/run.mjs sets it)');
const { Client } = await import(sdkURL);
const { runBatchFile, checkBatchInput } = await import(new URL('batch/index.js', sdkURL).href);

const dir = mkdtempSync(join(tmpdir(), 'bench-batch-'));
try {
  const lines = Number(mode === 'run' ? b : a);
  const input = join(dir, 'in.jsonl');
  const out = createWriteStream(input);
  for (let i = 0; i < lines; i++) {
    const line = `${JSON.stringify({ custom_id: `line-${i}`, method: 'POST', url: '/v1/chat/completions', body: { model: MODEL, messages: [{ role: 'user', content: `question ${i}` }], max_tokens: 16 } })}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const started = performance.now();
  if (mode === 'run') {
    const client = new Client({ apiKey: 'bench', baseURL: `http://127.0.0.1:${a}/v1`, maxRetries: 0 });
    const output = join(dir, 'out.jsonl');
    const summary = await runBatchFile(client, { input, output, concurrency: 32 });
    const ms = performance.now() - started;
    const written = readFileSync(output, 'utf8').split('\n').filter(Boolean).length;
    if (summary.done !== lines || written !== lines) throw new Error(`expected ${lines} lines done and written, got ${summary.done} done, ${written} written`);
    console.log(JSON.stringify({ value: lines / (ms / 1000), rss: process.resourceUsage().maxRSS / 1024 }));
  } else if (mode === 'read') {
    const client = new Client({ apiKey: 'bench', baseURL: 'http://127.0.0.1:9/v1' });
    const { requests } = await checkBatchInput(client, (await import('node:fs')).createReadStream(input));
    if (requests !== lines) throw new Error(`expected ${lines} requests, got ${requests}`);
    console.log(JSON.stringify({ value: performance.now() - started, rss: process.resourceUsage().maxRSS / 1024 }));
  } else throw new Error(`unknown mode ${mode}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
