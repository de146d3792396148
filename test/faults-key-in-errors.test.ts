/**
 * Faults (first filed as issue 13), against a real loopback server and through the public API:
 * the key never leaves through the server's words, and every failure is an InferenceError, before
 * anything is sent. docs/reliability.md lists these cases with their outcomes.
 */
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  Client,
  InferenceError,
  ResponseValidationError,
} from '../src/index';
import { useMockServer } from './support/mock-server';
import { useFaultServers } from './support/fault-server';
import { outcome } from './support/settle';
import { expectNoSecret, spyLogger } from './support/secrets';
import { KEY, messages, chunk, sse, client } from './support/faults';

const { server: mock } = useMockServer({ apiKeys: { [KEY]: 'all' } });

useFaultServers(() => {
  mock.clear();
});

describe('3. the key never leaves through the server’s words', () => {
  const echo = `Incorrect API key provided: ${KEY}. You can find your API key at https://example.test.`;

  it('a 401 that echoes the key: masked in message, stack, body, headers, inspect and JSON', async () => {
    mock.enqueue({ status: 401, headers: { 'x-echo': `Bearer ${KEY}` }, body: { error: { message: echo, type: 'invalid_request_error', code: 'invalid_api_key' } } });
    const error = await outcome(() => client(mock.url).models.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    const e = error as AuthenticationError;
    expect(e.message).toMatch(/Incorrect API key provided: \*\*\*/);
    expect(e.code).toBe('invalid_api_key');
    expect(e.status).toBe(401);
    expect(e.headers?.get('x-echo')).toBe('Bearer ***');
    expectNoSecret(KEY, error);
  });

  it('a 200 error body, an in-band stream error and a validation error that echo it', async () => {
    mock.enqueue({ status: 200, body: { error: { message: echo, code: 401 } } });
    const inBody = await outcome(() => client(mock.url).models.list());
    expect(inBody).toBeInstanceOf(AuthenticationError);
    mock.enqueue({ raw: sse({ error: { message: echo } }), headers: { 'content-type': 'text/event-stream' } });
    const inStream = await outcome(() => client(mock.url, { maxRetries: 0 }).chat.completions.create({ model: 'mock/echo', messages, stream: true }));
    expect(inStream).toBeInstanceOf(APIError);
    mock.enqueue({ status: 200, body: { object: 'list', data: [{ id: 42, note: echo }] } });
    const invalid = await outcome(() => client(mock.url).models.list());
    expect(invalid).toBeInstanceOf(ResponseValidationError);
    mock.enqueue({ status: 200, body: `not json ${KEY}` });
    const notJSON = await outcome(() => client(mock.url).models.list());
    expect(notJSON).toBeInstanceOf(ResponseValidationError);
    expectNoSecret(KEY, inBody, inStream, invalid, notJSON);
    expect(JSON.stringify((invalid as ResponseValidationError).raw)).toContain('***');
  });

  it('an in-band error after the first chunk', async () => {
    mock.enqueue({ raw: sse(chunk('a'), { error: { message: echo } }), headers: { 'content-type': 'text/event-stream' } });
    const stream = await client(mock.url).chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const error = await outcome(async () => {
      for await (const _ of stream);
    });
    expect(error).toBeInstanceOf(APIError);
    expectNoSecret(KEY, error);
  });

  it('a fetch error that quotes it deep in its cause chain, with a Request attached, keeps its code and causes', async () => {
    const leaky: typeof fetch = async (url, init) => {
      const request = new Request(String(url), { method: 'GET', headers: init?.headers ?? {} });
      const root = Object.assign(new Error(`socket said ${KEY}`), { code: 'ECONNRESET', request, detail: { deeper: [{ header: `Bearer ${KEY}` }] } });
      const middle = new Error('middle', { cause: root });
      throw Object.assign(new TypeError('fetch failed', { cause: middle }), { request });
    };
    const error = await outcome(() => client('http://api.test/v1', { fetch: leaky, maxRetries: 0 }).models.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    const cause = (error as Error).cause as Error & { request: Request };
    expect(cause).toBeInstanceOf(TypeError);
    expect(cause.request).toBeInstanceOf(Request);
    expect(cause.request.headers.get('authorization')).toBe('Bearer ***');
    const root = (cause.cause as Error).cause as Error & { code: string };
    expect(root.code).toBe('ECONNRESET');
    expect(root.message).toBe('socket said ***');
    expectNoSecret(KEY, error);
  });

  it('a short test key masks only its occurrences: codes and causes stay', async () => {
    const short = 'ECON'; // occurs in the code too
    const leaky: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error(`connect refused, key ECON`), { code: 'ECONNREFUSED' }) });
    };
    const error = await outcome(() => new Client({ apiKey: short, baseURL: 'http://api.test/v1', fetch: leaky, maxRetries: 0, logLevel: 'off' }).models.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    const inner = ((error as Error).cause as Error).cause as Error & { code: string };
    expect(inner.code).toBe('ECONNREFUSED');
    expect(inner.message).toBe('connect refused, key ***');
    // A one-letter "key" is masked nowhere: it would garble every word.
    const tiny = await outcome(() => new Client({ apiKey: 'e', baseURL: 'http://api.test/v1', fetch: leaky, maxRetries: 0, logLevel: 'off' }).models.list());
    expect(((tiny as Error).cause as Error).cause).toMatchObject({ message: 'connect refused, key ECON', code: 'ECONNREFUSED' });
  });

  it('is masked in logs at every level, including bodies echoed back in warnings', async () => {
    const logger = spyLogger();
    const c = client(mock.url, { logger, logLevel: 'debug', validation: 'warn', maxRetries: 1 });
    mock.enqueue({ status: 200, body: { object: 'list', data: [{ id: 42, note: echo }] } });
    await c.models.list();
    mock.enqueue({ status: 503, headers: { 'retry-after-ms': '0' }, body: { error: { message: echo } } });
    await c.models.list();
    mock.enqueue({ status: 401, body: { error: { message: echo } } });
    await outcome(() => c.models.list());
    expect(logger.lines.some((l) => l.level === 'warn')).toBe(true);
    expect(logger.lines.some((l) => l.level === 'info')).toBe(true);
    expect(logger.text()).toContain('***');
    expect(logger.text()).not.toContain(KEY);
  });

  it('a key from an apiKey function is masked too', async () => {
    mock.enqueue({ status: 401, body: { error: { message: echo } } });
    const error = await outcome(() => client(mock.url, { apiKey: async () => KEY }).models.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expectNoSecret(KEY, error);
  });

  it('debug logs mask every header that looks like a credential, by rule', async () => {
    const logger = spyLogger();
    const headers = {
      'x-api-key': 'v-api-key',
      'api-key': 'v-azure',
      'x-goog-api-key': 'v-goog',
      'x-auth-token': 'v-token',
      'x-amz-security-token': 'v-amz',
      'x-client-secret': 'v-secret',
      'proxy-authorization': 'v-proxy',
      cookie: 'v-cookie',
      'x-session-id': 'v-session',
      'x-team': 'visible',
    };
    await client(mock.url, { logger, logLevel: 'debug', defaultHeaders: headers }).models.list({ query: { token: 'v-query' } });
    const text = logger.text();
    for (const value of Object.values(headers)) if (value !== 'visible') expect(text).not.toContain(value);
    expect(text).not.toContain('v-query');
    expect(text).toContain('visible');
  });
});


