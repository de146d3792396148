/**
 * Listeners of a `runTools()` runner, against servers on 127.0.0.1: a listener that throws ends the
 * run (the request aborted at once, `error` then `end` once each, the hooks told), and
 * `runner.abort()` in a `functionToolCall` listener.
 */
import { describe, expect, it } from 'vitest';
import { APIUserAbortError, ListenerError, type CallSummary, type ChatCompletionRunner } from '../src/index';
import { within } from './support/settle';
import { useScriptedServers, messages, choice, type Reply, scripted, client, LONG, watch, ran, weather, CALLS, SAYS, RUN_EVENTS } from './support/listeners';

useScriptedServers();

describe('a runner listener that throws ends the run', () => {
  it.each(RUN_EVENTS)('%s: the run fails with the listener’s error; error (unless end) and end once each; ended and errored', async (event) => {
    ran.length = 0;
    const { server } = await scripted(CALLS, SAYS);
    const runner = client(server).chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    const seen = watch(runner);
    const thrown = new Error('listener failed');
    runner.on(event, () => {
      throw thrown;
    });
    const result = await within(runner.done(), 10_000);
    expect(result).not.toBe('pending');
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(ListenerError);
    expect(error).toMatchObject({ event, cause: thrown });
    expect(seen.errors).toEqual(event === 'end' ? [] : [error]);
    expect(seen.ends).toBe(1);
    expect([runner.ended, runner.errored, runner.aborted]).toEqual([true, true, false]);
    await expect(runner.finalContent()).rejects.toBe(error);
    // A listener that throws on the model's tool call stops the run before the tool runs.
    if (event === 'connect' || event === 'chatCompletion' || event === 'message' || event === 'functionToolCall') expect(ran).toEqual([]);
  });

  it.each(['chunk', 'content'] as const)('%s, streamed: the request is aborted at once; onEnd told', async (event) => {
    const { server, written, total } = await scripted(LONG);
    const ends: CallSummary[] = [];
    const runner = client(server, ends).chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather], stream: true });
    const seen = watch(runner);
    runner.on(event, () => {
      throw new Error('listener failed');
    });
    const result = await within(runner.done(), 10_000);
    expect((result as { error: unknown }).error).toBeInstanceOf(ListenerError);
    expect([seen.errors.length, seen.ends]).toEqual([1, 1]);
    expect([runner.ended, runner.errored]).toEqual([true, true]);
    expect(await within(server.requests[0]!.closed, 4_000)).not.toBe('pending');
    expect(written[0]).toBeLessThan(total[0]!);
    expect(ends).toHaveLength(1);
  });

  it('an error listener that throws: error and end once each; the run fails with the listener’s error', async () => {
    const { server } = await scripted({ json: { error: { message: 'bad request', code: 400 } } });
    const runner = client(server).chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    const seen = watch(runner);
    runner.on('error', () => {
      throw new Error('logging failed');
    });
    const error = await runner.done().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListenerError);
    expect((error as Error).message).toMatch(/^The 'error' listener threw: logging failed; the run had failed: /);
    expect([seen.errors.length, seen.ends]).toEqual([1, 1]);
    expect([runner.ended, runner.errored]).toEqual([true, true]);
  });

  it('an abort listener that throws: abort and end once each', async () => {
    const { server } = await scripted(LONG);
    const runner = client(server).chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather], stream: true });
    const seen = { aborts: 0, ends: 0 };
    runner.on('abort', () => void seen.aborts++).on('end', () => void seen.ends++);
    runner.on('abort', () => {
      throw new Error('cleanup failed');
    });
    runner.once('content', () => runner.abort());
    const error = await runner.done().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListenerError);
    expect(seen).toEqual({ aborts: 1, ends: 1 });
    expect([runner.ended, runner.errored]).toEqual([true, true]);
    expect(await within(server.requests[0]!.closed, 4_000)).not.toBe('pending');
  });
});

describe('runner.abort() in a functionToolCall listener', () => {
  it.each([false, true])('stops that tool from running (stream: %s): nothing runs, nothing more is sent, abort then end', async (stream) => {
    ran.length = 0;
    const calls: Reply = stream
      ? {
          events: [
            choice({ role: 'assistant', content: null }),
            choice({ tool_calls: [{ index: 0, id: 'c0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }),
          ],
          end: [choice({}, 'tool_calls'), '[DONE]'],
        }
      : CALLS;
    const { server } = await scripted(calls, SAYS);
    const body = { model: 'mock/echo', messages, tools: [weather] };
    // Either runner: their runner events are the same.
    const runner = (stream ? client(server).chat.completions.runTools({ ...body, stream }) : client(server).chat.completions.runTools(body)) as ChatCompletionRunner;
    const seen: string[] = [];
    runner.on('functionToolCall', () => runner.abort());
    runner.on('functionToolCallResult', () => void seen.push('result')).on('abort', () => void seen.push('abort')).on('end', () => void seen.push('end'));
    await expect(runner.done()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(ran).toEqual([]);
    expect(seen).toEqual(['abort', 'end']);
    expect(server.requests).toHaveLength(1);
    expect([runner.ended, runner.errored, runner.aborted]).toEqual([true, false, true]);
    expect(runner.messages.filter((m) => m.role === 'tool')).toEqual([]);
  });
});
