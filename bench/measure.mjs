// @ts-check
/**
 * One measurement in a fresh process: `node bench/measure.mjs <client> <metric> <port> [quick]`.
 * Prints one JSON line. Every response is checked against the exact expected text; a mismatch
 * exits non-zero, so a fast but wrong client cannot post a number.
 *
 *   chunk       CPU (user + system, this process) per event of a 20,000-chunk stream
 *               (median of 3 streams after a warm-up; 1 when quick)
 *   request     CPU per short non-streaming request, over 500 sequential requests
 *               (median of 3 runs after 200 warm-up requests; 1 when quick)
 *   concurrent  200 streams of 500 chunks at once after one warm-up stream: wall time and the
 *               process's peak RSS
 *   growth      (model-inference-sdk only) CPU of a flood of 2,000 and of 20,000 tool-call argument
 *               deltas, and of a structured output of 2,000 and of 20,000 items read with
 *               parsedStream(): the ratio of each pair is how the cost grows with 10× the deltas;
 *               and of one Stream.fromReadableStream() line of 2 MiB and of 8 MiB characters (4×)
 *   storm60     60 calls at once against a server allowing 10 requests/s, burst 10 (a token
 *   storm1000   bucket of its own, bench/server.mjs), with the client's defaults; 1,000 for the
 *               other: the calls that failed, the requests the server saw, the wall time, peak RSS
 */
import { REPLY, eventCount, expectedText, jsonFragments, toolCallFragments } from './workload.mjs';

const CLIENTS = {
  floor: async (/** @type {string} */ url) => (await import('./clients/floor.mjs')).create(url),
  'floor-iter': async (/** @type {string} */ url) => (await import('./clients/floor-iter.mjs')).create(url),
  openai: async (/** @type {string} */ url) => (await import('./clients/openai.mjs')).create(url),
  sdk: async (/** @type {string} */ url) => (await import('./clients/sdk.mjs')).create(url, 'error'),
  'sdk-off': async (/** @type {string} */ url) => (await import('./clients/sdk.mjs')).create(url, 'off'),
  'sdk-hooks': async (/** @type {string} */ url) => (await import('./clients/sdk.mjs')).create(url, 'error', { hooks: true }),
};

const [name = '', metric = '', port = '', quick = ''] = process.argv.slice(2);
const make = CLIENTS[/** @type {keyof typeof CLIENTS} */ (name)];
if (!make) throw new Error(`unknown client ${name}`);
// The storm's calls go to a token bucket of their own, full at the start.
const run = `${name}-${process.pid}-${Date.now()}`;
const base = metric.startsWith('storm') ? `http://127.0.0.1:${port}/limited/${run}` : `http://127.0.0.1:${port}`;
const client = await make(`${base}/v1`);
const isQuick = quick === 'quick';

/** @type {Map<number, string>} */
const expected = new Map();
/** @param {number} n */
async function checkedStream(n) {
  const text = await client.stream(n);
  if (!expected.has(n)) expected.set(n, expectedText(n));
  if (text !== expected.get(n)) throw new Error(`${name}: wrong text for a stream of ${n} chunks (${String(text).length} characters)`);
}
async function checkedRequest() {
  const text = await client.request();
  if (text !== REPLY) throw new Error(`${name}: wrong reply ${JSON.stringify(text)}`);
}
/** CPU microseconds (user + system) since `start`. */
function cpuSince(/** @type {NodeJS.CpuUsage} */ start) {
  const { user, system } = process.cpuUsage(start);
  return user + system;
}