describe('6. every failure is an InferenceError, before anything is sent', () => {
  it('a key with a character outside Latin-1 names the option, never the key', async () => {
    const key = 'sk-€uro-secret';
    const thrown = await outcome(() => new Client({ apiKey: key, baseURL: mock.url }));
    expect(thrown).toBeInstanceOf(InferenceError);
    expect((thrown as Error).message).toMatch(/apiKey/);
    expectNoSecret(key, thrown);

    const fromFunction = await outcome(() => new Client({ apiKey: async () => key, baseURL: mock.url, logLevel: 'off' }).models.list());
    expect(fromFunction).toBeInstanceOf(InferenceError);
    expect((fromFunction as Error).message).toMatch(/apiKey/);
    expectNoSecret(key, fromFunction);

    const saved = process.env.INFERENCE_API_KEY;
    process.env.INFERENCE_API_KEY = key;
    try {
      const fromEnv = await outcome(() => new Client({ baseURL: mock.url }));
      expect(fromEnv).toBeInstanceOf(InferenceError);
      expect((fromEnv as Error).message).toMatch(/INFERENCE_API_KEY/);
      expectNoSecret(key, fromEnv);
    } finally {
      if (saved === undefined) delete process.env.INFERENCE_API_KEY;
      else process.env.INFERENCE_API_KEY = saved;
    }
    expect(mock.requests).toHaveLength(0);
  });

  it('an invalid header name, or a header value outside Latin-1', async () => {
    expect(() => client(mock.url, { defaultHeaders: { 'bad header': 'x' } })).toThrow(InferenceError);
    await expect(client(mock.url).models.list({ headers: { 'x(y)': 'x' } })).rejects.toThrow(/header name/);
    await expect(client(mock.url).models.list({ headers: { 'x-title': 'café ☕' } })).rejects.toThrow(InferenceError);
    expect(mock.requests).toHaveLength(0);
  });

  it('a slug with a lone surrogate', async () => {
    await expect(client(mock.url).models.retrieve('acme/\uD800x')).rejects.toThrow(InferenceError);
  });

  it('an unserializable body: a BigInt, a cycle', async () => {
    const cyclic: Record<string, unknown> = { role: 'user', content: 'hi' };
    cyclic.self = cyclic;
    await expect(client(mock.url).chat.completions.create({ model: 'm', messages, seed: 10n as unknown as number })).rejects.toThrow(InferenceError);
    await expect(client(mock.url).chat.completions.create({ model: 'm', messages: [cyclic as never] })).rejects.toThrow(/JSON/);
    await expect(client(mock.url).completions.create({ model: 'm', prompt: 'x', ...({ logit_bias: { a: 1n } } as object) })).rejects.toThrow(InferenceError);
    expect(mock.requests).toHaveLength(0);
  });
});
