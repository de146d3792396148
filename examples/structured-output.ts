/**
 * Structured outputs: describe the answer with a zod schema, get it back validated and typed.
 * Then the same while streaming, watching the object grow.
 *
 * Against the real service when INFERENCE_API_KEY and INFERENCE_BASE_URL are set; otherwise
 * against the bundled local server, whose replies are scripted below as a model would write them.
 */
import * as z from 'zod';
import { Client, OutputParseError } from 'model-inference-sdk';
import { zodResponseFormat } from 'model-inference-sdk/helpers/zod';
import { startMockServer } from 'model-inference-sdk/testing';
import { exampleClient } from './setup';

const City = z.object({
  name: z.string(),
  country: z.string(),
  population: z.number().int(),
  landmarks: z.array(z.string()).describe('Three famous landmarks'),
  motto: z.string().optional(), // sent as required-but-nullable; a null comes back as "absent"
});

const live = Boolean(process.env.INFERENCE_API_KEY && process.env.INFERENCE_BASE_URL);
const { client, model, done } = live ? await exampleClient() : await scriptedClient();
try {
  // 1. One request, one typed value.
  const completion = await client.chat.completions.parse({
    model,
    messages: [{ role: 'user', content: 'Describe Paris as JSON.' }],
    response_format: zodResponseFormat(City, 'city'),
  });
  const message = completion.choices[0]!.message;
  if (message.refusal) console.log(`refused: ${message.refusal}`);
  else if (message.parsed) {
    const city = message.parsed; // typed: { name: string; country: string; population: number; ... }
    console.log(`${city.name} (${city.country}): ${city.population.toLocaleString('en')} people; ${city.landmarks.join(', ')}; motto: ${city.motto ?? '(none)'}`);
  }

  // 2. Streaming: partial values as the JSON grows, then the validated value.
  const stream = await client.chat.completions.parse({
    model,
    messages: [{ role: 'user', content: 'Describe Lisbon as JSON.' }],
    response_format: zodResponseFormat(City, 'city'),
    stream: true,
  });
  let updates = 0;
  for await (const partial of stream.parsedStream()) {
    updates++;
    if (updates % 8 === 1) console.log('  so far:', JSON.stringify(partial));
  }
  const final = (await stream.finalChatCompletion()).choices[0]!.message.parsed;
  console.log(`${updates} partial values; final: ${final?.name}, ${final?.landmarks.length} landmarks`);

  // 3. Output that does not match the schema is a typed error with the raw text and the issues.
  try {
    await client.chat.completions.parse({
      model,
      messages: [{ role: 'user', content: 'Describe Atlantis as JSON.' }],
      response_format: zodResponseFormat(City, 'city'),
    });
  } catch (error) {
    if (!(error instanceof OutputParseError)) throw error;
    console.log(`${error.name} (${error.reason}): ${error.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
} finally {
  await done();
}

/** The local server, with the replies a model would give. */
async function scriptedClient() {
  const server = await startMockServer();
  const reply = (content: string) => ({
    path: '/chat/completions',
    body: { id: 'chatcmpl-example', object: 'chat.completion', created: 0, model: 'mock/echo', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] },
  });
  const lisbon = JSON.stringify({ name: 'Lisbon', country: 'Portugal', population: 545923, landmarks: ['Belém Tower', 'Jerónimos Monastery', 'São Jorge Castle'], motto: null });
  const pieces = lisbon.match(/.{1,4}/gs) ?? [];
  server.enqueue(
    reply(JSON.stringify({ name: 'Paris', country: 'France', population: 2102650, landmarks: ['Eiffel Tower', 'Louvre', 'Notre-Dame'], motto: 'Fluctuat nec mergitur' })),
    {
      path: '/chat/completions',
      events: [
        { choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
        ...pieces.map((content) => ({ choices: [{ index: 0, delta: { content } }] })),
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        '[DONE]',
      ],
    },
    reply(JSON.stringify({ name: 'Atlantis', country: null, population: 'unknown', landmarks: [], motto: null })),
  );
  return { client: new Client({ apiKey: server.apiKey, baseURL: server.url }), model: 'mock/echo', done: () => server.close() };
}
