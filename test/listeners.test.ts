/**
 * Listeners of a `ChatCompletionStream` and of a `runTools()` runner, against servers on
 * 127.0.0.1 that write their chunks slowly, so that what the client does to the connection is
 * seen from the server's side: a listener that throws ends the stream or the run (the request
 * aborted at once, `error` then `end` once each, `ended` and `errored`, the hooks told),
 * `runner.abort()` in a `functionToolCall` listener, `emitted()` on an event that never comes,
 * and the bookkeeping of `on` / `once` / `off` as Node's EventEmitter keeps it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  Client,
  EventNotEmittedError,
  InferenceError,
  ListenerError,
  type CallSummary,
  type ChatCompletionMessageParam,
  type ChatCompletionRunner,
  type ChatCompletionRunnerEvents,
  type ChatCompletionStream,
  type ChatCompletionStreamingRunner,
  type ChatCompletionStreamEvents,
  type RunnableFunctionTool,
} from '../src/index';
import { pause, useFaultServers, type FaultServer } from './support/fault-server';
import { within } from './support/settle';

const KEY = 'sk-listeners-SECRET-0123456789';
const { faultServer } = useFaultServers();

const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
const choice = (delta: object, finish_reason: string | null = null) => ({ id: 'chatcmpl-l', object: 'chat.completion.chunk', created: 1, model: 'mock/echo', choices: [{ index: 0, delta, finish_reason }] });
const usage = { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 };

/** What one request is answered with: a JSON body, or events (`tail` more content chunks after them, `gap` ms apart). */
type Reply = { json: unknown } | { events: unknown[]; tail?: number; gap?: number; end?: unknown[] };

/** A server answering each request with the next reply; `written[i]` counts the events request i got. */
async function scripted(...replies: Reply[]): Promise<{ server: FaultServer; written: number[]; total: number[] }> {
  const written: number[] = [];
  const total: number[] = [];
  let n = 0;
  const server = await faultServer(async (_req: IncomingMessage, res: ServerResponse) => {
    const reply = replies[Math.min(n++, replies.length - 1)]!;
    if ('json' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.json));
      return;
    }
    const i = written.push(0) - 1;
    const tail = reply.tail ?? 0;
    const end = reply.end ?? [choice({}, 'stop'), { ...choice({}), choices: [], usage }, '[DONE]'];
    total.push(reply.events.length + tail + end.length);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const write = (event: unknown) => {
      res.write(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
      written[i]!++;
    };
    reply.events.forEach(write);
    for (let t = 0; t < tail; t++) {
      if (!(await pause(res, reply.gap ?? 20))) return;
      write(choice({ content: `${t} ` }));
    }
    end.forEach(write);
    res.end();
  });
  return { server, written, total };
}

const client = (server: FaultServer, ends: CallSummary[] = []) =>
  new Client({ apiKey: KEY, baseURL: server.url, maxRetries: 0, logLevel: 'off', hooks: { name: 'ends', onEnd: (summary) => void ends.push(summary) } });

/** A stream's first events: every event of the first choice that can come before its end. */
const head = [
  choice({ role: 'assistant', content: '' }),
  choice({ reasoning_content: 'Thinking ' }),
  choice({ reasoning_content: 'hard.' }),
  choice({ refusal: 'No ' }),
  choice({ tool_calls: [{ index: 0, id: 'c0', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] }),
  choice({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  choice({ tool_calls: [{ index: 1, id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] }),
  choice({ content: 'Sunny ' }),
  choice({ content: 'in Paris. ' }),
];
/** 250 chunks 20 ms apart: the server is still writing for 5 s, unless the client goes away. */
const LONG: Reply = { events: head, tail: 250 };
const SHORT: Reply = { events: head };

type StreamEvent = keyof ChatCompletionStreamEvents;
/** Events told while the server is still sending. */
const MID: StreamEvent[] = ['chunk', 'content', 'content.delta', 'reasoning.delta', 'refusal.delta', 'tool_calls.function.arguments.delta', 'tool_calls.function.arguments.done'];
/** Events told at the end of a stream that went well. */
const LAST: StreamEvent[] = ['reasoning.done', 'content.done', 'refusal.done', 'finalChatCompletion', 'end'];

const opened = {
  'create({ stream: true })': (c: Client) => c.chat.completions.create({ model: 'mock/echo', messages, stream: true }),
  'stream()': (c: Client) => c.chat.completions.stream({ model: 'mock/echo', messages }),
};

/** `error` and `end` as told, counted by listeners added before the one under test. */
function watch(target: ChatCompletionStream | ChatCompletionRunner | ChatCompletionStreamingRunner): { errors: unknown[]; ends: number } {
  const seen = { errors: [] as unknown[], ends: 0 };
  (target as ChatCompletionStream).on('error', (error) => void seen.errors.push(error)).on('end', () => void seen.ends++);
  return seen;
}

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

// ── runTools() ──────────────────────────────────────────────────────────────────────────────

const ran: string[] = [];
const weather: RunnableFunctionTool<{ city: string }> = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    function: ({ city }) => {
      ran.push(city);
      return { city, celsius: 21 };
    },
  },
};
const completion = (message: object, finish_reason: string, withUsage = true) => ({
  id: 'chatcmpl-r',
  object: 'chat.completion',
  created: 1,
  model: 'mock/echo',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }],
  ...(withUsage ? { usage } : {}),
});
const CALLS: Reply = { json: completion({ content: null, tool_calls: [{ id: 'c0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, 'tool_calls') };
const SAYS: Reply = { json: completion({ content: 'It is 21 °C in Paris.' }, 'stop') };

type RunnerEventName = keyof ChatCompletionRunnerEvents;
const RUN_EVENTS: RunnerEventName[] = [
  'connect',
  'chatCompletion',
  'message',
  'functionToolCall',
  'functionToolCallResult',
  'content',
  'finalChatCompletion',
  'finalMessage',
  'finalContent',
  'finalFunctionToolCall',
  'finalFunctionToolCallResult',
  'totalUsage',
  'end',
];

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
