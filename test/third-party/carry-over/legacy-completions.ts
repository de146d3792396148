// Legacy text completions, written for the official `openai` client.
import OpenAI from 'openai';

const client = new OpenAI();

const completion: OpenAI.Completion = await client.completions.create({
  model: 'mock/echo',
  prompt: 'Once upon a time',
  max_tokens: 16,
  temperature: 0.7,
  stop: ['\n'],
});
const choice: OpenAI.CompletionChoice | undefined = completion.choices[0];
console.log(choice?.text, choice?.finish_reason);
console.log('usage:', completion.usage?.total_tokens);

const stream = await client.completions.create({ model: 'mock/echo', prompt: 'Tell me a story', stream: true });
let text = '';
for await (const part of stream) text += part.choices[0]?.text ?? '';
console.log(text);

const params: OpenAI.CompletionCreateParamsNonStreaming = { model: 'mock/echo', prompt: ['first', 'second'] };
const batch = await client.completions.create(params);
console.log(batch.choices.map((c) => `${c.index}: ${c.text}`).join(' | '));
