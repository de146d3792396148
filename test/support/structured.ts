/** Shared by the test/structured-*.test.ts files: the request, the model's scripted answers (a message, a text, a stream) and the weather schema. */
import * as z from 'zod';

export const messages = [{ role: 'user' as const, content: 'Weather in Paris?' }];

/** The model answers with this message (a completion body). */
export function answer(message: Record<string, unknown>, finish_reason = 'stop') {
  return {
    body: {
      id: 'chatcmpl-s',
      object: 'chat.completion',
      created: 1,
      model: 'mock/echo',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }],
      usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 },
    },
  };
}
/** The model answers with this text as its content. */
export const says = (content: string, finish_reason = 'stop') => answer({ content }, finish_reason);

/** The model streams this text in pieces of `size` characters. */
export function streams(text: string, size = 3, finish_reason = 'stop') {
  const events: unknown[] = [{ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }];
  for (let i = 0; i < text.length; i += size) events.push({ choices: [{ index: 0, delta: { content: text.slice(i, i + size) } }] });
  events.push({ choices: [{ index: 0, delta: {}, finish_reason }] }, '[DONE]');
  return { events };
}

export const Weather = z.object({
  city: z.string().describe('City name'),
  celsius: z.number(),
  note: z.string().optional(),
  wind: z.number().nullable(),
});
