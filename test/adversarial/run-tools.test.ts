// runTools() taken at docs/tools.md's word: invalid arguments never reach the function, unknown
// tools are answered, results are "a string ... as it is; anything else as JSON", every call of a
// round runs at once, toolTimeout bounds a tool, an abort ends the run at once, listeners that
// throw end it. The model's side is a loopback server that answers each round as the test says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { APIConnectionTimeoutError, APIUserAbortError, ChatCompletionStream, InferenceError, ListenerError, type RunnableToolFunction } from '../../src/index';
import { zodFunction } from '../../src/helpers/zod';
import { chunk, clientOf, completion, delay, json, never, rejection, serve, sse, sseHead, textChunks, toolCallCompletion, USER, within, type TestServer } from './support';

let server: TestServer;
beforeAll(async () => {
  server = await serve((_req, res) => json(res, completion({ content: 'done' })));
});
afterAll(() => server.close());

/** Round i gets rounds[i]; later rounds the final answer "done". Returns the bodies sent, parsed. */
function script(...rounds: Record<string, unknown>[]): { bodies: () => Record<string, unknown>[] } {
  const start = server.requests.length;
  server.handle((_req, res) => {
    const round = server.requests.length - start - 1;
    json(res, rounds[round] ?? completion({ content: 'done' }));
  });
  return { bodies: () => server.requests.slice(start).map((r) => JSON.parse(r.body) as Record<string, unknown>) };
}

type Message = { role: string; content?: unknown; tool_call_id?: string };
const toolMessages = (body: Record<string, unknown>) => (body['messages'] as Message[]).filter((m) => m.role === 'tool');

function plainTool(name: string, fn: (args: unknown, ctx: { signal: AbortSignal }) => unknown): RunnableToolFunction<object> {
  return { type: 'function', function: { name, function: fn as never, parameters: { type: 'object', properties: {} } } } as unknown as RunnableToolFunction<object>;
}

