/**
 * The runTools() loop end to end against the local server: validation, parallel calls, results sent
 * back with their ids, reasoning_content round-trip, maxRounds, a structured final answer, streaming,
 * argument checks; replaying every corpus capture that has tool calls as the first reply of a run.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { InferenceError, type RunnableFunctionTool, type ChatCompletionChunk, type RunnerEvent } from '../src/index';
import { zodFunction, zodResponseFormat } from '../src/helpers/zod';
import { useMockServer } from './support/mock-server';
import { answer, calls, says, streamsCalls, streamsText } from './support/scripted-model';
import { corpusPresent, loadManifest, type CorpusEntry } from './support/corpus';
import { messages, City, weatherTool } from './support/tools';

type Entry = CorpusEntry;
const withToolCalls = (kind: Entry['kind']): Entry[] => loadManifest().filter((e) => e.kind === kind && e.expect.tool_calls?.length);

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'requests' });

const sent = (i: number) => server.requests[i]!.body as { messages: Record<string, unknown>[]; tools?: unknown[]; tool_choice?: unknown; stream?: boolean };

describe('runTools()', () => {
  it('runs the tool with validated arguments, sends the result back under its call id, and ends on the answer', async () => {
    const log: unknown[] = [];
    server.enqueue(calls(['call_1', 'get_weather', '{"city":"Paris","unit":null}']), says('It is 21 °C in Paris.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weatherTool(log)] });

    expect(await runner.finalContent()).toBe('It is 21 °C in Paris.');
    expect(log).toEqual([{ city: 'Paris' }]);
    expect(server.requests).toHaveLength(2);
    const second = sent(1).messages;
    expect(second.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":null}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Paris","celsius":21}' },
    ]);
    // runner.messages holds the replies as the official runner does: `refusal` and `parsed` null,
    // the calls' `parsed_arguments`; what was sent (above) leaves them out. (Was: as sent.)
    expect(runner.messages).toEqual([
      second[0],
      {
        role: 'assistant',
        content: null,
        refusal: null,
        parsed: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":null}', parsed_arguments: { city: 'Paris' } } }],
      },
      second[2],
      { role: 'assistant', content: 'It is 21 °C in Paris.', refusal: null, parsed: null },
    ]);
    expect(runner.messages[1]).toBe(runner.allChatCompletions()[0]!.choices[0]!.message);
    expect(runner.allChatCompletions()).toHaveLength(2);
    expect(await runner.totalUsage()).toEqual({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
    expect((await runner.finalMessage()).role).toBe('assistant');
  });

  it('reports every event in order, and replays them to a second reader', async () => {
    server.enqueue(calls(['c1', 'get_weather', '{"city":"Oslo","unit":"c"}']), says('Cold.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weatherTool()] });
    const kinds = (events: RunnerEvent[]) => events.map((e) => `${e.round}:${e.type}${e.type === 'message' ? `:${e.message.role}` : ''}`);
    const seen: RunnerEvent[] = [];
    for await (const event of runner) seen.push(event);
    expect(kinds(seen)).toEqual(['1:completion', '1:message:assistant', '1:message:tool', '2:completion', '2:message:assistant']);
    const again: RunnerEvent[] = [];
    for await (const event of runner) again.push(event);
    expect(again).toEqual(seen);
  });

  it('runs the calls of one round in parallel and answers each under its own id', async () => {
    let running = 0;
    let most = 0;
    const slow = zodFunction({
      name: 'get_weather',
      parameters: City,
      function: async ({ city }) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 30));
        running--;
        return `${city}: fine`;
      },
    });
    server.enqueue(calls(['a', 'get_weather', '{"city":"Paris","unit":null}'], ['b', 'get_weather', '{"city":"Oslo","unit":null}']), says('Both fine.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [slow] });
    await runner.done();
    expect(most).toBe(2);
    expect(sent(1).messages.filter((m) => m.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'Paris: fine' },
      { role: 'tool', tool_call_id: 'b', content: 'Oslo: fine' },
    ]);
  });

  it('sends a validation failure back as the tool result instead of running the tool, and goes on', async () => {
    const log: unknown[] = [];
    server.enqueue(
      calls(['bad', 'get_weather', '{"town":"Paris"}']),
      calls(['good', 'get_weather', '{"city":"Paris","unit":null}']),
      says('21 °C.'),
    );
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weatherTool(log)] });
    expect(await runner.finalContent()).toBe('21 °C.');
    expect(log).toEqual([{ city: 'Paris' }]);
    const result = sent(1).messages.find((m) => m.role === 'tool')!;
    expect(result.tool_call_id).toBe('bad');
    expect(result.content).toMatch(/^Error: invalid arguments for get_weather: city: .*Call it again/);
  });

  // Was the SDK's own text for an unknown tool; now the official runner's, word for word (issue 30 §5).
  it('answers invalid JSON and an unknown tool (in the official runner\'s words) as tool results', async () => {
    server.enqueue(calls(['j', 'get_weather', '{"city": "Par'], ['u', 'get_time', '{}']), says('Sorry.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weatherTool()] });
    await runner.done();
    const results = sent(1).messages.filter((m) => m.role === 'tool');
    expect(results[0]).toMatchObject({ tool_call_id: 'j', content: expect.stringMatching(/^Error: invalid arguments for get_weather: \(root\): not valid JSON/) });
    expect(results[1]).toMatchObject({ tool_call_id: 'u', content: 'Invalid tool_call: "get_time". Available options are: "get_weather". Please try again' });
  });

  it('runs plain tools with a function, with or without their own parse', async () => {
    const seen: unknown[] = [];
    const upper: RunnableFunctionTool<{ text: string }> = {
      type: 'function',
      function: {
        name: 'upper',
        parameters: { type: 'object', properties: { text: { type: 'string' } } },
        parse: (text) => {
          const value = JSON.parse(text) as { text?: unknown };
          if (typeof value.text !== 'string') throw new Error('text must be a string');
          return { text: value.text };
        },
        function: ({ text }) => text.toUpperCase(),
      },
    };
    const echo: RunnableFunctionTool = { type: 'function', function: { name: 'echo', function: (args) => seen.push(args) } };
    server.enqueue(calls(['1', 'upper', '{"text":"hi"}'], ['2', 'upper', '{"text":5}'], ['3', 'echo', '']), says('done'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [upper, echo] });
    await runner.done();
    expect(sent(1).messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['HI', 'Error: invalid arguments for upper: text must be a string. Call it again with arguments that match its parameters.', '1']);
    expect(seen).toEqual([{}]);
    expect(sent(0).tools).toEqual([
      { type: 'function', function: { name: 'upper', parameters: { type: 'object', properties: { text: { type: 'string' } } } } },
      { type: 'function', function: { name: 'echo' } },
    ]);
  });

  // Was: the last round's tools were not run; the official runner runs them (issue 30 §5).
  it('stops after maxRounds requests, once the last round of tools has run', async () => {
    const log: unknown[] = [];
    for (let i = 0; i < 3; i++) server.enqueue(calls([`c${i}`, 'get_weather', '{"city":"Paris","unit":null}']));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weatherTool(log)] }, { maxRounds: 3 });
    expect(await runner.finalContent()).toBeNull();
    expect(server.requests).toHaveLength(3);
    expect(log).toHaveLength(3);
    expect(runner.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c2' });
    expect((await runner.finalChatCompletion()).choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('ends after the forced tool ran when tool_choice names a function', async () => {
    const log: unknown[] = [];
    server.enqueue(calls(['f', 'get_weather', '{"city":"Paris","unit":null}']));
    const runner = client.chat.completions.runTools({
      model: 'mock/echo',
      messages,
      tools: [weatherTool(log)],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    await runner.done();
    expect(server.requests).toHaveLength(1);
    expect(sent(0).tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(log).toHaveLength(1);
    expect(runner.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'f' });
  });

  it('sends reasoning_content back on the assistant message (DeepSeek needs it), not the normalised reasoning', async () => {
    server.enqueue(
      answer({ content: null, reasoning_content: 'I should call the tool.', tool_calls: [{ id: 'r1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":null}' } }] }, 'tool_calls'),
      says('21 °C.'),
    );
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weatherTool()] });
    await runner.done();
    const assistant = sent(1).messages.find((m) => m.role === 'assistant')!;
    expect(assistant.reasoning_content).toBe('I should call the tool.');
    expect(assistant).not.toHaveProperty('reasoning');
    expect(runner.allChatCompletions()[0]!.choices[0]!.message.reasoning).toBe('I should call the tool.');
  });

  it('parses a structured final answer with response_format', async () => {
    const Report = z.object({ summary: z.string() });
    server.enqueue(calls(['c', 'get_weather', '{"city":"Paris","unit":null}']), says('{"summary":"warm"}'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weatherTool()], response_format: zodResponseFormat(Report, 'report') });
    expect((await runner.finalMessage()).parsed).toEqual({ summary: 'warm' });
  });

  it('streams each request with stream: true: chunks, text, and the same loop', async () => {
    const log: unknown[] = [];
    server.enqueue(streamsCalls(['s1', 'get_weather', '{"city":"Paris","unit":null}'], ['s2', 'get_weather', '{"city":"Oslo","unit":"c"}']), streamsText('Paris 21, Oslo -2.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weatherTool(log)], stream: true });
    const text: string[] = [];
    for await (const piece of runner.textStream()) text.push(piece);
    expect(text.join('')).toBe('Paris 21, Oslo -2.');
    expect(text.length).toBeGreaterThan(1);
    expect(log).toEqual([{ city: 'Paris' }, { city: 'Oslo', unit: 'c' }]);
    expect(sent(0).stream).toBe(true);
    expect(sent(1).messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['s1', 's2']);
    // The streaming runner yields the chunks of every request, as the official client's does.
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of runner) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Paris 21, Oslo -2.');
    expect(await runner.totalUsage()).toMatchObject({ total_tokens: 7 });
  });

  it('checks its arguments at the call site: the run fails with the error, nothing is sent', async () => {
    const body = { model: 'mock/echo', messages };
    await expect(client.chat.completions.runTools({ ...body, tools: [] }).done()).rejects.toThrow(/`tools` must be a non-empty array/);
    const noFunction = zodFunction({ name: 'get_weather', parameters: City });
    // @ts-expect-error: a tool without a function cannot run
    await expect(client.chat.completions.runTools({ ...body, tools: [noFunction] }).done()).rejects.toThrow(/has no function to run; pass `function` to zodFunction/);
    await expect(client.chat.completions.runTools({ ...body, tools: [weatherTool(), weatherTool()] }).done()).rejects.toThrow(/two tools are named "get_weather"/);
    await expect(client.chat.completions.runTools({ ...body, tools: [weatherTool()] }, { maxRounds: 0 }).done()).rejects.toThrow(/`maxRounds` must be a positive integer/);
    await expect(client.chat.completions.runTools({ ...body, tools: [weatherTool()] }, { maxRetrys: 1 } as never).done()).rejects.toThrow(InferenceError);
    expect(server.requests).toHaveLength(0);
  });
});

describe.skipIf(!corpusPresent)('corpus captures with tool calls, as the first reply of a run', () => {
  /** One plain tool per name the capture calls, recording what it was called with. */
  function recorders(entry: Entry, log: { name: string; args: unknown }[]) {
    const names = [...new Set(entry.expect.tool_calls!.map((c) => c.name))];
    return names.map(
      (name): RunnableFunctionTool => ({
        type: 'function',
        function: { name, parameters: { type: 'object' }, function: (args) => (log.push({ name, args }), `${name} ok`) },
      }),
    );
  }
  const expected = (entry: Entry) => entry.expect.tool_calls!.map((c) => ({ name: c.name, args: JSON.parse(c.arguments || '{}') as unknown }));

  it.each(withToolCalls('json').map((e) => [e.id, e] as const))('%s', async (_id, entry) => {
    const log: { name: string; args: unknown }[] = [];
    const capture = JSON.parse(readFileSync(entry.path, 'utf8')) as { choices: { message: { tool_calls: { id: string; extra_content?: unknown }[] } }[] };
    server.enqueue({ body: capture }, says('Thanks.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: recorders(entry, log) });
    expect(await runner.finalContent()).toBe('Thanks.');
    expect(log).toEqual(expected(entry));
    const second = sent(1).messages;
    // A call the server sent without an id (Gemini's compat layer) is named `call_<round>_<index>` by the run.
    const ids = capture.choices[0]!.message.tool_calls.map((c, i) => c.id || `call_1_${i}`);
    expect(second.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(ids);
    expect((second.find((m) => m.role === 'assistant') as { tool_calls: { id: string }[] }).tool_calls.map((c) => c.id)).toEqual(ids);
    const assistant = second.find((m) => m.role === 'assistant') as { tool_calls: { id: string; extra_content?: unknown }[] };
    // Sent back as received, vendor extras included (Gemini's thought signature).
    expect(assistant.tool_calls.map((c) => c.extra_content)).toEqual(capture.choices[0]!.message.tool_calls.map((c) => c.extra_content));
  });

  it.each(withToolCalls('stream').map((e) => [e.id, e] as const))('%s (streamed)', async (_id, entry) => {
    const log: { name: string; args: unknown }[] = [];
    server.enqueue({ raw: new Uint8Array(readFileSync(entry.path)), headers: { 'content-type': 'text/event-stream' } }, streamsText('Thanks.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: recorders(entry, log), stream: true });
    expect(await runner.finalContent()).toBe('Thanks.');
    expect(log).toEqual(expected(entry));
    const toolMessages = sent(1).messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(entry.expect.tool_calls!.length);
    const assistant = sent(1).messages.find((m) => m.role === 'assistant') as { tool_calls: { id: string }[] };
    expect(toolMessages.map((m) => m.tool_call_id)).toEqual(assistant.tool_calls.map((c) => c.id));
  });
});
