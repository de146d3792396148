/**
 * Shared by the test/hooks-*.test.ts files: the key, a mock server started afresh for each test
 * (`useHooksServer()`), a client of it, a chat request, and a hooks object that records every call.
 */
import { afterEach, beforeEach } from 'vitest';
import { Client, type ClientOptions, type Hooks } from '../../src/index';
import { startMockServer, type MockServer } from '../../src/testing';

export const KEY = 'sk-hooks-SECRET-0123456789';

export let server: MockServer;
/** Starts `server` before each test of the file and closes it after. */
export function useHooksServer(): void {
  beforeEach(async () => {
    server = await startMockServer({ apiKeys: { [KEY]: 'all' } });
  });
  afterEach(async () => {
    await server.close();
  });
}

export const client = (options: ClientOptions = {}) => new Client({ apiKey: KEY, baseURL: server.url, logLevel: 'off', maxRetries: 0, ...options });
export const chat = (content: string) => ({ model: 'mock/echo', messages: [{ role: 'user' as const, content }] });

/** A hooks object that records every call: `[hook, ...arguments]`, the Request as a plain object. */
export function recorder(name?: string) {
  const calls: { hook: string; args: unknown[] }[] = [];
  const push = (hook: string, ...args: unknown[]) => void calls.push({ hook, args });
  const hooks: Hooks = {
    ...(name === undefined ? {} : { name }),
    beforeRequest: (request, info) => push('beforeRequest', request, { ...info }, info),
    afterResponse: (response, info) => push('afterResponse', response, { ...info }, info),
    beforeRetry: (info) => push('beforeRetry', { ...info }, info),
    onChunk: (chunk, info) => push('onChunk', chunk, info),
    onError: (error, info) => push('onError', error, info),
    onEnd: (summary, info) => push('onEnd', summary, info),
  };
  const of = (hook: string) => calls.filter((c) => c.hook === hook);
  return { hooks, calls, of, names: () => calls.map((c) => c.hook) };
}

