// Streams taken at docs/streaming.md's and docs/reliability.md's word: `toReadableStream()` and
// `fromReadableStream()`, a long line among them.
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  ChatCompletionStream,
  ResponseValidationError,
  Stream,
  type ChatCompletionChunk,
} from '../../src/index';
import { chunk, rejection, sse, within } from './support';
import { useStreamServer, server, body, client, openAfter, lastRequest, closes } from '../support/adversarial-streams';

useStreamServer();

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
