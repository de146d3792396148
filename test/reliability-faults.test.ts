/**
 * Reliability against real loopback servers: each fault with its typed outcome and the attempts the
 * server saw, and retry safety (Idempotency-Key; no retry of a stream after its first event).
 * docs/reliability.md is the table of these outcomes.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
  ResponseValidationError,
} from '../src/index';
import { useMockServer } from './support/mock-server';
import { pause, startFaultServer, useFaultServers } from './support/fault-server';
import { KEY, messages, chunk, sse, client, outcome, textOf } from './support/reliability';

const { server: mock } = useMockServer({ apiKeys: { [KEY]: 'all' } });

const { faultServer } = useFaultServers(() => {
  mock.requests.length = 0;
});

describe('faults: typed outcome and attempts seen', () => {
  // A `fetch` option is the caller's code: one that ignores its signal must not hold the call.
  it('a fetch option that never settles and ignores its signal → APIConnectionTimeoutError at each attempt\'s timeout', async () => {
    let calls = 0;
    const c = client('http://127.0.0.1:9/v1', {
      timeout: 100,
      maxRetries: 1,
      fetch: () => {
        calls++;
        return new Promise<Response>(() => {});
      },
    });
    const error = await outcome(() => c.models.list());
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toBe('Request timed out after 100 ms: GET /v1/models');
    expect(calls).toBe(2);
  });

  it("the same fetch: the caller's signal ends the call at once with APIUserAbortError", async () => {
    const c = client('http://127.0.0.1:9/v1', { fetch: () => new Promise<Response>(() => {}) });
    const controller = new AbortController();
    const pending = outcome(() => c.models.list({ signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    expect(await pending).toBeInstanceOf(APIUserAbortError);
  });

  it('a response that such a fetch gives after the timeout has its body cancelled', async () => {
    let deliver: ((response: Response) => void) | undefined;
    let cancelled = false;
    const c = client('http://127.0.0.1:9/v1', { timeout: 50, maxRetries: 0, fetch: () => new Promise<Response>((resolve) => (deliver = resolve)) });
    expect(await outcome(() => c.models.list())).toBeInstanceOf(APIConnectionTimeoutError);
    deliver!(new Response(new ReadableStream({ cancel: () => void (cancelled = true) }), { headers: { 'content-type': 'application/json' } }));
    for (let i = 0; i < 100 && !cancelled; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(cancelled).toBe(true);
  });

  /** A `fetch` option whose body sends `first` and then nothing, and does not listen to any signal. */
  const stalledBody = (type: string, first = '') => ({
    fetch: async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            if (first) controller.enqueue(new TextEncoder().encode(first));
          },
        }),
        { headers: { 'content-type': type } },
      ),
  });

  it('a fetch option whose JSON body stalls and ignores the abort → APIConnectionTimeoutError at timeout', async () => {
    const c = client('http://127.0.0.1:9/v1', { timeout: 100, maxRetries: 0, ...stalledBody('application/json', '{"object":"li') });
    const error = await outcome(() => c.models.list());
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toBe('Request timed out after 100 ms: GET /v1/models');
  });

  it('a fetch option whose event stream stalls and ignores the abort → APIConnectionTimeoutError at streamIdleTimeout, before or after a chunk', async () => {
    const first = sse(chunk('hi'));
    const after = client('http://127.0.0.1:9/v1', { streamIdleTimeout: 150, maxRetries: 0, ...stalledBody('text/event-stream', first) });
    const stream = await after.chat.completions.create({ model: 'm', messages, stream: true });
    const texts: string[] = [];
    const error = await outcome(async () => {
      for await (const c of stream) texts.push(c.choices[0]?.delta.content ?? '');
    });
    expect(texts).toEqual(['hi']);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/^Stream stalled: no event for 150 ms \(streamIdleTimeout\)/);

    const before = client('http://127.0.0.1:9/v1', { streamIdleTimeout: 150, maxRetries: 0, ...stalledBody('text/event-stream') });
    expect(await outcome(() => before.chat.completions.create({ model: 'm', messages, stream: true }))).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('connection refused → APIConnectionError (ECONNREFUSED) after every retry', async () => {
    const closed = await startFaultServer(() => {});
    await closed.close(); // the port is now closed
    let attempts = 0;
    const counting: typeof fetch = (input, init) => {
      attempts++;
      return fetch(input, init);
    };
    const error = await outcome(() => client(closed.url, { fetch: counting, maxRetries: 1 }).models.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(attempts).toBe(2);
  });

  it('reset mid-body (JSON) → retried; APIConnectionError when it keeps happening', async () => {
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"object":"list","data":[');
      setTimeout(() => res.socket?.resetAndDestroy(), 20);
    });
    const error = await outcome(() => client(server.url, { maxRetries: 1 }).models.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(server.requests).toHaveLength(2);
  });

  it('429 with retry-after as an HTTP date is honoured', async () => {
    mock.enqueue({ status: 429, headers: { 'retry-after': new Date(Date.now() + 1000).toUTCString() }, body: { error: { message: 'later' } } });
    await client(mock.url).models.list();
    expect(mock.requests).toHaveLength(2);
  });

  it.each([
    ['an absurd number of seconds', '99999999999', 1],
    ['a negative number', '-3', 2],
    ['garbage', 'tomorrow-ish', 2],
  ])('429 with retry-after %s: too long → no retry; unreadable → normal backoff', async (_what, value, attempts) => {
    mock.enqueue({ status: 429, headers: { 'retry-after': value }, body: { error: { message: 'later' } } });
    const result = await outcome(() => client(mock.url, { maxRetries: 1 }).models.list());
    if (attempts === 1) expect(result).toBeInstanceOf(RateLimitError);
    expect(mock.requests).toHaveLength(attempts);
  });

  it('5xx until retries run out → InternalServerError after maxRetries + 1 attempts', async () => {
    const fail = { status: 503, headers: { 'retry-after-ms': '0' }, body: { error: { message: 'overloaded' } } };
    mock.enqueue(fail, fail, fail, fail);
    const error = await outcome(() => client(mock.url, { maxRetries: 3 }).models.list());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(mock.requests).toHaveLength(4);
  });

  it('200 with an HTML page → ResponseValidationError carrying the page, one attempt', async () => {
    mock.enqueue({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html><title>Sign in</title></html>' });
    const error = await outcome(() => client(mock.url).models.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).raw).toContain('Sign in');
    expect(mock.requests).toHaveLength(1);
  });

  it('200 with truncated JSON (a complete response) → ResponseValidationError, one attempt', async () => {
    mock.enqueue({ status: 200, body: '{"object":"list","data":[{"id":"a"' });
    const error = await outcome(() => client(mock.url).models.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(mock.requests).toHaveLength(1);
  });

  it('a wrong content-type on a JSON body is ignored: the body decides', async () => {
    mock.enqueue({ status: 200, headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ object: 'list', data: [] }) });
    await expect(client(mock.url).models.list()).resolves.toEqual({ object: 'list', data: [] });
  });

  it('an event stream with the wrong content-type is still read as a stream', async () => {
    mock.enqueue({ raw: sse(chunk('ok'), chunk(undefined, 'stop'), '[DONE]'), headers: { 'content-type': 'text/plain' } });
    const stream = await client(mock.url).chat.completions.create({ model: 'mock/echo', messages, stream: true });
    expect(await textOf(stream)).toBe('ok');
  });

  it('a JSON completion where a stream was asked for → ResponseValidationError', async () => {
    mock.enqueue({ status: 200, body: { object: 'chat.completion', choices: [] } });
    const error = await outcome(() => client(mock.url).chat.completions.create({ model: 'mock/echo', messages, stream: true }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/expected an event stream/);
  });

  it('a gzip-compressed event stream is decompressed and read', async () => {
    const body = gzipSync(sse(chunk('zip'), chunk('ped'), chunk(undefined, 'stop'), '[DONE]'));
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(body);
    });
    const stream = await client(server.url).chat.completions.create({ model: 'm', messages, stream: true });
    expect(await textOf(stream)).toBe('zipped');
  });

  it('a stream trickling one byte at a time (a multibyte character split too) is read whole; the idle timeout is not hit', async () => {
    const bytes = Buffer.from(sse(chunk('é€'), chunk(undefined, 'stop'), '[DONE]'));
    const server = await faultServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      for (const byte of bytes) {
        res.write(Buffer.from([byte]));
        if (!(await pause(res, 2))) return;
      }
      res.end();
    });
    const stream = await client(server.url, { streamIdleTimeout: 1_000 }).chat.completions.create({ model: 'm', messages, stream: true });
    expect(await textOf(stream)).toBe('é€');
  });

  it('a 307 redirect is followed with method and body; the key is not sent to another origin', async () => {
    const other = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'moved' }, finish_reason: 'stop' }] }));
    });
    const first = await faultServer((_req, res) => {
      res.writeHead(307, { location: `${other.url}/chat/completions` });
      res.end();
    });
    const completion = await client(first.url).chat.completions.create({ model: 'm', messages });
    expect(completion.choices[0]?.message?.content).toBe('moved');
    expect(other.requests[0]?.method).toBe('POST');
    expect(JSON.parse(other.requests[0]!.body)).toMatchObject({ model: 'm' });
    // fetch drops Authorization on a cross-origin redirect: a redirect cannot steal the key.
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('retry safety', () => {
  it('sends the same Idempotency-Key on every retry of a POST', async () => {
    const fail = { status: 500, headers: { 'retry-after-ms': '0' }, body: { error: { message: 'x' } } };
    mock.enqueue(fail, fail);
    await client(mock.url).chat.completions.create({ model: 'mock/echo', messages }, { idempotencyKey: 'order-42' });
    expect(mock.requests.map((r) => r.headers['idempotency-key'])).toEqual(['order-42', 'order-42', 'order-42']);
  });

  it('sends a generated Idempotency-Key unless told not to', async () => {
    await client(mock.url).chat.completions.create({ model: 'mock/echo', messages });
    await client(mock.url).chat.completions.create({ model: 'mock/echo', messages }, { idempotencyKey: false });
    expect(mock.requests[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(mock.requests[1]?.headers['idempotency-key']).toBeUndefined();
  });

  it('never retries a stream after its first event', async () => {
    mock.enqueue({ events: [chunk('partial')], after: 'reset' });
    const stream = await client(mock.url).chat.completions.create({ model: 'mock/echo', messages, stream: true });
    expect(await outcome(() => textOf(stream))).toBeInstanceOf(APIConnectionError);
    expect(mock.requests).toHaveLength(1);
  });
});
