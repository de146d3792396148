// A conversation of two turns, written for the official `openai` client.
import OpenAI from 'openai';

const client = new OpenAI();

const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: 'Say this is a test' },
];

const completion = await client.chat.completions.create({
  model: 'mock/echo',
  messages,
  temperature: 0,
  max_tokens: 64,
  user: 'user-1234',
});

const choice: OpenAI.ChatCompletion.Choice | undefined = completion.choices[0];
if (!choice) throw new Error('no choice');
console.log(choice.message.role, choice.message.content);
console.log('finish:', choice.finish_reason);
console.log('usage:', completion.usage?.prompt_tokens, completion.usage?.completion_tokens, completion.usage?.total_tokens);
console.log('request id:', typeof completion._request_id);

// The reply goes back into the conversation as it is.
messages.push(choice.message, { role: 'user', content: 'Again' });
const second = await client.chat.completions.create({ model: 'mock/echo', messages });
const message: OpenAI.ChatCompletionMessage | undefined = second.choices[0]?.message;
console.log(message?.content ?? '(no content)');

// The call's promise, held before it is awaited.
const pending: Promise<OpenAI.ChatCompletion> = client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Later' }] });
const [later] = await Promise.all([pending]);
console.log(later.choices[0]?.message.content);

// The raw response next to the data.
const { data, response, request_id } = await client.chat.completions.create({ model: 'mock/echo', messages }).withResponse();
console.log(data.object, response.status, typeof request_id);
