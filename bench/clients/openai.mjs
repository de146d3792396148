// @ts-check
/** The official `openai` client, with its defaults. */
import OpenAI from 'openai';
import { API_KEY, MESSAGES, MODEL } from '../workload.mjs';

/** @param {string} baseURL */
export function create(baseURL) {
  const client = new OpenAI({ apiKey: API_KEY, baseURL });
  return {
    /** @param {number} n */
    async stream(n) {
      const stream = await client.chat.completions.create({ model: MODEL, messages: /** @type {any} */ (MESSAGES), stream: true, max_tokens: n });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      return text;
    },
    async request() {
      const completion = await client.chat.completions.create({ model: MODEL, messages: /** @type {any} */ (MESSAGES) });
      return completion.choices[0]?.message.content;
    },
  };
}
