// Streams taken at docs/streaming.md's and docs/reliability.md's word: an abort at every point,
// by signals of every kind. "Abort at once" is checked as "the server sees the connection close",
// within a generous bound.
import { describe, expect, it } from 'vitest';
import { APIUserAbortError, ChatCompletionStream, ListenerError, Stream, type ChatCompletionChunk } from '../../src/index';
import { chunk, delay, rejection, sse, textChunks, USER, within } from './support';
import { useStreamServer, server, body, client, openAfter, lastRequest, closes } from '../support/adversarial-streams';

useStreamServer();

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
