/**
 * The official `openai` client's habits work here, through the public API against the local
 * server: `client.chat.completions.stream()` with its events and `final…()` helpers, the same
 * events on `create({ stream: true })`, `for await` over `models.list()`, and openai's names for
 * the request id.
 */
import { describe, expect, it, vi } from 'vitest';
import { APIConnectionError, APIError, APIUserAbortError, Client, InferenceError, NotFoundError, type ChatCompletion, type ChatCompletionChunk, type ChatCompletionMessageParam } from '../src/index';
import { useMockServer } from './support/mock-server';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'all' });

const messages = [{ role: 'user' as const, content: 'hello brave new world' }];

describe("the official client's stream state: abort(), ended, errored, aborted, currentChatCompletionSnapshot", () => {
  it('a stream read to its end: ended, not errored or aborted; the snapshot grows with the chunks read', async () => {
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    expect([stream.ended, stream.errored, stream.aborted, stream.currentChatCompletionSnapshot]).toEqual([false, false, false, undefined]);
    const texts: (string | null | undefined)[] = [];
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) texts.push(stream.currentChatCompletionSnapshot?.choices[0]?.message.content);
    }
    expect(texts.at(-1)).toBe('You said: hello brave new world');
    expect(texts.length).toBeGreaterThan(2);
    expect(texts.every((t, i) => i === 0 || (t ?? '').startsWith(texts[i - 1] ?? ''))).toBe(true);
    expect([stream.ended, stream.errored, stream.aborted]).toEqual([true, false, false]);
    // The final completion is the snapshot, with `parsed: null` on the message as stream() gives it (nothing to parse).
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message).toHaveProperty('parsed', null);
    const unparsed = final.choices.map(({ message, ...c }) => ({ ...c, message: { ...message, parsed: undefined } }));
    expect(stream.currentChatCompletionSnapshot).toEqual({ ...final, choices: unparsed });
  });

  it('abort(): the loop ends with APIUserAbortError, the abort event is told, and the stream is aborted', async () => {
    server.enqueue({ reply: { content: 'one two three four five six' } });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const told: unknown[] = [];
    stream.on('abort', (error) => told.push(error));
    const read = (async () => {
      for await (const _ of stream) stream.abort();
    })();
    await expect(read).rejects.toBeInstanceOf(APIUserAbortError);
    expect([stream.ended, stream.errored, stream.aborted]).toEqual([true, false, true]);
    expect(told).toHaveLength(1);
    expect(told[0]).toBeInstanceOf(APIUserAbortError);
  });

  it('a stream that fails: ended and errored', async () => {
    server.enqueue({ fault: { kind: 'error', after: 2 } });
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    await expect(stream.done()).rejects.toBeInstanceOf(APIError);
    expect([stream.ended, stream.errored, stream.aborted]).toEqual([true, true, false]);
  });
});

