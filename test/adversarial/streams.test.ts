// Streams taken at docs/streaming.md's and docs/reliability.md's word: `for await` once, `tee()`,
// `toReadableStream()` / `fromReadableStream()`, events, `final…()`, and an abort at every point.
// "Abort at once" is checked as "the server sees the connection close", within a generous bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  ChatCompletionStream,
  ListenerError,
  ResponseValidationError,
  Stream,
  type ChatCompletionChunk,
} from '../../src/index';
import { chunk, clientOf, delay, event, json, rejection, serve, sse, sseHead, textChunks, USER, within, type SeenRequest, type TestServer } from './support';

let server: TestServer;
beforeAll(async () => {
  server = await serve((_req, res) => sse(res, textChunks(['Hello', ' world'])));
});
afterAll(() => server.close());

const body = { model: 'acme/chat-1', messages: USER, stream: true as const };
const client = () => clientOf(server.baseURL);

/** Answers with `chunks`, then keeps the connection open and silent. */
const openAfter = (chunks: unknown[]) => server.handle((_req, res) => {
  sseHead(res);
  for (const c of chunks) event(res, c);
});

const lastRequest = (): SeenRequest => server.requests.at(-1)!;
const closes = async (seen: SeenRequest) => expect(await within(seen.closed, 15_000)).not.toBe('pending');

