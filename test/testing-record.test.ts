// Record and replay of model-inference-sdk/testing, through its public entry: a recording against a
// second local mock server as the upstream, then a replay with that upstream stopped.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APIConnectionError, AuthenticationError, Client, NotFoundError, RateLimitError } from '../src/index';
import { startMockServer, type Cassette, type MockServer } from '../src/testing';

const UPSTREAM_KEY = 'sk-upstream-7f3a9c2e1d-never-write-me';
const GATEWAY_SECRET = 'gw-secret-5b8e1f0a';
const COOKIE_SECRET = 'sid-4c7d2e9f1a';
const messages = [{ role: 'user' as const, content: 'Say hello' }];

const dir = mkdtempSync(path.join(tmpdir(), 'model-inference-sdk-cassettes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const opened: MockServer[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
async function start(...args: Parameters<typeof startMockServer>): Promise<MockServer> {
  const server = await startMockServer(...args);
  opened.push(server);
  return server;
}
const clientOf = (server: MockServer, options: { maxRetries?: number; defaultHeaders?: Record<string, string> } = {}) =>
  new Client({ apiKey: server.apiKey, baseURL: server.url, logLevel: 'off', maxRetries: 0, ...options });

/** Raw bytes of a streamed chat request, read with plain fetch. */
async function rawStream(server: MockServer, content: string): Promise<Uint8Array> {
  const response = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content }], stream: true }),
  });
  return new Uint8Array(await response.arrayBuffer());
}