const run = (tools: unknown[], options: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  clientOf(server.baseURL).chat.completions.runTools({ model: 'acme/chat-1', messages: USER, tools: tools as never, ...extra }, options as never);

describe('what goes back to the model', () => {
  // A tool that returns nothing (a `void` function) is the commonest tool there is.
  // (JSON.stringify(undefined) is undefined: a message without `content`, which a strict server answers 400.)
  it('a tool that returns undefined: the tool message still has string content', async () => {
    const s = script(toolCallCompletion([{ id: 'call_1', name: 'log_it', arguments: '{}' }]));
    await run([plainTool('log_it', () => undefined)]).finalContent();
    const [message] = toolMessages(s.bodies()[1]!);
    expect(message).toBeDefined();
    expect(typeof message!.content).toBe('string');
  });

  // Was a fault (issue 29 §2): a tool result JSON cannot hold (a BigInt) rejected the run with a raw TypeError.
  it('a tool that returns a BigInt: a typed error naming the tool (or a string sent)', async () => {
    script(toolCallCompletion([{ id: 'call_1', name: 'count', arguments: '{}' }]));
    const result = await run([plainTool('count', () => ({ n: 10n }))]).finalContent().then(
      () => 'ok',
      (e: unknown) => e,
    );
    if (result !== 'ok') {
      expect(result).toBeInstanceOf(InferenceError);
      expect(String((result as Error).message)).toContain('count');
    }
  });

  // A function or a Symbol has no JSON (JSON.stringify gives undefined): it used to go out as a tool message without content.
  it.each([
    ['a cycle', () => { const o: Record<string, unknown> = {}; o['self'] = o; return o; }, /JSON cannot hold/],
    ['a function', () => () => 1, /returned a function/],
    ['a Symbol', () => Symbol('x'), /returned a symbol/],
    ['a toJSON that throws', () => ({ toJSON: () => { throw new Error('no JSON for you'); } }), /no JSON for you/],
  ])('a tool that returns %s: InferenceError naming the tool, nothing more sent', async (_what, result, message) => {
    const s = script(toolCallCompletion([{ id: 'call_1', name: 'odd', arguments: '{}' }]));
    const err = await rejection(() => run([plainTool('odd', result)]).finalContent());
    expect(err).toBeInstanceOf(InferenceError);
    expect((err as Error).message).toMatch(/tool "odd"/);
    expect((err as Error).message).toMatch(message);
    expect(s.bodies()).toHaveLength(1);
  });

  it('arguments that are not JSON, or fail the schema: the function is not called, the problem goes back as the result', async () => {
    const s = script(
      toolCallCompletion([
        { id: 'call_1', name: 'get_weather', arguments: '{"city": ' },
        { id: 'call_2', name: 'get_weather', arguments: '{"city": 42}' },
      ]),
    );
    let calls = 0;
    const tool = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }), function: () => (calls++, 'sunny') });
    expect(await run([tool]).finalContent()).toBe('done');
    expect(calls).toBe(0);
    const results = toolMessages(s.bodies()[1]!);
    expect(results.map((m) => m.tool_call_id)).toEqual(['call_1', 'call_2']);
    for (const m of results) expect(String(m.content)).toMatch(/invalid arguments for get_weather/);
  });

  // tools.md: the function is not called when the arguments fail, and gets the validated value when they pass.
  it("an argument schema whose validate returns a thenable: the tool gets the validated value, or is not called", async () => {
    const s = script(
      toolCallCompletion([
        { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'call_2', name: 'get_weather', arguments: '{"city":"?"}' },
      ]),
    );
    const thenable = (result: unknown) => ({ then: (resolve: (v: unknown) => void) => resolve(result) });
    const parameters = {
      '~standard': {
        version: 1,
        vendor: 'thenables',
        validate: (v: { city: string }) => thenable(v.city === '?' ? { issues: [{ message: 'unknown city' }] } : { value: { city: v.city.toUpperCase() } }),
        jsonSchema: { input: () => ({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }), output: () => ({}) },
      },
    };
    const seen: unknown[] = [];
    const tool = zodFunction({ name: 'get_weather', parameters: parameters as never, function: (args: unknown) => (seen.push(args), 'sunny') });
    expect(await run([tool]).finalContent()).toBe('done');
    expect(seen).toEqual([{ city: 'PARIS' }]);
    expect(toolMessages(s.bodies()[1]!).map((m) => String(m.content))).toEqual(['sunny', expect.stringMatching(/unknown city/)]);
  });

  // A model names tools; a name that is a property of every object must not find one.
  it('a call to toString, constructor, __proto__ or hasOwnProperty is answered as a tool that does not exist', async () => {
    const names = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'];
    const s = script(toolCallCompletion(names.map((name, i) => ({ id: `call_${i}`, name, arguments: '{}' }))));
    let called = 0;
    expect(await run([plainTool('real_tool', () => (called++, 'x'))]).finalContent()).toBe('done');
    expect(called).toBe(0);
    const results = toolMessages(s.bodies()[1]!);
    expect(results).toHaveLength(names.length);
    for (const m of results) expect(typeof m.content).toBe('string');
  });

  it('empty arguments count as {} for a tool without parameters', async () => {
    script(toolCallCompletion([{ id: 'call_1', name: 'now', arguments: '' }]));
    const seen: unknown[] = [];
    const tool = zodFunction({ name: 'now', parameters: z.object({}), function: (args) => (seen.push(args), '12:00') });
    await run([tool]).finalContent();
    expect(seen).toEqual([{}]);
  });
});

