/**
 * Listeners of a `ChatCompletionStream` and of a `runTools()` runner, against servers on 127.0.0.1:
 * `emitted()` on an event that never comes, and the bookkeeping of `on` / `once` / `off` as Node's
 * EventEmitter keeps it.
 */
import { describe, expect, it } from 'vitest';
import { EventNotEmittedError, InferenceError, type ChatCompletionMessageParam } from '../src/index';
import { within } from './support/settle';
import { useScriptedServers, messages, choice, scripted, client, SHORT, weather, completion, CALLS, SAYS } from './support/listeners';

useScriptedServers();

describe('emitted() settles when the stream or the run ends without the event', () => {
  it("await runner.emitted('totalUsage') against a server that reports no usage: EventNotEmittedError, not a hang", async () => {
    const { server } = await scripted({ json: completion({ content: 'No usage here.' }, 'stop', false) });
    const runner = client(server).chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    const result = await within(runner.emitted('totalUsage'), 10_000);
    expect(result).not.toBe('pending');
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(EventNotEmittedError);
    expect(error).toBeInstanceOf(InferenceError);
    expect(error).toMatchObject({ event: 'totalUsage' });
    expect((error as Error).message).toBe("The run ended without a 'totalUsage' event (the server reported no usage).");
    expect(await runner.finalContent()).toBe('No usage here.');
  });

  it('a run: an event that came resolves; error on a run that went well rejects; after the end, at once', async () => {
    const { server } = await scripted(SAYS);
    const runner = client(server).chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    const content = runner.emitted('finalContent');
    const failed = runner.emitted('error');
    const call = runner.emitted('functionToolCall');
    expect(await content).toBe('It is 21 °C in Paris.');
    await expect(failed).rejects.toBeInstanceOf(EventNotEmittedError);
    await expect(call).rejects.toMatchObject({ event: 'functionToolCall' });
    // Asked after the end: the run will tell nothing more.
    const late = await within(runner.emitted('end'), 5_000);
    expect((late as { error: unknown }).error).toBeInstanceOf(EventNotEmittedError);
    expect((late as { error: Error }).error.message).toBe("The run has already ended; no 'end' event will come.");
  });

  it('a failed run rejects with its error; an aborted run with APIUserAbortError', async () => {
    const { server } = await scripted({ json: { error: { message: 'bad request', code: 400 } } });
    const runner = client(server).chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    const usage = runner.emitted('totalUsage');
    const error = await runner.done().catch((e: unknown) => e);
    await expect(usage).rejects.toBe(error);
    expect(await runner.emitted('error').catch((e: unknown) => e)).toBeInstanceOf(EventNotEmittedError);
  });

  it('a stream: an event it never tells rejects when the stream ends; after the end, at once', async () => {
    const { server } = await scripted({ events: [choice({ role: 'assistant', content: 'Just text.' })] });
    const stream = client(server).chat.completions.stream({ model: 'mock/echo', messages });
    const args = stream.emitted('tool_calls.function.arguments.done');
    const final = stream.emitted('finalChatCompletion');
    await stream.done();
    expect((await final).choices[0]?.message.content).toBe('Just text.');
    const error = await args.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EventNotEmittedError);
    expect((error as Error).message).toBe("The stream ended without a 'tool_calls.function.arguments.done' event.");
    const late = await within(stream.emitted('content.delta'), 5_000);
    expect((late as { error: unknown }).error).toBeInstanceOf(EventNotEmittedError);
  });

  it('a stream that fails rejects with its error', async () => {
    const { server } = await scripted({ events: [choice({ role: 'assistant', content: 'a' }), { error: { message: 'boom' } }], end: [] });
    const stream = client(server).chat.completions.stream({ model: 'mock/echo', messages });
    const final = stream.emitted('finalChatCompletion');
    const error = await stream.done().catch((e: unknown) => e);
    await expect(final).rejects.toBe(error);
  });
});

describe("listener bookkeeping follows Node's EventEmitter", () => {
  it('a stream: once(f) removes only the once-registration, not an on(f) of the same function; off(f) removes one', async () => {
    const { server } = await scripted(SHORT);
    const stream = client(server).chat.completions.stream({ model: 'mock/echo', messages });
    const calls: string[] = [];
    const f = (delta: string) => void calls.push(delta);
    const g = (delta: string) => void calls.push(`g:${delta}`);
    stream.once('content', f).on('content', f);
    stream.on('content', g).on('content', g).off('content', g);
    await stream.done();
    expect(calls).toEqual(['Sunny ', 'Sunny ', 'g:Sunny ', 'in Paris. ', 'g:in Paris. ']);
  });

  it('a stream: a listener added during an event is first called for the next event', async () => {
    const { server } = await scripted(SHORT);
    const stream = client(server).chat.completions.stream({ model: 'mock/echo', messages });
    const calls: string[] = [];
    let added = false;
    stream.on('content', (delta) => {
      calls.push(`first:${delta}`);
      if (!added) stream.on('content', (later) => void calls.push(`added:${later}`));
      added = true;
    });
    await stream.done();
    expect(calls).toEqual(['first:Sunny ', 'first:in Paris. ', 'added:in Paris. ']);
  });

  it('a runner: the same', async () => {
    const { server } = await scripted(CALLS, SAYS);
    const runner = client(server).chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    const roles: string[] = [];
    const f = (message: ChatCompletionMessageParam) => void roles.push(message.role);
    runner.once('message', f).on('message', f);
    runner.once('message', () => runner.on('message', (m) => void roles.push(`added:${m.role}`)));
    await runner.done();
    expect(roles).toEqual(['assistant', 'assistant', 'tool', 'added:tool', 'assistant', 'added:assistant']);
  });
});
