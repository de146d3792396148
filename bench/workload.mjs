// @ts-check
/**
 * The benchmark's workload, shared by the server and every client so that each response can be
 * checked exactly: chunk `i` of a stream carries the text `t<i % 1000> `, and the non-streaming
 * completion a fixed sentence. Deterministic: no clock, no randomness.
 */

export const MODEL = 'acme/chat-1';
export const API_KEY = 'bench-key';
export const MESSAGES = [{ role: 'user', content: 'Count.' }];
export const REPLY = 'Hello! This is a short reply of a non-streaming completion, for the benchmark.';

/** The text of content chunk `i` (0-based). @param {number} i */
export function chunkText(i) {
  return `t${i % 1000} `;
}

/** The text a client must rebuild from a stream of `n` content chunks. @param {number} n */
export function expectedText(n) {
  let text = '';
  for (let i = 0; i < n; i++) text += chunkText(i);
  return text;
}

/** Events of a stream of `n` content chunks: the role chunk, `n` content chunks, the finish chunk. @param {number} n */
export function eventCount(n) {
  return n + 2;
}

// Floods, for the growth metric: does 10× the deltas cost about 10× the time?

/** Tool calls in a flood stream: a new call every `CALL_SIZE` argument fragments. */
export const CALL_SIZE = 100;

/**
 * The argument fragments of a stream of `n` tool-call deltas, by call: call `k` gets fragments
 * `k * CALL_SIZE …`, and its arguments are `{"v":"a0 a1 …"}` cut at every fragment.
 * @param {number} n
 */
export function toolCallFragments(n) {
  /** @type {string[][]} */
  const calls = [];
  for (let i = 0; i < n; i++) {
    const k = Math.floor(i / CALL_SIZE);
    const first = i % CALL_SIZE === 0;
    const last = i % CALL_SIZE === CALL_SIZE - 1 || i === n - 1;
    (calls[k] ??= []).push(`${first ? '{"v":"' : ''}a${i % 1000} ${last ? '"}' : ''}`);
  }
  return calls;
}

/** The JSON content fragments of a structured output of `n` array items: `{"items":["t0","t1",…]}`. @param {number} n */
export function jsonFragments(n) {
  const parts = ['{"items":['];
  for (let i = 0; i < n; i++) parts.push(`"t${i % 1000}"${i < n - 1 ? ',' : ''}`);
  parts.push(']}');
  return parts;
}

// The limiter's storm: many calls at once against a server that enforces a token bucket.

/** The storm's server: 10 requests a second, 10 at once (a token bucket; issue 31). */
export const STORM = { rate: 10, burst: 10 };

/** The least time `calls` calls can take against the storm's server: the burst at once, then `rate` a second. @param {number} calls */
export function idealStormMs(calls) {
  return (Math.max(0, calls - STORM.burst) / STORM.rate) * 1000;
}
