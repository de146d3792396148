// model-inference-sdk/otel with the OpenTelemetry SDK itself: spans in its in-memory span exporter,
// metrics collected by an in-memory metric reader, calls made to the mock server on 127.0.0.1:
// errors and retries, content, providers and context. The SDK packages live in this folder (npm run
// test:otel installs them); the client and the otel entry are the package's own source, through
// its public entries.
import { context, metrics, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { Client, InferenceError, RateLimitError } from '../../src/index';
import { openTelemetry, type OpenTelemetryOptions } from '../../src/otel/index';
import { useTelemetry, server, tracerProvider, meterProvider, client, messages, spans, only, histograms, ms } from './support';

useTelemetry();

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
