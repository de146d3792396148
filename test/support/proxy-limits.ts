/**
 * Shared by the test/proxy-limits-*.test.ts files: the mock server upstream for the file
 * (`useUpstreamMock()`, which also puts the real timers back after each test), a route to it,
 * a priced model, and an upstream that uses every token it is allowed.
 */
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { estimatePromptTokens } from '../../src/index';
import { createProxy, type ProxyOptions } from '../../src/proxy/index';
import { startMockServer, type MockServer } from '../../src/testing';
import { startUpstream } from './proxy';

export let mock: MockServer;
/** Starts `mock` before the file's tests and closes it after them. */
export function useUpstreamMock(): void {
  beforeAll(async () => {
    mock = await startMockServer();
  });
  afterAll(async () => {
    await mock.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

export const upstreamOf = (url: string, apiKey = mock.apiKey) => ({ apiKey, baseURL: url, maxRetries: 0, logLevel: 'off' as const });
export const route = (options: Partial<ProxyOptions> = {}) =>
  createProxy({ models: ['mock/echo'], upstream: upstreamOf(mock.url), ...options });

export const PRICED = { id: 'acme/chat', pricing: [{ prompt: '0.000001', completion: '0.000002', input_cache_read: '0' }] };

/** An upstream that always uses every token it is allowed (`max_tokens`), after `delayMs`. */
export async function greedyUpstream(delayMs: number) {
  return startUpstream((_req, res, raw) => {
    const body = JSON.parse(raw) as { max_tokens: number; messages: unknown[] };
    const usage = { prompt_tokens: estimatePromptTokens(body), completion_tokens: body.max_tokens, total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_greedy' });
      res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'acme/chat', choices: [{ index: 0, message: { role: 'assistant', content: 'word '.repeat(10) }, finish_reason: 'length' }], usage }));
    }, delayMs);
  });
}