describe('client.chat.completions.stream()', () => {
  it('starts the request at once, as openai does: listeners alone get the whole stream, nobody reading it', async () => {
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    const deltas: string[] = [];
    stream.on('content', (delta) => deltas.push(delta));
    const ended = new Promise<void>((resolve) => stream.on('end', resolve));
    await ended;
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toMatchObject({ stream: true });
    expect(deltas.join('')).toBe('You said: hello brave new world');
    expect(await stream.finalContent()).toBe('You said: hello brave new world');
    expect(server.requests).toHaveLength(1);
  });

  it('a loop that starts after the stream began reading itself takes over from the next chunk; nothing fails', async () => {
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    await stream.emitted('connect'); // the first chunk was read, by the stream itself
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    const whole = await stream.finalContent();
    expect(whole).toBe('You said: hello brave new world');
    expect(whole?.endsWith(text)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('a loop that takes over after the stream read itself to an error throws that error', async () => {
    const stream = client.chat.completions.stream({ model: 'acme/nope', messages });
    const told = await new Promise<unknown>((resolve) => stream.on('error', resolve));
    expect(told).toBeInstanceOf(NotFoundError);
    const thrown = await (async () => {
      for await (const _ of stream) return 'no error';
    })().catch((error: unknown) => error);
    expect(thrown).toBe(told);
  });

  it('a bad argument is told to the error listener without anything reading the stream', async () => {
    // @ts-expect-error: messages is required
    const stream = client.chat.completions.stream({ model: 'mock/echo' });
    const error = await new Promise<unknown>((resolve) => stream.on('error', resolve));
    expect(error).toBeInstanceOf(InferenceError);
    expect(server.requests).toHaveLength(0);
  });

  it('emits content deltas with their snapshots, chunks, the done events, the final completion and end, in order', async () => {
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    const log: string[] = [];
    const deltas: string[] = [];
    let snapshot = '';
    const chunks: ChatCompletionChunk[] = [];
    stream
      .on('chunk', (chunk) => chunks.push(chunk))
      .on('content', (delta, soFar) => {
        deltas.push(delta);
        snapshot = soFar;
      })
      .on('content.delta', ({ delta, snapshot: s }) => expect(s.endsWith(delta)).toBe(true))
      .on('content.done', ({ content }) => log.push(`content.done:${content}`))
      .on('finalChatCompletion', (completion) => log.push(`final:${completion.choices[0]?.finish_reason}`))
      .on('end', () => log.push('end'));
    await stream.done();
    expect(deltas.join('')).toBe('You said: hello brave new world');
    expect(snapshot).toBe('You said: hello brave new world');
    expect(chunks.length).toBeGreaterThan(2);
    expect(log).toEqual(['content.done:You said: hello brave new world', 'final:stop', 'end']);
    expect(await stream.finalMessage()).toEqual({ role: 'assistant', content: 'You said: hello brave new world', refusal: null, parsed: null });
  });

  it('emits tool-call argument deltas and the finished arguments of each call', async () => {
    server.enqueue({
      reply: {
        tool_calls: [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_time', arguments: { zone: 'Europe/Paris' } },
        ],
      },
    });
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    const fragments: string[][] = [[], []];
    const done: { name: string; index: number; arguments: string; parsed_arguments: unknown }[] = [];
    stream.on('tool_calls.function.arguments.delta', ({ index, arguments_delta, arguments: soFar }) => {
      fragments[index]!.push(arguments_delta);
      expect(soFar).toBe(fragments[index]!.join(''));
    });
    stream.on('tool_calls.function.arguments.done', (event) => done.push(event));
    const message = await stream.finalMessage();
    // No tool carries a schema (nor is strict): nothing is parsed, as with the official client.
    expect(done).toEqual([
      { name: 'get_weather', index: 0, arguments: '{"city":"Paris"}', parsed_arguments: null },
      { name: 'get_time', index: 1, arguments: '{"zone":"Europe/Paris"}', parsed_arguments: null },
    ]);
    expect(message.tool_calls?.map((c) => c.function.arguments)).toEqual(done.map((d) => d.arguments));
    expect(await stream.finalContent()).toBeNull();
  });

  it('emits error, then end, and rejects done() with the same error', async () => {
    server.enqueue({ reply: { content: 'a b c d' }, fault: { kind: 'reset', after: 2 } });
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    const events: unknown[] = [];
    stream.on('error', (error) => events.push(error)).on('end', () => events.push('end'));
    const error = await stream.done().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(events).toEqual([error, 'end']);
  });

  it('abort() from the controller cancels it, with an abort event', async () => {
    server.enqueue({ reply: { content: 'a b c d e f g h' }, delayMs: 0 });
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    const aborted: unknown[] = [];
    stream.on('abort', (error) => aborted.push(error));
    stream.on('chunk', () => stream.controller.abort());
    const error = await stream.done().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(aborted[0]).toBeInstanceOf(APIUserAbortError);
  });

  it("the caller's signal, aborted between chunks already read, stops the stream at the next one", async () => {
    server.enqueue({ reply: { content: 'a b c d e f g h' }, delayMs: 0 });
    const signal = new AbortController();
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true }, { signal: signal.signal });
    const seen: ChatCompletionChunk[] = [];
    const error = await (async () => {
      for await (const chunk of stream) {
        seen.push(chunk);
        signal.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(seen).toHaveLength(1);
  });

  it('emitted() resolves with an event, and for await works on the same stream', async () => {
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    const final = stream.emitted('finalChatCompletion');
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    const completion: ChatCompletion = await final;
    expect(completion.choices[0]?.message.content).toBe(text);
  });

  it('checks its arguments at the call site: the stream fails with the error (done(), the error event), as in openai', async () => {
    // @ts-expect-error: messages is required
    const stream = client.chat.completions.stream({ model: 'mock/echo' });
    const told: unknown[] = [];
    stream.on('error', (error) => told.push(error));
    await expect(stream.done()).rejects.toThrow(/messages/);
    expect(told).toHaveLength(1);
    expect(told[0]).toBeInstanceOf(InferenceError);
  });
});

describe('the same events on create({ stream: true })', () => {
  it('content deltas and the final completion', async () => {
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    let text = '';
    stream.on('content', (delta) => (text += delta));
    const completion = await stream.finalChatCompletion();
    expect(text).toBe(completion.choices[0]?.message.content);
  });
});

describe('openai names', () => {
  it('for await (const model of client.models.list())', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual((await client.models.list()).data.map((m) => m.id));
  });

  it('withResponse() gives request_id, an APIError requestID', async () => {
    const { request_id, requestId } = await client.models.list().withResponse();
    expect(request_id).toBe(requestId);
    const error = (await client.models.retrieve('acme/nope').catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.requestID).toBe(error.requestId);
    expect(error.requestID).toMatch(/.+/);
  });
});

describe("a reply's message pushed back into messages", () => {
  /** A completion whose one choice has `message`, as a server sends it. */
  const reply = (message: Record<string, unknown>) => ({
    body: { id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message, finish_reason: 'stop' }] },
  });
  /** Ask, push the reply's message back, ask again: the assistant message as the server got it. */
  async function roundTrip(message: Record<string, unknown>) {
    server.enqueue(reply(message));
    const history: ChatCompletionMessageParam[] = [...messages];
    const first = (await client.chat.completions.create({ model: 'mock/echo', messages: history })).choices[0]!.message;
    history.push(first);
    await client.chat.completions.create({ model: 'mock/echo', messages: history });
    return { message: first, sent: (server.requests[1]?.body as { messages: unknown[] }).messages[1] };
  }

  it('Mistral: thinking parts become `reasoning` and `content` text, and go back as text only (Mistral rejects extra fields)', async () => {
    const { message, sent } = await roundTrip({
      role: 'assistant',
      content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Six times seven.' }] }, { type: 'text', text: '42' }],
    });
    expect(message).toMatchObject({ content: '42', reasoning: 'Six times seven.', refusal: null });
    expect(message).toHaveProperty('content_parts');
    expect(sent).toEqual({ role: 'assistant', content: '42' });
  });

  it("DeepSeek: `reasoning_content` goes back (tool loops need it), the SDK's `reasoning` does not", async () => {
    const tool_calls = [{ id: 't1', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }];
    const { message, sent } = await roundTrip({ role: 'assistant', content: null, reasoning_content: 'Use the tool.', tool_calls });
    expect(message.reasoning).toBe('Use the tool.');
    expect(sent).toEqual({ role: 'assistant', content: null, reasoning_content: 'Use the tool.', tool_calls });
  });

  it('a `reasoning` the server sent itself, and a refusal, go back as they came; unknown fields too', async () => {
    const { sent } = await roundTrip({ role: 'assistant', content: 'No.', reasoning: 'Unsafe.', refusal: 'I cannot help.', vendor_note: 1 });
    expect(sent).toEqual({ role: 'assistant', content: 'No.', reasoning: 'Unsafe.', refusal: 'I cannot help.', vendor_note: 1 });
  });

  it("parse()'s `parsed` and `parsed_arguments` stay home; the caller's objects are not changed", async () => {
    const message = {
      role: 'assistant' as const,
      content: '{"n":1}',
      refusal: null,
      parsed: { n: 1 },
      tool_calls: [{ id: 't1', type: 'function' as const, function: { name: 'f', arguments: '{}', parsed_arguments: {} } }],
    };
    const copy = structuredClone(message);
    await client.chat.completions.create({ model: 'mock/echo', messages: [...messages, message] });
    expect((server.requests[0]?.body as { messages: unknown[] }).messages[1]).toEqual({
      role: 'assistant',
      content: '{"n":1}',
      tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
    expect(message).toEqual(copy);
  });

  it("a stream's finalMessage() goes back the same way", async () => {
    server.enqueue({
      events: [
        { id: 's', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: 'Hm.' }, finish_reason: null }] },
        { id: 's', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'Yes.' }, finish_reason: 'stop' }] },
        '[DONE]',
      ],
    });
    const stream = client.chat.completions.stream({ model: 'mock/echo', messages });
    const final = await stream.finalMessage();
    expect(final).toMatchObject({ content: 'Yes.', reasoning: 'Hm.', refusal: null });
    await client.chat.completions.create({ model: 'mock/echo', messages: [...messages, final] });
    expect((server.requests[1]?.body as { messages: unknown[] }).messages[1]).toEqual({ role: 'assistant', content: 'Yes.', reasoning_content: 'Hm.' });
  });
});

describe("client.logLevel, as the official client's (issue 30, item 6)", () => {
  it('the logLevel option, else INFERENCE_LOG, else warn; withOptions makes a client with another', () => {
    const base = { apiKey: 'sk-test-key', baseURL: 'http://127.0.0.1:9/v1' };
    vi.stubEnv('INFERENCE_LOG', '');
    try {
      expect(new Client(base).logLevel).toBe('warn');
      expect(new Client({ ...base, logLevel: 'debug' }).logLevel).toBe('debug');
      vi.stubEnv('INFERENCE_LOG', 'info');
      expect(new Client(base).logLevel).toBe('info');
      expect(new Client({ ...base, logLevel: 'off' }).logLevel).toBe('off');
    } finally {
      vi.unstubAllEnvs();
    }
    expect(client.withOptions({ logLevel: 'error' }).logLevel).toBe('error');
  });
});
