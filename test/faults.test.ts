/**
 * Faults (first filed as issue 13), each against a real loopback server and through
 * the public API: nothing outlives its caller, no secret crosses a boundary, every failure is typed.
 * docs/reliability.md lists these cases with their outcomes.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  Client,
  type ChatCompletionChunk,
  type ClientOptions,
  InferenceError,
  NotFoundError,
  ResponseValidationError,
  Stream,
} from '../src/index';
import { useMockServer } from './support/mock-server';
import { pause, startFaultServer, useFaultServers } from './support/fault-server';
import { delay, outcome, within } from './support/settle';
import { expectNoSecret, spyLogger } from './support/secrets';

const KEY = 'sk-live-SECRET-KEY-0123456789abcdef';
const messages = [{ role: 'user' as const, content: 'hi' }];
const chunk = (content: string | undefined, finish: string | null = null) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
});
const sse = (...events: unknown[]) => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
const completionBody = (content: string) => ({
  id: 'x',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

const { server: mock } = useMockServer({ apiKeys: { [KEY]: 'all' } });

const { faultServer } = useFaultServers(() => {
  mock.clear();
});

const client = (baseURL: string, options: ClientOptions = {}) => new Client({ apiKey: KEY, baseURL, logLevel: 'off', ...options });

/** Writes SSE headers and `first`, then keeps the response open and silent until the client leaves. */
function openStream(res: ServerResponse, first = ''): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(first);
}

/** Sends `: ping` every `every` ms until the client leaves. */
async function ping(res: ServerResponse, every: number): Promise<void> {
  while (!res.destroyed) {
    res.write(': ping\n\n');
    if (!(await pause(res, every))) return;
  }
}

