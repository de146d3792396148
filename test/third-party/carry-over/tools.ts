// A tool loop with runTools(), written for the official `openai` client.
import OpenAI from 'openai';

const client = new OpenAI();

async function getWeather(args: { city: string }): Promise<string> {
  return JSON.stringify({ city: args.city, celsius: 21 });
}

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'get_weather', description: 'Current weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  },
];

// By hand: the model calls a tool, the result goes back.
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Paris' }];
const first = await client.chat.completions.create({ model: 'mock/echo', messages, tools });
const reply = first.choices[0]?.message;
if (reply) {
  messages.push(reply);
  for (const toolCall of reply.tool_calls ?? []) {
    if (toolCall.type !== 'function') continue;
    const args = JSON.parse(toolCall.function.arguments) as { city: string };
    console.log('tool call:', toolCall.function.name, args.city);
    messages.push({ role: 'tool', tool_call_id: toolCall.id, content: await getWeather(args) });
  }
}
const second = await client.chat.completions.create({ model: 'mock/echo', messages, tools });
console.log('after the tool:', second.choices[0]?.finish_reason);

// With the runner.
const runner = client.chat.completions
  .runTools({
    model: 'mock/echo',
    messages: [{ role: 'user', content: 'Paris' }],
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather in a city.',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          function: getWeather,
          parse: JSON.parse,
        },
      },
    ],
  })
  .on('functionToolCall', (call) => console.log('runner call:', call.name, call.arguments))
  .on('functionToolCallResult', (result) => console.log('runner result:', result));
const finalContent = await runner.finalContent();
console.log('final:', typeof finalContent);
