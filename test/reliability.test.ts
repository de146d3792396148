/**
 * Reliability and security against real loopback servers: each fault with its typed outcome and
 * the attempts the server saw; bounded memory; no leaked timers or listeners; hostile input; the
 * key never escapes. docs/reliability.md is the table of these outcomes.
 */
import { getEventListeners } from 'node:events';
import { inspect } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  Client,
  type ClientOptions,
  InferenceError,
  InternalServerError,
  RateLimitError,
  ResponseValidationError,
  Stream,
  type ChatCompletionChunk,
  type Logger,
  extras,
} from '../src/index';
import { useMockServer } from './support/mock-server';
import { pause, startFaultServer, useFaultServers } from './support/fault-server';

const KEY = 'sk-live-SECRET-KEY-0123456789abcdef';
const messages = [{ role: 'user' as const, content: 'hi' }];
const chunk = (content: string | undefined, finish: string | null = null) => ({
  choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
});
const sse = (...events: unknown[]) => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');

const { server: mock } = useMockServer({ apiKeys: { [KEY]: 'all' } });

const { faultServer } = useFaultServers(() => {
  mock.requests.length = 0;
});

const client = (baseURL: string, options: ClientOptions = {}) => new Client({ apiKey: KEY, baseURL, logLevel: 'off', ...options });

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return error;
  }
}

async function textOf(stream: AsyncIterable<ChatCompletionChunk>) {
  let text = '';
  for await (const c of stream) text += c.choices?.[0]?.delta.content ?? '';
  return text;
}

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

