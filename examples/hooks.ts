/** Hooks: a header on every request, a line per retry, a summary per call (docs/hooks.md). */
import type { HookInfo, Hooks } from 'model-inference-sdk';
import { exampleClient } from './setup';

const started = new WeakMap<HookInfo, number>();
const hooks: Hooks = {
  name: 'example',
  beforeRequest(request, info) {
    request.headers.set('x-tenant-id', 'acme'); // the Authorization header is not here: hooks never see the key
    if (info.attempt === 1) started.set(info, Date.now());
  },
  beforeRetry({ attempt, delay, error }) {
    console.log(`  retry: attempt ${attempt} in ${Math.round(delay)} ms after ${error.message}`);
  },
  onEnd(summary, info) {
    const stream = summary.chunks === undefined ? '' : `, ${summary.chunks} chunks, first after ${Math.round(summary.timeToFirstChunk!)} ms`;
    console.log(`  ${info.operation} ${info.model ?? ''}: ${summary.outcome} in ${Date.now() - started.get(info)!} ms, ${summary.usage?.total_tokens ?? '?'} tokens${stream}`);
  },
};

const { client: plain, model, done } = await exampleClient();
const client = plain.withOptions({ hooks });
try {
  const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello.' }] });
  console.log(completion.choices[0]!.message.content);

  const stream = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'Count to five.' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  for await (const part of stream.textStream()) text += part;
  console.log(text); // after the summary: onEnd ran when the stream ended
} finally {
  await done();
}
