// @ts-check
/**
 * inference-sdk as published: the built `dist/` (bench/run.mjs snapshots it and passes the copy
 * in BENCH_SDK, so that a rebuild during a run cannot mix versions), with the given
 * validation mode (`'error'` is the default).
 */
import { API_KEY, MESSAGES, MODEL } from '../workload.mjs';

/** @type {typeof import('../../dist/index.js')} */
const { Client } = await import(process.env.BENCH_SDK ?? '../../dist/index.js');

/** @param {string} baseURL @param {'error' | 'off'} validation */
export function create(baseURL, validation) {
  const client = new Client({ apiKey: API_KEY, baseURL, validation });
  return {
    /** @param {number} n */
    async stream(n) {
      const stream = await client.chat.completions.create({ model: MODEL, messages: /** @type {any} */ (MESSAGES), stream: true, max_tokens: n });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    },
    async request() {
      const completion = await client.chat.completions.create({ model: MODEL, messages: /** @type {any} */ (MESSAGES) });
      return completion.choices[0]?.message.content;
    },
  };
}
