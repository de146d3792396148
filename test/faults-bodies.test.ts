/**
 * Faults (first filed as issue 13), against a real loopback server and through the public API:
 * hostile bodies, and streams with no chunk or with errors in a 200; every failure is typed.
 * docs/reliability.md lists these cases with their outcomes.
 */
import { describe, expect, it } from 'vitest';
import {
  APIError,
  APIUserAbortError,
  BadRequestError,
  type ChatCompletionChunk,
  InferenceError,
  ResponseValidationError,
  Stream,
} from '../src/index';
import { useMockServer } from './support/mock-server';
import { useFaultServers } from './support/fault-server';
import { outcome } from './support/settle';
import { KEY, messages, chunk, sse, client } from './support/faults';

const { server: mock } = useMockServer({ apiKeys: { [KEY]: 'all' } });

useFaultServers(() => {
  mock.clear();
});

describe('7. hostile bodies', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it.each([10_000, 200_000])('an error body nested %i deep keeps its status and is not retried', async (depth) => {
    // No message: the error object itself is what the SDK must describe.
    mock.enqueue({ status: 400, body: `{"error":{"detail":${deep(depth)}}}` }, { status: 422, body: `{"detail":${deep(depth)}}` });
    const first = await outcome(() => client(mock.url).models.list());
    expect(first).toBeInstanceOf(BadRequestError);
    expect((first as APIError).status).toBe(400);
    const second = await outcome(() => client(mock.url).models.list());
    expect((second as APIError).status).toBe(422);
    expect(mock.requests).toHaveLength(2);
  });

  it('a 200 error nested deep keeps the status', async () => {
    mock.enqueue({ status: 200, body: `{"error":${deep(10_000)}}` });
    const error = await outcome(() => client(mock.url).models.list());
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(200);
    expect(mock.requests).toHaveLength(1);
  });

  it('an in-band stream error nested deep', async () => {
    mock.enqueue({ raw: `data: {"error":{"message":"x","detail":${deep(10_000)}}}\n\n`, headers: { 'content-type': 'text/event-stream' } });
    const error = await outcome(() => client(mock.url, { maxRetries: 0 }).chat.completions.create({ model: 'mock/echo', messages, stream: true }));
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(200);
  });

  it('a vendor field nested deep in a completion and in a chunk: read, or a typed error with the status', async () => {
    const body = `{"object":"chat.completion","vendor":${deep(10_000)},"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`;
    mock.enqueue({ status: 200, body });
    const result = await outcome(() => client(mock.url).chat.completions.create({ model: 'mock/echo', messages }));
    if (result instanceof Error) {
      expect(result).toBeInstanceOf(ResponseValidationError);
      expect((result as ResponseValidationError).status).toBe(200);
    } else {
      expect((result as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe('ok');
    }
    expect(mock.requests).toHaveLength(1);
    const event = `{"vendor":${deep(10_000)},"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}`;
    mock.enqueue({ raw: sse(event, '[DONE]'), headers: { 'content-type': 'text/event-stream' } });
    const stream = await client(mock.url).chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const read = await outcome(async () => {
      const chunks: string[] = [];
      for await (const line of streamLines(stream.toReadableStream())) chunks.push(line);
      return chunks;
    });
    expect(Array.isArray(read) || read instanceof InferenceError).toBe(true);
  });

  it('Stream.fromReadableStream: a line that is not JSON gives a typed error', async () => {
    const body = new Response(`${JSON.stringify(chunk('a'))}\nnot json\n`).body!;
    const chunks: unknown[] = [];
    const error = await outcome(async () => {
      for await (const c of Stream.fromReadableStream<ChatCompletionChunk>(body)) chunks.push(c);
    });
    expect(chunks).toHaveLength(1);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).raw).toBe('not json');
  });

  it('Stream.fromReadableStream: aborting its controller cancels the body and ends the loop with APIUserAbortError', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`${JSON.stringify(chunk('a'))}\n`));
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const stream = Stream.fromReadableStream<ChatCompletionChunk>(body, controller);
    const error = await outcome(async () => {
      for await (const _ of stream) controller.abort();
    });
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(cancelled).toBe(true);
  });

  it('Stream.fromReadableStream: its line buffer is bounded by maxEventSize', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new TextEncoder().encode('x'.repeat(64 * 1024)));
      },
    });
    const error = await outcome(async () => {
      for await (const _ of Stream.fromReadableStream(endless, undefined, { maxEventSize: 1024 * 1024 }));
    });
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/maxEventSize/);
    expect(pulled).toBeLessThan(4 * 1024 * 1024);
  });
});

async function* streamLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield decoder.decode(value);
  }
}


describe('10. streams with no chunk, errors in a 200', () => {
  it("llama.cpp's error in a non-standard `error:` SSE field becomes its APIError", async () => {
    mock.enqueue({
      raw: 'error: {"code":400,"message":"the request exceeds the available context size","type":"invalid_request_error"}\n\ndata: [DONE]\n\n',
      headers: { 'content-type': 'text/event-stream' },
    });
    const error = await outcome(() => client(mock.url).chat.completions.create({ model: 'mock/echo', messages, stream: true }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(/exceeds the available context size/);
    expect(mock.requests).toHaveLength(1);
  });

  it('a stream that ends without a single chunk: finalChatCompletion() throws a typed error, not choices: []', async () => {
    mock.enqueue({ raw: 'data: [DONE]\n\n', headers: { 'content-type': 'text/event-stream' } });
    const error = await outcome(async () => {
      const stream = await client(mock.url).chat.completions.create({ model: 'mock/echo', messages, stream: true });
      return stream.finalChatCompletion();
    });
    expect(error).toBeInstanceOf(InferenceError);
    expect((error as Error).message).toMatch(/without a single chunk/);
  });

  it('an error object in a 200 without a numeric code keeps status 200', async () => {
    mock.enqueue({ status: 200, body: { error: 'Unexpected endpoint or method. (POST /v1/chat/completions)' } });
    const error = await outcome(() => client(mock.url).chat.completions.create({ model: 'mock/echo', messages }));
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(200);
    expect((error as Error).message).toMatch(/^200 /);
  });
});
