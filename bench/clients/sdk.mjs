// @ts-check
/**
 * model-inference-sdk as published: the built `dist/` (bench/run.mjs snapshots it and passes the copy
 * in BENCH_SDK, so that a rebuild during a run cannot mix versions), with the given
 * validation mode (`'error'` is the default), and optionally with hooks that do nothing.
 */
import { API_KEY, MESSAGES, MODEL } from '../workload.mjs';

/** @type {typeof import('../../dist/index.js')} */
const { Client, Stream } = await import(process.env.BENCH_SDK ?? '../../dist/index.js');

const PIECE = new TextEncoder().encode('x'.repeat(64 * 1024));

/** @type {any} */
const TOOLS = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { v: { type: 'string' } } } } }];

/**
 * Hooks that do nothing but are called (a chunk hook and an end hook): what using hooks costs.
 * Without them (the other columns), a call does one check and no per-chunk work.
 */
const NOOP_HOOKS = { onChunk() {}, onEnd() {} };

/** @param {string} baseURL @param {'error' | 'off'} validation @param {{ hooks?: boolean }} [options] */
export function create(baseURL, validation, options = {}) {
  const client = new Client({ apiKey: API_KEY, baseURL, validation, ...(options.hooks ? { hooks: NOOP_HOOKS } : {}) });
  return {
    /** @param {number} n */
    async stream(n) {
      const stream = await client.chat.completions.create({ model: MODEL, messages: /** @type {any} */ (MESSAGES), stream: true, max_tokens: n });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    },
    /** A flood of `n` tool-call argument deltas: the arguments of every call, rebuilt. @param {number} n */
    async toolStream(n) {
      const stream = await client.chat.completions.create({ model: MODEL, messages: /** @type {any} */ (MESSAGES), stream: true, max_tokens: n, tools: TOOLS });
      const completion = await stream.finalChatCompletion();
      return (completion.choices[0]?.message.tool_calls ?? []).map((call) => call.function.arguments);
    },
    /** A structured output of `n` array items, read as it grows: the number of partial values and the last. @param {number} n */
    async parsedStream(n) {
      const stream = await client.chat.completions.parse({ model: MODEL, messages: /** @type {any} */ (MESSAGES), stream: true, max_tokens: n, response_format: { type: 'json_object' } });
      let values = 0;
      /** @type {any} */
      let last;
      for await (const partial of stream.parsedStream()) {
        values++;
        last = partial;
      }
      return { values, last };
    },
    /**
     * One NDJSON line of about `n` characters (a JSON string of `x`), in reads of 64 KiB, read
     * back with `Stream.fromReadableStream()` (no server: only the line reader): the string's length.
     * @param {number} n
     */
    async longLine(n) {
      const encoder = new TextEncoder();
      let left = Math.ceil(n / PIECE.length);
      let started = false;
      const body = new ReadableStream({
        pull(c) {
          if (!started) {
            started = true;
            c.enqueue(encoder.encode('{"text":"'));
          } else if (left-- > 0) c.enqueue(PIECE);
          else {
            c.enqueue(encoder.encode('"}\n'));
            c.close();
          }
        },
      });
      let length = 0;
      for await (const value of Stream.fromReadableStream(body)) length += /** @type {{ text: string }} */ (value).text.length;
      return length;
    },
    async request() {
      const completion = await client.chat.completions.create({ model: MODEL, messages: /** @type {any} */ (MESSAGES) });
      return completion.choices[0]?.message.content;
    },
  };
}
