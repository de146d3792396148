// model-inference-sdk/otel with the OpenTelemetry SDK itself: spans in its in-memory span exporter,
// metrics collected by an in-memory metric reader, calls made to the mock server on 127.0.0.1.
// The SDK packages live in this folder (npm run test:otel installs them); the client and the otel
// entry are the package's own source, through its public entries.
import { context, metrics, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { DataPointType, MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, Client, InferenceError, ListenerError, RateLimitError, type ClientOptions } from '../../src/index';
import { openTelemetry, type OpenTelemetryOptions } from '../../src/otel/index';
import { startMockServer, type MockServer } from '../../src/testing/index';
import pkg from '../../package.json';

/** A metric reader that keeps nothing itself: `collect()` reads the meters when a test asks. */
class TestMetricReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

let server: MockServer;
let exporter: InMemorySpanExporter;
let tracerProvider: BasicTracerProvider;
let reader: TestMetricReader;
let meterProvider: MeterProvider;

beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  exporter = new InMemorySpanExporter();
  tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  reader = new TestMetricReader();
  meterProvider = new MeterProvider({ readers: [reader] });
  server.clear();
});
afterEach(async () => {
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});

const client = (telemetry: OpenTelemetryOptions = {}, options: ClientOptions = {}) =>
  new Client({
    apiKey: server.apiKey,
    baseURL: server.url,
    logLevel: 'off',
    maxRetries: 0,
    hooks: [openTelemetry({ tracerProvider, meterProvider, ...telemetry })],
    ...options,
  });
const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Hello there' },
];
const port = () => Number(new URL(server.url).port);
const spans = () => exporter.getFinishedSpans();
const only = (): ReadableSpan => {
  const finished = spans();
  expect(finished).toHaveLength(1);
  return finished[0]!;
};

/** Every histogram by name: its data points' attributes, counts and sums. */
async function histograms(): Promise<Record<string, { attributes: Attributes; count: number; sum: number; boundaries: number[] }[]>> {
  const { resourceMetrics, errors } = await reader.collect();
  expect(errors).toEqual([]);
  const out: Record<string, { attributes: Attributes; count: number; sum: number; boundaries: number[] }[]> = {};
  for (const scope of resourceMetrics.scopeMetrics) {
    expect(scope.scope).toMatchObject({ name: 'model-inference-sdk', version: pkg.version });
    for (const metric of scope.metrics) {
      expect(metric.dataPointType).toBe(DataPointType.HISTOGRAM);
      const points = (metric as HistogramMetricData).dataPoints;
      out[metric.descriptor.name] = points.map((p) => ({ attributes: p.attributes, count: p.value.count, sum: p.value.sum ?? NaN, boundaries: p.value.buckets.boundaries }));
    }
  }
  return out;
}

/** Milliseconds since the epoch of an OpenTelemetry HrTime. */
const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;

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

