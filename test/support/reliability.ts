/** Shared by the test/reliability-*.test.ts files: the key, the request, chunk and SSE builders, a client, an outcome and the text of a stream. */
import { Client, type ClientOptions, type ChatCompletionChunk } from '../../src/index';

export const KEY = 'sk-live-SECRET-KEY-0123456789abcdef';
export const messages = [{ role: 'user' as const, content: 'hi' }];
export const chunk = (content: string | undefined, finish: string | null = null) => ({
  choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
});
export const sse = (...events: unknown[]) => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');

export const client = (baseURL: string, options: ClientOptions = {}) => new Client({ apiKey: KEY, baseURL, logLevel: 'off', ...options });

export async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return error;
  }
}

export async function textOf(stream: AsyncIterable<ChatCompletionChunk>) {
  let text = '';
  for await (const c of stream) text += c.choices?.[0]?.delta.content ?? '';
  return text;
}
