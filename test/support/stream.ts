/**
 * Shared by the test/stream-*.test.ts files: the mock server and `client(options)`, a client of it
 * with these options (`useStreamMock()`), a streamed request, chunk and SSE builders, the text of
 * a stream, and the error a call fails with.
 */
import type { ChatCompletionChunk } from '../../src/index';
import { useMockServer } from './mock-server';

type Mock = ReturnType<typeof useMockServer>;
export let server: Mock['server'];
export let client: Mock['client'];
/** Starts the mock server for the file; its recorded requests are cleared after each test. */
export function useStreamMock(): void {
  ({ server, client } = useMockServer({}, { reset: 'requests' }));
}

export const messages = [{ role: 'user' as const, content: 'hello brave new world' }];
export const stream = (c = client(), extra: Record<string, unknown> = {}) =>
  c.chat.completions.create({ model: 'mock/echo', messages, stream: true, ...extra });

export const chunk = (content: string | undefined, finish: string | null = null, extra: object = {}) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
  ...extra,
});

/** Reply to the next request with this exact SSE text. */
export const raw = (text: string, headers: Record<string, string> = {}) =>
  server.enqueue({ raw: text, headers: { 'content-type': 'text/event-stream', ...headers } });

export async function textOf(s: AsyncIterable<ChatCompletionChunk>): Promise<string> {
  let text = '';
  for await (const c of s) text += c.choices?.[0]?.delta.content ?? '';
  return text;
}

export async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}
