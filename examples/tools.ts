/**
 * Tool calling with `runTools()`: the SDK runs the loop (ask, run the tools the model calls,
 * send the results back) until the model answers. Arguments are validated by each tool's zod
 * schema before its function runs.
 *
 * Against the real service when INFERENCE_API_KEY and INFERENCE_BASE_URL are set (pick a model
 * with the `tools` feature in INFERENCE_MODEL); otherwise against the bundled local server, whose
 * replies are scripted below so that the model "calls" the tools.
 */
import * as z from 'zod';
import { Client } from 'model-inference-sdk';
import { zodFunction } from 'model-inference-sdk/helpers/zod';
import { startMockServer, type ScriptedReply } from 'model-inference-sdk/testing';
import { exampleClient } from './setup';

const temperatures: Record<string, number> = { paris: 21, oslo: -2, lisbon: 24 };

const getWeather = zodFunction({
  name: 'get_weather',
  description: 'Current temperature in a city, in degrees Celsius',
  parameters: z.object({ city: z.string().describe('City name, e.g. Paris') }),
  function: async ({ city }) => ({ city, celsius: temperatures[city.toLowerCase()] ?? null }),
});

const convert = zodFunction({
  name: 'celsius_to_fahrenheit',
  description: 'Convert a temperature from Celsius to Fahrenheit',
  parameters: z.object({ celsius: z.number() }),
  function: ({ celsius }) => String(Math.round(celsius * 1.8 + 32)),
});

const live = Boolean(process.env.INFERENCE_API_KEY && process.env.INFERENCE_BASE_URL);
const { client, model, done } = live ? await exampleClient() : await scriptedClient();
try {
  // 1. The whole loop, watching each step.
  const runner = client.chat.completions.runTools(
    {
      model,
      messages: [{ role: 'user', content: 'Is it warmer in Paris or in Oslo right now? Answer in Fahrenheit.' }],
      tools: [getWeather, convert],
    },
    { maxRounds: 5 },
  );
  for await (const event of runner) {
    if (event.type !== 'message') continue;
    const { message } = event;
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) console.log(`→ ${call.function.name}(${call.function.arguments})`);
    } else if (message.role === 'tool') {
      console.log(`← ${String(message.content)}`);
    }
  }
  console.log(`answer: ${await runner.finalContent()}`);
  const usage = await runner.totalUsage();
  console.log(`${runner.allChatCompletions().length} requests, ${usage.total_tokens} tokens\n`);

  // 2. The same loop, streaming the answer as it is written.
  const streaming = client.chat.completions.runTools({
    model,
    messages: [{ role: 'user', content: 'And in Lisbon?' }],
    tools: [getWeather],
    stream: true,
  });
  process.stdout.write('streamed answer: ');
  for await (const text of streaming.textStream()) process.stdout.write(text);
  console.log();
} finally {
  await done();
}

/** The local server, with the replies a model with tools would give. */
async function scriptedClient() {
  const server = await startMockServer();
  const usage = { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 };
  const reply = (message: object, finish_reason: string): ScriptedReply => ({
    path: '/chat/completions',
    body: { id: 'chatcmpl-example', object: 'chat.completion', created: 0, model: 'mock/echo', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }], usage },
  });
  const call = (id: string, name: string, args: object) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  const chunk = (delta: object, finish_reason: string | null = null) => ({ choices: [{ index: 0, delta, finish_reason }] });
  server.enqueue(
    // Two calls at once; the SDK runs them in parallel.
    reply({ content: null, tool_calls: [call('call_1', 'get_weather', { city: 'Paris' }), call('call_2', 'get_weather', { city: 'Oslo' })] }, 'tool_calls'),
    reply({ content: null, tool_calls: [call('call_3', 'celsius_to_fahrenheit', { celsius: 21 }), call('call_4', 'celsius_to_fahrenheit', { celsius: -2 })] }, 'tool_calls'),
    reply({ content: 'Paris is warmer: about 70 °F, against 28 °F in Oslo.' }, 'stop'),
    {
      path: '/chat/completions',
      events: [chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, ...call('call_5', 'get_weather', { city: 'Lisbon' }) }] }), chunk({}, 'tool_calls'), '[DONE]'],
    },
    {
      path: '/chat/completions',
      events: [chunk({ role: 'assistant', content: '' }), ...['Lisbon ', 'is ', 'even ', 'warmer: ', '24 °C.'].map((content) => chunk({ content })), chunk({}, 'stop'), '[DONE]'],
    },
  );
  return { client: new Client({ apiKey: server.apiKey, baseURL: server.url }), model: 'mock/echo', done: () => server.close() };
}