let result;
/** The median of a few repetitions: one stray pause on a shared machine does not decide. */
function median(/** @type {number[]} */ values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

if (metric === 'chunk') {
  const n = 20_000;
  for (let i = 0; i < 3; i++) await checkedStream(2_000); // warm the JIT and the connection
  const samples = [];
  for (let i = 0; i < (isQuick ? 1 : 3); i++) {
    const start = process.cpuUsage();
    await checkedStream(n);
    samples.push(cpuSince(start) / eventCount(n));
  }
  result = { value: median(samples), unit: 'µs' };
} else if (metric === 'request') {
  const n = 500;
  for (let i = 0; i < 200; i++) await checkedRequest();
  const samples = [];
  for (let r = 0; r < (isQuick ? 1 : 3); r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) await checkedRequest();
    samples.push(cpuSince(start) / n);
  }
  result = { value: median(samples), unit: 'µs' };
} else if (metric === 'concurrent') {
  const streams = 200;
  await checkedStream(500);
  const start = performance.now();
  await Promise.all(Array.from({ length: streams }, () => checkedStream(500)));
  const wall = performance.now() - start;
  result = { value: wall, unit: 'ms', rss: process.resourceUsage().maxRSS / 1024 };
} else if (metric === 'growth') {
  const floods = /** @type {{ toolStream?: (n: number) => Promise<string[]>, parsedStream?: (n: number) => Promise<{ values: number, last: unknown }>, longLine?: (n: number) => Promise<number> }} */ (client);
  const { toolStream, parsedStream, longLine } = floods;
  if (!toolStream || !parsedStream || !longLine) throw new Error(`${name} has no growth workload`);
  /** @param {number} n */
  const tools = async (n) => {
    const args = await toolStream(n);
    const expected = toolCallFragments(n).map((fragments) => fragments.join(''));
    if (JSON.stringify(args) !== JSON.stringify(expected)) throw new Error(`${name}: wrong tool calls for a flood of ${n} deltas`);
  };
  /** @param {number} n */
  const parsed = async (n) => {
    const { values, last } = await parsedStream(n);
    const expected = JSON.parse(jsonFragments(n).join(''));
    if (JSON.stringify(last) !== JSON.stringify(expected) || values < 2) throw new Error(`${name}: wrong structured output for ${n} items`);
  };
  /** Median CPU µs of `run(n)` (after a warm-up at the smaller size). @param {(n: number) => Promise<void>} run @param {number} n */
  const cpu = async (run, n) => {
    const samples = [];
    for (let i = 0; i < (isQuick ? 1 : 3); i++) {
      const start = process.cpuUsage();
      await run(n);
      samples.push(cpuSince(start));
    }
    return median(samples);
  };
  /** @param {number} n */
  const line = async (n) => {
    const length = await longLine(n);
    if (length < n) throw new Error(`${name}: a line of ${n} characters read back as ${length}`);
  };
  const LINE = 2 * 1024 * 1024;
  for (let i = 0; i < 3; i++) {
    await tools(2_000);
    await parsed(2_000);
    await line(LINE);
  }
  await line(4 * LINE); // the heap grown to hold the larger line before it is measured
  const tools1 = await cpu(tools, 2_000);
  const tools10 = await cpu(tools, 20_000);
  const parsed1 = await cpu(parsed, 2_000);
  const parsed10 = await cpu(parsed, 20_000);
  const line1 = await cpu(line, LINE);
  const line4 = await cpu(line, 4 * LINE);
  result = { value: tools10 / tools1, unit: '×', parsed: parsed10 / parsed1, toolsSmall: tools1, parsedSmall: parsed1, line: line4 / line1, lineSmall: line1 };
} else if (metric === 'storm60' || metric === 'storm1000') {
  const calls = metric === 'storm60' ? 60 : 1000;
  const start = performance.now();
  const results = await Promise.allSettled(Array.from({ length: calls }, () => client.request()));
  const wall = performance.now() - start;
  const wrong = results.filter((r) => r.status === 'fulfilled' && r.value !== REPLY).length;
  if (wrong > 0) throw new Error(`${name}: ${wrong} wrong replies in the storm`);
  const stats = await (await fetch(`${base}/stats`)).json();
  result = { value: wall, unit: 'ms', failed: results.filter((r) => r.status === 'rejected').length, requests: stats.requests, limited: stats.limited, rss: process.resourceUsage().maxRSS / 1024 };
} else {
  throw new Error(`unknown metric ${metric}`);
}
process.stdout.write(`${JSON.stringify(result)}\n`);
// Pooled keep-alive connections would hold the process open for a few seconds.
process.exit(0);
