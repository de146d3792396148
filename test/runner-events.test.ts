/**
 * `runTools()`'s events as the official client's runner names them (`runner.on('message', …)`),
 * in order, against the local server: a run with one round of tools, a streamed run, a failed and
 * an aborted run, `once`, `off`, `emitted()`, and a listener that throws.
 */
import { describe, expect, it, vi } from 'vitest';
import { APIUserAbortError, InternalServerError, type ChatCompletionMessageParam, type ChatCompletionRunner, type ChatCompletionRunnerEvents, type RunnableFunctionTool } from '../src/index';
import { useMockServer } from './support/mock-server';
import { calls, says, streamsText } from './support/scripted-model';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'all' });

const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
const weather: RunnableFunctionTool<{ city: string }> = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, function: ({ city }) => ({ city, celsius: 21 }) },
};

// `chunk` is a streaming runner's (ChatCompletionStreamEvents); a run without streaming never tells it.
type Name = keyof ChatCompletionRunnerEvents | 'chunk';
const NAMES: Name[] = [
  'connect', 'chunk', 'content', 'chatCompletion', 'message', 'functionToolCall', 'functionToolCallResult', 'finalChatCompletion',
  'finalMessage', 'finalContent', 'finalFunctionToolCall', 'finalFunctionToolCallResult', 'totalUsage', 'error', 'abort', 'end',
];

/** Every event of `runner`, in order, with its first argument. */
function record(runner: ChatCompletionRunner): [Name, unknown][] {
  const seen: [Name, unknown][] = [];
  for (const name of NAMES) runner.on(name as keyof ChatCompletionRunnerEvents, ((value: unknown) => seen.push([name, value])) as never);
  return seen;
}

describe("runTools() events, named as the official client's runner names them", () => {
  it('a run with one round of tools: each response, completion, message, call, result and text, then the final events and end', async () => {
    server.enqueue(calls(['call_1', 'get_weather', '{"city":"Paris"}']), says('It is 21 °C in Paris.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    const seen = record(runner);
    await runner.done();
    expect(seen.map(([name]) => name)).toEqual([
      'connect',
      'chatCompletion',
      'message',
      'functionToolCall',
      'message',
      'functionToolCallResult',
      'connect',
      'chatCompletion',
      'message',
      'content',
      'finalChatCompletion',
      'finalMessage',
      'finalContent',
      'finalFunctionToolCall',
      'finalFunctionToolCallResult',
      'totalUsage',
      'end',
    ]);
    const of = (name: Name) => seen.filter(([n]) => n === name).map(([, value]) => value);
    expect(of('functionToolCall')).toEqual([{ name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(of('functionToolCallResult')).toEqual(['{"city":"Paris","celsius":21}']);
    expect(of('message').map((m) => (m as ChatCompletionMessageParam).role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(of('content')).toEqual(['It is 21 °C in Paris.']);
    expect(of('finalContent')).toEqual(['It is 21 °C in Paris.']);
    expect(of('finalFunctionToolCall')).toEqual([{ name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(of('totalUsage')).toEqual([{ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 }]);
    expect(of('finalChatCompletion')).toEqual([await runner.finalChatCompletion()]);
    expect(await runner.finalFunctionToolCall()).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(await runner.finalFunctionToolCallResult()).toBe('{"city":"Paris","celsius":21}');
  });

  it('finalFunctionToolCall() and finalFunctionToolCallResult() are undefined when no tool ran', async () => {
    server.enqueue(says('No tools needed.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    expect(await runner.finalFunctionToolCall()).toBeUndefined();
    expect(await runner.finalFunctionToolCallResult()).toBeUndefined();
  });

  it("finalFunctionToolCall() and finalFunctionToolCallResult() read the whole conversation, the request's messages too, as openai's do", async () => {
    server.enqueue(says('Still 21 °C.'));
    const history: ChatCompletionMessageParam[] = [
      ...messages,
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: '{"celsius":21}' },
      { role: 'user', content: 'And now?' },
    ];
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages: history, tools: [weather] });
    expect(await runner.finalContent()).toBe('Still 21 °C.');
    expect(await runner.finalFunctionToolCall()).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(await runner.finalFunctionToolCallResult()).toBe('{"celsius":21}');
  });

  it('a streamed run: every chunk, and the text as it comes with the request\'s text so far', async () => {
    server.enqueue(streamsText('Sunny in Paris.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather], stream: true });
    const content: [string, string][] = [];
    let chunks = 0;
    runner.on('chunk', () => chunks++).on('content', (delta, snapshot) => content.push([delta, snapshot]));
    expect(await runner.finalContent()).toBe('Sunny in Paris.');
    expect(content).toEqual([
      ['Sunny ', 'Sunny '],
      ['in ', 'Sunny in '],
      ['Paris.', 'Sunny in Paris.'],
    ]);
    expect(chunks).toBe(5);
  });

  it('a failed run: error, then end; emitted() rejects with the same error', async () => {
    server.enqueue({ error: { status: 500, message: 'boom' } });
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    const seen = record(runner);
    const final = runner.emitted('finalContent');
    await expect(runner.done()).rejects.toBeInstanceOf(InternalServerError);
    await expect(final).rejects.toBeInstanceOf(InternalServerError);
    expect(seen.map(([name]) => name)).toEqual(['error', 'end']);
    expect(seen[0]![1]).toBeInstanceOf(InternalServerError);
  });

  it('an aborted run: abort, then end', async () => {
    server.enqueue({ reply: { content: 'late' }, delayMs: 5_000 });
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    const seen = record(runner);
    // Aborted once the server has the request: aborted earlier, on a busy machine the request could
    // reach the server after this test, and take the next test's queued reply.
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 10_000 });
    runner.abort();
    await expect(runner.done()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(seen.map(([name]) => name)).toEqual(['abort', 'end']);
  });

  it('once, off and emitted()', async () => {
    server.enqueue(calls(['c1', 'get_weather', '{"city":"Oslo"}']), says('Cold.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    const once: string[] = [];
    const all: string[] = [];
    const removed: string[] = [];
    const onRemoved = (message: ChatCompletionMessageParam) => removed.push(message.role);
    runner.once('message', (m) => once.push(m.role)).on('message', (m) => all.push(m.role)).on('message', onRemoved).off('message', onRemoved);
    const call = await runner.emitted('functionToolCall');
    expect(call).toEqual({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
    await runner.done();
    expect(once).toEqual(['assistant']);
    expect(all).toEqual(['assistant', 'tool', 'assistant']);
    expect(removed).toEqual([]);
  });

  it('a listener that throws on a final event fails the run with its error', async () => {
    server.enqueue(says('Done.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weather] });
    runner.on('finalContent', () => {
      throw new Error('listener failed');
    });
    await expect(runner.done()).rejects.toThrow('listener failed');
    await expect(runner.finalContent()).rejects.toThrow('listener failed');
  });
});
