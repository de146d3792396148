/**
 * A server's own parameters, which the request types do not name: `extraBody` for one call,
 * `defaultBody` for every call of a client. (vLLM, llama.cpp and SGLang take `top_k`; OpenRouter
 * takes `provider`. A server that does not know a parameter may ignore it or refuse the request.)
 */
import type { HookInfo } from 'model-inference-sdk';
import { exampleClient } from './setup';

const { client, model, done } = await exampleClient();
try {
  // See what goes out: hooks get the body as sent.
  const showBody = { beforeRequest: (_request: Request, info: HookInfo) => console.log('sent:', JSON.stringify(info.body)) };

  const completion = await client.chat.completions.create(
    { model, messages: [{ role: 'user', content: 'Say hi.' }], temperature: 0.7 },
    { extraBody: { top_k: 40 }, hooks: showBody },
  );
  console.log(completion.choices[0]!.message.content);

  // Every call of this client sends `top_k: 20`, unless the call sets it itself.
  const sampled = client.withOptions({ defaultBody: { top_k: 20 } });
  const stream = await sampled.chat.completions.create({ model, messages: [{ role: 'user', content: 'Say bye.' }], stream: true }, { hooks: showBody });
  for await (const text of stream.textStream()) process.stdout.write(text);
  process.stdout.write('\n');
} finally {
  await done();
}