describe('record, then replay with the upstream stopped', () => {
  const cassette = path.join(dir, 'nested', 'chat.json');
  // Odd but legal SSE: CRLF line ends, a comment, an event split across writes, multi-byte UTF-8.
  const oddStream = [': keep-alive\r\n\r\n', 'data: {"choices":[{"index":0,"delta":{"content":"h\u00e9llo "}}]}\r\n', '\r\n', 'data: {"choices":[{"index":0,"del', 'ta":{"content":"\u{1F44B}"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'];
  const recorded: Record<string, unknown> = {};

  it('records every call through the recorder, sending the upstream key upstream and no other', async () => {
    const upstream = await start({ apiKeys: { [UPSTREAM_KEY]: 'all' } });
    const recorder = await start({ record: { upstream: upstream.url, apiKey: UPSTREAM_KEY, cassette } });
    const client = clientOf(recorder, { defaultHeaders: { 'x-api-key': GATEWAY_SECRET, cookie: `session=${COOKIE_SECRET}` } });

    recorded['models'] = (await client.models.list()).data.map((m) => m.id);
    recorded['chat'] = await client.chat.completions.create({ model: 'mock/echo', messages });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'stream me' }], stream: true });
    recorded['streamed'] = (await stream.finalChatCompletion()).choices[0]?.message.content;
    recorded['legacy'] = (await client.completions.create({ model: 'mock/echo', prompt: 'old style' })).choices[0]?.text;
    // Upstream answers that are errors are recorded too, with their headers (credentials left out).
    upstream.enqueue({ error: { status: 429, retryAfter: 7 }, headers: { 'set-cookie': `sid=${COOKIE_SECRET}`, 'x-auth-token': 'tok-9a8b7c6d' } });
    const limited = await client.models.retrieve('mock/echo').catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    upstream.enqueue({ error: { status: 401, message: `Incorrect API key provided: ${UPSTREAM_KEY}.`, code: UPSTREAM_KEY } });
    const denied = await client.models.retrieve('mock/reasoner').catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(AuthenticationError);
    expect((denied as Error).message).not.toContain(UPSTREAM_KEY);
    upstream.enqueue({ raw: oddStream });
    recorded['odd'] = await rawStream(recorder, 'odd');

    expect(recorded).toMatchObject({ models: ['mock/echo', 'mock/reasoner', 'mock/sleeping'], streamed: 'You said: stream me', legacy: 'You said: old style' });
    // The upstream saw its own key, and the client's other headers; the mock's key stayed local.
    expect(upstream.requests).toHaveLength(7);
    for (const request of upstream.requests) expect(request.headers['authorization']).toBe(`Bearer ${UPSTREAM_KEY}`);
    for (const request of upstream.requests.slice(0, 6)) expect(request.headers['x-api-key']).toBe(GATEWAY_SECRET);
    expect(upstream.requests[1]?.body).toMatchObject({ model: 'mock/echo', messages });
    // Unauthenticated requests are the mock's to refuse: they never reach the upstream.
    await expect(new Client({ apiKey: 'wrong', baseURL: recorder.url, maxRetries: 0, logLevel: 'off' }).models.list()).rejects.toBeInstanceOf(AuthenticationError);
    expect(upstream.requests).toHaveLength(7);
    await recorder.close();
    await upstream.close();
  });

  it('writes a readable cassette with a stable key order, and no key or credential header', () => {
    const text = readFileSync(cassette, 'utf8');
    const file = JSON.parse(text) as Cassette;
    expect(text).toBe(`${JSON.stringify(file, null, 2)}\n`);
    expect(file.version).toBe(1);
    expect(file.upstream).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(file.interactions.map((i) => `${i.request.method} ${i.request.path} ${i.response.status}`)).toEqual([
      'GET /models 200',
      'POST /chat/completions 200',
      'POST /chat/completions 200',
      'POST /completions 200',
      'GET /models/mock/echo 429',
      'GET /models/mock/reasoner 401',
      'POST /chat/completions 200',
    ]);
    for (const { request, response } of file.interactions) {
      expect(Object.keys(request)).toEqual(['method', 'path', 'headers', ...(request.body === undefined ? [] : ['body'])]);
      expect(Object.keys(response).slice(0, 2)).toEqual(['status', 'headers']);
      for (const headers of [request.headers, response.headers]) expect(Object.keys(headers)).toEqual(Object.keys(headers).sort());
    }
    // A JSON answer is JSON; a stream is kept event by event.
    expect(file.interactions[1]?.response.body).toMatchObject({ object: 'chat.completion', choices: [{ message: { content: 'You said: Say hello' } }] });
    expect(file.interactions[2]?.response.events?.at(-1)).toBe('data: [DONE]\n\n');
    expect(file.interactions[6]?.response.events).toEqual([': keep-alive\r\n\r\n', 'data: {"choices":[{"index":0,"delta":{"content":"h\u00e9llo "}}]}\r\n\r\n', 'data: {"choices":[{"index":0,"delta":{"content":"\u{1F44B}"},"finish_reason":"stop"}]}\n\n', 'data: [DONE]\n\n']);
    expect(file.interactions[4]?.response.headers['retry-after']).toBe('7');

    // Never written: the upstream key, the credential headers (names and values), the mock's key.
    for (const secret of [UPSTREAM_KEY, GATEWAY_SECRET, COOKIE_SECRET, 'tok-9a8b7c6d', 'mock-key']) expect(text).not.toContain(secret);
    for (const name of ['"authorization"', '"x-api-key"', '"cookie"', '"set-cookie"', '"x-auth-token"']) expect(text).not.toContain(name);
    expect(file.interactions[5]?.response.body).toMatchObject({ error: { message: 'Incorrect API key provided: ***.', code: '***' } });
  });

  it('replays every call with the upstream stopped, streams byte for byte', async () => {
    const replay = await start({ replay: cassette });
    const client = clientOf(replay);
    expect((await client.models.list()).data.map((m) => m.id)).toEqual(recorded['models']);
    expect(await client.chat.completions.create({ model: 'mock/echo', messages })).toEqual(recorded['chat']);
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'stream me' }], stream: true });
    expect((await stream.finalChatCompletion()).choices[0]?.message.content).toBe(recorded['streamed']);
    expect((await client.completions.create({ model: 'mock/echo', prompt: 'old style' })).choices[0]?.text).toBe(recorded['legacy']);
    const limited = await client.models.retrieve('mock/echo').catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).headers?.get('retry-after')).toBe('7');
    await expect(client.models.retrieve('mock/reasoner')).rejects.toBeInstanceOf(AuthenticationError);

    const odd = await rawStream(replay, 'odd');
    expect(odd).toEqual(recorded['odd']);
    expect(new TextDecoder().decode(odd)).toBe(oddStream.join(''));
    // The mock's own checks still come first.
    await expect(new Client({ apiKey: 'wrong', baseURL: replay.url, maxRetries: 0, logLevel: 'off' }).models.list()).rejects.toBeInstanceOf(AuthenticationError);
    expect(replay.requests.map((r) => r.path)).toContain('/chat/completions');
  });

  it('an unrecorded request gets an error naming the cassette and what differs, never a made-up reply', async () => {
    const replay = await start({ replay: cassette });
    const client = clientOf(replay);
    const other = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Say goodbye' }] }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(NotFoundError);
    expect((other as NotFoundError).code).toBe('not_recorded');
    expect((other as Error).message).toContain(`No recorded interaction in the cassette ${cassette} matches POST /v1/chat/completions`);
    expect((other as Error).message).toContain('body.messages[0].content: recorded "Say hello", sent "Say goodbye"');

    const elsewhere = await client.models.retrieve('acme/unknown').catch((e: unknown) => e);
    expect(elsewhere).toBeInstanceOf(NotFoundError);
    expect((elsewhere as Error).message).toContain(`cassette ${cassette} matches GET /v1/models/acme/unknown: it holds GET /v1/models, POST /v1/chat/completions (×3)`);
    // Not retried: one request each.
    expect(replay.requests).toHaveLength(2);
  });
});