describe('reading', () => {
  it('a second for await throws and points to tee()', async () => {
    server.handle((_req, res) => sse(res, textChunks(['a'])));
    const stream = await client().chat.completions.create(body);
    for await (const _ of stream) {
      // read it all
    }
    const err = await rejection(async () => {
      for await (const _ of stream) {
        // again
      }
    });
    expect(String((err as Error).message)).toMatch(/tee\(\)/);
  });

  it('accepts what real servers send: CRLF, data: without a space, comments, event: lines, data: null, choices: null', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      res.write(': keep-alive\r\n\r\n');
      res.write(`event: message\r\ndata:${JSON.stringify(chunk({ role: 'assistant', content: 'A' }))}\r\n\r\n`);
      res.write('data: null\r\n\r\n');
      res.write(`data: ${JSON.stringify({ ...chunk({}), choices: null })}\r\n\r\n`);
      res.write(`data: ${JSON.stringify(chunk({ content: 'B' }))}\r\n\r\n`);
      res.write(`data: ${JSON.stringify(chunk({}, 'stop'))}\r\n\r\ndata: [DONE]\r\n\r\n`);
      res.end();
    });
    const stream = await client().chat.completions.create(body);
    expect(await stream.finalContent()).toBe('AB');
  });

  it('a trickle, one byte at a time: read whole, the bytes of an event keep the idle timer alive', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      const text = textChunks(['drip', 'drop']).map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
      for (const ch of text) {
        res.write(ch);
        await delay(4);
      }
      res.end();
    });
    // One event is ~150 bytes, 4 ms apart (~600 ms); the idle timeout is shorter than one event.
    const stream = await clientOf(server.baseURL, { streamIdleTimeout: 400 }).chat.completions.create(body);
    expect(await stream.finalContent()).toBe('dripdrop');
  }, 60_000);

  it('a stream cut before any finish_reason and without [DONE]: APIConnectionError from the loop and from finalChatCompletion()', async () => {
    server.handle((_req, res) => sse(res, [chunk({ role: 'assistant', content: 'half' })], false));
    const stream = await client().chat.completions.create(body);
    const err = await rejection(async () => {
      for await (const _ of stream) {
        // read
      }
    });
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(await rejection(() => stream.finalChatCompletion())).toBeInstanceOf(APIConnectionError);
  });

  it('an HTML page where a stream was asked: ResponseValidationError, not retried', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><title>Login</title></html>');
    });
    const before = server.requests.length;
    const err = await rejection(() => clientOf(server.baseURL, { maxRetries: 2 }).chat.completions.create(body));
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(server.requests.length - before).toBe(1);
  });

  it('an event larger than maxEventSize: ResponseValidationError, the connection let go', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      event(res, chunk({ role: 'assistant', content: '' }));
      res.write(`data: ${JSON.stringify(chunk({ content: 'x'.repeat(50_000) }))}`); // no end of event, connection kept open
    });
    // The error may come from create() itself (before the first chunk is handed over) or from the stream.
    const err = await rejection(async () => (await clientOf(server.baseURL, { maxEventSize: 10_000 }).chat.completions.create(body)).finalChatCompletion());
    expect(err).toBeInstanceOf(ResponseValidationError);
    await closes(lastRequest());
  });

  it('[DONE], then more events on a connection kept open: the stream ends at [DONE], the connection is let go', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      for (const c of textChunks(['done'])) event(res, c);
      event(res, '[DONE]');
      event(res, chunk({ content: ' and more' }));
    });
    const stream = await client().chat.completions.create(body);
    expect(await stream.finalContent()).toBe('done');
    await closes(lastRequest());
  });

  it('an in-band error after a chunk: APIError from the loop, the connection let go', async () => {
    openAfter([chunk({ role: 'assistant', content: 'a' }), { error: { message: 'upstream died', code: 502 } }]);
    const stream = await client().chat.completions.create(body);
    const err = await rejection(() => stream.done());
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(502);
    await closes(lastRequest());
  });

  it('__proto__ keys in a chunk pollute no prototype and keep the chunk a plain object', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      res.write(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","__proto__":{"polluted":true},"choices":[{"index":0,"delta":{"role":"assistant","content":"x","__proto__":{"polluted":true}},"finish_reason":null}]}\n\n`);
      event(res, chunk({}, 'stop'));
      event(res, '[DONE]');
      res.end();
    });
    const stream = await client().chat.completions.create(body);
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(chunks[0])).toBe(Object.prototype);
    expect((chunks[0] as unknown as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((chunks[0]!.choices[0]!.delta as unknown as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('abort at every point', () => {
  it('stream() aborted before its first read: nothing is sent, done() rejects with APIUserAbortError', async () => {
    const before = server.requests.length;
    const stream = client().chat.completions.stream({ model: 'acme/chat-1', messages: USER });
    stream.abort();
    const result = await within(rejection(() => stream.done()), 10_000);
    expect(result).not.toBe('pending');
    expect((result as { value: unknown }).value).toBeInstanceOf(APIUserAbortError);
    await delay(100);
    expect(server.requests.length).toBe(before);
  });

  it('while waiting for the headers: APIUserAbortError, the connection closed', async () => {
    server.handle(() => {}); // never answers
    const controller = new AbortController();
    const call = rejection(() => client().chat.completions.create(body, { signal: controller.signal }));
    while (!server.requests.length || server.requests.at(-1)!.body === '') await delay(10);
    await delay(30);
    controller.abort();
    expect(await within(call, 10_000)).toEqual({ value: expect.any(APIUserAbortError) });
    await closes(lastRequest());
  });

  it('while the loop waits for the next chunk: the pending next() rejects with APIUserAbortError; abort and end told once each', async () => {
    openAfter([chunk({ role: 'assistant', content: 'a' })]);
    const stream = await client().chat.completions.create(body);
    const told: string[] = [];
    stream.on('abort', () => told.push('abort')).on('end', () => told.push('end')).on('error', () => told.push('error'));
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    const pending = iterator.next();
    stream.controller.abort();
    const result = await within(pending, 10_000);
    expect(result).toEqual({ error: expect.any(APIUserAbortError) });
    await closes(lastRequest());
    await delay(20);
    expect(told.filter((t) => t === 'abort')).toHaveLength(1);
    expect(told.at(-1)).toBe('end');
    expect(told.filter((t) => t === 'end')).toHaveLength(1);
    expect(stream.aborted).toBe(true);
  });

  it('break out of textStream(): the request is aborted', async () => {
    openAfter([chunk({ role: 'assistant', content: '' }), chunk({ content: 'one' })]);
    const stream = await client().chat.completions.create(body);
    for await (const text of stream.textStream()) {
      expect(text).toBe('one');
      break;
    }
    await closes(lastRequest());
  });

  it('after break, finalChatCompletion() rejects (the loop was left early)', async () => {
    openAfter([chunk({ role: 'assistant', content: 'x' })]);
    const stream = await client().chat.completions.create(body);
    for await (const _ of stream) break;
    const result = await within(rejection(() => stream.finalChatCompletion()), 10_000);
    expect(result).not.toBe('pending');
  });

  it('a chunk listener that throws: the request is aborted at once; the loop rejects with ListenerError', async () => {
    openAfter([chunk({ role: 'assistant', content: 'x' })]);
    const stream = await client().chat.completions.create(body);
    stream.on('chunk', () => {
      throw new Error('listener broke');
    });
    const err = await rejection(async () => {
      for await (const _ of stream) {
        // read
      }
    });
    expect(err).toBeInstanceOf(ListenerError);
    await closes(lastRequest());
  });

  it('an end listener that throws: done() rejects with ListenerError, and nothing is told after end', async () => {
    server.handle((_req, res) => sse(res, textChunks(['a'])));
    const stream = await client().chat.completions.create(body);
    const told: string[] = [];
    stream.on('end', () => {
      told.push('end');
      throw new Error('end listener broke');
    });
    stream.on('error', () => told.push('error'));
    const err = await rejection(() => stream.done());
    expect(err).toBeInstanceOf(ListenerError);
    expect(told.filter((t) => t === 'end')).toHaveLength(1);
    expect(told.at(-1)).toBe('end');
  });
});

describe('signals of every kind', () => {
  it('an already-aborted signal: APIUserAbortError at once, nothing sent', async () => {
    const before = server.requests.length;
    const err = await rejection(() => client().chat.completions.create(body, { signal: AbortSignal.abort() }));
    expect(err).toBeInstanceOf(APIUserAbortError);
    await delay(50);
    expect(server.requests.length).toBe(before);
  });

  // AbortSignal.timeout() aborts with a TimeoutError reason; it is still the caller's signal.
  it("AbortSignal.timeout() as the caller's signal: APIUserAbortError, the connection closed", async () => {
    server.handle(() => {});
    const before = server.requests.length;
    const err = await within(rejection(() => client().chat.completions.create(body, { signal: AbortSignal.timeout(100) })), 15_000);
    expect(err).toEqual({ value: expect.any(APIUserAbortError) });
    if (server.requests.length > before) await closes(lastRequest()); // (on a loaded machine it may abort before the server has it)
  });

  // "Aborting `controller` cancels the body" (streaming.md), also a controller aborted before it is passed (issue 29).
  it('ChatCompletionStream.fromReadableStream() with a controller already aborted: the body is cancelled, the stream rejects with APIUserAbortError', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    controller.abort();
    const result = await within(rejection(() => ChatCompletionStream.fromReadableStream(body, controller).done()), 5_000);
    expect(result).toEqual({ value: expect.any(APIUserAbortError) });
    expect(cancelled).toBe(true);
  });

  // The same for Stream.fromReadableStream().
  it('Stream.fromReadableStream() with a controller already aborted: the loop ends with APIUserAbortError, the body is cancelled', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    controller.abort();
    const result = await within(rejection(() => Stream.fromReadableStream<ChatCompletionChunk>(body, controller)[Symbol.asyncIterator]().next()), 5_000);
    expect(result).toEqual({ value: expect.any(APIUserAbortError) });
    expect(cancelled).toBe(true);
  });

  it('fromReadableStream(): a controller aborted before anything reads the stream cancels the body there; emitted() rejects with APIUserAbortError', async () => {
    for (const read of [
      (b: ReadableStream<Uint8Array>, c: AbortController) => Stream.fromReadableStream<ChatCompletionChunk>(b, c),
      (b: ReadableStream<Uint8Array>, c: AbortController) => ChatCompletionStream.fromReadableStream(b, c),
    ]) {
      let cancelled = false;
      const body = new ReadableStream<Uint8Array>({
        cancel() {
          cancelled = true;
        },
      });
      const controller = new AbortController();
      const stream = read(body, controller);
      const waiting = stream instanceof ChatCompletionStream ? stream.emitted('content') : undefined;
      controller.abort();
      expect(cancelled).toBe(true);
      if (waiting) expect(await within(rejection(() => waiting), 5_000)).toEqual({ value: expect.any(APIUserAbortError) });
      expect(await within(rejection(() => stream[Symbol.asyncIterator]().next()), 5_000)).toEqual({ value: expect.any(APIUserAbortError) });
    }
  });

  it('next() after the end, and return() twice: no hang, no throw', async () => {
    server.handle((_req, res) => sse(res, textChunks(['a'])));
    const stream = await client().chat.completions.create(body);
    const it = stream[Symbol.asyncIterator]();
    while (!(await it.next()).done) {
      // drain
    }
    expect(await within(it.next(), 5_000)).toEqual({ value: { done: true, value: undefined } });
    await it.return?.();
    await it.return?.();
  });
});

describe('tee()', () => {
  it('both branches see every chunk; one leaving early leaves the other reading', async () => {
    server.handle((_req, res) => sse(res, textChunks(['a', 'b', 'c'])));
    const [left, right] = (await client().chat.completions.create(body)).tee();
    const read = async (s: Stream<ChatCompletionChunk>, stopAfter = Infinity) => {
      const out: string[] = [];
      for await (const c of s) {
        out.push(c.choices[0]?.delta.content ?? '');
        if (out.length >= stopAfter) break;
      }
      return out.join('');
    };
    const [l, r] = await Promise.all([read(left, 2), read(right)]);
    expect(l).toBe('a');
    expect(r).toBe('abc');
  });

  it('both branches closed while the server is silent: the request is cancelled', async () => {
    openAfter([chunk({ role: 'assistant', content: 'x' })]);
    const [left, right] = (await client().chat.completions.create(body)).tee();
    for await (const _ of left) break;
    for await (const _ of right) break;
    await closes(lastRequest());
  });
});

describe('toReadableStream() and fromReadableStream()', () => {
  it('round trip: the read-back stream gives the same chunks, events and final completion (tool calls included)', async () => {
    const chunks = [
      chunk({ role: 'assistant', content: 'Let me check. ' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"ci' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
      chunk({}, 'tool_calls'),
      { ...chunk({}), choices: [], usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } },
    ];
    server.handle((_req, res) => sse(res, chunks));
    const original = await client().chat.completions.create(body);
    const readBack = ChatCompletionStream.fromReadableStream(original.toReadableStream());
    const args: string[] = [];
    readBack.on('tool_calls.function.arguments.done', ({ arguments: a }) => args.push(a));
    const final = await readBack.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('Let me check. ');
    expect(final.choices[0]!.message.tool_calls?.[0]?.function).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(final.usage?.total_tokens).toBe(12);
    expect(args).toEqual(['{"city":"Paris"}']);
  });

  it('cancel() on toReadableStream() while the server is silent: the request is aborted', async () => {
    openAfter([chunk({ role: 'assistant', content: 'x' })]);
    const readable = (await client().chat.completions.create(body)).toReadableStream();
    const reader = readable.getReader();
    await reader.read();
    const pending = reader.read();
    await reader.cancel();
    expect(await within(pending, 10_000)).toEqual({ value: { done: true, value: undefined } });
    await closes(lastRequest());
  });

  it('a multi-byte character split across reads is decoded whole', async () => {
    const line = new TextEncoder().encode(`${JSON.stringify(chunk({ role: 'assistant', content: 'é☃😀' }))}\n${JSON.stringify(chunk({}, 'stop'))}\n`);
    const at = line.indexOf(0xf0) + 2; // inside the 4 bytes of 😀
    const split = line.indexOf(0xc3) + 1; // inside the 2 bytes of é
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(line.slice(0, split));
        c.enqueue(line.slice(split, at));
        c.enqueue(line.slice(at));
        c.close();
      },
    });
    expect(await ChatCompletionStream.fromReadableStream(body).finalContent()).toBe('é☃😀');
  });

  it('a line longer than maxEventSize: ResponseValidationError with the line as raw, the body cancelled', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(`${JSON.stringify(chunk({ role: 'assistant', content: 'x'.repeat(5_000) }))}`));
      },
      cancel() {
        cancelled = true;
      },
    });
    const err = await rejection(() => Stream.fromReadableStream<ChatCompletionChunk>(body, undefined, { maxEventSize: 1_000 })[Symbol.asyncIterator]().next());
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(cancelled).toBe(true);
  });

  it('a line longer than maxEventSize that arrives whole, with its line end, in one read: ResponseValidationError too', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(`${JSON.stringify(chunk({ role: 'assistant', content: 'x'.repeat(5_000) }))}\n`));
        c.close();
      },
    });
    const err = await rejection(() => Stream.fromReadableStream<ChatCompletionChunk>(body, undefined, { maxEventSize: 1_000 })[Symbol.asyncIterator]().next());
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect((err as Error).message).toMatch(/maxEventSize/);
  });

  // Issue 29: a plain Stream.fromReadableStream whose body fails threw the body's raw error; ChatCompletionStream wrapped the same failure as APIConnectionError.
  it('Stream.fromReadableStream: a body that fails gives APIConnectionError, as ChatCompletionStream does', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(`${JSON.stringify(chunk({ role: 'assistant', content: 'x' }))}\n`));
        setTimeout(() => c.error(new TypeError('terminated')), 10);
      },
    });
    const err = await rejection(async () => {
      for await (const _ of Stream.fromReadableStream<ChatCompletionChunk>(body)) {
        // read
      }
    });
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).cause).toBeInstanceOf(TypeError);
    expect(((err as Error).cause as Error).message).toBe('terminated');
  });
});

