/**
 * Shared by the test/limits-*.test.ts files: the model and a request, a completion body, token
 * buckets that close after each test (`useBuckets()`, `bucket()`), and a client of a URL.
 */
import { afterEach } from 'vitest';
import { Client, type ClientOptions } from '../../src/index';
import { startRateLimitedServer, type BucketOptions, type RateLimitedServer } from './rate-limited-server';

export const model = 'acme/chat-1';
export const ask = (content: string) => ({ model, messages: [{ role: 'user' as const, content }] });
export const completion = JSON.stringify({
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
});

const started: RateLimitedServer[] = [];
/** Closes the file's buckets after each test. */
export function useBuckets(): void {
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
}
export async function bucket(options: BucketOptions): Promise<RateLimitedServer> {
  const server = await startRateLimitedServer(options);
  started.push(server);
  return server;
}
export const clientOf = (url: string, options: ClientOptions = {}) =>
  new Client({ apiKey: 'sk-test', baseURL: url, logLevel: 'off', ...options });