describe('1. cancellation reaches every wait', () => {
  describe('preflight: the model lookup', () => {
    /** A server whose GET /models/… never answers, and whose completions answer at once. */
    async function stallingLookups() {
      return faultServer((req, res) => {
        if (req.method === 'GET') return; // never answers; the client must let go
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completionBody('sent')));
      });
    }
    const body = { model: 'acme/chat-1', messages, max_tokens: 10 };

    it("honours the call's signal, even when another caller shares the pending lookup", async () => {
      const server = await stallingLookups();
      const c = client(server.url, { preflight: 'error' });
      const first = new AbortController();
      const second = new AbortController();
      const a = c.chat.completions.create(body, { signal: first.signal });
      const b = c.chat.completions.create(body, { signal: second.signal });
      // Abort once the shared lookup is on the wire (a fixed pause can end first on a loaded machine).
      for (let i = 0; i < 500 && !server.requests.some((r) => r.method === 'GET'); i++) await delay(10);
      first.abort();
      expect(await within(a, 5_000)).toMatchObject({ error: expect.any(APIUserAbortError) });
      // The other caller still waits for the shared lookup; it is released by its own abort.
      expect(await within(b, 100)).toBe('pending');
      second.abort();
      expect(await within(b, 5_000)).toMatchObject({ error: expect.any(APIUserAbortError) });
      // Nobody waits any more: the lookup itself is cancelled, and one lookup was made for both.
      const lookups = server.requests.filter((r) => r.method === 'GET');
      expect(lookups).toHaveLength(1);
      expect(await within(lookups[0]!.closed, 5_000)).not.toBe('pending');
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    });

    it("honours the call's timeout: past it, the request is sent unchecked", async () => {
      const server = await stallingLookups();
      const c = client(server.url, { preflight: 'error', timeout: 300 });
      const result = await within(c.chat.completions.create(body), 5_000);
      expect(result).toMatchObject({ value: { choices: [{ message: { content: 'sent' } }] } });
      // One lookup attempt (not maxRetries + 1 of them), abandoned.
      expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
    });
  });

  describe('an apiKey function', () => {
    /** A key function that takes 2.5 s, like a slow token refresh. */
    function slowKey() {
      const state = { returned: false };
      const apiKey = () =>
        new Promise<string>((resolve) =>
          setTimeout(() => {
            state.returned = true;
            resolve(KEY);
          }, 2_500),
        );
      return { state, apiKey };
    }

    it('is raced against the signal', async () => {
      const { state, apiKey } = slowKey();
      const c = client(mock.url, { apiKey });
      const error = await outcome(() => c.models.list({ signal: AbortSignal.timeout(100) }));
      expect(error).toBeInstanceOf(APIUserAbortError);
      expect(state.returned).toBe(false);
      expect(mock.requests).toHaveLength(0);
      await delay(2_600); // let the key function finish, so its timer does not count as leaked
    });

    it('is raced against the timeout', async () => {
      const { state, apiKey } = slowKey();
      const c = client(mock.url, { apiKey, timeout: 400 });
      const error = await outcome(() => c.models.list());
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect((error as Error).message).toMatch(/apiKey/);
      expect(state.returned).toBe(false);
      expect(mock.requests).toHaveLength(0);
      await delay(2_300);
    });

    it('that throws gives an InferenceError with the cause', async () => {
      const boom = new Error('token service down');
      const c = client(mock.url, {
        apiKey: () => {
          throw boom;
        },
      });
      const error = await outcome(() => c.models.list());
      expect(error).toBeInstanceOf(InferenceError);
      expect((error as Error).message).toMatch(/apiKey.*token service down/);
      expect((error as Error).cause).toBe(boom);
    });
  });

  describe('closing a stream while a read is pending aborts the request at once', () => {
    async function stalledAfterOneChunk() {
      const server = await faultServer((_req, res) => openStream(res, sse(chunk('one'))));
      const stream = await client(server.url, { streamIdleTimeout: 60_000 }).chat.completions.create({ model: 'm', messages, stream: true });
      return { server, stream };
    }

    it('iterator.return()', async () => {
      const { server, stream } = await stalledAfterOneChunk();
      const iterator = stream[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ choices: [{ delta: { content: 'one' } }] });
      const pending = iterator.next().then((value) => ({ value }), (error: unknown) => ({ error })); // waits for bytes that never come
      await delay(20);
      const returned = iterator.return!();
      expect(await within(server.requests[0]!.closed, 5_000)).not.toBe('pending');
      expect(await within(returned, 5_000)).toMatchObject({ value: { done: true } });
      expect(await within(pending, 5_000)).toMatchObject({ value: { error: expect.any(APIUserAbortError) } });
    });

    it('toReadableStream().cancel()', async () => {
      const { server, stream } = await stalledAfterOneChunk();
      const reader = stream.toReadableStream().getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('"one"');
      const pending = reader.read();
      await delay(20);
      const cancelled = reader.cancel();
      expect(await within(server.requests[0]!.closed, 5_000)).not.toBe('pending');
      expect(await within(cancelled, 5_000)).not.toBe('pending');
      expect(await within(pending, 5_000)).toMatchObject({ value: { done: true } });
    });

    it('tee(): when both branches are closed, the request is cancelled', async () => {
      const { server, stream } = await stalledAfterOneChunk();
      const [left, right] = stream.tee();
      for await (const _ of left) break;
      expect(await within(server.requests[0]!.closed, 200)).toBe('pending'); // the other side may still read
      for await (const _ of right) break;
      expect(await within(server.requests[0]!.closed, 5_000)).not.toBe('pending');
    });

    it('tee(): one branch closed while the other ends normally', async () => {
      const server = await faultServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(sse(chunk('a'), chunk('b', 'stop'), '[DONE]'));
      });
      const stream = await client(server.url).chat.completions.create({ model: 'm', messages, stream: true });
      const [left, right] = stream.tee();
      for await (const _ of left) break;
      let text = '';
      for await (const c of right) text += c.choices?.[0]?.delta.content ?? '';
      expect(text).toBe('ab');
    });
  });

  it('every route-handler example passes request.signal', () => {
    const files = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => join('docs', f)), ...sources('src'), ...sources('examples')];
    const handlers: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      // Every code block (fenced in Markdown and in TSDoc) holding a route handler: a function
      // taking the web Request (Next.js, Vercel, Workers) that starts a completion.
      for (const [, block] of text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
        if (!/(export (default )?async function \w*|async fetch)\s*\((request|req)\b/.test(block!)) continue;
        if (!/\.(create|parse|runTools)\(/.test(block!)) continue;
        handlers.push(file);
        expect(block, file).toMatch(/\b(request|req)\.signal\b/);
      }
    }
    expect(handlers.length).toBeGreaterThanOrEqual(4);
  });
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('2. a stream of keep-alive comments only cannot hang', () => {
  it('before the first event: ends with APIConnectionTimeoutError after streamIdleTimeout', async () => {
    const server = await faultServer(async (_req, res) => {
      openStream(res);
      await ping(res, 20);
    });
    const c = client(server.url, { streamIdleTimeout: 300, maxRetries: 0 });
    const result = await within(
      c.chat.completions.create({ model: 'm', messages, stream: true }).then(() => 'resolved'),
      10_000,
    );
    expect(result).toMatchObject({ error: expect.any(APIConnectionTimeoutError) });
    expect(((result as { error: Error }).error).message).toMatch(/keep-alive/);
  });

  it('after a chunk: comments do not keep the idle timeout from firing', async () => {
    const server = await faultServer(async (_req, res) => {
      openStream(res, sse(chunk('one')));
      await ping(res, 20);
    });
    const stream = await client(server.url, { streamIdleTimeout: 300 }).chat.completions.create({ model: 'm', messages, stream: true });
    const result = await within(
      (async () => {
        for await (const _ of stream);
      })(),
      10_000,
    );
    expect(result).toMatchObject({ error: expect.any(APIConnectionTimeoutError) });
  });

  it('comments while queueing, then events, within the limit: read whole (OpenRouter)', async () => {
    const server = await faultServer(async (_req, res) => {
      openStream(res, ': OPENROUTER PROCESSING\n\n');
      for (let i = 0; i < 5; i++) if (!(await pause(res, 30))) return;
      res.end(sse(chunk('ok', 'stop'), '[DONE]'));
    });
    const stream = await client(server.url, { streamIdleTimeout: 2_000 }).chat.completions.create({ model: 'm', messages, stream: true });
    let text = '';
    for await (const c of stream) text += c.choices?.[0]?.delta.content ?? '';
    expect(text).toBe('ok');
  });
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

describe('4. redirects', () => {
  it('no credential header is sent to another origin; same-origin redirects keep them', async () => {
    const other = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [] }));
    });
    const first = await faultServer((req, res) => {
      if (req.url === '/v1/models') {
        res.writeHead(302, { location: '/v1/models-moved' }); // same origin
      } else {
        res.writeHead(307, { location: `${other.url}/models` });
      }
      res.end();
    });
    const c = client(first.url, { defaultHeaders: { 'x-api-key': KEY, 'api-key': KEY, 'x-auth-token': 't', 'x-team': 'kept' } });
    await c.models.list();
    expect(first.requests[1]?.url).toBe('/v1/models-moved');
    expect(first.requests[1]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(first.requests[1]?.headers['x-api-key']).toBe(KEY);
    const crossed = other.requests[0]!.headers;
    expect(crossed.authorization).toBeUndefined();
    expect(crossed['x-api-key']).toBeUndefined();
    expect(crossed['api-key']).toBeUndefined();
    expect(crossed['x-auth-token']).toBeUndefined();
    expect(crossed['x-team']).toBe('kept');
  });

  it('a POST answered with 303 is followed with a GET; 307 keeps the method and body', async () => {
    const server = await faultServer((req, res) => {
      if (req.url === '/v1/chat/completions') res.writeHead(307, { location: '/v1/again' });
      else if (req.url === '/v1/again') res.writeHead(303, { location: '/v1/result' });
      else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completionBody('moved')));
        return;
      }
      res.end();
    });
    const completion = await client(server.url).chat.completions.create({ model: 'm', messages });
    expect(completion.choices[0]?.message?.content).toBe('moved');
    expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body ? 'body' : ''}`.trim())).toEqual([
      'POST /v1/chat/completions body',
      'POST /v1/again body',
      'GET /v1/result',
    ]);
  });

  it('an https → http redirect is refused with a typed error, and nothing reaches the http server', async () => {
    const plain = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [] }));
    });
    // The https side answers from a fetch double: a TLS server would need a certificate the runtime trusts.
    const secureFetch: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.startsWith('https://secure.test/')) return new Response(null, { status: 301, headers: { location: `${plain.url}/models` } });
      return fetch(input, init);
    };
    const error = await outcome(() => client('https://secure.test/v1', { fetch: secureFetch }).models.list());
    expect(error).toBeInstanceOf(APIError);
    expect((error as Error).message).toMatch(/https.*http/);
    expect((error as APIError).status).toBe(301);
    expect(plain.requests).toHaveLength(0);
  });

  it('a redirect loop ends with a typed error', async () => {
    const server = await faultServer((_req, res) => {
      res.writeHead(302, { location: '/v1/models' });
      res.end();
    });
    const error = await outcome(() => client(server.url).models.list());
    expect(error).toBeInstanceOf(APIError);
    expect((error as Error).message).toMatch(/redirect/i);
    expect(server.requests.length).toBeLessThanOrEqual(21);
  });
});

describe('5. baseURL', () => {
  it('keeps its query string (Azure api-version) for every request, under default and per-request queries', async () => {
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [] }));
    });
    const c = client(`${server.url}/?api-version=2024-10-21`, { defaultQuery: { team: 'a' } });
    await c.models.list();
    await c.models.list({ query: { 'api-version': '2025-01-01' } });
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/models?api-version=2024-10-21&team=a', '/v1/models?api-version=2025-01-01&team=a']);
  });

  it('with a fragment is an error at construction', () => {
    expect(() => client('https://api.test/v1#section')).toThrow(InferenceError);
    expect(() => client('https://api.test/v1#')).toThrow(/fragment/);
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

describe('7. hostile bodies', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it.each([10_000, 200_000])('an error body nested %i deep keeps its status and is not retried', async (depth) => {
    // No message: the error object itself is what the SDK must describe.
    mock.enqueue({ status: 400, body: `{"error":{"detail":${deep(depth)}}}` }, { status: 422, body: `{"detail":${deep(depth)}}` });
    const first = await outcome(() => client(mock.url).models.list());
    expect(first).toBeInstanceOf(BadRequestError);
    expect((first as APIError).status).toBe(400);
    const second = await outcome(() => client(mock.url).models.list());
    expect((second as APIError).status).toBe(422);
    expect(mock.requests).toHaveLength(2);
  });

  it('a 200 error nested deep keeps the status', async () => {
    mock.enqueue({ status: 200, body: `{"error":${deep(10_000)}}` });
    const error = await outcome(() => client(mock.url).models.list());
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(200);
    expect(mock.requests).toHaveLength(1);
  });

  it('an in-band stream error nested deep', async () => {
    mock.enqueue({ raw: `data: {"error":{"message":"x","detail":${deep(10_000)}}}\n\n`, headers: { 'content-type': 'text/event-stream' } });
    const error = await outcome(() => client(mock.url, { maxRetries: 0 }).chat.completions.create({ model: 'mock/echo', messages, stream: true }));
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(200);
  });

  it('a vendor field nested deep in a completion and in a chunk: read, or a typed error with the status', async () => {
    const body = `{"object":"chat.completion","vendor":${deep(10_000)},"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`;
    mock.enqueue({ status: 200, body });
    const result = await outcome(() => client(mock.url).chat.completions.create({ model: 'mock/echo', messages }));
    if (result instanceof Error) {
      expect(result).toBeInstanceOf(ResponseValidationError);
      expect((result as ResponseValidationError).status).toBe(200);
    } else {
      expect((result as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe('ok');
    }
    expect(mock.requests).toHaveLength(1);
    const event = `{"vendor":${deep(10_000)},"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}`;
    mock.enqueue({ raw: sse(event, '[DONE]'), headers: { 'content-type': 'text/event-stream' } });
    const stream = await client(mock.url).chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const read = await outcome(async () => {
      const chunks: string[] = [];
      for await (const line of streamLines(stream.toReadableStream())) chunks.push(line);
      return chunks;
    });
    expect(Array.isArray(read) || read instanceof InferenceError).toBe(true);
  });

  it('Stream.fromReadableStream: a line that is not JSON gives a typed error', async () => {
    const body = new Response(`${JSON.stringify(chunk('a'))}\nnot json\n`).body!;
    const chunks: unknown[] = [];
    const error = await outcome(async () => {
      for await (const c of Stream.fromReadableStream<ChatCompletionChunk>(body)) chunks.push(c);
    });
    expect(chunks).toHaveLength(1);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).raw).toBe('not json');
  });

  it('Stream.fromReadableStream: aborting its controller cancels the body and ends the loop with APIUserAbortError', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`${JSON.stringify(chunk('a'))}\n`));
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const stream = Stream.fromReadableStream<ChatCompletionChunk>(body, controller);
    const error = await outcome(async () => {
      for await (const _ of stream) controller.abort();
    });
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(cancelled).toBe(true);
  });

  it('Stream.fromReadableStream: its line buffer is bounded by maxEventSize', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new TextEncoder().encode('x'.repeat(64 * 1024)));
      },
    });
    const error = await outcome(async () => {
      for await (const _ of Stream.fromReadableStream(endless, undefined, { maxEventSize: 1024 * 1024 }));
    });
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/maxEventSize/);
    expect(pulled).toBeLessThan(4 * 1024 * 1024);
  });
});