describe('fromReadableStream() and a long line', () => {
  /** A body of one NDJSON line of about `n` characters, in reads of 64 KiB, as a slow route sends it. */
  const longLine = (n: number) => {
    const piece = new TextEncoder().encode('x'.repeat(64 * 1024));
    let left = Math.ceil(n / piece.length);
    let started = false;
    return new ReadableStream<Uint8Array>({
      pull(c) {
        if (!started) {
          started = true;
          c.enqueue(new TextEncoder().encode('{"text":"'));
        } else if (left-- > 0) c.enqueue(piece);
        else {
          c.enqueue(new TextEncoder().encode('"}\n'));
          c.close();
        }
      },
    });
  };
  /**
   * The CPU time (µs, user + system, of this test process) of reading a line of `n` characters: not
   * the wall time, which other processes on a loaded machine stretch at random.
   */
  const readTime = async (n: number) => {
    const start = process.cpuUsage();
    let length = 0;
    for await (const value of Stream.fromReadableStream<{ text: string }>(longLine(n))) length += value.text.length;
    const { user, system } = process.cpuUsage(start);
    expect(length).toBeGreaterThanOrEqual(n);
    return user + system;
  };

  // Issue 29: the reader searched its whole buffer for a line end on every read, so a line of n
  // characters cost n² (2 MB 0.4 s, 8 MB 8.8 s). Linear: 4× the length costs about 4× the time.
  it('4× the length of a line costs about 4× the CPU time, far from the 16× of a quadratic read', async () => {
    const n = 2 << 20;
    // Both sizes once first: the JIT warm, the heap grown to hold the larger line.
    await readTime(n);
    await readTime(4 * n);
    // Alternated, the least of each: one stray pause (a GC, another process) does not decide.
    let one = Infinity;
    let four = Infinity;
    for (let i = 0; i < 5; i++) {
      one = Math.min(one, await readTime(n));
      four = Math.min(four, await readTime(4 * n));
    }
    // Linear reads give about 4×, quadratic ones 16× (23× before the fix); 8× tells them apart
    // with room for a loaded machine (5.1× was seen once in CI, 3.9–4.3× on a quiet one).
    expect(four / one).toBeLessThanOrEqual(8);
  }, 120_000);
});

