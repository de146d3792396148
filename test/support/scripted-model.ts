/**
 * The model's side of a tool loop, scripted for the local server (`server.enqueue(...)`): an
 * answer, tool calls, and the same streamed in small fragments. Shared by the runTools() tests.
 */
export type Call = [id: string, name: string, args: string];

/** The model answers with this message. */
export function answer(message: Record<string, unknown>, finish_reason = 'stop') {
  return {
    body: {
      id: 'chatcmpl-t',
      object: 'chat.completion',
      created: 1,
      model: 'mock/echo',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    },
  };
}
/** The model says this. */
export const says = (content: string) => answer({ content });
/** The model calls these tools. */
export const calls = (...list: Call[]) =>
  answer({ content: null, tool_calls: list.map(([id, name, args]) => ({ id, type: 'function', function: { name, arguments: args } })) }, 'tool_calls');

/** The model streams these tool calls (arguments in small fragments), or this text. */
export function streamsCalls(...list: Call[]) {
  const events: unknown[] = [{ choices: [{ index: 0, delta: { role: 'assistant', content: null } }] }];
  list.forEach(([id, name, args], index) => {
    events.push({ choices: [{ index: 0, delta: { tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] } }] });
    for (let i = 0; i < args.length; i += 4) {
      events.push({ choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: args.slice(i, i + 4) } }] } }] });
    }
  });
  events.push({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }, '[DONE]');
  return { events };
}
export function streamsText(text: string) {
  const events: unknown[] = [{ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }];
  for (const word of text.split(/(?<= )/)) events.push({ choices: [{ index: 0, delta: { content: word } }] });
  events.push({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 } }, '[DONE]');
  return { events };
}
