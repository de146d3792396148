// The stream helper's other events, written for the official `openai` client: logprobs, the
// completion and its message, each chunk with the completion so far (the server is scripted: see
// carry-over.test.ts).
import OpenAI from 'openai';

const client = new OpenAI();

const stream = client.chat.completions.stream({
  model: 'mock/echo',
  messages: [{ role: 'user', content: 'Say hi' }],
  logprobs: true,
  stream_options: { include_usage: true },
});
const tokens: string[] = [];
stream.on('logprobs.content.delta', ({ content }) => {
  for (const token of content) tokens.push(token.token);
});
stream.on('logprobs.content.done', ({ content }) => {
  console.log('logprobs done:', content.length, content.map((t) => t.logprob).join(' '));
});
stream.on('logprobs.refusal.delta', ({ refusal }) => {
  console.log('refusal logprob:', refusal[0]?.token);
});
stream.on('logprobs.refusal.done', ({ refusal }) => {
  console.log('refusal logprobs done:', refusal.length);
});
stream.on('chunk', (chunk, snapshot) => {
  console.log('chunk:', chunk.choices[0]?.delta.content ?? '-', 'so far:', snapshot.choices[0]?.message.content ?? '-');
});
stream.on('chatCompletion', (completion) => {
  console.log('chatCompletion:', completion.choices[0]?.finish_reason);
});
stream.on('message', (message) => {
  console.log('message:', message.role, message.content);
});
stream.on('finalContent', (content) => {
  console.log('finalContent:', content);
});
stream.on('totalUsage', (usage) => {
  console.log('totalUsage:', usage.total_tokens);
});
await stream.done();
console.log('tokens:', tokens.join('|'));
