/**
 * Streaming through the public API against the local server: framing, in-band errors, the end
 * of a stream, time limits, cancellation, retries before the first event, and the helpers.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  ChatCompletionStream,
  Client,
  type ChatCompletionChunk,
  InferenceError,
  InternalServerError,
  ListenerError,
  RateLimitError,
  ResponseValidationError,
  Stream,
  extras,
} from '../src/index';
import { startMockServer } from '../src/testing';
import { startFaultServer } from './support/fault-server';
import { useMockServer } from './support/mock-server';

// `client(options)`: a client of the mock server with these options.
const { server, client } = useMockServer({}, { reset: 'requests' });
const messages = [{ role: 'user' as const, content: 'hello brave new world' }];
const stream = (c = client(), extra: Record<string, unknown> = {}) =>
  c.chat.completions.create({ model: 'mock/echo', messages, stream: true, ...extra });

const chunk = (content: string | undefined, finish: string | null = null, extra: object = {}) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
  ...extra,
});

/** Reply to the next request with this exact SSE text. */
const raw = (text: string, headers: Record<string, string> = {}) =>
  server.enqueue({ raw: text, headers: { 'content-type': 'text/event-stream', ...headers } });

async function textOf(s: AsyncIterable<ChatCompletionChunk>): Promise<string> {
  let text = '';
  for await (const c of s) text += c.choices?.[0]?.delta.content ?? '';
  return text;
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('a stream from the service', () => {
  it("arrives in the spec's order and rebuilds the reply exactly", async () => {
    const s = await stream();
    expect(s).toBeInstanceOf(ChatCompletionStream);
    expect(s).toBeInstanceOf(Stream);
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of s) chunks.push(c);
    expect(chunks[0]?.choices?.[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.at(-1)?.choices?.[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.map((c) => c.choices?.[0]?.delta.content ?? '').join('')).toBe('You said: hello brave new world');
    expect(server.requests[0]?.headers.accept).toBe('text/event-stream');
    expect(server.requests[0]?.body).toMatchObject({ stream: true });
  });

  it('finalChatCompletion() gives the accumulated completion, with usage from include_usage', async () => {
    const s = await stream(client(), { stream_options: { include_usage: true } });
    const completion = await s.finalChatCompletion();
    expect(completion.choices[0]?.message).toEqual({ role: 'assistant', content: 'You said: hello brave new world', refusal: null });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toEqual({ prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 });
    expect(completion.object).toBe('chat.completion');
  });

  it('finalChatCompletion() after a for-await loop returns what the loop saw', async () => {
    const s = await stream();
    const text = await textOf(s);
    expect((await s.finalChatCompletion()).choices[0]?.message?.content).toBe(text);
  });

  it('textStream() yields only the text deltas', async () => {
    const parts: string[] = [];
    for await (const t of (await stream()).textStream()) parts.push(t);
    expect(parts.join('')).toBe('You said: hello brave new world');
    expect(parts.every((p) => p.length > 0)).toBe(true);
  });

  it('accumulates n > 1 choices separately', async () => {
    const completion = await (await stream(client(), { n: 2 })).finalChatCompletion();
    expect(completion.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(completion.choices.map((c) => c.message?.content)).toEqual(['You said: hello brave new world', 'You said: hello brave new world']);
  });

  it('legacy completions stream text fragments', async () => {
    const s = await client().completions.create({ model: 'mock/echo', prompt: 'once upon a time', stream: true });
    let text = '';
    for await (const c of s) text += c.choices[0]?.text ?? '';
    expect(text).toBe('You said: once upon a time');
  });

  it('withResponse() gives the stream with the response and request id', async () => {
    const { data, response, requestId } = await stream().withResponse();
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(requestId).toMatch(/^req_/);
    expect(await textOf(data)).toBe('You said: hello brave new world');
  });

  it('can be iterated once; a second iteration is a clear error', async () => {
    const s = await stream();
    await textOf(s);
    expect(() => s[Symbol.asyncIterator]()).toThrow(/already consumed.*tee\(\)/);
  });
});

describe('framing', () => {
  it('handles comments, event lines, CRLF and CR, data without a space, multi-line data, empty data and data: null', async () => {
    const a = JSON.stringify(chunk('A'));
    const b = JSON.stringify(chunk('B')).replace('"content":"B"', '"content":\n"B"'); // split over two data lines
    raw(
      `: OPENROUTER PROCESSING\r\n\r\nevent: message\r\ndata: ${a}\r\n\r\n` +
        `data:${JSON.stringify(chunk('C'))}\r\r` +
        `data: ${b.split('\n')[0]}\ndata: ${b.split('\n')[1]}\n\n` +
        'data: \n\ndata: null\n\n' +
        `data: ${JSON.stringify(chunk(undefined, 'stop'))}\n\ndata: [DONE]\n\n`,
    );
    expect(await textOf(await stream())).toBe('ACB');
  });

  it('reads a large body that arrives in one piece (parsed a slice at a time) with every line end and multi-line data', async () => {
    const ends = ['\n', '\r\n', '\r'];
    let body = ': keep-alive\n\n';
    let expected = '';
    for (let i = 0; i < 1500; i++) {
      const text = `w${i} `;
      expected += text;
      const end = ends[i % 3]!;
      const json = JSON.stringify(chunk(text));
      // Every fourth event's data is split over two data lines (joined with a line feed: valid JSON whitespace).
      body += i % 4 === 0 ? `data: ${json.replace('"choices":', `"choices":${end}data: `)}${end}${end}` : `data: ${json}${end}${end}`;
    }
    body += `data: ${JSON.stringify(chunk(undefined, 'stop'))}\n\ndata: [DONE]\n\n`;
    expect(body.length).toBeGreaterThan(8 * 8192);
    raw(body);
    const s = await stream();
    expect(await textOf(s)).toBe(expected);
    // 1500 fragments, joined in blocks as they arrive: the same text.
    expect((await s.finalChatCompletion()).choices[0]?.message.content).toBe(expected);
  });

  it('delivers the last event even without a trailing blank line', async () => {
    raw(`data: ${JSON.stringify(chunk('x'))}\n\ndata: ${JSON.stringify(chunk('y', 'stop'))}`);
    expect(await textOf(await stream())).toBe('xy');
  });

  it('stops at [DONE] and ignores anything after it', async () => {
    raw(`data: ${JSON.stringify(chunk('x', 'stop'))}\n\ndata: [DONE]\n\ndata: ${JSON.stringify(chunk('late'))}\n\n`);
    expect(await textOf(await stream())).toBe('x');
  });

  it('reads `choices: null` as no choices', async () => {
    raw(`data: ${JSON.stringify({ ...chunk('x'), choices: null })}\n\ndata: ${JSON.stringify(chunk('y', 'stop'))}\n\ndata: [DONE]\n\n`);
    expect(await textOf(await stream())).toBe('y');
  });

  it('a malformed event is a ResponseValidationError carrying the raw text', async () => {
    raw(`data: ${JSON.stringify(chunk('x'))}\n\ndata: {"choices": [\n\n`);
    const s = await stream();
    const error = await failure(() => textOf(s));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).raw).toBe('{"choices": [');
  });

  it('an event of the wrong shape is a ResponseValidationError with the path', async () => {
    raw(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 42 } }] })}\n\n`);
    const error = await failure(() => stream());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.path).toBe('choices[0].delta.content');
  });
});

describe('in-band errors', () => {
  it('an {"error"} event after content is an APIError with the provider message, classed by its code', async () => {
    raw(
      `data: ${JSON.stringify(chunk('partial'))}\n\n` +
        `data: ${JSON.stringify({ error: { code: 502, message: 'Provider returned error', metadata: { provider_name: 'X' } }, choices: [] })}\n\n`,
    );
    const s = await stream();
    let text = '';
    const error = await failure(async () => {
      for await (const c of s) text += c.choices?.[0]?.delta.content ?? '';
    });
    expect(text).toBe('partial');
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as APIError).status).toBe(502);
    expect((error as APIError).message).toContain('Provider returned error');
  });

  it('an event: error with a string code is an APIError with that code', async () => {
    raw(`data: ${JSON.stringify(chunk('x'))}\n\nevent: error\ndata: {"message":"Context length exceeded","code":"CONTEXT_LENGTH_EXCEEDED"}\n\n`);
    const s = await stream();
    const error = (await failure(() => textOf(s))) as APIError;
    expect(error.constructor).toBe(APIError);
    expect(error.code).toBe('CONTEXT_LENGTH_EXCEEDED');
    expect(error.message).toContain('Context length exceeded');
  });

  it('an error before any content gets the retry policy (a retryable code is retried)', async () => {
    server.enqueue({ events: [{ error: { code: 429, message: 'rate limited upstream' } }], headers: { 'retry-after-ms': '0' } });
    expect(await textOf(await stream())).toBe('You said: hello brave new world');
    expect(server.requests).toHaveLength(2);
  });

  it('a non-retryable error before any content is thrown by create()', async () => {
    server.enqueue({ events: [{ error: { code: 400, message: 'bad tool schema' } }] });
    const error = await failure(() => stream());
    expect((error as APIError).status).toBe(400);
    expect(server.requests).toHaveLength(1);
  });

  it('a JSON error body with status 200 instead of a stream is an APIError', async () => {
    server.enqueue({ status: 200, body: { error: { message: 'quota exceeded', code: 429 } }, headers: { 'retry-after-ms': '0' } });
    server.enqueue({ status: 200, body: { error: { message: 'quota exceeded', code: 429 } }, headers: { 'retry-after-ms': '0' } });
    server.enqueue({ status: 200, body: { error: { message: 'quota exceeded', code: 429 } }, headers: { 'retry-after-ms': '0' } });
    await expect(stream()).rejects.toBeInstanceOf(RateLimitError);
  });
});

describe('the end of a stream', () => {
  it('ends cleanly without [DONE] after a finish_reason', async () => {
    raw(`data: ${JSON.stringify(chunk('x'))}\n\ndata: ${JSON.stringify(chunk(undefined, 'stop'))}\n\n`);
    expect(await textOf(await stream())).toBe('x');
  });

  it('throws when cut off before any finish_reason and without [DONE], never a silent success', async () => {
    raw(`data: ${JSON.stringify(chunk('half a sen'))}\n\n`);
    const s = await stream();
    const error = await failure(() => textOf(s));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/ended before any finish_reason/);
  });

  it('a connection reset before the first event is retried', async () => {
    server.enqueue({ reset: true });
    expect(await textOf(await stream())).toBe('You said: hello brave new world');
    expect(server.requests).toHaveLength(2);
  });
});

describe('time limits and cancellation', () => {
  it('a stall after the first event ends with APIConnectionTimeoutError after streamIdleTimeout, and is not retried', async () => {
    server.enqueue({ events: [chunk('x')], after: 'stall' });
    const s = await stream(client({ streamIdleTimeout: 200 }));
    const error = await failure(() => textOf(s));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).not.toBeInstanceOf(APIUserAbortError);
    expect((error as Error).message).toMatch(/no event for 200 ms/);
    expect(server.requests).toHaveLength(1);
  });

  it('a stream reset after its first event is an APIConnectionError and is not retried', async () => {
    server.enqueue({ events: [chunk('x')], after: 'reset' });
    const s = await stream();
    const error = await failure(() => textOf(s));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it('a stall before the first event is retried under the idle timeout', async () => {
    server.enqueue({ events: [], after: 'stall' });
    expect(await textOf(await stream(client({ streamIdleTimeout: 150 })))).toBe('You said: hello brave new world');
    expect(server.requests).toHaveLength(2);
  });

  it('timeout covers the headers: a stall before headers is APIConnectionTimeoutError', async () => {
    server.enqueue({ stall: true });
    await expect(stream(client({ timeout: 150, maxRetries: 0 }))).rejects.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('break cancels the HTTP request', async () => {
    const slow = await startMockServer({ chunkDelayMs: 50 });
    try {
      const c = new Client({ apiKey: slow.apiKey, baseURL: slow.url, logLevel: 'off' });
      const s = await c.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'a b c d e f g h i j k l' }], stream: true });
      let seen = 0;
      for await (const _ of s) if (++seen === 2) break;
      expect(seen).toBe(2);
      await expect(s.finalChatCompletion()).rejects.toThrow(/closed before it ended/);
    } finally {
      await slow.close();
    }
  });

  it('stream.controller.abort() makes the loop throw APIUserAbortError', async () => {
    const slow = await startMockServer({ chunkDelayMs: 50 });
    try {
      const c = new Client({ apiKey: slow.apiKey, baseURL: slow.url, logLevel: 'off' });
      const s = await c.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'a b c d e f g h' }], stream: true });
      const error = await failure(async () => {
        for await (const _ of s) s.controller.abort();
      });
      expect(error).toBeInstanceOf(APIUserAbortError);
    } finally {
      await slow.close();
    }
  });

  it("the caller's signal aborts a stream mid-way, and leaves no listener behind", async () => {
    const slow = await startMockServer({ chunkDelayMs: 30 });
    try {
      const c = new Client({ apiKey: slow.apiKey, baseURL: slow.url, logLevel: 'off' });
      const controller = new AbortController();
      const s = await c.chat.completions.create(
        { model: 'mock/echo', messages: [{ role: 'user', content: 'a b c d e f g h' }], stream: true },
        { signal: controller.signal },
      );
      const error = await failure(async () => {
        for await (const _ of s) controller.abort();
      });
      expect(error).toBeInstanceOf(APIUserAbortError);
      const done = await c.chat.completions.create({ model: 'mock/echo', messages, stream: true }, { signal: new AbortController().signal });
      await textOf(done);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    } finally {
      await slow.close();
    }
  });
});

describe('tee and readable streams', () => {
  it('tee() gives two streams that each see every chunk', async () => {
    const [a, b] = (await stream()).tee();
    const [ta, tb] = await Promise.all([textOf(a), textOf(b)]);
    expect(ta).toBe('You said: hello brave new world');
    expect(tb).toBe(ta);
  });

  it('toReadableStream() and Stream.fromReadableStream() round-trip the chunks (route handler → browser)', async () => {
    const body = (await stream()).toReadableStream();
    const response = new Response(body, { headers: { 'content-type': 'application/x-ndjson' } });
    const back = Stream.fromReadableStream<ChatCompletionChunk>(response.body!);
    expect(await textOf(back)).toBe('You said: hello brave new world');
  });

  it("the browser's reader reports APIUserAbortError when the page aborts its own fetch", async () => {
    // A route handler that sends one chunk, then waits: the page aborts while the next read waits.
    const line = `${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] })}\n`;
    const route = await startFaultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(line);
    });
    try {
      for (const read of [
        (body: ReadableStream<Uint8Array>, c?: AbortController) => Stream.fromReadableStream<ChatCompletionChunk>(body, c),
        (body: ReadableStream<Uint8Array>, c?: AbortController) => ChatCompletionStream.fromReadableStream(body, c),
      ]) {
        // The fetch's own controller, aborted with its default reason (an AbortError), or with one
        // of the page's when that controller was passed on to the reader.
        for (const [reason, passed] of [[undefined, false], [new Error('the user left'), true]] as const) {
          const page = new AbortController();
          const response = await fetch(route.origin, { signal: page.signal });
          const chunks = read(response.body!, passed ? page : undefined)[Symbol.asyncIterator]();
          expect((await chunks.next()).value?.choices[0]?.delta.content).toBe('Hi');
          const next = chunks.next();
          page.abort(reason);
          const error = await next.then(() => undefined, (e: unknown) => e);
          expect(error).toBeInstanceOf(APIUserAbortError);
          expect(error).not.toBeInstanceOf(APIConnectionError);
          if (reason !== undefined) expect((error as Error).cause).toBe(reason);
        }
      }
      // A body that fails otherwise is still no abort.
      const broken = new ReadableStream<Uint8Array>({ pull: (c) => c.error(new TypeError('network error')) });
      const failure = await Stream.fromReadableStream(broken)[Symbol.asyncIterator]().next().then(() => undefined, (e: unknown) => e);
      expect(failure).not.toBeInstanceOf(APIUserAbortError);
    } finally {
      await route.close();
    }
  });

  it("a body read back that holds two completions (a streaming run's): each chunk id its own, the events told for each, finalChatCompletion() the last", async () => {
    const chunk = (id: string, content: string, finish: 'stop' | null) =>
      ({ id, object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: finish }] });
    const body = (lines: object[], onCancel = () => {}, close = true) =>
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const line of lines) c.enqueue(new TextEncoder().encode(`${JSON.stringify(line)}\n`));
          if (close) c.close();
        },
        cancel: onCancel,
      });
    const stream = ChatCompletionStream.fromReadableStream(body([chunk('a', 'x', null), chunk('a', 'y', null), chunk('b', 'z', 'stop')]));
    const told: string[] = [];
    stream.on('connect', () => told.push('connect'));
    stream.on('content.done', ({ content }) => told.push(`done ${content}`));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('z');
    expect(told).toEqual(['connect', 'done xy', 'connect', 'done z']);

    // A listener that throws at the boundary (the first completion's done events) ends the stream
    // with its error, and the body is released.
    let cancelled = false;
    const failing = ChatCompletionStream.fromReadableStream(body([chunk('a', 'x', null), chunk('b', 'z', null)], () => void (cancelled = true), false));
    failing.on('content.done', ({ content }) => {
      if (content === 'x') throw new Error('the listener failed');
    });
    const errors: unknown[] = [];
    failing.on('error', (e) => errors.push(e));
    const error = await failing.finalChatCompletion().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ListenerError);
    expect(((error as Error).cause as Error).message).toBe('the listener failed');
    expect(errors).toEqual([error]);
    expect(cancelled).toBe(true);
    expect(failing.errored).toBe(true);
  });

  it('a consumed stream refuses toReadableStream()', async () => {
    const s = await stream();
    await textOf(s);
    expect(() => s.toReadableStream()).toThrow(InferenceError);
  });
});

describe('ChatCompletionAccumulator', () => {
  it('joins the fragments of normalized chunks, keeping reasoning_content when the server used it', async () => {
    const { ChatCompletionAccumulator } = await import('../src/index');
    const accumulator = new ChatCompletionAccumulator();
    const head = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm' } as const;
    const thinking = { reasoning: 'think', reasoning_content: 'think' }; // as read from DeepSeek: the raw field stays
    accumulator.add({ ...head, choices: [{ index: 0, delta: thinking, finish_reason: null }] });
    accumulator.add({ ...head, choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] });
    const message = accumulator.result().choices[0]!.message;
    expect(message).toMatchObject({ content: 'ok', reasoning: 'think', refusal: null });
    expect(extras(message)['reasoning_content']).toBe('think');
    expect(accumulator.chunks).toBe(2);
  });
});
