/** The legacy text completion endpoint (kept by the service for compatibility). */
import { exampleClient } from './setup';

const { client, model, done } = await exampleClient();
try {
  const completion = await client.completions.create({ model, prompt: 'Once upon a time', max_tokens: 20 });
  console.log(completion.choices[0]?.text);
} finally {
  await done();
}
