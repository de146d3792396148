/** Shared by the test/wire-quirks-*.test.ts files: the key, the request, a client of a URL, and SSE, chunk and completion builders. */
import { Client, type ClientOptions } from '../../src/index';

export const KEY = 'sk-wire-SECRET-0123456789abcdef';
export const messages = [{ role: 'user' as const, content: 'hi' }];
export const client = (baseURL: string, options: ClientOptions = {}) => new Client({ apiKey: KEY, baseURL, logLevel: 'off', ...options });
export const sse = (...events: unknown[]) => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
export const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});
export const completion = (message: Record<string, unknown>) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});