async function* streamLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield decoder.decode(value);
  }
}

describe('9. retried POSTs are safe to retry', () => {
  const fail = { status: 500, headers: { 'retry-after-ms': '0' }, body: { error: { message: 'x' } } };

  it('every POST carries one Idempotency-Key for all its attempts, a new one per call', async () => {
    mock.enqueue(fail, fail);
    const c = client(mock.url);
    await c.chat.completions.create({ model: 'mock/echo', messages });
    await c.completions.create({ model: 'mock/echo', prompt: 'x' });
    const keys = mock.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^[\w-]{16,}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).toMatch(/^[\w-]{16,}$/);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('GETs carry none', async () => {
    await client(mock.url).models.list();
    expect(mock.requests[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('an option sets it, or turns it off per request or per client', async () => {
    const c = client(mock.url);
    await c.chat.completions.create({ model: 'mock/echo', messages }, { idempotencyKey: 'order-42' });
    await c.chat.completions.create({ model: 'mock/echo', messages }, { idempotencyKey: false });
    await client(mock.url, { idempotencyKeys: false }).chat.completions.create({ model: 'mock/echo', messages });
    expect(mock.requests.map((r) => r.headers['idempotency-key'])).toEqual(['order-42', undefined, undefined]);
  });
});

describe('10. streams with no chunk, errors in a 200', () => {
  it("llama.cpp's error in a non-standard `error:` SSE field becomes its APIError", async () => {
    mock.enqueue({
      raw: 'error: {"code":400,"message":"the request exceeds the available context size","type":"invalid_request_error"}\n\ndata: [DONE]\n\n',
      headers: { 'content-type': 'text/event-stream' },
    });
    const error = await outcome(() => client(mock.url).chat.completions.create({ model: 'mock/echo', messages, stream: true }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(/exceeds the available context size/);
    expect(mock.requests).toHaveLength(1);
  });

  it('a stream that ends without a single chunk: finalChatCompletion() throws a typed error, not choices: []', async () => {
    mock.enqueue({ raw: 'data: [DONE]\n\n', headers: { 'content-type': 'text/event-stream' } });
    const error = await outcome(async () => {
      const stream = await client(mock.url).chat.completions.create({ model: 'mock/echo', messages, stream: true });
      return stream.finalChatCompletion();
    });
    expect(error).toBeInstanceOf(InferenceError);
    expect((error as Error).message).toMatch(/without a single chunk/);
  });

  it('an error object in a 200 without a numeric code keeps status 200', async () => {
    mock.enqueue({ status: 200, body: { error: 'Unexpected endpoint or method. (POST /v1/chat/completions)' } });
    const error = await outcome(() => client(mock.url).chat.completions.create({ model: 'mock/echo', messages }));
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(200);
    expect((error as Error).message).toMatch(/^200 /);
  });
});

describe('11. the local server is as strict as the service about /v1', () => {
  it('answers only under /v1; a 404 on a base URL without /v1 says so', async () => {
    const origin = mock.url.replace(/\/v1$/, '');
    const error = await outcome(() => client(origin).models.list());
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(/\/v1/);
    expect((error as Error).message).toContain(`${origin}/v1`);
    await expect(client(mock.url).models.list()).resolves.toMatchObject({ object: 'list' });
  });

  it('connection errors name host and port', async () => {
    const closed = await startFaultServer(() => {});
    await closed.close();
    const error = await outcome(() => client(closed.url, { maxRetries: 0 }).models.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain(closed.origin.replace('http://', ''));
  });
});
