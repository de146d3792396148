/**
 * Streaming through the public API against the local server: time limits, cancellation, retries
 * before the first event, and the helpers (tee, readable streams, ChatCompletionAccumulator).
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  ChatCompletionStream,
  Client,
  type ChatCompletionChunk,
  InferenceError,
  ListenerError,
  Stream,
  extras,
} from '../src/index';
import { startMockServer } from '../src/testing';
import { startFaultServer } from './support/fault-server';
import { useStreamMock, server, client, messages, stream, chunk, textOf, failure } from './support/stream';

useStreamMock();

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
