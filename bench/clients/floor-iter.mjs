// @ts-check
/**
 * The second floor, the leanest reader: `for await (const bytes of response.body)`, decode, split
 * lines with `indexOf`, `JSON.parse` each `data:` line. No reader object, no validation, no
 * retries, no error classes. An outside harness measured against this one, so the bench does too.
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
      const decoder = new TextDecoder();
      let text = '';
      let rest = '';
      for await (const bytes of /** @type {AsyncIterable<Uint8Array>} */ (/** @type {unknown} */ (response.body))) {
        const buffer = rest + decoder.decode(bytes, { stream: true });
        let start = 0;
        for (let end = buffer.indexOf('\n', start); end !== -1; end = buffer.indexOf('\n', start)) {
          if (buffer.startsWith('data: ', start)) {
            const data = buffer.slice(start + 6, end);
            if (data !== '[DONE]') text += JSON.parse(data).choices[0]?.delta?.content ?? '';
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
