/**
 * A small piece of "your app" for the testing examples: two functions that call the service
 * through the SDK. The tests next to it (vitest/, jest/) check them against the mock service.
 */
import type { Client } from 'model-inference-sdk';

/** Summarizes a text in one sentence. Retries and timeouts are the client's. */
export async function summarize(client: Client, text: string, model = 'mock/echo'): Promise<string> {
  const completion = await client.chat.completions.create({
    model,
    messages: [
      { role: 'system', content: 'Summarize the user text in one sentence.' },
      { role: 'user', content: text },
    ],
    temperature: 0,
  });
  const content = completion.choices[0]?.message.content;
  if (!content) throw new Error('The model returned no summary.');
  return content.trim();
}

/** Streams an answer, calling `onText` with each fragment; resolves to the whole text. */
export async function streamAnswer(
  client: Client,
  question: string,
  onText: (fragment: string) => void,
  model = 'mock/echo',
): Promise<string> {
  const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: question }], stream: true });
  let text = '';
  for await (const fragment of stream.textStream()) {
    text += fragment;
    onText(fragment);
  }
  return text;
}

export interface Forecast {
  city: string;
  celsius: number;
}

/** Asks for a forecast as JSON (response_format json_schema) and checks its shape. */
export async function forecast(client: Client, question: string, model = 'mock/echo'): Promise<Forecast> {
  const completion = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: question }],
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'forecast',
        strict: true,
        schema: {
          type: 'object',
          properties: { city: { type: 'string' }, celsius: { type: 'number' } },
          required: ['city', 'celsius'],
          additionalProperties: false,
        },
      },
    },
  });
  const value = JSON.parse(completion.choices[0]?.message.content ?? '{}') as Partial<Forecast>;
  if (typeof value.city !== 'string' || typeof value.celsius !== 'number') throw new Error('The forecast has the wrong shape.');
  return { city: value.city, celsius: value.celsius };
}
