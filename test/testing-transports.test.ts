// One behaviour, three transports: the same scenarios run against the socket server
// (startMockServer), the in-process fetch (createMockService) and the msw handlers
// (model-inference-sdk/testing/msw), each driven by the SDK the way a user's code would.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  Client,
  NotFoundError,
  RateLimitError,
} from '../src/index';
import type { ChatCompletionChunk, ClientOptions } from '../src/index';
import { createMockService, startMockServer } from '../src/testing';
import type { MockControls, MockServiceOptions } from '../src/testing';
import { createMockHandlers } from '../src/testing/msw';

interface Running {
  mock: MockControls;
  client(options?: Partial<ClientOptions>): Client;
  stop(): Promise<void>;
}

const defaults: Partial<ClientOptions> = { maxRetries: 0, logLevel: 'off' };

const transports: { name: string; start(options?: MockServiceOptions): Promise<Running> }[] = [
  {
    name: 'socket server',
    async start(options) {
      const mock = await startMockServer(options);
      return {
        mock,
        client: (o) => new Client({ apiKey: mock.apiKey, baseURL: mock.url, ...defaults, ...o }),
        stop: () => mock.close(),
      };
    },
  },
  {
    name: 'in-process fetch',
    async start(options) {
      const mock = createMockService(options);
      return {
        mock,
        client: (o) => new Client({ apiKey: mock.apiKey, baseURL: mock.url, fetch: mock.fetch, ...defaults, ...o }),
        stop: async () => {},
      };
    },
  },
  {
    name: 'msw',
    async start(options) {
      const mock = createMockHandlers(options);
      const server = setupServer(...mock.handlers);
      server.listen({ onUnhandledRequest: 'error' });
      return {
        mock,
        client: (o) => new Client({ apiKey: mock.apiKey, baseURL: mock.url, ...defaults, ...o }),
        stop: async () => server.close(),
      };
    },
  },
];

/** Runs a test body with a fresh mock on the given transport, and always stops it. */
async function withMock(
  transport: (typeof transports)[number],
  body: (running: Running) => Promise<void>,
  options?: MockServiceOptions,
): Promise<void> {
  const running = await transport.start(options);
  try {
    await body(running);
  } finally {
    await running.stop();
  }
}

/** Reads a stream to the end; returns the content deltas seen and the error that ended it, if any. */
async function drain(stream: AsyncIterable<ChatCompletionChunk>) {
  const seen: unknown[] = [];
  try {
    for await (const chunk of stream) seen.push(chunk.choices?.[0]?.delta.content ?? '');
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error };
  }
}

const ask = (content: string) => ({ model: 'mock/echo', messages: [{ role: 'user' as const, content }] });

describe.each(transports)('$name', (transport) => {
  it('lists, retrieves and refuses per key', () =>
    withMock(
      transport,
      async ({ mock, client }) => {
        const all = client();
        expect((await all.models.list()).data.map((m) => m.id)).toEqual(['mock/echo', 'mock/reasoner', 'mock/sleeping']);
        const echoOnly = client({ apiKey: 'key-echo' });
        expect((await echoOnly.models.list()).data.map((m) => m.id)).toEqual(['mock/echo']);
        const missing = await echoOnly.models.retrieve('mock/reasoner').catch((e: unknown) => e);
        expect(missing).toBeInstanceOf(NotFoundError);
        expect((missing as NotFoundError).type).toBe('invalid_request_error');
        expect((missing as NotFoundError).message).toContain('is not available on this API');
        await expect(client({ apiKey: 'wrong' }).models.list()).rejects.toBeInstanceOf(AuthenticationError);
        expect(mock.requests.map((r) => r.path)).toEqual(['/models', '/models', '/models/mock/reasoner', '/models']);
      },
      { apiKeys: { 'key-all': 'all', 'key-echo': ['mock/echo'] } },
    ));

  it('chats as JSON and as a stream with the same text, and completes legacy prompts', () =>
    withMock(transport, async ({ client }) => {
      const c = client();
      const json = await c.chat.completions.create(ask('Hello there'));
      expect(json.choices[0]?.message?.content).toBe('You said: Hello there');
      const stream = await c.chat.completions.create({ ...ask('Hello there'), stream: true, stream_options: { include_usage: true } });
      const final = await stream.finalChatCompletion();
      expect(final.choices[0]?.message?.content).toBe('You said: Hello there');
      expect(final.usage).toEqual(json.usage);
      const legacy = await c.completions.create({ model: 'mock/echo', prompt: 'Once upon' });
      expect(legacy.choices[0]?.text).toBe('You said: Once upon');
      const missing = await c.completions.create({ model: 'nope/x', prompt: 'x' }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(NotFoundError);
      expect([(missing as APIError).param, (missing as APIError).code]).toEqual(['model', 'model_not_found']);
    }));

  it('scripts replies and errors identically', () =>
    withMock(transport, async ({ mock, client }) => {
      mock.enqueue({ error: { status: 429, retryAfter: 0 } }, { reply: { content: 'scripted' } });
      const c = client();
      await expect(c.chat.completions.create(ask('x'))).rejects.toBeInstanceOf(RateLimitError);
      expect((await c.chat.completions.create(ask('x'))).choices[0]?.message?.content).toBe('scripted');
    }));

  it('resets before the headers: a connection error', () =>
    withMock(transport, async ({ mock, client }) => {
      mock.enqueue({ reset: true });
      await expect(client().models.list()).rejects.toBeInstanceOf(APIConnectionError);
      expect((await client().models.list()).data).toHaveLength(3);
    }));

  it('cuts a stream mid-way: the events before it, then a connection error', () =>
    withMock(transport, async ({ mock, client }) => {
      mock.enqueue({ reply: { content: 'a b c' }, fault: { kind: 'reset', after: 2 } });
      const { seen, error } = await drain(await client().chat.completions.create({ ...ask('x'), stream: true }));
      expect(seen).toEqual(['', 'a ']);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    }));

  it('stalls before the headers until the client times out', () =>
    withMock(transport, async ({ mock, client }) => {
      mock.enqueue({ stall: true });
      const started = Date.now();
      await expect(client({ timeout: 150 }).models.list()).rejects.toBeInstanceOf(APIConnectionTimeoutError);
      expect(Date.now() - started).toBeLessThan(10_000); // a stall never ends by itself
    }));

  it('stalls mid-stream until the idle timeout', () =>
    withMock(transport, async ({ mock, client }) => {
      mock.enqueue({ reply: { content: 'a b c' }, fault: { kind: 'stall', after: 2 } });
      const stream = await client({ streamIdleTimeout: 150 }).chat.completions.create({ ...ask('x'), stream: true });
      const { seen, error } = await drain(stream);
      expect(seen).toEqual(['', 'a ']);
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    }));

  it('sends an in-band error as an APIError', () =>
    withMock(transport, async ({ mock, client }) => {
      mock.enqueue({ fault: { kind: 'error', after: 1, error: { message: 'Token limit reached', code: 400 } } });
      const { error } = await drain(await client().chat.completions.create({ ...ask('x'), stream: true }));
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).message).toContain('Token limit reached');
    }));

  it('paces events and stops when the client aborts', () =>
    withMock(
      transport,
      async ({ mock, client }) => {
        const c = client();
        const started = Date.now();
        const stream = await c.chat.completions.create({ ...ask('one two three four five six'), stream: true });
        let count = 0;
        const { error } = await drain(
          (async function* () {
            for await (const chunk of stream) {
              yield chunk;
              if (++count === 3) stream.controller.abort();
            }
          })(),
        );
        expect(count).toBe(3);
        expect(error).toBeInstanceOf(APIUserAbortError);
        // Three events, 40 ms apart.
        expect(Date.now() - started).toBeGreaterThanOrEqual(2 * 40 - 5);
        // The mock keeps serving after the client went away.
        expect((await c.models.list()).data).toHaveLength(3);
        expect(mock.requests).toHaveLength(2);
      },
      { chunkDelayMs: 40 },
    ));
});

