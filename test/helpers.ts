/**
 * Test helpers: an msw server that fails on any request no handler expects, and a client
 * factory pointed at it. Its loopback counterpart, `useMockServer()` (a real mock server on
 * 127.0.0.1 and a client for it), is in test/support/mock-server.ts, so that files using it do
 * not load msw.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { Client, type ClientOptions } from '../src/index';

export const BASE_URL = 'http://api.test/v1';
export const API_KEY = 'sk-test-SECRET-1234567890';

/** Start msw for this test file; unhandled requests are errors. */
export function useMsw() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** A client for msw tests: no retry delay worth waiting for unless a test asks. */
export function testClient(options: ClientOptions = {}): Client {
  return new Client({ apiKey: API_KEY, baseURL: BASE_URL, logLevel: 'off', ...options });
}
