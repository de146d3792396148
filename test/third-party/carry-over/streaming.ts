// Streaming chat completions, written for the official `openai` client.
import OpenAI from 'openai';

const client = new OpenAI();

const stream = await client.chat.completions.create({
  model: 'mock/echo',
  messages: [{ role: 'user', content: 'Tell me a story' }],
  stream: true,
  stream_options: { include_usage: true },
});

let text = '';
let usage: OpenAI.CompletionUsage | null | undefined;
for await (const chunk of stream) {
  text += chunk.choices[0]?.delta?.content ?? '';
  if (chunk.usage) usage = chunk.usage;
}
console.log(text);
console.log('total tokens:', usage?.total_tokens);

// A chunk handler typed with openai's names.
function deltaText(chunk: OpenAI.ChatCompletionChunk): string {
  const delta: OpenAI.ChatCompletionChunk.Choice.Delta | undefined = chunk.choices[0]?.delta;
  return delta?.content ?? '';
}

// A body declared as the streaming form picks the overload that gives a stream.
const params: OpenAI.Chat.ChatCompletionCreateParamsStreaming = {
  model: 'mock/echo',
  messages: [{ role: 'user', content: 'Count to three' }],
  stream: true,
};
const parts: string[] = [];
for await (const chunk of await client.chat.completions.create(params)) parts.push(deltaText(chunk));
console.log(parts.join(''));

// One function for both forms, told apart by `params.stream`.
async function complete(body: OpenAI.Chat.Completions.ChatCompletionCreateParams): Promise<string> {
  if (body.stream) {
    let out = '';
    for await (const chunk of await client.chat.completions.create(body)) out += deltaText(chunk);
    return out;
  }
  const completion = await client.chat.completions.create(body);
  return completion.choices[0]?.message.content ?? '';
}
console.log(await complete({ model: 'mock/echo', messages: [{ role: 'user', content: 'streamed' }], stream: true }));
console.log(await complete({ model: 'mock/echo', messages: [{ role: 'user', content: 'not streamed' }] }));

// The stream helper, with its events.
const runner = client.chat.completions.stream({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hi there' }] });
let snapshot = '';
runner.on('content', (_delta, current) => {
  snapshot = current;
});
const final = await runner.finalChatCompletion();
console.log(snapshot === final.choices[0]?.message.content, final.choices[0]?.finish_reason);

// Stopping a stream early.
const long = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'one two three four' }], stream: true });
let chunks = 0;
for await (const _chunk of long) {
  if (++chunks === 2) break;
}
console.log('stopped after', chunks);
