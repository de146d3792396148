/**
 * `chat.completions.stream()` with events, as in the official client: text as it arrives, each
 * tool call when its arguments are complete, then the final text.
 */
import { exampleClient } from './setup';

const { client, model, done } = await exampleClient();
try {
  const stream = client.chat.completions.stream({
    model,
    messages: [{ role: 'user', content: 'Say hello in three languages.' }],
  });
  stream
    .on('content.delta', ({ delta }) => process.stdout.write(delta))
    .on('tool_calls.function.arguments.done', ({ name, arguments: args }) => console.log(`\ntool call ${name}(${args})`))
    .on('error', (error) => console.error('\nstream failed:', error));
  const text = await stream.finalContent();
  console.log(`\nfinal text: ${text === null ? '(none)' : `${text.length} characters`}`);
} finally {
  await done();
}
