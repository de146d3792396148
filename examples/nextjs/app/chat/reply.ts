// app/chat/reply.ts: what the chat page runs in the browser (from a 'use client' component, see
// docs/route.md). No key, no dangerouslyAllowBrowser: the page's own route holds the key.
import { APIError, Client, type ChatCompletionMessageParam } from 'model-inference-sdk';

const client = new Client({ baseURL: '/api/inference/v1', maxRetries: 1 });

/** Streams the assistant's reply to `messages`, calling `onText` with each piece; gives the whole reply. */
export async function streamReply(
  messages: ChatCompletionMessageParam[],
  onText: (text: string) => void,
  signal?: AbortSignal,
): Promise<string> {
  try {
    const stream = await client.chat.completions.create(
      { model: 'acme/chat-1', messages, stream: true },
      { ...(signal ? { signal } : {}) },
    );
    for await (const text of stream.textStream()) onText(text);
    return await stream.finalContent() ?? '';
  } catch (error) {
    // The route's refusals are the service's errors: a status and a code to act on.
    if (error instanceof APIError && error.code === 'insufficient_quota') return 'You have used your budget for today.';
    if (error instanceof APIError && error.status === 401) return 'Please sign in.';
    throw error;
  }
}
