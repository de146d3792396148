// Hooks (the `hooks` option, client and per request) through the public entry, against the mock
// server on 127.0.0.1: streams (each chunk to onChunk, the summary at their end, a throwing or
// async onChunk, the helpers' streams and runs).
import { describe, expect, it } from 'vitest';
import { APIConnectionError, HookError, type CallSummary, type HookInfo, type Hooks } from '../src/index';
import { useHooksServer, server, client, chat, recorder } from './support/hooks';

useHooksServer();

describe('streams', () => {
  const streamed = (content: string) => ({ ...chat(content), stream: true as const, stream_options: { include_usage: true } });

  it('a finished stream: every chunk to onChunk, then onEnd with the summary', async () => {
    const r = recorder();
    const stream = await client({ hooks: r.hooks }).chat.completions.create(streamed('one two three'));
    const chunks: unknown[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(r.names()).toEqual(['beforeRequest', 'afterResponse', ...chunks.map(() => 'onChunk'), 'onEnd']);
    expect(r.of('onChunk').map((call) => call.args[0])).toEqual(chunks);
    const [summary, info] = r.of('onEnd')[0]!.args as [CallSummary, HookInfo];
    expect(info).toMatchObject({ operation: 'chat', model: 'mock/echo', stream: true });
    expect(summary).toMatchObject({ outcome: 'ok', error: undefined, attempts: 1, status: 200, model: 'mock/echo', finishReasons: ['stop'], chunks: chunks.length, data: undefined });
    expect(summary.id).toBe((chunks[0] as { id: string }).id);
    expect(summary.usage).toEqual((chunks.at(-1) as { usage: unknown }).usage);
    expect(summary.usage?.completion_tokens).toBeGreaterThan(0);
    expect(summary.timeToFirstChunk).toBeGreaterThan(0);
    expect(summary.timeToFirstChunk).toBeLessThanOrEqual(summary.duration);
    // The accumulation of ChatCompletionStream still works with hooks following the stream.
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('You said: one two three');
  });

  it('finalChatCompletion() and textStream() with hooks; a legacy completion stream', async () => {
    const r = recorder();
    const c = client({ hooks: r.hooks });
    const stream = await c.chat.completions.create(streamed('abc'));
    expect((await stream.finalChatCompletion()).choices[0]!.message.content).toBe('You said: abc');
    const legacy = await c.completions.create({ model: 'mock/echo', prompt: 'Once upon a time', max_tokens: 2, stream: true });
    let text = '';
    for await (const part of legacy) text += part.choices[0]?.text ?? '';
    expect(text.length).toBeGreaterThan(0);
    const summaries = r.of('onEnd').map((call) => call.args[0] as CallSummary);
    expect(summaries.map((s) => [s.outcome, s.finishReasons])).toEqual([
      ['ok', ['stop']],
      ['ok', ['length']],
    ]);
    expect((r.of('onEnd')[1]!.args[1] as HookInfo).operation).toBe('completions');
    expect(summaries[1]!.chunks).toBe(r.of('onChunk').filter((call) => (call.args[1] as HookInfo).operation === 'completions').length);
  });

  it('a stream that fails mid-way: onError, then onEnd with the error and the chunks so far', async () => {
    const r = recorder();
    server.enqueue({ reply: { content: 'a long enough reply to cut' }, fault: { kind: 'reset', after: 3 } });
    const stream = await client({ hooks: r.hooks }).chat.completions.create(streamed('x'));
    let received = 0;
    const error = await (async () => {
      for await (const _ of stream) received++;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(received).toBe(3);
    expect(r.names().slice(-2)).toEqual(['onError', 'onEnd']);
    expect(r.of('onError')[0]!.args[0]).toBe(error);
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'error', error, chunks: 3, finishReasons: [], usage: undefined });
  });

  it('a stream left with break: onEnd with outcome closed, once; the request is aborted', async () => {
    const r = recorder();
    const stream = await client({ hooks: r.hooks }).chat.completions.create({ ...streamed('a b c d e f g h'), model: 'mock/echo' });
    let received = 0;
    for await (const _ of stream) {
      if (++received === 2) break;
    }
    expect(r.names().filter((n) => n === 'onEnd' || n === 'onError')).toEqual(['onEnd']);
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'closed', error: undefined, chunks: 2 });
    await expect(stream.finalChatCompletion()).rejects.toThrow(/closed before it ended/);
    expect(r.of('onEnd')).toHaveLength(1);
  });

  it('an onChunk hook that throws ends the stream with a HookError; the hooks are told', async () => {
    const r = recorder();
    let seen = 0;
    const hooks: Hooks[] = [
      {
        name: 'counter',
        onChunk: () => {
          if (++seen === 2) throw new Error('quota exceeded');
        },
      },
      r.hooks,
    ];
    const stream = await client({ hooks }).chat.completions.create(streamed('a b c d e f'));
    let received = 0;
    const error = await (async () => {
      for await (const _ of stream) received++;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(error).toMatchObject({ hook: 'onChunk', source: '"counter"', message: 'chat: the onChunk hook of "counter" threw: quota exceeded' });
    expect(received).toBe(1);
    expect(r.of('onError')[0]!.args[0]).toBe(error);
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'error', error, chunks: 2 });
  });

  it('an async onChunk hook is awaited before the chunk is handed over, and the hooks after it run in order', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hooks: Hooks[] = [
      {
        name: 'slow',
        async onChunk() {
          order.push('slow:start');
          await gate;
          order.push('slow:end');
        },
      },
      { name: 'fast', onChunk: () => void order.push('fast') },
    ];
    const stream = await client({ hooks }).chat.completions.create(streamed('a b'));
    const iterator = stream[Symbol.asyncIterator]();
    const first = iterator.next().then(() => order.push('chunk'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(['slow:start']);
    release();
    await first;
    expect(order).toEqual(['slow:start', 'slow:end', 'fast', 'chunk']);
    await iterator.return?.();
  });

  it('an async onChunk hook that rejects ends the stream with a HookError naming it', async () => {
    const hooks: Hooks = { name: 'remote', onChunk: () => Promise.reject(new Error('collector down')) };
    const stream = await client({ hooks }).chat.completions.create(streamed('a b c'));
    const error = await (async () => {
      for await (const _ of stream);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(error).toMatchObject({ hook: 'onChunk', source: '"remote"', message: 'chat: the onChunk hook of "remote" threw: collector down' });
  });

  it('the helpers’ calls run the hooks too: a parse() stream, each request of a runTools() loop', async () => {
    const r = recorder();
    const c = client({ hooks: r.hooks });
    server.enqueue({ reply: { json: { city: 'Paris' } } });
    const parsed = await c.chat.completions.parse({ ...chat('Weather?'), stream: true });
    for await (const _ of parsed);
    server.enqueue({ reply: { tool_calls: [{ name: 'now', arguments: {} }] } }, { reply: { content: 'It is noon.' } });
    const runner = c.chat.completions.runTools({
      ...chat('What time is it?'),
      tools: [{ type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} }, function: () => '12:00' } }],
    });
    expect(await runner.finalContent()).toBe('It is noon.');
    const ends = r.of('onEnd').map((call) => [(call.args[1] as HookInfo).stream, (call.args[0] as CallSummary).outcome, (call.args[0] as CallSummary).finishReasons]);
    expect(ends).toEqual([
      [true, 'ok', ['stop']],
      [false, 'ok', ['tool_calls']],
      [false, 'ok', ['stop']],
    ]);
  });

  it('a stream that fails before its first chunk is the attempt’s: retried, one onEnd', async () => {
    const r = recorder();
    server.enqueue({ reset: true });
    const stream = await client({ hooks: r.hooks, maxRetries: 1 }).chat.completions.create(streamed('x'));
    for await (const _ of stream);
    expect(r.of('beforeRetry')).toHaveLength(1);
    expect(r.of('onEnd')).toHaveLength(1);
    expect(r.of('onEnd')[0]!.args[0]).toMatchObject({ outcome: 'ok', attempts: 2 });
    expect(r.of('onError')).toHaveLength(0);
  }, 10_000);
});
