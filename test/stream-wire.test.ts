/**
 * Streaming through the public API against the local server: a stream from the service, framing,
 * in-band errors, the end of a stream, and retries before the first event.
 */
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  ChatCompletionStream,
  type ChatCompletionChunk,
  InternalServerError,
  RateLimitError,
  ResponseValidationError,
  Stream,
} from '../src/index';
import { useStreamMock, server, client, stream, chunk, raw, textOf, failure } from './support/stream';

useStreamMock();

describe('a stream from the service', () => {
  it("arrives in the spec's order and rebuilds the reply exactly", async () => {
    const s = await stream();
    expect(s).toBeInstanceOf(ChatCompletionStream);
    expect(s).toBeInstanceOf(Stream);
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of s) chunks.push(c);
    expect(chunks[0]?.choices?.[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.at(-1)?.choices?.[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.map((c) => c.choices?.[0]?.delta.content ?? '').join('')).toBe('You said: hello brave new world');
    expect(server.requests[0]?.headers.accept).toBe('text/event-stream');
    expect(server.requests[0]?.body).toMatchObject({ stream: true });
  });

  it('finalChatCompletion() gives the accumulated completion, with usage from include_usage', async () => {
    const s = await stream(client(), { stream_options: { include_usage: true } });
    const completion = await s.finalChatCompletion();
    expect(completion.choices[0]?.message).toEqual({ role: 'assistant', content: 'You said: hello brave new world', refusal: null });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toEqual({ prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 });
    expect(completion.object).toBe('chat.completion');
  });

  it('finalChatCompletion() after a for-await loop returns what the loop saw', async () => {
    const s = await stream();
    const text = await textOf(s);
    expect((await s.finalChatCompletion()).choices[0]?.message?.content).toBe(text);
  });

  it('textStream() yields only the text deltas', async () => {
    const parts: string[] = [];
    for await (const t of (await stream()).textStream()) parts.push(t);
    expect(parts.join('')).toBe('You said: hello brave new world');
    expect(parts.every((p) => p.length > 0)).toBe(true);
  });

  it('accumulates n > 1 choices separately', async () => {
    const completion = await (await stream(client(), { n: 2 })).finalChatCompletion();
    expect(completion.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(completion.choices.map((c) => c.message?.content)).toEqual(['You said: hello brave new world', 'You said: hello brave new world']);
  });

  it('legacy completions stream text fragments', async () => {
    const s = await client().completions.create({ model: 'mock/echo', prompt: 'once upon a time', stream: true });
    let text = '';
    for await (const c of s) text += c.choices[0]?.text ?? '';
    expect(text).toBe('You said: once upon a time');
  });

  it('withResponse() gives the stream with the response and request id', async () => {
    const { data, response, requestId } = await stream().withResponse();
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(requestId).toMatch(/^req_/);
    expect(await textOf(data)).toBe('You said: hello brave new world');
  });

  it('can be iterated once; a second iteration is a clear error', async () => {
    const s = await stream();
    await textOf(s);
    expect(() => s[Symbol.asyncIterator]()).toThrow(/already consumed.*tee\(\)/);
  });
});

describe('framing', () => {
  it('handles comments, event lines, CRLF and CR, data without a space, multi-line data, empty data and data: null', async () => {
    const a = JSON.stringify(chunk('A'));
    const b = JSON.stringify(chunk('B')).replace('"content":"B"', '"content":\n"B"'); // split over two data lines
    raw(
      `: OPENROUTER PROCESSING\r\n\r\nevent: message\r\ndata: ${a}\r\n\r\n` +
        `data:${JSON.stringify(chunk('C'))}\r\r` +
        `data: ${b.split('\n')[0]}\ndata: ${b.split('\n')[1]}\n\n` +
        'data: \n\ndata: null\n\n' +
        `data: ${JSON.stringify(chunk(undefined, 'stop'))}\n\ndata: [DONE]\n\n`,
    );
    expect(await textOf(await stream())).toBe('ACB');
  });

  it('reads a large body that arrives in one piece (parsed a slice at a time) with every line end and multi-line data', async () => {
    const ends = ['\n', '\r\n', '\r'];
    let body = ': keep-alive\n\n';
    let expected = '';
    for (let i = 0; i < 1500; i++) {
      const text = `w${i} `;
      expected += text;
      const end = ends[i % 3]!;
      const json = JSON.stringify(chunk(text));
      // Every fourth event's data is split over two data lines (joined with a line feed: valid JSON whitespace).
      body += i % 4 === 0 ? `data: ${json.replace('"choices":', `"choices":${end}data: `)}${end}${end}` : `data: ${json}${end}${end}`;
    }
    body += `data: ${JSON.stringify(chunk(undefined, 'stop'))}\n\ndata: [DONE]\n\n`;
    expect(body.length).toBeGreaterThan(8 * 8192);
    raw(body);
    const s = await stream();
    expect(await textOf(s)).toBe(expected);
    // 1500 fragments, joined in blocks as they arrive: the same text.
    expect((await s.finalChatCompletion()).choices[0]?.message.content).toBe(expected);
  });

  it('delivers the last event even without a trailing blank line', async () => {
    raw(`data: ${JSON.stringify(chunk('x'))}\n\ndata: ${JSON.stringify(chunk('y', 'stop'))}`);
    expect(await textOf(await stream())).toBe('xy');
  });

  it('stops at [DONE] and ignores anything after it', async () => {
    raw(`data: ${JSON.stringify(chunk('x', 'stop'))}\n\ndata: [DONE]\n\ndata: ${JSON.stringify(chunk('late'))}\n\n`);
    expect(await textOf(await stream())).toBe('x');
  });

  it('reads `choices: null` as no choices', async () => {
    raw(`data: ${JSON.stringify({ ...chunk('x'), choices: null })}\n\ndata: ${JSON.stringify(chunk('y', 'stop'))}\n\ndata: [DONE]\n\n`);
    expect(await textOf(await stream())).toBe('y');
  });

  it('a malformed event is a ResponseValidationError carrying the raw text', async () => {
    raw(`data: ${JSON.stringify(chunk('x'))}\n\ndata: {"choices": [\n\n`);
    const s = await stream();
    const error = await failure(() => textOf(s));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).raw).toBe('{"choices": [');
  });

  it('an event of the wrong shape is a ResponseValidationError with the path', async () => {
    raw(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 42 } }] })}\n\n`);
    const error = await failure(() => stream());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.path).toBe('choices[0].delta.content');
  });
});

describe('in-band errors', () => {
  it('an {"error"} event after content is an APIError with the provider message, classed by its code', async () => {
    raw(
      `data: ${JSON.stringify(chunk('partial'))}\n\n` +
        `data: ${JSON.stringify({ error: { code: 502, message: 'Provider returned error', metadata: { provider_name: 'X' } }, choices: [] })}\n\n`,
    );
    const s = await stream();
    let text = '';
    const error = await failure(async () => {
      for await (const c of s) text += c.choices?.[0]?.delta.content ?? '';
    });
    expect(text).toBe('partial');
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as APIError).status).toBe(502);
    expect((error as APIError).message).toContain('Provider returned error');
  });

  it('an event: error with a string code is an APIError with that code', async () => {
    raw(`data: ${JSON.stringify(chunk('x'))}\n\nevent: error\ndata: {"message":"Context length exceeded","code":"CONTEXT_LENGTH_EXCEEDED"}\n\n`);
    const s = await stream();
    const error = (await failure(() => textOf(s))) as APIError;
    expect(error.constructor).toBe(APIError);
    expect(error.code).toBe('CONTEXT_LENGTH_EXCEEDED');
    expect(error.message).toContain('Context length exceeded');
  });

  it('an error before any content gets the retry policy (a retryable code is retried)', async () => {
    server.enqueue({ events: [{ error: { code: 429, message: 'rate limited upstream' } }], headers: { 'retry-after-ms': '0' } });
    expect(await textOf(await stream())).toBe('You said: hello brave new world');
    expect(server.requests).toHaveLength(2);
  });

  it('a non-retryable error before any content is thrown by create()', async () => {
    server.enqueue({ events: [{ error: { code: 400, message: 'bad tool schema' } }] });
    const error = await failure(() => stream());
    expect((error as APIError).status).toBe(400);
    expect(server.requests).toHaveLength(1);
  });

  it('a JSON error body with status 200 instead of a stream is an APIError', async () => {
    server.enqueue({ status: 200, body: { error: { message: 'quota exceeded', code: 429 } }, headers: { 'retry-after-ms': '0' } });
    server.enqueue({ status: 200, body: { error: { message: 'quota exceeded', code: 429 } }, headers: { 'retry-after-ms': '0' } });
    server.enqueue({ status: 200, body: { error: { message: 'quota exceeded', code: 429 } }, headers: { 'retry-after-ms': '0' } });
    await expect(stream()).rejects.toBeInstanceOf(RateLimitError);
  });
});

describe('the end of a stream', () => {
  it('ends cleanly without [DONE] after a finish_reason', async () => {
    raw(`data: ${JSON.stringify(chunk('x'))}\n\ndata: ${JSON.stringify(chunk(undefined, 'stop'))}\n\n`);
    expect(await textOf(await stream())).toBe('x');
  });

  it('throws when cut off before any finish_reason and without [DONE], never a silent success', async () => {
    raw(`data: ${JSON.stringify(chunk('half a sen'))}\n\n`);
    const s = await stream();
    const error = await failure(() => textOf(s));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/ended before any finish_reason/);
  });

  it('a connection reset before the first event is retried', async () => {
    server.enqueue({ reset: true });
    expect(await textOf(await stream())).toBe('You said: hello brave new world');
    expect(server.requests).toHaveLength(2);
  });
});
