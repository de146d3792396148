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
