/** Shared by the test/openai-streams-*.test.ts files: the request, chunk builders, scripted streams of text and of a call, and the weather schema. */
import * as z from 'zod';
import { type ChatCompletionMessageParam } from '../../src/index';
import { zodResponseFormat } from '../../src/helpers/zod';

export const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];

/** A chunk of request `id` with one choice. */
export const chunk = (delta: object, finish_reason: string | null = null, extra: object = {}, id = 'chatcmpl-s') => ({
  id,
  object: 'chat.completion.chunk',
  created: 1,
  model: 'mock/echo',
  choices: [{ index: 0, delta, finish_reason, ...extra }],
});
/** The model streams `text` in pieces of `size` characters. */
export function streamsPieces(text: string, size = 5, id = 'chatcmpl-s') {
  const events: unknown[] = [chunk({ role: 'assistant', content: '' }, null, {}, id)];
  for (let i = 0; i < text.length; i += size) events.push(chunk({ content: text.slice(i, i + size) }, null, {}, id));
  events.push(chunk({}, 'stop', {}, id), '[DONE]');
  return { events };
}
/** The model streams one call of `name` with `args` in pieces of 4 characters. */
export function streamsCall(name: string, args: string, id = 'call_1') {
  const events: unknown[] = [chunk({ role: 'assistant', content: null }), chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] })];
  for (let i = 0; i < args.length; i += 4) events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + 4) } }] }));
  events.push(chunk({}, 'tool_calls'), '[DONE]');
  return { events };
}

export const Weather = z.object({ city: z.string(), celsius: z.number() });
export const weatherFormat = zodResponseFormat(Weather, 'weather');
export const weatherJSON = '{"city":"Paris","celsius":21}';