describe('replay rules', () => {
  it('serves repeated requests in the recorded order, then the last answer again', async () => {
    const upstream = await start();
    const cassette = path.join(dir, 'repeats.json');
    const recorder = await start({ record: { upstream: upstream.url, apiKey: upstream.apiKey, cassette } });
    upstream.enqueue({ reply: { content: 'first' } }, { reply: { content: 'second' } });
    const ask = async (server: MockServer) => (await clientOf(server).chat.completions.create({ model: 'mock/echo', messages })).choices[0]?.message.content;
    expect([await ask(recorder), await ask(recorder)]).toEqual(['first', 'second']);
    await recorder.close();
    await upstream.close();

    const replay = await start({ replay: { cassette } });
    expect([await ask(replay), await ask(replay), await ask(replay)]).toEqual(['first', 'second', 'second']);
  });

  it('matches JSON bodies as values: key order does not matter', async () => {
    const upstream = await start();
    const cassette = path.join(dir, 'order.json');
    const recorder = await start({ record: { upstream: upstream.url, apiKey: upstream.apiKey, cassette } });
    const post = (server: MockServer, body: string) =>
      fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' }, body });
    expect((await post(recorder, '{"model":"mock/echo","messages":[{"role":"user","content":"x"}]}')).status).toBe(200);
    await recorder.close();
    const replay = await start({ replay: cassette });
    const response = await post(replay, '{"messages":[{"content":"x","role":"user"}],"model":"mock/echo"}');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe('You said: x');
  });

  it('a stream the upstream cut is cut again at the same point', async () => {
    const upstream = await start();
    const cassette = path.join(dir, 'cut.json');
    const recorder = await start({ record: { upstream: upstream.url, apiKey: upstream.apiKey, cassette } });
    upstream.enqueue({ reply: { content: 'one two three four' }, fault: { kind: 'reset', after: 3 } });
    const read = async (server: MockServer) => {
      const got: string[] = [];
      const stream = await clientOf(server).chat.completions.create({ model: 'mock/echo', messages, stream: true });
      const error = await (async () => {
        for await (const chunk of stream) got.push(chunk.choices[0]?.delta.content ?? '');
      })().catch((e: unknown) => e);
      return { got, error };
    };
    const live = await read(recorder);
    expect(live.error).toBeInstanceOf(APIConnectionError);
    await recorder.close();
    const file = JSON.parse(readFileSync(cassette, 'utf8')) as Cassette;
    expect(file.interactions[0]?.response).toMatchObject({ cut: true });
    expect(file.interactions[0]?.response.events).toHaveLength(3);

    const replayed = await read(await start({ replay: cassette }));
    expect(replayed.got).toEqual(live.got);
    expect(replayed.error).toBeInstanceOf(APIConnectionError);
  });

  it('keeps a stream’s timing when recorded and replayed with timing', async () => {
    const upstream = await start({ chunkDelayMs: 120 });
    const cassette = path.join(dir, 'timing.json');
    const recorder = await start({ record: { upstream: upstream.url, cassette, timing: true } });
    upstream.enqueue({ raw: ['data: {"choices":[]}\n\n', 'data: {"choices":[]}\n\n', 'data: {"choices":[]}\n\n', 'data: [DONE]\n\n'] });
    const live = await rawStream(recorder, 'paced');
    await recorder.close();
    const text = readFileSync(cassette, 'utf8');
    expect(text).toMatch(/"delays": \[\d+, \d+, \d+, \d+\]/); // one line, not a number per line
    const { interactions } = JSON.parse(text) as Cassette;
    const delays = interactions[0]?.response.delays ?? [];
    expect(delays).toHaveLength(4);
    // The upstream paused 3 × 120 ms. The recorder's gaps are not each ≥ 120 on a loaded machine
    // (a late chunk shortens the gap after it), nor is their sum (the clock starts when the
    // recorder gets to the body, a little after the headers): a bound that no load breaks.
    const recorded = delays.reduce((a, b) => a + b, 0);
    expect(recorded).toBeGreaterThanOrEqual(240);

    const timed = await start({ replay: { cassette, timing: true } });
    const arrivals: number[] = [];
    const started = performance.now();
    const response = await fetch(`${timed.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${timed.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'paced' }], stream: true }),
    });
    const chunks: Uint8Array[] = [];
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks.push(read.value);
      arrivals.push(performance.now() - started);
    }
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(live));
    expect(chunks.length).toBe(4);
    // The replay waits each recorded delay before its event: the last cannot come sooner (a timer
    // never fires early), however busy the machine.
    expect(arrivals.at(-1)!).toBeGreaterThanOrEqual(recorded - 5);

    // Without timing, the same stream arrives as one piece.
    const fast = await start({ replay: cassette });
    const whole = await fetch(`${fast.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fast.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'paced' }], stream: true }),
    });
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(live);
  });

  it('a cassette recorded without timing refuses timing: true, and scripted replies still come first', async () => {
    const cassette = path.join(dir, 'untimed.json');
    const untimed: Cassette = {
      version: 1,
      upstream: 'https://api.example.test/v1',
      interactions: [{ request: { method: 'GET', path: '/models', headers: {} }, response: { status: 200, headers: { 'content-type': 'application/json' }, events: ['data: [DONE]\n\n'] } }],
    };
    writeFileSync(cassette, JSON.stringify(untimed));
    await expect(startMockServer({ replay: { cassette, timing: true } })).rejects.toThrow(`the cassette ${cassette} was recorded without timing`);
    const replay = await start({ replay: cassette });
    replay.enqueue({ error: { status: 503 } });
    await expect(clientOf(replay).models.list()).rejects.toMatchObject({ status: 503 });
  });
});

