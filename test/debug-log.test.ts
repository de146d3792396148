/**
 * Debug logging a person can use (`INFERENCE_LOG=debug` or `logLevel: 'debug'`): method, URL with
 * query values masked, status, duration, request id, each retry and why, bodies masked and cut.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, type ClientOptions } from '../src/index';
import { useMockServer } from './support/mock-server';
import { spyLogger } from './support/secrets';

const KEY = 'sk-debug-SECRET-0123456789';
const messages = [{ role: 'user' as const, content: 'hello there' }];

const { server: mock } = useMockServer({ apiKeys: { [KEY]: 'all' } }, { reset: 'all' });
afterEach(() => {
  vi.unstubAllEnvs();
});

function debugClient(options: ClientOptions = {}) {
  const logger = spyLogger();
  const client = new Client({ apiKey: KEY, baseURL: mock.url, logLevel: 'debug', logger, ...options });
  return { client, logger };
}

describe('logLevel: debug', () => {
  it('logs the request (method, URL, masked headers and body) and the response (status, duration, request id, body)', async () => {
    const { client, logger } = debugClient({ defaultQuery: { 'api-version': '2024-10-21' } });
    await client.chat.completions.create({ model: 'mock/echo', messages }, { query: { sig: 'abc123' } });
    const text = logger.text();
    expect(text).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions\?api-version=\*\*\*&sig=\*\*\*/);
    expect(text).not.toContain('abc123');
    expect(text).not.toContain('2024-10-21');
    expect(text).toMatch(/authorization: '\*\*\*'/);
    expect(text).toContain('"content":"hello there"'); // the request body
    expect(text).toMatch(/200 POST .* in \d+ ms/);
    expect(text).toMatch(/request id req_\d+/);
    expect(text).toContain('You said: hello there'); // the response body
    expect(text).not.toContain(KEY);
    expect(logger.lines.every((l) => l.level === 'debug')).toBe(true);
  });

  it('cuts long bodies and masks credential-like fields in them', async () => {
    const { client, logger } = debugClient();
    const long = 'x'.repeat(50_000);
    await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: long }], user: 'u', api_key: 'body-secret' } as never);
    const text = logger.text();
    expect(text).not.toContain(long);
    expect(text).toMatch(/more characters|…/);
    expect(text).not.toContain('body-secret');
    expect(text.length).toBeLessThan(20_000);
  });

  it('logs each retry and why', async () => {
    const { client, logger } = debugClient({ maxRetries: 2 });
    mock.enqueue({ status: 503, headers: { 'retry-after-ms': '0' }, body: { error: { message: 'overloaded' } } });
    await client.models.list();
    const text = logger.text();
    expect(text).toMatch(/503 GET .*\/v1\/models/);
    expect(text).toMatch(/overloaded.*retrying in \d+ ms \(attempt 2 of 3\)/);
    expect(logger.lines.filter((l) => /→|GET http/.test(l.text)).length).toBeGreaterThanOrEqual(2);
  });

  it('logs the end of a stream', async () => {
    const { client, logger } = debugClient();
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    for await (const _ of stream);
    expect(logger.text()).toMatch(/stream ended: \d+ events? in \d+ ms/);
  });

  it('logs nothing when the level is warn', async () => {
    const { client, logger } = debugClient({ logLevel: 'warn' });
    await client.models.list();
    expect(logger.lines).toHaveLength(0);
  });
});

describe('INFERENCE_LOG', () => {
  it('=debug turns debug logging on', async () => {
    vi.stubEnv('INFERENCE_LOG', 'debug');
    const logger = spyLogger();
    await new Client({ apiKey: KEY, baseURL: mock.url, logger }).models.list();
    expect(logger.text()).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/models/);
  });

  it('an unknown level warns once, naming the levels, and the default applies', async () => {
    vi.stubEnv('INFERENCE_LOG', 'verbose');
    const logger = spyLogger();
    const a = new Client({ apiKey: KEY, baseURL: mock.url, logger });
    new Client({ apiKey: KEY, baseURL: mock.url, logger });
    await a.models.list();
    const warnings = logger.lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.text).toMatch(/INFERENCE_LOG.*verbose.*off, error, warn, info, debug/);
    expect(logger.lines.filter((l) => l.level === 'debug')).toHaveLength(0);
  });
});