describe('how tools run', () => {
  it('every call of a round runs at once', async () => {
    script(
      toolCallCompletion([
        { id: 'a', name: 'first', arguments: '{}' },
        { id: 'b', name: 'second', arguments: '{}' },
      ]),
    );
    let secondStarted!: () => void;
    const started = new Promise<void>((resolve) => (secondStarted = resolve));
    const first = plainTool('first', async () => {
      await started; // deadlocks if the tools run one after the other
      return 'one';
    });
    const second = plainTool('second', () => (secondStarted(), 'two'));
    const result = await within(run([first, second]).finalContent(), 15_000);
    expect(result).toEqual({ value: 'done' });
  });

  it('a tool that throws ends the run with its error; the other tools of the round see their signal abort', async () => {
    script(
      toolCallCompletion([
        { id: 'a', name: 'fails', arguments: '{}' },
        { id: 'b', name: 'waits', arguments: '{}' },
      ]),
    );
    const boom = new Error('tool failed');
    let aborted: Promise<void> | undefined;
    const waits = plainTool('waits', (_args, { signal }) => {
      aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      return never();
    });
    const fails = plainTool('fails', async () => {
      await delay(20);
      throw boom;
    });
    const err = await rejection(() => run([fails, waits]).finalContent());
    expect(err === boom || (err as Error).cause === boom).toBe(true);
    expect(aborted).toBeDefined();
    expect(await within(aborted!, 10_000)).not.toBe('pending');
  });

  it('a tool that never settles: APIConnectionTimeoutError at toolTimeout naming the tool; its signal aborts; nothing more is sent', async () => {
    const s = script(toolCallCompletion([{ id: 'a', name: 'hangs', arguments: '{}' }]));
    let aborted = false;
    const hangs = plainTool('hangs', (_a, { signal }) => {
      signal.addEventListener('abort', () => (aborted = true));
      return never();
    });
    const result = await within(rejection(() => run([hangs], { toolTimeout: 200 }).finalContent()), 20_000);
    const err = (result as { value: Error }).value;
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect(err.message).toMatch(/hangs/);
    expect(err.message).toMatch(/toolTimeout/);
    expect(aborted).toBe(true);
    await delay(100);
    expect(s.bodies()).toHaveLength(1);
  });

  // Was a fault (issue 29 §3): a zodFunction whose schema never settled waited for the call's timeout, not toolTimeout.
  it('an argument schema that never settles: ended at toolTimeout', async () => {
    script(toolCallCompletion([{ id: 'a', name: 'slow_schema', arguments: '{"x":1}' }]));
    const schema = z.object({ x: z.number() }).refine(() => never<boolean>());
    const tool = zodFunction({ name: 'slow_schema', parameters: schema, function: () => 'x' });
    const result = await within(rejection(() => run([tool], { toolTimeout: 200, timeout: 60_000 }).finalContent()), 10_000);
    expect(result).not.toBe('pending');
    expect((result as { value: unknown }).value).toBeInstanceOf(APIConnectionTimeoutError);
    expect(String((result as { value: Error }).value.message)).toMatch(/slow_schema.*toolTimeout|toolTimeout.*slow_schema/);
  });

  it.each([NaN, -1, Infinity, 2 ** 31, '100'])('toolTimeout %s: refused at the call site, or honoured (a 50 ms tool still runs)', async (toolTimeout) => {
    script(toolCallCompletion([{ id: 'a', name: 'quick', arguments: '{}' }]));
    const quick = plainTool('quick', async () => (await delay(50), 'ok'));
    const outcome = await (async () => run([quick], { toolTimeout }).finalContent())().then(
      (v) => ({ v }),
      (e: unknown) => ({ e }),
    );
    if ('e' in outcome) {
      expect(outcome.e).toBeInstanceOf(InferenceError);
      expect(outcome.e).not.toBeInstanceOf(APIConnectionTimeoutError);
    } else expect(outcome.v).toBe('done');
  });

  it.each([NaN, -1, 1.5, Infinity, 0])('maxRounds %s: refused at the call site, or the run stays bounded', async (maxRounds) => {
    const start = server.requests.length;
    server.handle((_req, res) => json(res, toolCallCompletion([{ id: 'a', name: 'again', arguments: '{}' }]))); // always calls a tool
    const again = plainTool('again', () => 'more');
    const runner = (async () => run([again], { maxRounds }).finalContent())();
    const result = await within(runner, 20_000);
    expect(result).not.toBe('pending');
    if ('error' in (result as object)) expect((result as { error: unknown }).error).toBeInstanceOf(InferenceError);
    expect(server.requests.length - start).toBeLessThanOrEqual(10);
  });
});

