// runTools() taken at docs/tools.md's word, as the official client's runner behaves where code that
// moves over relies on it (issue 30 §5). The model's side is a loopback server that answers each
// round as the test says.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { APIUserAbortError } from '../../src/index';
import { zodFunction } from '../../src/helpers/zod';
import { completion, delay, never, rejection, toolCallCompletion } from './support';
import { useToolServer, script, toolMessages, plainTool, run } from '../support/adversarial-run-tools';

useToolServer();

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
