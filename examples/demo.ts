/**
 * `npm run demo`: stream a chat completion to the terminal.
 *
 * With INFERENCE_API_KEY and INFERENCE_BASE_URL set, it talks to the real service (model from
 * INFERENCE_MODEL, else the first ready model your key may use). Otherwise it starts the bundled
 * local server (model-inference-sdk/testing) on 127.0.0.1: no key, no network.
 */
import { Client } from 'model-inference-sdk';
import { startMockServer } from 'model-inference-sdk/testing';

const prompt = process.argv.slice(2).join(' ') || 'Tell me, in one sentence, what a streaming API is.';
const live = Boolean(process.env.INFERENCE_API_KEY && process.env.INFERENCE_BASE_URL);
const mock = live ? undefined : await startMockServer({ chunkDelayMs: 40 });

try {
  const client = mock ? new Client({ apiKey: mock.apiKey, baseURL: mock.url }) : new Client();
  const model =
    process.env.INFERENCE_MODEL || (await client.models.list()).data.find((m) => m.is_ready !== false)?.id;
  if (!model) throw new Error('No model is available to this API key.');

  console.log(`${mock ? 'local mock server' : client.baseURL} · ${model}\n> ${prompt}\n`);
  const stream = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: prompt }],
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const text of stream.textStream()) process.stdout.write(text);

  const { usage, choices } = await stream.finalChatCompletion();
  console.log(`\n\n[finish_reason: ${choices[0]?.finish_reason ?? 'none'}; tokens: ${usage?.prompt_tokens ?? '?'} in, ${usage?.completion_tokens ?? '?'} out]`);
} finally {
  await mock?.close();
}
