// The deprecated `functions` and `function_call`, written for the official `openai` client
// (the server is scripted to call the function: see carry-over.test.ts).
import OpenAI from 'openai';

const client = new OpenAI();

const functions: OpenAI.Chat.ChatCompletionCreateParams.Function[] = [
  {
    name: 'get_weather',
    description: 'Current weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
];
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];

const completion = await client.chat.completions.create({ model: 'mock/echo', messages, functions, function_call: 'auto' });
const message = completion.choices[0]?.message;
const call: OpenAI.ChatCompletionMessage.FunctionCall | null | undefined = message?.function_call;
console.log('finish:', completion.choices[0]?.finish_reason);
if (message && call) {
  const args = JSON.parse(call.arguments) as { city: string };
  console.log('call:', call.name, args.city);
  // The result goes back the old way: the reply, then a `function` message.
  messages.push(message, { role: 'function', name: call.name, content: JSON.stringify({ city: args.city, celsius: 21 }) });
  const answer = await client.chat.completions.create({ model: 'mock/echo', messages, functions });
  console.log(answer.choices[0]?.message.content);
}

// Streamed, the call comes in fragments on the deltas.
const stream = await client.chat.completions.create({ model: 'mock/echo', messages: messages.slice(0, 1), functions, stream: true });
let name = '';
let args = '';
for await (const chunk of stream) {
  const fragment: OpenAI.ChatCompletionChunk.Choice.Delta.FunctionCall | undefined = chunk.choices[0]?.delta.function_call;
  if (fragment?.name) name = fragment.name;
  args += fragment?.arguments ?? '';
}
console.log('streamed call:', name, args);
