// runTools() with plain function tools, as the official `openai` client's users write them: the
// function's own name, `parse: JSON.parse`, and a streamed run that iterates chunks and is passed
// on with `toReadableStream()` (the server is scripted to call the tool: see carry-over.test.ts).
import OpenAI from 'openai';
import type { RunnableToolFunction } from 'openai/lib/RunnableFunction';

const client = new OpenAI();

async function get_weather(args: { city: string }): Promise<string> {
  return JSON.stringify({ city: args.city, celsius: 21 });
}

const tools: RunnableToolFunction<{ city: string }>[] = [
  {
    type: 'function',
    function: {
      function: get_weather,
      parse: JSON.parse,
      description: 'Current weather in a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    },
  },
];

// Without streaming.
const runner = client.chat.completions.runTools({ model: 'mock/echo', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools });
runner.on('functionToolCall', (call) => console.log('call:', call.name, call.arguments));
console.log('answer:', await runner.finalContent());

// Streaming: the runner yields every request's chunks.
const streaming = client.chat.completions.runTools({ model: 'mock/echo', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools, stream: true });
streaming.on('functionToolCallResult', (result) => console.log('result:', result));
let text = '';
for await (const chunk of streaming) text += chunk.choices[0]?.delta.content ?? '';
console.log('streamed:', text);
console.log('final:', await streaming.finalContent());

// Passed on as a response body.
const body = client.chat.completions.runTools({ model: 'mock/echo', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools, stream: true }).toReadableStream();
const lines = (await new Response(body).text()).trim().split('\n');
console.log('body lines with content:', lines.filter((line) => line.includes('"content":"It')).length > 0);
