// model-inference-sdk/otel with the OpenTelemetry SDK itself: spans in its in-memory span exporter,
// metrics collected by an in-memory metric reader, calls made to the mock server on 127.0.0.1:
// chat completions, and the other operations. The SDK packages live in this folder (npm run
// test:otel installs them); the client and the otel entry are the package's own source, through
// its public entries.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, ListenerError } from '../../src/index';
import { openTelemetry } from '../../src/otel/index';
import pkg from '../../package.json';
import { useTelemetry, server, tracerProvider, meterProvider, client, messages, port, spans, only, histograms, ms } from './support';

useTelemetry();

describe('chat completions', () => {
  it('a JSON call: one CLIENT span "chat {model}" with the request, the server, the response and usage; the two metrics', async () => {
    const before = Date.now();
    const completion = await client().chat.completions.create({
      model: 'mock/echo',
      messages,
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 50,
      stop: ['\n\n'],
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0.3,
      n: 1,
    });
    const span = only();
    expect(span.name).toBe('chat mock/echo');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.instrumentationScope).toMatchObject({ name: 'model-inference-sdk', version: pkg.version });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'model_inference_service',
      'gen_ai.system': 'model_inference_service',
      'gen_ai.request.model': 'mock/echo',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.top_p': 0.9,
      'gen_ai.request.max_tokens': 50,
      'gen_ai.request.stop_sequences': ['\n\n'],
      'gen_ai.request.seed': 7,
      'gen_ai.request.presence_penalty': 0.1,
      'gen_ai.request.frequency_penalty': 0.3,
      'server.address': '127.0.0.1',
      'server.port': port(),
      'gen_ai.response.id': completion.id,
      'gen_ai.response.model': 'mock/echo',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': completion.usage!.prompt_tokens,
      'gen_ai.usage.output_tokens': completion.usage!.completion_tokens,
    });
    // The span covers the call: it starts when the call does, and ends after it.
    expect(ms(span.startTime)).toBeGreaterThanOrEqual(before - 1);
    expect(ms(span.endTime)).toBeLessThanOrEqual(Date.now() + 1);
    expect(span.parentSpanContext).toBeUndefined();

    const h = await histograms();
    const attributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'model_inference_service',
      'gen_ai.request.model': 'mock/echo',
      'gen_ai.response.model': 'mock/echo',
      'server.address': '127.0.0.1',
      'server.port': port(),
    };
    expect(h['gen_ai.client.operation.duration']).toEqual([{ attributes, count: 1, sum: expect.any(Number), boundaries: [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92] }]);
    const seconds = h['gen_ai.client.operation.duration']![0]!.sum;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(ms(span.duration as [number, number]) / 1000 + 0.05);
    expect(h['gen_ai.client.token.usage']).toEqual([
      { attributes: { ...attributes, 'gen_ai.token.type': 'input' }, count: 1, sum: completion.usage!.prompt_tokens, boundaries: expect.arrayContaining([1, 4, 16, 67108864]) },
      { attributes: { ...attributes, 'gen_ai.token.type': 'output' }, count: 1, sum: completion.usage!.completion_tokens, boundaries: expect.arrayContaining([1, 4, 16]) },
    ]);
    expect(h['gen_ai.client.operation.time_to_first_chunk']).toBeUndefined();
  });

  it("null params (openai's `?? null`) are no attributes; max_completion_tokens: null leaves max_tokens", async () => {
    await client().chat.completions.create({
      model: 'mock/echo',
      messages,
      temperature: null,
      top_p: null,
      max_completion_tokens: null,
      max_tokens: 50,
      stop: null,
      seed: null,
      presence_penalty: null,
      frequency_penalty: null,
      n: null,
      ...({ response_format: null } as object),
    });
    const requested = Object.entries(only().attributes).filter(([name]) => name.startsWith('gen_ai.request.') || name === 'gen_ai.output.type');
    expect(Object.fromEntries(requested)).toEqual({ 'gen_ai.request.model': 'mock/echo', 'gen_ai.request.max_tokens': 50 });
  });

  it('a stream: the span ends when the stream does, with the time to the first chunk', async () => {
    const stream = await client().chat.completions.create({ model: 'mock/echo', messages, stream: true, stream_options: { include_usage: true } });
    expect(spans()).toHaveLength(0); // open while the stream is
    let chunks = 0;
    for await (const _ of stream) chunks++;
    const span = only();
    const final = await stream.finalChatCompletion();
    expect(span.name).toBe('chat mock/echo');
    expect(span.attributes).toMatchObject({
      'gen_ai.response.id': final.id,
      'gen_ai.response.model': 'mock/echo',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': final.usage!.prompt_tokens,
      'gen_ai.usage.output_tokens': final.usage!.completion_tokens,
    });
    expect(chunks).toBeGreaterThan(2);
    const ttfc = span.attributes['gen_ai.response.time_to_first_chunk'] as number;
    expect(ttfc).toBeGreaterThan(0);
    expect(ttfc).toBeLessThanOrEqual(ms(span.duration as [number, number]) / 1000);
    const h = await histograms();
    expect(h['gen_ai.client.operation.time_to_first_chunk']).toEqual([
      { attributes: expect.objectContaining({ 'gen_ai.operation.name': 'chat', 'gen_ai.response.model': 'mock/echo' }), count: 1, sum: ttfc, boundaries: expect.any(Array) },
    ]);
    expect(h['gen_ai.client.token.usage']).toHaveLength(2);
    expect(h['gen_ai.client.operation.duration']![0]!.count).toBe(1);
  });

  it('a stream left with break: the span ends then, without an error', async () => {
    const stream = await client().chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'one two three four five six' }], stream: true });
    for await (const _ of stream) break;
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes['error.type']).toBeUndefined();
    expect(span.attributes['gen_ai.response.finish_reasons']).toBeUndefined();
    expect(span.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThan(0);
    expect((await histograms())['gen_ai.client.operation.duration']![0]!.count).toBe(1);
  });

  it('a stream that fails mid-way: status ERROR and error.type when it ends', async () => {
    server.enqueue({ reply: { content: 'a reply long enough to cut' }, fault: { kind: 'reset', after: 2 } });
    const stream = await client().chat.completions.create({ model: 'mock/echo', messages, stream: true });
    await expect((async () => {
      for await (const _ of stream);
    })()).rejects.toThrow();
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('APIConnectionError');
  });

  it('a stream whose listener throws: the span ends then, with the ListenerError', async () => {
    const stream = await client().chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'one two three four five six' }], stream: true });
    stream.on('content', () => {
      throw new Error('render failed');
    });
    await expect(stream.done()).rejects.toBeInstanceOf(ListenerError);
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('ListenerError');
    expect((await histograms())['gen_ai.client.operation.duration']![0]!.count).toBe(1);
  });

  it('a hook before it that never settles: the span still ends, with the timeout', async () => {
    const stuck = { name: 'stuck', onChunk: () => new Promise<void>(() => {}) };
    const c = client({}, { streamIdleTimeout: 300, hooks: [stuck, openTelemetry({ tracerProvider, meterProvider })] });
    const stream = await c.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    await expect(stream.done()).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('APIConnectionTimeoutError');
  });
});

