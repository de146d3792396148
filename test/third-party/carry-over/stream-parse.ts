// The stream helper parsing structured outputs and tool arguments, written for the official
// `openai` client (the server is scripted to answer in JSON, then to call a tool: see
// carry-over.test.ts).
import OpenAI from 'openai';
import { zodFunction, zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';

const client = new OpenAI();

const Weather = z.object({ city: z.string(), celsius: z.number() });

// A structured output, as it grows and when it is done.
const stream = client.chat.completions.stream({
  model: 'mock/echo',
  messages: [{ role: 'user', content: 'Weather in Paris?' }],
  response_format: zodResponseFormat(Weather, 'weather'),
});
let partial: unknown = null;
stream.on('content.delta', ({ parsed }) => {
  partial = parsed;
});
stream.on('content.done', ({ parsed }) => {
  console.log('done:', parsed?.city, parsed?.celsius);
});
const completion = await stream.finalChatCompletion();
const weather: z.infer<typeof Weather> | null | undefined = completion.choices[0]?.message.parsed;
console.log('last partial:', JSON.stringify(partial));
console.log('parsed:', weather?.city, weather?.celsius);

// A tool call's arguments, parsed by the tool's schema.
const getWeather = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }) });
const calls = client.chat.completions.stream({ model: 'mock/echo', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [getWeather] });
calls.on('tool_calls.function.arguments.done', (event) => {
  console.log('arguments done:', event.name, JSON.stringify(event.parsed_arguments));
});
const message = (await calls.finalChatCompletion()).choices[0]?.message;
for (const call of message?.tool_calls ?? []) {
  const args = call.function.parsed_arguments as { city: string };
  console.log('final call:', call.function.name, args.city);
}