describe('record and replay options', () => {
  it('reject what cannot work, naming the file', async () => {
    const missing = path.join(dir, 'missing.json');
    await expect(startMockServer({ replay: missing })).rejects.toThrow(`cannot replay the cassette ${missing}: there is no such file. Record it first`);
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{"version": 1, "interactions": [');
    await expect(startMockServer({ replay: broken })).rejects.toThrow(`${broken} is not a cassette: its JSON does not parse`);
    writeFileSync(broken, '{"version": 2, "interactions": []}');
    await expect(startMockServer({ replay: broken })).rejects.toThrow('its version is 2, this one reads version 1');
    await expect(startMockServer({ replay: missing, record: { upstream: 'http://127.0.0.1:1/v1', cassette: missing } })).rejects.toThrow(TypeError);
    await expect(startMockServer({ record: { upstream: 'api.example.com', cassette: missing } })).rejects.toThrow('record.upstream must be an absolute http(s) URL');
    await expect(startMockServer({ record: { upstream: 'https://api.example.com/v1', cassette: '' } })).rejects.toThrow('record.cassette must be the path');
    // A file that cannot be written fails at start, not after the test ran.
    await expect(startMockServer({ record: { upstream: 'https://api.example.com/v1', cassette: path.join(broken, 'inside-a-file.json') } })).rejects.toThrow('cannot write the cassette');
  });

  it('an upstream that does not answer is a 502 saying so, and nothing is recorded', async () => {
    const cassette = path.join(dir, 'down.json');
    const gone = await startMockServer();
    const url = gone.url;
    await gone.close();
    const recorder = await start({ record: { upstream: `${url}?key=${UPSTREAM_KEY}`, apiKey: UPSTREAM_KEY, cassette } });
    const error = await clientOf(recorder).models.list().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502 });
    expect((error as Error).message).toContain('Recording: the upstream');
    expect((error as Error).message).toContain('nothing was recorded for this request');
    expect((error as Error).message).not.toContain(UPSTREAM_KEY);
    await recorder.close();
    const text = readFileSync(cassette, 'utf8');
    expect((JSON.parse(text) as Cassette).interactions).toEqual([]);
    expect((JSON.parse(text) as Cassette).upstream).toBe(`${url}?key=***`);
    expect(text).not.toContain(UPSTREAM_KEY);
  });
});

describe('with a loopback upstream kept for the file', () => {
  let upstream: MockServer;
  beforeAll(async () => {
    upstream = await startMockServer();
  });
  afterAll(() => upstream.close());

  it('a client that leaves a stream early still gets the whole stream recorded', async () => {
    const cassette = path.join(dir, 'early.json');
    const recorder = await start({ record: { upstream: upstream.url, apiKey: upstream.apiKey, cassette } });
    const stream = await clientOf(recorder).chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'a b c d e f' }], stream: true });
    for await (const _chunk of stream) break;
    await recorder.close();
    const { interactions } = JSON.parse(readFileSync(cassette, 'utf8')) as Cassette;
    expect(interactions[0]?.response.events?.at(-1)).toBe('data: [DONE]\n\n');
    expect(interactions[0]?.response.cut).toBeUndefined();
  });
});