describe('transport specifics', () => {
  // msw included: it tees mocked bodies, and `break` must not wait for the tee's other branch.
  it.each(transports)('$name: a break mid-stream frees the request', (transport) =>
    withMock(
      transport,
      async ({ mock, client }) => {
        const c = client();
        const stream = await c.chat.completions.create({ ...ask('one two three four five six'), stream: true });
        let count = 0;
        for await (const _ of stream) if (++count === 2) break;
        expect(count).toBe(2);
        expect((await c.models.list()).data).toHaveLength(3);
        expect(mock.requests).toHaveLength(2);
      },
      { chunkDelayMs: 30 },
    ),
  );

  it('in-process fetch: rejects like fetch on reset and on abort', async () => {
    const service = createMockService({ url: 'https://inference.example.test/api/v1' });
    expect(service.url).toBe('https://inference.example.test/api/v1');
    service.enqueue({ reset: true }, { stall: true });
    const reset = await service.fetch(`${service.url}/models`).catch((e: unknown) => e);
    expect(reset).toBeInstanceOf(TypeError);
    expect((reset as TypeError).message).toBe('fetch failed');
    const controller = new AbortController();
    const stalled = service.fetch(`${service.url}/models`, { signal: controller.signal });
    controller.abort(new Error('gave up'));
    await expect(stalled).rejects.toThrow('gave up');
    // The base path of the URL is where the API lives.
    const res = await service.fetch(`${service.url}/models`, { headers: { authorization: `Bearer ${service.apiKey}` } });
    expect(res.status).toBe(200);
    expect(service.requests.map((r) => r.path)).toEqual(['/models', '/models', '/models']);
  });

  it('in-process fetch: an abort reaches a stalled request and a paced stream after garbage collection', async () => {
    // undici's Request follows its init signal only while the Request is alive; the service must
    // listen to the caller's signal, or an abort after a collection never arrives.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const service = createMockService({ chunkDelayMs: 50 });
    const headers = { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' };
    service.enqueue({ stall: true });
    const stalledController = new AbortController();
    const stalled = service.fetch(`${service.url}/models`, { headers, signal: stalledController.signal });
    const streamController = new AbortController();
    const response = await service.fetch(`${service.url}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...ask('one two three four five six seven eight'), stream: true }),
      signal: streamController.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
    stalledController.abort(new Error('gave up'));
    streamController.abort(new Error('left'));
    await expect(stalled).rejects.toThrow('gave up');
    await expect(reader.read()).rejects.toThrow('left');
  }, 5_000);

  it('msw: leaves other origins to other handlers', async () => {
    const mock = createMockHandlers({ url: 'https://inference.example.test/v1' });
    const other = http.get('https://elsewhere.example.test/*', () => new Response('teapot', { status: 418 }));
    const server = setupServer(...mock.handlers, other);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const res = await fetch('https://inference.example.test/v1/models', { headers: { authorization: `Bearer ${mock.apiKey}` } });
      expect(res.status).toBe(200);
      expect((await fetch('https://elsewhere.example.test/v1/models')).status).toBe(418);
      expect(mock.requests).toHaveLength(1);
    } finally {
      server.close();
    }
  });
});
