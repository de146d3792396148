/**
 * Listeners of a `ChatCompletionStream`, against servers on 127.0.0.1 that write their chunks
 * slowly, so that what the client does to the connection is seen from the server's side: a
 * listener that throws ends the stream (the request aborted at once, `error` then `end` once each,
 * `ended` and `errored`, the hooks told).
 */
import { describe, expect, it } from 'vitest';
import { InferenceError, ListenerError, type CallSummary } from '../src/index';
import { within } from './support/settle';
import { useScriptedServers, messages, scripted, client, head, LONG, SHORT, MID, LAST, opened, watch } from './support/listeners';

useScriptedServers();

describe('a stream listener that throws ends the stream', () => {
  it('every event of the first choice is told by the scripted stream (what the tests below rely on)', async () => {
    const { server } = await scripted(SHORT);
    const stream = client(server).chat.completions.stream({ model: 'mock/echo', messages });
    const told = new Set<string>();
    for (const name of [...MID, ...LAST]) stream.on(name, () => void told.add(name));
    await stream.done();
    expect([...told].sort()).toEqual([...MID, ...LAST].sort());
  });

  for (const [how, open] of Object.entries(opened)) {
    describe(how, () => {
      it.each(MID)('%s: the request is aborted at once; error, then end, once each; ended and errored; onEnd told', async (event) => {
        const { server, written, total } = await scripted(LONG);
        const ends: CallSummary[] = [];
        const stream = await open(client(server, ends));
        const seen = watch(stream);
        const thrown = new Error(`the ${event} listener failed`);
        stream.on(event, () => {
          throw thrown;
        });
        const result = await within(stream.done(), 10_000);
        expect(result).not.toBe('pending');
        const error = (result as { error: unknown }).error;
        expect(error).toBeInstanceOf(ListenerError);
        expect(error).toBeInstanceOf(InferenceError);
        expect(error).toMatchObject({ event, cause: thrown, message: `The '${event}' listener threw: the ${event} listener failed` });
        expect(seen.errors).toEqual([error]);
        expect(seen.ends).toBe(1);
        expect([stream.ended, stream.errored, stream.aborted]).toEqual([true, true, false]);
        // The server sees the connection close long before it would have finished writing.
        expect(await within(server.requests[0]!.closed, 4_000)).not.toBe('pending');
        expect(written[0]).toBeLessThan(total[0]!);
        expect(ends).toHaveLength(1);
        expect(ends[0]).toMatchObject({ outcome: 'error', error });
        // Nothing more is told afterwards, and the final helpers reject with the same error.
        await expect(stream.finalChatCompletion()).rejects.toBe(error);
        expect([seen.errors.length, seen.ends]).toEqual([1, 1]);
      });

      it.each(LAST)('%s: the stream fails with the listener’s error; error (unless end) and end once each', async (event) => {
        const { server } = await scripted(SHORT);
        const ends: CallSummary[] = [];
        const stream = await open(client(server, ends));
        const seen = watch(stream);
        const thrown = new Error('listener failed');
        stream.on(event, () => {
          throw thrown;
        });
        const error = await stream.done().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ListenerError);
        expect(error).toMatchObject({ event, cause: thrown });
        // `end` is the last event: nothing is told after it, but the stream still fails.
        expect(seen.errors).toEqual(event === 'end' ? [] : [error]);
        expect(seen.ends).toBe(1);
        expect([stream.ended, stream.errored]).toEqual([true, true]);
        expect(ends).toHaveLength(1);
        expect(ends[0]).toMatchObject({ outcome: 'error', error });
        await expect(stream.finalContent()).rejects.toBe(error);
      });
    });
  }

  it('a for await loop ends with the listener’s error at the chunk it threw on', async () => {
    const { server } = await scripted(LONG);
    const stream = await client(server).chat.completions.create({ model: 'mock/echo', messages, stream: true });
    let chunks = 0;
    stream.on('content.delta', ({ delta }) => {
      if (delta === 'in Paris. ') throw new Error('no Paris');
    });
    const error = await (async () => {
      for await (const _ of stream) chunks++;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListenerError);
    expect(chunks).toBe(head.length - 1);
    expect(await within(server.requests[0]!.closed, 4_000)).not.toBe('pending');
  });

  it('an error listener that throws: error and end once each; the stream fails with the listener’s error, which names the first', async () => {
    const { server } = await scripted({ events: [...head, { error: { message: 'the model crashed', code: 500 } }], end: [] });
    const stream = client(server).chat.completions.stream({ model: 'mock/echo', messages });
    const seen = watch(stream);
    stream.on('error', () => {
      throw new Error('logging failed');
    });
    const error = await stream.done().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListenerError);
    expect(error).toMatchObject({ event: 'error' });
    expect(seen.errors).toHaveLength(1);
    expect((seen.errors[0] as Error).message).toMatch(/the model crashed$/);
    expect((error as Error).message).toBe(`The 'error' listener threw: logging failed; the stream had failed: ${(seen.errors[0] as Error).message}`);
    expect(seen.ends).toBe(1);
    expect([stream.ended, stream.errored]).toEqual([true, true]);
  });

  it('an abort listener that throws: abort and end once each; the request is aborted', async () => {
    const { server } = await scripted(LONG);
    const stream = client(server).chat.completions.stream({ model: 'mock/echo', messages });
    const seen = { aborts: 0, ends: 0 };
    stream.on('abort', () => void seen.aborts++).on('end', () => void seen.ends++);
    stream.on('abort', () => {
      throw new Error('cleanup failed');
    });
    stream.once('content', () => stream.abort());
    const error = await stream.done().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListenerError);
    expect(error).toMatchObject({ event: 'abort' });
    expect(seen).toEqual({ aborts: 1, ends: 1 });
    expect([stream.ended, stream.errored]).toEqual([true, true]);
    expect(await within(server.requests[0]!.closed, 4_000)).not.toBe('pending');
  });

  it('a listener that throws something other than an Error, on a stream read in a loop that then breaks', async () => {
    const { server } = await scripted(LONG);
    const stream = await client(server).chat.completions.create({ model: 'mock/echo', messages, stream: true });
    stream.on('chunk', () => {
      throw 'a string';
    });
    const error = await (async () => {
      for await (const _ of stream) break;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListenerError);
    expect(error).toMatchObject({ cause: 'a string', message: "The 'chunk' listener threw: a string" });
    expect(await within(server.requests[0]!.closed, 4_000)).not.toBe('pending');
  });
});
