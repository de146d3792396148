/** Shared by the test/faults-*.test.ts files: the key, the request, chunk and body builders, and servers that stall. */
import type { ServerResponse } from 'node:http';
import {
  Client,
  type ClientOptions,
} from '../../src/index';
import { pause } from './fault-server';

export const KEY = 'sk-live-SECRET-KEY-0123456789abcdef';
export const messages = [{ role: 'user' as const, content: 'hi' }];
export const chunk = (content: string | undefined, finish: string | null = null) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
});
export const sse = (...events: unknown[]) => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
export const completionBody = (content: string) => ({
  id: 'x',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

export const client = (baseURL: string, options: ClientOptions = {}) => new Client({ apiKey: KEY, baseURL, logLevel: 'off', ...options });

/** Writes SSE headers and `first`, then keeps the response open and silent until the client leaves. */
export function openStream(res: ServerResponse, first = ''): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(first);
}

/** Sends `: ping` every `every` ms until the client leaves. */
export async function ping(res: ServerResponse, every: number): Promise<void> {
  while (!res.destroyed) {
    res.write(': ping\n\n');
    if (!(await pause(res, every))) return;
  }
}
