/**
 * Shared by the test/mock-server-*.test.ts files, which drive the mock server with plain fetch (not
 * the SDK): a mock server started afresh for each test (`useWireServer()`), more servers that close
 * after each test (`start()`), and plain-fetch requests with the key.
 */
import { afterEach, expect } from 'vitest';
import { MOCK_API_KEY, startMockServer } from '../../src/testing';
import type { MockServer, MockServerOptions } from '../../src/testing';
import { useMockServer } from './mock-server';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export let server: MockServer;
export let extraServers: MockServer[] = [];

/** Starts `server` before each test of the file, and closes it and those of `start()` after. */
export function useWireServer(): void {
  ({ server } = useMockServer({}, { each: true }));
  afterEach(async () => {
    await Promise.all(extraServers.map((s) => s.close()));
    extraServers = [];
  });
}

export async function start(options: MockServerOptions): Promise<MockServer> {
  const s = await startMockServer(options);
  extraServers.push(s);
  return s;
}

export function auth(key = MOCK_API_KEY): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

export function get(path: string, key?: string, s: MockServer = server): Promise<Response> {
  return fetch(`${s.url}${path}`, { headers: auth(key) });
}

export function post(path: string, body: unknown, options: { key?: string; server?: MockServer; signal?: AbortSignal } = {}): Promise<Response> {
  const init: RequestInit = {
    method: 'POST',
    headers: { ...auth(options.key), 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
  if (options.signal !== undefined) init.signal = options.signal;
  return fetch(`${(options.server ?? server).url}${path}`, init);
}

/** Splits a raw SSE body into its `data:` payloads, checking the framing as it goes. */
export function sseData(text: string): string[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return block.slice('data: '.length);
    });
}

export const chatBody = { model: 'mock/echo', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello there,  world!' }] };