describe('bounded resources', () => {
  /** A server that sends `piece` forever (until the client goes away) and counts what it sent. */
  async function endless(contentType: string, first: string, piece: string) {
    const sent = { bytes: 0 };
    const server = await faultServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': contentType });
      res.write(first);
      const buffer = Buffer.from(piece);
      // Stops when the client goes away; each wait removes its own listeners.
      const drained = () =>
        new Promise<boolean>((resolve) => {
          const finish = (ok: boolean) => {
            res.off('drain', onDrain);
            res.off('close', onClose);
            resolve(ok);
          };
          const onDrain = () => finish(true);
          const onClose = () => finish(false);
          res.on('drain', onDrain);
          res.on('close', onClose);
        });
      while (!res.destroyed && sent.bytes < 512 * 1024 * 1024) {
        sent.bytes += buffer.length;
        if (!res.write(buffer) && !(await drained())) break;
      }
      res.end();
    });
    return { server, sent };
  }

  it('an endless stream event stops at maxEventSize with a typed error, and memory stays bounded', async () => {
    const { server, sent } = await endless('text/event-stream', `${sse(chunk('a'))}data: "`, 'x'.repeat(64 * 1024));
    const before = process.memoryUsage();
    const c = client(server.url, { maxEventSize: 1024 * 1024 });
    const stream = await c.chat.completions.create({ model: 'm', messages, stream: true });
    const error = await outcome(() => textOf(stream));
    const after = process.memoryUsage();
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/maxEventSize/);
    // The client stopped reading soon after the limit: the server could not push much more.
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
    expect(after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers)).toBeLessThan(64 * 1024 * 1024);
  });

  /**
   * A body of one large read that stays open, and a check that the read's bytes were collected
   * (collected in a later job: a WeakRef holds its target until the current one ends).
   */
  function oneOpenRead(text: string) {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let bytes: WeakRef<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const read = new TextEncoder().encode(text);
        bytes = new WeakRef(read);
        controller.enqueue(read); // and the body stays open: its reader stays inside this read
      },
    });
    const collected = async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
      await new Promise((resolve) => setTimeout(resolve, 0));
      return bytes?.deref() === undefined;
    };
    return { body, collected };
  }

  // A fast server's read holds hundreds of events. While the consumer works through them, the
  // read's bytes are garbage once decoded. (They were not: the body readers, async generators,
  // kept them in their frame at each `yield`: 200 streams waiting held 200 reads twice.)
  it('a stream waiting for its consumer keeps the read it is in once, as text, not also as its bytes', async () => {
    const { body, collected } = oneOpenRead(sse(...Array.from({ length: 600 }, (_, i) => chunk(`token ${i} `))));
    const c = client('http://127.0.0.1:9/v1', { fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }) });
    const stream = await c.chat.completions.create({ model: 'm', messages, stream: true });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('token 0 ');
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('token 1 ');
    expect(await collected()).toBe(true);
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('token 2 ');
    stream.controller.abort();
  });

  it('the same for Stream.fromReadableStream (a route handler\'s body read back)', async () => {
    const { body, collected } = oneOpenRead(Array.from({ length: 600 }, (_, i) => `${JSON.stringify(chunk(`token ${i} `))}\n`).join(''));
    const stream = Stream.fromReadableStream<ChatCompletionChunk>(body);
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('token 0 ');
    expect(await collected()).toBe(true);
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('token 1 ');
    stream.controller.abort();
  });

  it('an endless JSON body stops at maxBodySize with a typed error carrying its start', async () => {
    const { server, sent } = await endless('application/json', '{"object":"list","data":["', 'y'.repeat(64 * 1024));
    const error = await outcome(() => client(server.url, { maxBodySize: 2 * 1024 * 1024 }).models.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/maxBodySize/);
    expect(String((error as ResponseValidationError).raw).startsWith('{"object":"list"')).toBe(true);
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('1,000 concurrent streams on one client: no errors, no cross-talk', async () => {
    const c = client(mock.url);
    const texts = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        const stream = await c.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: `request ${i}` }], stream: true });
        return textOf(stream);
      }),
    );
    texts.forEach((text, i) => expect(text).toBe(`You said: request ${i}`));
  }, 60_000);

  it('one AbortSignal reused for 10,000 requests adds no listeners and no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const c = client('http://api.test/v1', { fetch: async () => Response.json({ object: 'list', data: [] }) });
      for (let i = 0; i < 10_000; i++) await c.models.list({ signal: controller.signal });
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('hostile input', () => {
  /** A client whose fetch answers with these byte chunks as an event stream. */
  const streaming = (pieces: Uint8Array[]) =>
    client('http://api.test/v1', {
      maxRetries: 0,
      fetch: async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (const piece of pieces) controller.enqueue(piece);
              controller.close();
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    });

  async function consume(pieces: Uint8Array[]) {
    const stream = await streaming(pieces).chat.completions.create({ model: 'm', messages, stream: true });
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    return chunks;
  }

  it('random bytes, randomly split: only chunks or typed errors, never another exception or a hang', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 20 }), async (pieces) => {
        const result = await outcome(() => consume(pieces));
        expect(Array.isArray(result) || result instanceof InferenceError).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('random JSON in data lines: only valid chunks or typed errors', async () => {
    const encoder = new TextEncoder();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 8 }), fc.boolean(), async (values, done) => {
        const text = sse(...values.map((v) => JSON.stringify(v)), ...(done ? ['[DONE]'] : []));
        const result = await outcome(() => consume([encoder.encode(text)]));
        if (Array.isArray(result)) {
          for (const c of result) expect(c.choices === null || Array.isArray(c.choices)).toBe(true);
        } else {
          expect(result).toBeInstanceOf(InferenceError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('deeply nested JSON: kept in an unknown field, a typed error where a type is expected', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const encoder = new TextEncoder();
    const ok = await consume([encoder.encode(`data: {"x":${deep},"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop"}]}\n\n`)]);
    expect(ok[0]?.choices?.[0]?.delta.content).toBe('a');
    const bad = await outcome(() => consume([encoder.encode(`data: {"choices":[{"index":0,"delta":{"content":${deep}}}]}\n\n`)]));
    expect(bad).toBeInstanceOf(ResponseValidationError);
  });

  it('__proto__ keys pollute nothing', async () => {
    const encoder = new TextEncoder();
    const text = sse(
      '{"__proto__":{"polluted":1},"choices":[{"index":0,"__proto__":{"polluted":2},"delta":{"content":"a","tool_calls":[{"index":0,"id":"c","__proto__":{"polluted":3},"function":{"name":"f","arguments":"{}"}}]},"finish_reason":"stop"}]}',
      '[DONE]',
    );
    const stream = await streaming([encoder.encode(text)]).chat.completions.create({ model: 'm', messages, stream: true });
    const final = await stream.finalChatCompletion();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((Object.prototype as { polluted?: unknown }).polluted).toBeUndefined();
    expect((final.choices[0]?.message?.tool_calls?.[0] as { polluted?: unknown }).polluted).toBeUndefined();
    expect(final.choices[0]?.message?.content).toBe('a');
  });

  it('numbers beyond 2^53 parse (to the nearest double) without an error', async () => {
    mock.enqueue({ status: 200, body: '{"object":"chat.completion","seed":18446744073709551615,"choices":[{"index":0,"message":{"role":"assistant","content":"x"},"finish_reason":"stop"}]}' });
    const completion = await client(mock.url).chat.completions.create({ model: 'mock/echo', messages });
    expect(extras(completion)['seed']).toBe(2 ** 64); // 18446744073709551615 rounds to the nearest double
  });
});

describe('secrets', () => {
  function spyLogger(): Logger & { text: () => string } {
    const lines: string[] = [];
    const log = (...args: unknown[]) => void lines.push(args.map((a) => inspect(a, { depth: 10 })).join(' '));
    return { error: log, warn: log, info: log, debug: log, text: () => lines.join('\n') };
  }

  function expectNoKey(...things: unknown[]) {
    for (const thing of things) {
      const texts = [String(thing), inspect(thing, { depth: 10, showHidden: true })];
      try {
        texts.push(JSON.stringify(thing) ?? '');
      } catch {
        // circular: inspect covers it
      }
      if (thing instanceof Error) texts.push(thing.message, thing.stack ?? '');
      for (const text of texts) expect(text).not.toContain(KEY);
    }
  }

  it('never appears in errors of any class, their serialisation, or logs at debug level', async () => {
    const logger = spyLogger();
    const c = client(mock.url, { logLevel: 'debug', logger, timeout: 100, maxRetries: 1 });
    mock.enqueue({ status: 401, body: { error: { message: 'bad key' } } });
    const auth = await outcome(() => c.models.list());
    mock.enqueue({ status: 503, headers: { 'retry-after-ms': '0' }, body: { error: { message: 'busy' } } }, { stall: true });
    const timeout = await outcome(() => c.models.list());
    mock.enqueue({ status: 200, body: '<html/>' });
    const validation = await outcome(() => c.models.list());
    const controller = new AbortController();
    controller.abort();
    const abort = await outcome(() => c.models.list({ signal: controller.signal }));
    expect(auth).toBeInstanceOf(APIError);
    expect(timeout).toBeInstanceOf(APIConnectionTimeoutError);
    expect(validation).toBeInstanceOf(ResponseValidationError);
    expect(abort).toBeInstanceOf(APIUserAbortError);
    expectNoKey(auth, timeout, validation, abort, c, c.models, c.chat.completions);
    expect(logger.text()).toContain('***');
    expect(logger.text()).not.toContain(KEY);
  });

  it('is scrubbed from a fetch error that quotes it', async () => {
    const leaky: typeof fetch = async (_url, init) => {
      throw new TypeError(`request failed with headers ${JSON.stringify(Object.fromEntries(new Headers(init?.headers)))}`);
    };
    const error = await outcome(() => client('http://api.test/v1', { fetch: leaky, maxRetries: 0 }).models.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(inspect(error, { depth: 10 })).toContain('***');
    expectNoKey(error);
  });

  it('never appears when a client is logged with console.log', () => {
    const c = client(mock.url);
    expectNoKey(c, inspect(c, { depth: Infinity, showHidden: true, getters: true }));
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
