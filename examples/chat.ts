/** One chat completion, without streaming. */
import { exampleClient } from './setup';

const { client, model, done } = await exampleClient();
try {
  const completion = await client.chat.completions.create({
    model,
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Name three primary colours.' },
    ],
    temperature: 0,
    max_tokens: 50,
  });
  console.log(completion.choices[0]!.message.content);
  console.log('usage:', completion.usage);
} finally {
  await done();
}