describe('errors and retries', () => {
  it('an error: status ERROR, error.type, the exception recorded; error.type on the duration, not on usage', async () => {
    server.enqueue({ error: { status: 429, message: 'Slow down.' } });
    const error = await client().chat.completions.create({ model: 'mock/echo', messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    const span = only();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    expect(span.attributes['error.type']).toBe('RateLimitError');
    expect(span.events.map((e) => e.name)).toEqual(['exception']);
    expect(span.events[0]!.attributes).toMatchObject({ 'exception.type': 'RateLimitError', 'exception.message': (error as Error).message });
    const h = await histograms();
    expect(h['gen_ai.client.operation.duration']![0]!.attributes).toMatchObject({ 'error.type': 'RateLimitError', 'gen_ai.request.model': 'mock/echo' });
    expect(h['gen_ai.client.token.usage']).toBeUndefined();
  });

  it('a retried call is one span, over every attempt', async () => {
    server.enqueue({ error: { status: 503 } });
    await client({}, { maxRetries: 1 }).chat.completions.create({ model: 'mock/echo', messages });
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(ms(span.duration as [number, number])).toBeGreaterThan(300); // the backoff is inside it
    expect(server.requests).toHaveLength(2);
  }, 10_000);

  it('a 429 the limiter waits out: one span, the wait and the second attempt as events, the queue time', async () => {
    server.enqueue({ error: { status: 429, retryAfter: '0.2' } });
    await client({}, { maxRetries: 1 }).chat.completions.create({ model: 'mock/echo', messages });
    const span = only();
    expect(span.events.map((e) => e.name)).toEqual(['model_inference.queued', 'model_inference.attempt']);
    const [queued, attempt] = span.events;
    expect(queued!.attributes!['model_inference.queue_time']).toBeGreaterThan(0.1);
    expect(attempt!.attributes).toEqual({ 'model_inference.attempt': 2, 'gen_ai.request.model': 'mock/echo' });
    expect(span.attributes['model_inference.queue_time']).toBe(queued!.attributes!['model_inference.queue_time']);
    expect(server.requests).toHaveLength(2);
  });

  it('fallbacks: each attempt and its model as events; the model that answered', async () => {
    const completion = await client().chat.completions.create({ model: 'acme/missing', messages }, { fallbacks: ['mock/echo'] });
    expect(completion.model).toBe('mock/echo');
    const span = only();
    expect(span.name).toBe('chat acme/missing');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([['model_inference.attempt', { 'model_inference.attempt': 2, 'gen_ai.request.model': 'mock/echo' }]]);
    expect(span.attributes).toMatchObject({ 'gen_ai.request.model': 'acme/missing', 'gen_ai.response.model': 'mock/echo' });
    expect(span.attributes['model_inference.queue_time']).toBeUndefined();
  });

  it('a call that fails before any request (its key function) still has its span', async () => {
    const failing = client({}, { apiKey: () => Promise.reject(new Error('vault down')) });
    await expect(failing.models.list()).rejects.toThrow(InferenceError);
    const span = only();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('InferenceError');
    expect(span.attributes['server.address']).toBeUndefined(); // nothing was sent
  });

  it('telemetry that fails never fails the call', async () => {
    const broken = { getTracer: () => { throw new Error('exporter misconfigured'); } };
    const completion = await client({ tracerProvider: broken }).chat.completions.create({ model: 'mock/echo', messages });
    expect(completion.choices[0]!.message.content).toBe('You said: Hello there');
  });
});

describe('content', () => {
  const contentAttributes = (span: ReadableSpan) => Object.keys(span.attributes).filter((name) => /messages|instructions/.test(name));

  it('is not captured by default', async () => {
    const c = client();
    await c.chat.completions.create({ model: 'mock/echo', messages });
    const stream = await c.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    for await (const _ of stream);
    expect(spans()).toHaveLength(2);
    for (const span of spans()) expect(contentAttributes(span)).toEqual([]);
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain('Hello there');
  });

  it('captureContent: true records the messages in and out (JSON and stream, tool calls, legacy prompts)', async () => {
    const c = client({ captureContent: true });
    await c.chat.completions.create({ model: 'mock/echo', messages });
    const stream = await c.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    for await (const _ of stream);
    server.enqueue({ reply: { tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] } });
    const tools = await c.chat.completions.create({ model: 'mock/echo', messages, stream: true, tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }] });
    for await (const _ of tools);
    await c.chat.completions.create({
      model: 'mock/echo',
      messages: [
        ...messages,
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
      ],
    });
    await c.completions.create({ model: 'mock/echo', prompt: 'Once', max_tokens: 5 });

    const [json, streamed, toolCall, toolResult, legacy] = spans().map((span) => ({
      input: JSON.parse(span.attributes['gen_ai.input.messages'] as string) as unknown,
      output: JSON.parse(span.attributes['gen_ai.output.messages'] as string) as unknown,
    }));
    const input = [
      { role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Hello there' }] },
    ];
    const reply = [{ role: 'assistant', parts: [{ type: 'text', content: 'You said: Hello there' }], finish_reason: 'stop' }];
    expect(json).toEqual({ input, output: reply });
    expect(streamed).toEqual({ input, output: reply });
    expect(toolCall!.output).toEqual([
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], finish_reason: 'tool_calls' },
    ]);
    expect(toolResult!.input).toEqual([
      ...input,
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: 'Sunny' }] },
    ]);
    expect(legacy!.input).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Once' }] }]);
    expect(legacy!.output).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: expect.stringContaining('You said') }], finish_reason: expect.any(String) }]);
  });

  it('captureContent: a prompt of token ids is one user message, several arrays one each; a null prompt is none', async () => {
    const c = client({ captureContent: true });
    await c.completions.create({ model: 'mock/echo', prompt: [15496, 995], max_tokens: 5 });
    await c.completions.create({ model: 'mock/echo', prompt: [[1, 2], [3]], max_tokens: 5 });
    await c.completions.create({ model: 'mock/echo', prompt: ['Once', 'Twice'], max_tokens: 5 });
    await c.completions.create({ model: 'mock/echo', prompt: null, max_tokens: 5 });
    const [one, two, strings, none] = spans().map((span) => span.attributes['gen_ai.input.messages']);
    const tokens = { role: 'user', parts: [{ type: 'tokens' }] };
    expect(JSON.parse(one as string)).toEqual([tokens]);
    expect(JSON.parse(two as string)).toEqual([tokens, tokens]);
    expect(JSON.parse(strings as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Once' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Twice' }] },
    ]);
    expect(none).toBeUndefined();
  });

  it('only with captureContent does a stream cost a hook per chunk', () => {
    expect(Object.keys(openTelemetry()).sort()).toEqual(['beforeRequest', 'name', 'onEnd']);
    expect(Object.keys(openTelemetry({ captureContent: true })).sort()).toEqual(['beforeRequest', 'name', 'onChunk', 'onEnd']);
  });
});

