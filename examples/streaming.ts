/** Stream a chat completion: print text as it arrives, then the final completion's usage. */
import { exampleClient } from './setup';

const { client, model, done } = await exampleClient();
try {
  const stream = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'Count from one to five.' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const chunk of stream) {
    process.stdout.write(chunk.choices[0]?.delta.content ?? '');
  }
  const final = await stream.finalChatCompletion();
  console.log(`\nfinish_reason=${final.choices[0]?.finish_reason} usage=${JSON.stringify(final.usage)}`);
} finally {
  await done();
}
