// runTools() taken at docs/tools.md's word: an abort ends the run at once, listeners that throw end
// it; idempotency keys, a streaming run, emitted() on a run. The model's side is a loopback server
// that answers each round as the test says.
import { describe, expect, it } from 'vitest';
import { APIUserAbortError, ChatCompletionStream, ListenerError } from '../../src/index';
import { chunk, clientOf, completion, delay, json, never, rejection, sse, sseHead, textChunks, toolCallCompletion, USER, within } from './support';
import { useToolServer, server, script, plainTool, run } from '../support/adversarial-run-tools';

useToolServer();

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