describe('other operations', () => {
  it('legacy completions: "text_completion {model}"', async () => {
    const completion = await client().completions.create({ model: 'mock/echo', prompt: 'Once upon a time', max_tokens: 2 });
    const span = only();
    expect(span.name).toBe('text_completion mock/echo');
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'text_completion',
      'gen_ai.request.max_tokens': 2,
      'gen_ai.response.id': completion.id,
      'gen_ai.response.finish_reasons': ['length'],
      'gen_ai.usage.output_tokens': 2,
    });
  });

  it('models: a span per call ("models.list", "models.retrieve {slug}"), no usage', async () => {
    const c = client();
    await c.models.list();
    await c.models.retrieve('mock/echo');
    const [list, retrieve] = spans();
    expect(list!.name).toBe('models.list');
    expect(list!.attributes).toEqual({
      'gen_ai.operation.name': 'models.list',
      'gen_ai.provider.name': 'model_inference_service',
      'gen_ai.system': 'model_inference_service',
      'server.address': '127.0.0.1',
      'server.port': port(),
    });
    expect(retrieve!.name).toBe('models.retrieve mock/echo');
    expect(retrieve!.attributes['gen_ai.request.model']).toBe('mock/echo');
    const h = await histograms();
    expect(h['gen_ai.client.operation.duration']!.map((p) => p.attributes['gen_ai.operation.name'])).toEqual(['models.list', 'models.retrieve']);
    expect(h['gen_ai.client.token.usage']).toBeUndefined();
  });
});
