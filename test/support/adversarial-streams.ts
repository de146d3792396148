/**
 * Shared by the test/adversarial/streams-*.test.ts files: a server that streams "Hello world"
 * unless a test says otherwise (`useStreamServer()` starts it for the file), and what those files
 * ask of it.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { clientOf, event, serve, sse, sseHead, textChunks, USER, within, type SeenRequest, type TestServer } from '../adversarial/support';

export let server: TestServer;
/** Starts `server` before the file's tests and closes it after them. */
export function useStreamServer(): void {
  beforeAll(async () => {
    server = await serve((_req, res) => sse(res, textChunks(['Hello', ' world'])));
  });
  afterAll(() => server.close());
}

export const body = { model: 'acme/chat-1', messages: USER, stream: true as const };
export const client = () => clientOf(server.baseURL);

/** Answers with `chunks`, then keeps the connection open and silent. */
export const openAfter = (chunks: unknown[]) => server.handle((_req, res) => {
  sseHead(res);
  for (const c of chunks) event(res, c);
});

export const lastRequest = (): SeenRequest => server.requests.at(-1)!;
export const closes = async (seen: SeenRequest) => expect(await within(seen.closed, 15_000)).not.toBe('pending');