describe('legacy completions stream', () => {
  it('break cancels the request', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      event(res, { id: 'cmpl', object: 'text_completion', created: 1, model: 'acme/base-1', choices: [{ index: 0, text: 'Once', finish_reason: null }] });
    });
    const stream = await client().completions.create({ model: 'acme/base-1', prompt: 'x', stream: true });
    for await (const c of stream) {
      expect(c.choices[0]?.text).toBe('Once');
      break;
    }
    await closes(lastRequest());
  });

  it('a JSON error where a stream was asked: the status class', async () => {
    server.handle((_req, res) => json(res, { error: { message: 'model_not_found', type: 'invalid_request_error' } }, 404));
    const err = await rejection(() => client().completions.create({ model: 'acme/nope', prompt: 'x', stream: true }));
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(404);
  });
});

describe('what the accumulator promises (docs/streaming.md, "The final message")', () => {
  it('n > 1 with choices interleaved, index 1 first: each choice accumulated on its own, in index order', async () => {
    const c = (index: number, delta: Record<string, unknown>, finish: string | null = null) => ({ ...chunk({}), choices: [{ index, delta, finish_reason: finish }] });
    server.handle((_req, res) => sse(res, [c(1, { role: 'assistant', content: 'B1' }), c(0, { role: 'assistant', content: 'A1' }), c(1, { content: 'B2' }), c(0, { content: 'A2' }), c(0, {}, 'stop'), c(1, {}, 'length')]));
    const final = await (await client().chat.completions.create({ ...body, n: 2 })).finalChatCompletion();
    expect(final.choices.map((x) => [x.index, x.message.content, x.finish_reason])).toEqual([
      [0, 'A1A2', 'stop'],
      [1, 'B1B2', 'length'],
    ]);
  });

  it("tool-call fragments with '' ids and null names on continuations, indexes from 1: one call per id", async () => {
    server.handle((_req, res) =>
      sse(res, [
        chunk({ role: 'assistant', tool_calls: [{ index: 1, id: 'call_a', type: 'function', function: { name: 'first', arguments: '{"x":' } }] }),
        chunk({ tool_calls: [{ index: 1, id: '', function: { name: null, arguments: '1}' } }] }),
        chunk({ tool_calls: [{ index: 2, id: 'call_b', type: 'function', function: { name: 'second', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 2, id: '', function: { name: '', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
      ]),
    );
    const message = await (await client().chat.completions.create(body)).finalMessage();
    expect(message.tool_calls?.map((t) => [t.id, t.function.name, t.function.arguments])).toEqual([
      ['call_a', 'first', '{"x":1}'],
      ['call_b', 'second', '{}'],
    ]);
  });

  it('a trailing usage of zeros never replaces the usage already seen', async () => {
    const usage = (n: number) => ({ ...chunk({}), choices: [], usage: { prompt_tokens: n, completion_tokens: n, total_tokens: 2 * n } });
    server.handle((_req, res) => sse(res, [...textChunks(['a']), usage(7), { ...usage(0), id: undefined }]));
    const final = await (await client().chat.completions.create(body)).finalChatCompletion();
    expect(final.usage?.total_tokens).toBe(14);
  });

  // docs/reliability.md promises "`finalChatCompletion()` never returns `choices: []`"; a stream whose only chunk was a usage chunk with `choices: []` (then [DONE]) resolved with `choices: []` (issue 29).
  it('a stream of only a usage chunk (choices: []): finalChatCompletion() never returns choices: []', async () => {
    server.handle((_req, res) => sse(res, [{ ...chunk({}), choices: [], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } }]));
    const outcome = await (async () => (await client().chat.completions.create(body)).finalChatCompletion())().then(
      (c) => c.choices.length,
      (e: unknown) => e,
    );
    if (typeof outcome === 'number') expect(outcome).toBeGreaterThan(0);
    else expect(outcome).toBeInstanceOf(ResponseValidationError);
  });

  it('a stream of only usage chunks: ResponseValidationError ("without a single choice") from the loop and from finalChatCompletion()', async () => {
    const usage = { ...chunk({}), choices: [], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } };
    server.handle((_req, res) => sse(res, [usage, usage]));
    const final = await rejection(async () => (await client().chat.completions.create(body)).finalChatCompletion());
    expect(final).toBeInstanceOf(ResponseValidationError);
    expect((final as Error).message).toMatch(/without a single choice/);
    const seen: unknown[] = [];
    const loop = await rejection(async () => {
      for await (const c of await client().chat.completions.create(body)) seen.push(c);
    });
    expect(loop).toBeInstanceOf(ResponseValidationError);
    expect(seen).toHaveLength(2);
  });

  it('a finish_reason sent twice: content.done, chatCompletion and finalContent told once each', async () => {
    server.handle((_req, res) => sse(res, [chunk({ role: 'assistant', content: 'x' }), chunk({}, 'stop'), chunk({}, 'stop')]));
    const stream = await client().chat.completions.create(body);
    const told: string[] = [];
    for (const name of ['content.done', 'chatCompletion', 'finalContent', 'end'] as const) stream.on(name, () => void told.push(name));
    await stream.done();
    expect(told).toEqual(['content.done', 'chatCompletion', 'finalContent', 'end']);
  });

  it('a gzip-compressed event stream is read', async () => {
    const { gzipSync } = await import('node:zlib');
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(gzipSync(textChunks(['zip', 'ped']).map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n'));
    });
    expect(await (await client().chat.completions.create(body)).finalContent()).toBe('zipped');
  });
});