describe('ending a run from outside', () => {
  it('the caller aborts while a tool runs: the tool sees its signal abort, the run rejects with APIUserAbortError at once', async () => {
    const s = script(toolCallCompletion([{ id: 'a', name: 'busy', arguments: '{}' }]));
    const controller = new AbortController();
    let toolAborted = false;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const busy = plainTool('busy', (_a, { signal }) => {
      signal.addEventListener('abort', () => (toolAborted = true));
      started();
      return never();
    });
    const done = rejection(() => run([busy], { signal: controller.signal }).finalContent());
    await running;
    controller.abort();
    expect(await within(done, 10_000)).toEqual({ value: expect.any(APIUserAbortError) });
    expect(toolAborted).toBe(true);
    await delay(50);
    expect(s.bodies()).toHaveLength(1);
  });

  it('runner.abort() in a functionToolCall listener: the tool does not run, nothing more is sent', async () => {
    const s = script(toolCallCompletion([{ id: 'a', name: 'never_run', arguments: '{}' }]));
    let ran = false;
    const runner = run([plainTool('never_run', () => (ran = true, 'x'))]);
    runner.on('functionToolCall', () => runner.abort());
    expect(await rejection(() => runner.finalContent())).toBeInstanceOf(APIUserAbortError);
    expect(ran).toBe(false);
    expect(s.bodies()).toHaveLength(1);
  });

  it('a functionToolCall listener that throws: ListenerError, the tool not run, nothing more sent', async () => {
    const s = script(toolCallCompletion([{ id: 'a', name: 'never_run', arguments: '{}' }]));
    let ran = false;
    const runner = run([plainTool('never_run', () => (ran = true, 'x'))]).on('functionToolCall', () => {
      throw new Error('listener broke');
    });
    expect(await rejection(() => runner.done())).toBeInstanceOf(ListenerError);
    expect(ran).toBe(false);
    expect(s.bodies()).toHaveLength(1);
    expect(runner.ended && runner.errored).toBe(true);
  });

  it("a forced tool_choice ends the run once that round's tools have run", async () => {
    const s = script(toolCallCompletion([{ id: 'a', name: 'pick', arguments: '{}' }]));
    let ran = 0;
    await run([plainTool('pick', () => (ran++, 'x'))], {}, { tool_choice: 'required' }).done();
    expect(ran).toBe(1);
    expect(s.bodies()).toHaveLength(1);
  });
});

describe('idempotency keys', () => {
  // Was a fault (issue 29 §4): a caller's idempotencyKey was sent on every round, so a gateway that honours it replayed round 1.
  it("a caller's idempotencyKey is not sent unchanged on every round", async () => {
    script(toolCallCompletion([{ id: 'a', name: 't', arguments: '{}' }]));
    const start = server.requests.length;
    await run([plainTool('t', () => 'x')], { idempotencyKey: 'order-1' }).finalContent();
    const keys = server.requests.slice(start).map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  });

  it('docs/tools.md: round 1 sends the key as given, round n `<key>-round-<n>`, the same on a second run', async () => {
    const twoCalls = () => script(toolCallCompletion([{ id: 'a', name: 't', arguments: '{}' }]), toolCallCompletion([{ id: 'b', name: 't', arguments: '{}' }]));
    const keysOf = async (extra: Record<string, unknown>) => {
      twoCalls();
      const start = server.requests.length;
      await run([plainTool('t', () => 'x')], { idempotencyKey: 'order-1' }, extra).done();
      return server.requests.slice(start).map((r) => r.headers['idempotency-key']);
    };
    const expected = ['order-1', 'order-1-round-2', 'order-1-round-3'];
    expect(await keysOf({})).toEqual(expected);
    expect(await keysOf({})).toEqual(expected);
  });

  it('without one, each round has its own generated key', async () => {
    script(toolCallCompletion([{ id: 'a', name: 't', arguments: '{}' }]));
    const start = server.requests.length;
    await run([plainTool('t', () => 'x')]).finalContent();
    const keys = server.requests.slice(start).map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys.every((k) => typeof k === 'string' && k.length > 0)).toBe(true);
    expect(new Set(keys).size).toBe(2);
  });
});