describe('providers and context', () => {
  it('takes the global tracer and meter providers unless given others', async () => {
    expect(trace.setGlobalTracerProvider(tracerProvider)).toBe(true);
    expect(metrics.setGlobalMeterProvider(meterProvider)).toBe(true);
    try {
      const c = new Client({ apiKey: server.apiKey, baseURL: server.url, logLevel: 'off', hooks: [openTelemetry({ providerName: 'acme' })] });
      await c.chat.completions.create({ model: 'mock/echo', messages });
      expect(only().attributes).toMatchObject({ 'gen_ai.provider.name': 'acme', 'gen_ai.system': 'acme' });
      expect((await histograms())['gen_ai.client.operation.duration']![0]!.attributes['gen_ai.provider.name']).toBe('acme');
    } finally {
      trace.disable();
      metrics.disable();
    }
  });

  it('is a child of the span active where the call was made', async () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      const tracer = tracerProvider.getTracer('app');
      const c = client();
      const parent = await tracer.startActiveSpan('handle request', async (span) => {
        await c.chat.completions.create({ model: 'mock/echo', messages });
        span.end();
        return span;
      });
      const chat = spans().find((s) => s.name === 'chat mock/echo')!;
      expect(chat.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
      expect(chat.spanContext().traceId).toBe(parent.spanContext().traceId);
    } finally {
      context.disable();
    }
  });

  it('checks its options', () => {
    const bad: [unknown, RegExp][] = [
      [{ captureContent: 'yes' }, /`captureContent` must be true or false/],
      [{ tracerProvider: {} }, /`tracerProvider` must be a TracerProvider/],
      [{ meterProvider: 1 }, /`meterProvider` must be a MeterProvider/],
      [{ providerName: '' }, /`providerName` must be a non-empty string/],
      [{ capture: true }, /unknown option `capture`/],
    ];
    for (const [options, message] of bad) {
      expect(() => openTelemetry(options as OpenTelemetryOptions)).toThrow(InferenceError);
      expect(() => openTelemetry(options as OpenTelemetryOptions)).toThrow(message);
    }
  });
});
