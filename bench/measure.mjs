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
 */
import { REPLY, eventCount, expectedText } from './workload.mjs';

const CLIENTS = {
  floor: async (/** @type {string} */ url) => (await import('./clients/floor.mjs')).create(url),
  'floor-iter': async (/** @type {string} */ url) => (await import('./clients/floor-iter.mjs')).create(url),
  openai: async (/** @type {string} */ url) => (await import('./clients/openai.mjs')).create(url),
  sdk: async (/** @type {string} */ url) => (await import('./clients/sdk.mjs')).create(url, 'error'),
  'sdk-off': async (/** @type {string} */ url) => (await import('./clients/sdk.mjs')).create(url, 'off'),
};

const [name = '', metric = '', port = '', quick = ''] = process.argv.slice(2);
const make = CLIENTS[/** @type {keyof typeof CLIENTS} */ (name)];
if (!make) throw new Error(`unknown client ${name}`);
const client = await make(`http://127.0.0.1:${port}/v1`);
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
} else {
  throw new Error(`unknown metric ${metric}`);
}
process.stdout.write(`${JSON.stringify(result)}\n`);
// Pooled keep-alive connections would hold the process open for a few seconds.
process.exit(0);