describe('a streaming run', () => {
  function streamScript(): void {
    const start = server.requests.length;
    server.handle((_req, res) => {
      const round = server.requests.length - start;
      if (round === 1)
        sse(res, [
          chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'look', arguments: '{}' } }] }, null, { id: 'r1' }),
          chunk({}, 'tool_calls', { id: 'r1' }),
        ]);
      else sse(res, textChunks(['the', ' answer']).map((c) => ({ ...c, id: 'r2' })));
    });
  }

  it('toReadableStream() read back: finalChatCompletion() is the last request, the text of both rounds in content events', async () => {
    streamScript();
    const runner = run([plainTool('look', () => 'seen')], {}, { stream: true });
    const readBack = ChatCompletionStream.fromReadableStream((runner as unknown as { toReadableStream(): ReadableStream<Uint8Array> }).toReadableStream());
    const final = await readBack.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('the answer');
    expect(final.id).toBe('r2');
  });

  it('break out of its for await aborts the run: no further request', async () => {
    streamScript();
    const start = server.requests.length;
    let ran = false;
    const runner = run([plainTool('look', () => (ran = true, 'seen'))], {}, { stream: true }) as unknown as AsyncIterable<unknown> & { done(): Promise<void> };
    for await (const _ of runner) break;
    await runner.done().catch(() => {});
    await delay(100);
    expect(ran).toBe(false);
    expect(server.requests.length - start).toBe(1);
  });

  // Issue 29: a streaming run's toReadableStream() read its upstream to the end while the body's
  // reader was slow (70 MB held where a plain stream holds 3.9 MB); it now reads on only as the body
  // is read, as a plain stream's toReadableStream() does.
  it('toReadableStream() whose reader stops: the run stops reading upstream (the server cannot write the rest)', async () => {
    const content = 'x'.repeat(8 * 1024);
    const chunks = 4_000; // about 33 MB of events
    let progress = { written: 0, total: 0, finished: false };
    server.handle(async (_req, res) => {
      const seen = progress; // this request's (a request cancelled before may still be unwinding)
      sseHead(res);
      const line = (c: unknown) => `data: ${JSON.stringify(c)}\n\n`;
      const events = [line(chunk({ role: 'assistant', content })), ...Array.from({ length: chunks }, () => line(chunk({ content }))), line(chunk({}, 'stop')), 'data: [DONE]\n\n'];
      seen.total = events.reduce((n, e) => n + e.length, 0);
      for (const e of events) {
        if (res.destroyed) return;
        // Counted once the socket took it: what the client's side has read, or its kernel buffers hold.
        const flushed = res.write(e, () => void (seen.written += e.length));
        if (!flushed) await new Promise((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
      }
      res.end(() => void (seen.finished = true));
    });
    // The run's body, and a plain stream's beside it: the same bound.
    const sources = [
      () => run([plainTool('t', () => 'x')], {}, { stream: true }) as unknown as { toReadableStream(): ReadableStream<Uint8Array>; done(): Promise<void> },
      () => clientOf(server.baseURL).chat.completions.stream({ model: 'acme/chat-1', messages: USER }),
    ];
    for (const source of sources) {
      progress = { written: 0, total: 0, finished: false };
      const runner = source();
      const reader = runner.toReadableStream().getReader();
      expect((await reader.read()).done).toBe(false);
      // The reader reads no more; wait until the server can write no more (or has written it all).
      let last = -1;
      for (let quiet = 0; quiet < 5 && !progress.finished; ) {
        await delay(100);
        quiet = progress.written === last ? quiet + 1 : 0;
        last = progress.written;
      }
      expect(progress.finished).toBe(false);
      expect(progress.written).toBeLessThan(progress.total / 2);
      await reader.cancel();
      await runner.done().catch(() => {});
    }
  }, 60_000);

  it('iterating a finished run again replays its events from the start', async () => {
    script(toolCallCompletion([{ id: 'a', name: 't', arguments: '{}' }]));
    const runner = run([plainTool('t', () => 'x')]);
    await runner.done();
    const first: string[] = [];
    for await (const e of runner) first.push(e.type);
    const second: string[] = [];
    for await (const e of runner) second.push(e.type);
    expect(first.length).toBeGreaterThan(2);
    expect(second).toEqual(first);
  });
});

