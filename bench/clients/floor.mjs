// @ts-check
/**
 * The floor: what a careful hand-written client does at least. fetch, split the body into lines,
 * JSON.parse each `data:` line; no validation, no retries, no error classes.
 */
import { API_KEY, MESSAGES, MODEL } from '../workload.mjs';

/** @param {string} baseURL */
export function create(baseURL) {
  const url = `${baseURL}/chat/completions`;
  /** @param {object} body @param {string} accept */
  const post = async (body, accept) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', accept },
      body: JSON.stringify(body),
    });
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    return response;
  };
  return {
    /** @param {number} n */
    async stream(n) {
      const response = await post({ model: MODEL, messages: MESSAGES, stream: true, max_tokens: n }, 'text/event-stream');
      const reader = /** @type {ReadableStream<Uint8Array>} */ (response.body).getReader();
      const decoder = new TextDecoder();
      let text = '';
      let rest = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const buffer = rest + decoder.decode(value, { stream: true });
        let start = 0;
        for (let end = buffer.indexOf('\n', start); end !== -1; end = buffer.indexOf('\n', start)) {
          if (buffer.startsWith('data: ', start)) {
            const data = buffer.slice(start + 6, end);
            if (data === '[DONE]') {
              await reader.cancel();
              return text;
            }
            text += JSON.parse(data).choices[0]?.delta?.content ?? '';
          }
          start = end + 1;
        }
        rest = buffer.slice(start);
      }
      return text;
    },
    async request() {
      const response = await post({ model: MODEL, messages: MESSAGES }, 'application/json');
      return (await response.json()).choices[0].message.content;
    },
  };
}
