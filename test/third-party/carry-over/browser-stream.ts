// Streaming to the browser, written for the official `openai` client: a route handler returns the
// stream's `toReadableStream()`, and the browser reads the body back with
// `ChatCompletionStream.fromReadableStream()`, with its events and final completion.
import OpenAI from 'openai';
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream';

const client = new OpenAI();

// app/api/chat/route.ts
async function POST(request: Request): Promise<Response> {
  const { question } = (await request.json()) as { question: string };
  const stream = client.chat.completions.stream({ model: 'mock/echo', messages: [{ role: 'user', content: question }] });
  return new Response(stream.toReadableStream());
}

// In the browser.
const response = await POST(new Request('http://localhost/api/chat', { method: 'POST', body: JSON.stringify({ question: 'Hello browser' }) }));
if (!response.body) throw new Error('no body');
const runner = ChatCompletionStream.fromReadableStream(response.body);
let text = '';
runner.on('content.delta', ({ delta }) => {
  text += delta;
});
runner.on('content.done', ({ content }) => {
  console.log('content done:', content);
});
const completion = await runner.finalChatCompletion();
console.log('streamed:', text);
console.log('final:', completion.choices[0]?.message.content, completion.choices[0]?.finish_reason);