describe('emitted() on a run', () => {
  it("emitted('totalUsage') when the server reports no usage: EventNotEmittedError, never a wait", async () => {
    server.handle((_req, res) => {
      const body = completion({ content: 'no usage here' });
      delete body['usage'];
      json(res, body);
    });
    const runner = run([plainTool('t', () => 'x')]);
    const result = await within(rejection(() => runner.emitted('totalUsage')), 15_000);
    expect(result).not.toBe('pending');
    expect(((result as { value: Error }).value).name).toBe('EventNotEmittedError');
  });

  it('finalFunctionToolCall() and finalFunctionToolCallResult(): the last call and its result', async () => {
    script(toolCallCompletion([{ id: 'a', name: 'echo', arguments: '{"v":1}' }]), toolCallCompletion([{ id: 'b', name: 'echo', arguments: '{"v":2}' }]));
    const runner = run([plainTool('echo', (args) => `got ${JSON.stringify(args)}`)]);
    await runner.done();
    expect(await runner.finalFunctionToolCall()).toMatchObject({ name: 'echo', arguments: '{"v":2}' });
    expect(await runner.finalFunctionToolCallResult()).toBe('got {"v":2}');
  });
});

// Issue 30 §5: runTools() as the official client's runner behaves, where code that moves over relies on it.
describe("as openai's runner", () => {
  it('maxChatCompletions: 1 runs the tools of that one completion, and sends nothing more', async () => {
    const s = script(toolCallCompletion([{ id: 'call_1', name: 'note', arguments: '{}' }]));
    let ran = 0;
    const runner = run([plainTool('note', () => (ran++, 'noted'))], { maxChatCompletions: 1 });
    expect(await runner.finalContent()).toBeNull();
    expect(ran).toBe(1);
    expect(s.bodies()).toHaveLength(1);
    expect(runner.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'noted' });
    expect(await runner.finalFunctionToolCallResult()).toBe('noted');
  });

  it('parallel_tool_calls: false in the body: the calls of a round run one after another, in order', async () => {
    const s = script(
      toolCallCompletion([
        { id: 'a', name: 'slow', arguments: '{}' },
        { id: 'b', name: 'quick', arguments: '{}' },
      ]),
    );
    const order: string[] = [];
    const slow = plainTool('slow', async () => {
      order.push('slow started');
      await delay(50);
      order.push('slow ended');
      return 'one';
    });
    const quick = plainTool('quick', () => (order.push('quick started'), 'two'));
    expect(await run([slow, quick], {}, { parallel_tool_calls: false }).finalContent()).toBe('done');
    expect(order).toEqual(['slow started', 'slow ended', 'quick started']);
    expect(s.bodies()[0]!['parallel_tool_calls']).toBe(false);
    expect(toolMessages(s.bodies()[1]!).map((m) => [m.tool_call_id, m.content])).toEqual([['a', 'one'], ['b', 'two']]);
  });

  // llama.cpp and others send `id: ""`: three results all answering "" could not be told apart.
  it('tool calls with an empty or missing id get ids of their own, unique in the run, that the tool messages answer', async () => {
    const noId = completion(
      {
        tool_calls: [
          { id: '', type: 'function', function: { name: 'echo', arguments: '{"n":1}' } },
          { id: '', type: 'function', function: { name: 'echo', arguments: '{"n":2}' } },
          { type: 'function', function: { name: 'echo', arguments: '{"n":3}' } },
        ],
      },
      'tool_calls',
    );
    const again = toolCallCompletion([{ id: '', name: 'echo', arguments: '{"n":4}' }]);
    const s = script(noId, again);
    const runner = run([plainTool('echo', (args) => JSON.stringify(args))]);
    expect(await runner.finalContent()).toBe('done');
    const last = s.bodies()[2]!['messages'] as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string; content?: unknown }[];
    const callIds = last.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []));
    const answered = last.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    expect(callIds).toHaveLength(4);
    expect(new Set(callIds).size).toBe(4);
    for (const id of callIds) expect(id).toMatch(/^call_\d+_\d+$/);
    expect(answered).toEqual(callIds);
    expect(last.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']);
    // The runner's own record says the same.
    const completions = runner.allChatCompletions().map((c) => c.choices[0]!.message.tool_calls?.map((t) => t.id));
    expect(completions.slice(0, 2).flat()).toEqual(callIds);
    expect(runner.messages.filter((m) => m.role === 'tool').map((m) => (m as { tool_call_id: string }).tool_call_id)).toEqual(callIds);
  });

  it("a call to a tool that does not exist is answered in the official runner's words", async () => {
    const s = script(toolCallCompletion([{ id: 'a', name: 'get_time', arguments: '{}' }]));
    expect(await run([plainTool('get_weather', () => 'x'), plainTool('get_news', () => 'y')]).finalContent()).toBe('done');
    expect(toolMessages(s.bodies()[1]!)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'Invalid tool_call: "get_time". Available options are: "get_weather", "get_news". Please try again' },
    ]);
  });

  it("the assistant messages of runner.messages and `message` events carry parsed, refusal and parsed_arguments as openai's; what is sent leaves them out", async () => {
    const s = script(
      toolCallCompletion([
        { id: 'a', name: 'echo', arguments: '{"n":1}' },
        { id: 'b', name: 'echo', arguments: '{"n":' },
      ]),
    );
    const runner = run([plainTool('echo', () => 'ok')]);
    const events: unknown[] = [];
    runner.on('message', (m) => void events.push(m));
    await runner.done();
    const replies = runner.messages.filter((m) => m.role === 'assistant') as unknown as Record<string, unknown>[];
    expect(replies).toHaveLength(2);
    for (const reply of replies) expect(reply).toMatchObject({ refusal: null, parsed: null });
    const calls = replies[0]!['tool_calls'] as { function: { parsed_arguments: unknown } }[];
    expect(calls.map((c) => c.function.parsed_arguments)).toEqual([{ n: 1 }, null]);
    expect(events.filter((m) => (m as { role: string }).role === 'assistant')).toEqual(replies);
    // Sent back without the SDK's fields: a strict server rejects what it does not know.
    const sent = (s.bodies()[1]!['messages'] as Record<string, unknown>[]).find((m) => m['role'] === 'assistant')!;
    expect(sent).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'echo', arguments: '{"n":1}' } },
        { id: 'b', type: 'function', function: { name: 'echo', arguments: '{"n":' } },
      ],
    });
  });

  it("the body's toolContext: every tool gets it as its third argument (openai's place for it); it is never sent", async () => {
    const s = script(toolCallCompletion([{ id: 'a', name: 'whoami', arguments: '{}' }]));
    const toolContext = { userId: 'u-1' };
    const seen: unknown[] = [];
    const whoami = plainTool('whoami', ((_args: unknown, ctx: { signal: AbortSignal }, third: unknown) => (seen.push([ctx.signal instanceof AbortSignal, third]), 'ok')) as never);
    expect(await run([whoami], {}, { toolContext }).finalContent()).toBe('done');
    expect(seen).toEqual([[true, toolContext]]);
    expect(seen[0]).toBeDefined();
    expect((seen[0] as unknown[])[1]).toBe(toolContext);
    for (const body of s.bodies()) expect(body).not.toHaveProperty('toolContext');
  });

  it('a reply that arrived before abort(), aborted while its schema validates: kept in allChatCompletions() and messages; no tool runs', async () => {
    const s = script(toolCallCompletion([{ id: 'a', name: 'checked', arguments: '{"x":1}' }]));
    let ran = false;
    const schema = z.object({ x: z.number() }).refine(async () => {
      runner.abort(); // the reply is here; the caller aborts before its validation settles
      return never<boolean>();
    });
    const runner = run([zodFunction({ name: 'checked', parameters: schema, function: () => (ran = true, 'x') })]);
    expect(await rejection(() => runner.done())).toBeInstanceOf(APIUserAbortError);
    expect(ran).toBe(false);
    expect(s.bodies()).toHaveLength(1);
    expect(runner.allChatCompletions()).toHaveLength(1);
    expect(runner.allChatCompletions()[0]!.choices[0]!.message.tool_calls?.[0]).toMatchObject({ id: 'a', function: { name: 'checked', parsed_arguments: null } });
    expect(runner.messages.at(-1)).toMatchObject({ role: 'assistant', parsed: null, tool_calls: [{ id: 'a' }] });
  });
});
