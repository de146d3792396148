/**
 * The official client's stream events carry over (issue 23, item 4), through the public API
 * against the local server: the logprobs events, `message` / `chatCompletion` and the other final
 * events, the `chunk` event's snapshot, a streamed `function_call` joined into the final message.
 * The type side is in test/types-openai-carry-over.test-d.ts; test/third-party/carry-over/ compiles
 * and runs the same patterns against both clients.
 */
import { describe, expect, it } from 'vitest';
import { ListenerError, type ChatCompletion, type ChatCompletionTokenLogprob } from '../src/index';
import { useMockServer } from './support/mock-server';
import { streamsText } from './support/scripted-model';
import { messages, chunk } from './support/openai-streams';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'all' });

describe("the official client's stream events (item 4)", () => {
  const lp = (token: string, logprob: number): ChatCompletionTokenLogprob => ({ token, logprob, bytes: null, top_logprobs: [] });

  it('logprobs.content.delta / .done and logprobs.refusal.delta / .done; the final completion joins both lists', async () => {
    server.enqueue({
      events: [
        chunk({ role: 'assistant', content: 'Hi' }, null, { logprobs: { content: [lp('Hi', -0.1)], refusal: null } }),
        chunk({ content: ' there' }, null, { logprobs: { content: [lp(' there', -0.2)], refusal: null } }),
        chunk({ refusal: 'No' }, null, { logprobs: { content: null, refusal: [lp('No', -0.3)] } }),
        chunk({}, 'stop'),
        '[DONE]',
      ],
    });
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages, logprobs: true });
    const seen: [string, unknown][] = [];
    stream
      .on('logprobs.content.delta', ({ content, snapshot }) => seen.push(['content.delta', [content.map((t) => t.token), snapshot.map((t) => t.token)]]))
      .on('logprobs.content.done', ({ content }) => seen.push(['content.done', content.map((t) => t.token)]))
      .on('logprobs.refusal.delta', ({ refusal, snapshot }) => seen.push(['refusal.delta', [refusal.map((t) => t.token), snapshot.map((t) => t.token)]]))
      .on('logprobs.refusal.done', ({ refusal }) => seen.push(['refusal.done', refusal.map((t) => t.token)]));
    const completion = await stream.finalChatCompletion();
    expect(seen).toEqual([
      ['content.delta', [['Hi'], ['Hi']]],
      ['content.delta', [[' there'], ['Hi', ' there']]],
      ['refusal.delta', [['No'], ['No']]],
      ['content.done', ['Hi', ' there']],
      ['refusal.done', ['No']],
    ]);
    expect(completion.choices[0]?.logprobs).toEqual({ content: [lp('Hi', -0.1), lp(' there', -0.2)], refusal: [lp('No', -0.3)] });
  });

  it('connect, then the chunk events; at the end chatCompletion, message, functionToolCall, the final events, totalUsage, end', async () => {
    server.enqueue({
      events: [
        chunk({ role: 'assistant', content: 'Let me check.' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }),
        chunk({}, 'tool_calls'),
        { ...chunk({}), choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } },
        '[DONE]',
      ],
    });
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    const seen: [string, unknown][] = [];
    const names = ['connect', 'content', 'chatCompletion', 'message', 'functionToolCall', 'finalChatCompletion', 'finalMessage', 'finalContent', 'finalFunctionToolCall', 'totalUsage', 'end'] as const;
    for (const name of names) stream.on(name, ((value: unknown) => seen.push([name, value])) as never);
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0]!.message;
    expect(seen.map(([name]) => name)).toEqual([
      'connect',
      'content',
      'chatCompletion',
      'message',
      'functionToolCall',
      'finalChatCompletion',
      'finalMessage',
      'finalContent',
      'finalFunctionToolCall',
      'totalUsage',
      'end',
    ]);
    const of = (name: string) => seen.find(([n]) => n === name)?.[1];
    expect(of('chatCompletion')).toBe(completion);
    expect(of('finalChatCompletion')).toBe(completion);
    expect(of('message')).toBe(message);
    expect(of('finalMessage')).toBe(message);
    expect(of('finalContent')).toBe('Let me check.');
    expect(of('functionToolCall')).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(of('finalFunctionToolCall')).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(of('totalUsage')).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  });

  it("the chunk event's snapshot: the completion so far, as currentChatCompletionSnapshot gives it", async () => {
    server.enqueue(streamsText('one two three'));
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const texts: (string | null | undefined)[] = [];
    let last: ChatCompletion | undefined;
    stream.on('chunk', (chunk, snapshot) => {
      texts.push(snapshot.choices[0]?.message.content);
      expect(snapshot).toEqual(stream.currentChatCompletionSnapshot);
      last = snapshot;
      expect(chunk.object).toBe('chat.completion.chunk');
    });
    const final = await stream.finalChatCompletion();
    expect(texts).toEqual([null, 'one ', 'one two ', 'one two three', 'one two three']);
    expect(last).toEqual(final);
  });

  it('a streamed function_call (deprecated) is joined into finalChatCompletion() and finalMessage()', async () => {
    server.enqueue({
      events: [
        chunk({ role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '' } }),
        chunk({ function_call: { arguments: '{"city":' } }),
        chunk({ function_call: { arguments: '"Paris"}' } }),
        chunk({}, 'function_call'),
        '[DONE]',
      ],
    });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const message = await stream.finalMessage();
    expect(message.function_call).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(JSON.parse(message.function_call!.arguments)).toEqual({ city: 'Paris' });
    expect((await stream.finalChatCompletion()).choices[0]?.finish_reason).toBe('function_call');
  });

  it('a listener of message that throws fails the stream with a ListenerError; end is told once', async () => {
    server.enqueue(streamsText('Hello there'));
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    let ends = 0;
    stream
      .on('message', () => {
        throw new Error('listener failed');
      })
      .on('end', () => void ends++);
    const error = await stream.done().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListenerError);
    expect(error).toMatchObject({ event: 'message' });
    expect(ends).toBe(1);
    expect(stream.errored).toBe(true);
  });
});
