// The stream helper with listeners only, written for the official `openai` client: the request
// starts at once, and the events come without anything reading the stream.
import OpenAI from 'openai';

const client = new OpenAI();

const stream = client.chat.completions.stream({ model: 'mock/echo', messages: [{ role: 'user', content: 'listened to' }] });
let text = '';
stream.on('content', (delta) => {
  text += delta;
});
await new Promise<void>((resolve) => stream.on('end', () => resolve()));
console.log('heard:', text);
console.log('final:', (await stream.finalChatCompletion()).choices[0]?.message.content);
