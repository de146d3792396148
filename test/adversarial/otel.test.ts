// model-inference-sdk/otel taken at docs/opentelemetry.md's word: "It never sees the API key",
// "Telemetry never fails a call", one span per call that ends when the call does. The providers are
// hand-written recorders of the @opentelemetry/api interfaces (TracerProvider, MeterProvider), so
// that no OpenTelemetry SDK is needed and a provider can be made to throw anywhere.
import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InferenceError } from '../../src/index';
import { openTelemetry } from '../../src/otel/index';
import { chunk, clientOf, completion, event, json, KEY, rejection, serve, sse, sseHead, textChunks, USER, type TestServer } from './support';

interface Recorded {
  spans: FakeSpan[];
  metrics: { name: string; value: number; attributes: Record<string, unknown> }[];
}

class FakeSpan {
  attributes: Record<string, unknown> = {};
  events: { name: string; attributes?: unknown }[] = [];
  status: { code: number; message?: string } | undefined;
  ended = 0;
  constructor(
    public name: string,
    options: { attributes?: Record<string, unknown> } | undefined,
    private fail: (where: string) => void,
  ) {
    Object.assign(this.attributes, options?.attributes);
  }
  spanContext() {
    return { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };
  }
  setAttribute(k: string, v: unknown) {
    this.fail('setAttribute');
    this.attributes[k] = v;
    return this;
  }
  setAttributes(a: Record<string, unknown>) {
    this.fail('setAttribute');
    Object.assign(this.attributes, a);
    return this;
  }
  addEvent(name: string, attributes?: unknown) {
    this.events.push({ name, attributes });
    return this;
  }
  addLink() {
    return this;
  }
  addLinks() {
    return this;
  }
  setStatus(s: { code: number; message?: string }) {
    this.status = s;
    return this;
  }
  updateName(n: string) {
    this.name = n;
    return this;
  }
  end() {
    this.ended++;
    this.fail('end');
  }
  isRecording() {
    return true;
  }
  recordException(e: unknown) {
    this.events.push({ name: 'exception', attributes: e });
  }
}

/** Providers that record everything; `failAt` names the calls that throw instead. */
function providers(failAt: string[] = []): { tracerProvider: TracerProvider; meterProvider: MeterProvider; recorded: Recorded } {
  const recorded: Recorded = { spans: [], metrics: [] };
  const fail = (where: string) => {
    if (failAt.includes(where)) throw new Error(`telemetry backend broke in ${where}`);
  };
  const tracer = {
    startSpan(name: string, options?: { attributes?: Record<string, unknown> }) {
      fail('startSpan');
      const span = new FakeSpan(name, options, fail);
      recorded.spans.push(span);
      return span;
    },
    startActiveSpan(name: string, ...args: unknown[]) {
      const fn = args.at(-1) as (span: FakeSpan) => unknown;
      return fn(this.startSpan(name, args.length > 1 ? (args[0] as never) : undefined));
    },
  };
  const instrument = (name: string) => ({
    record(value: number, attributes: Record<string, unknown> = {}) {
      fail('record');
      recorded.metrics.push({ name, value, attributes });
    },
    add(value: number, attributes: Record<string, unknown> = {}) {
      fail('record');
      recorded.metrics.push({ name, value, attributes });
    },
  });
  const meter = {
    createHistogram: (name: string) => (fail('createHistogram'), instrument(name)),
    createCounter: (name: string) => instrument(name),
    createUpDownCounter: (name: string) => instrument(name),
    createGauge: (name: string) => instrument(name),
    createObservableGauge: () => ({ addCallback() {}, removeCallback() {} }),
    createObservableCounter: () => ({ addCallback() {}, removeCallback() {} }),
    createObservableUpDownCounter: () => ({ addCallback() {}, removeCallback() {} }),
    addBatchObservableCallback() {},
    removeBatchObservableCallback() {},
  };
  return {
    tracerProvider: { getTracer: () => tracer } as unknown as TracerProvider,
    meterProvider: { getMeter: () => meter } as unknown as MeterProvider,
    recorded,
  };
}

const everything = (r: Recorded) => JSON.stringify({ spans: r.spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events.map((e) => ({ name: e.name, a: String(e.attributes instanceof Error ? `${e.attributes.message} ${e.attributes.stack}` : JSON.stringify(e.attributes)) })), status: s.status })), metrics: r.metrics });

let server: TestServer;
beforeAll(async () => {
  server = await serve((_req, res) => json(res, completion({ content: 'hi' })));
});
afterAll(() => server.close());

const traced = (p: ReturnType<typeof providers>, captureContent = false, extra: Record<string, unknown> = {}) =>
  clientOf(server.baseURL, { hooks: [openTelemetry({ tracerProvider: p.tracerProvider, meterProvider: p.meterProvider, captureContent })], ...extra });

describe('the key never reaches telemetry', () => {
  // Issue 29 §1: a server echoing the key as the completion's `id` or `model`: masked in the summary, so in span attributes and gen_ai.response.model of every metric.
  it('a completion whose id and model are the key', async () => {
    server.handle((_req, res) => json(res, completion({ content: 'x' }, 'stop', { id: KEY, model: KEY })));
    const p = providers();
    await traced(p).chat.completions.create({ model: 'acme/chat-1', messages: USER });
    expect(p.recorded.spans).toHaveLength(1);
    expect(everything(p.recorded)).not.toContain(KEY);
  });

  // Issue 29 §1: with captureContent, a key a stream splits into pieces is joined back together in gen_ai.output.messages, and masked there.
  it('captureContent: a key a stream splits across content deltas', async () => {
    server.handle((_req, res) => sse(res, textChunks([KEY.slice(0, 8), KEY.slice(8, 16), KEY.slice(16)])));
    const p = providers();
    await (await traced(p, true).chat.completions.create({ model: 'acme/chat-1', messages: USER, stream: true })).finalContent();
    expect(everything(p.recorded)).not.toContain(KEY);
  });

  // The same for a key split across tool-call argument fragments (the tool_call part's arguments).
  it('captureContent: a key a stream splits across tool-call argument fragments', async () => {
    server.handle((_req, res) =>
      sse(res, [
        chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: `{"k":"${KEY.slice(0, 10)}` } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: `${KEY.slice(10)}"}` } }] }),
        chunk({}, 'tool_calls'),
      ]),
    );
    const p = providers();
    await (await traced(p, true).chat.completions.create({ model: 'acme/chat-1', messages: USER, stream: true })).finalChatCompletion();
    expect(everything(p.recorded)).not.toContain(KEY);
  });

  it('captureContent: a JSON reply that quotes the key whole', async () => {
    server.handle((_req, res) => json(res, completion({ content: `Your key is ${KEY}` })));
    const p = providers();
    await traced(p, true).chat.completions.create({ model: 'acme/chat-1', messages: USER });
    expect(p.recorded.spans[0]?.attributes['gen_ai.output.messages']).toBeDefined();
    expect(everything(p.recorded)).not.toContain(KEY);
  });

  // The forms errors and logs mask (util/mask.ts secretForms): a key pasted with a trailing blank
  // (which the header drops, so the server quotes it without) and a Basic credential's base64.
  it('a 401 and a captured reply quoting the key trimmed and inside base64: masked', async () => {
    const basic = btoa(`user:${KEY}`);
    for (const reply of [
      (res: Parameters<Parameters<typeof server.handle>[0]>[1]) => json(res, { error: { message: `Incorrect API key provided: ${KEY} (Basic ${basic})` } }, 401, { 'x-request-id': basic }),
      (res: Parameters<Parameters<typeof server.handle>[0]>[1]) => json(res, completion({ content: `Basic ${basic}, ${KEY}` }, 'stop', { id: basic })),
    ]) {
      server.handle((_req, res) => reply(res));
      const p = providers();
      await traced(p, true, { apiKey: `${KEY} ` }).chat.completions.create({ model: 'acme/chat-1', messages: USER }).catch(() => {});
      expect(p.recorded.spans).toHaveLength(1);
      const text = everything(p.recorded);
      expect(text).toContain('***');
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(basic.slice(8, 30));
    }
  });

  it("a 401 quoting the key: the span's status message and exception event are masked", async () => {
    server.handle((_req, res) => json(res, { error: { message: `Incorrect API key provided: ${KEY}` } }, 401));
    const p = providers();
    await rejection(() => traced(p).models.list());
    expect(p.recorded.spans[0]?.attributes['error.type']).toBe('AuthenticationError');
    expect(everything(p.recorded)).not.toContain(KEY);
  });
});

describe('telemetry never fails a call', () => {
  it.each([['startSpan'], ['setAttribute'], ['end'], ['createHistogram'], ['record']])('a provider whose %s throws: JSON and stream calls still succeed', async (where) => {
    server.handle((_req, res, seen) => (seen.body.includes('"stream":true') ? sse(res, textChunks(['ok'])) : json(res, completion({ content: 'ok' }))));
    const p = providers([where]);
    const client = traced(p, true);
    expect((await client.chat.completions.create({ model: 'acme/chat-1', messages: USER })).choices[0]!.message.content).toBe('ok');
    expect(await (await client.chat.completions.create({ model: 'acme/chat-1', messages: USER, stream: true })).finalContent()).toBe('ok');
  });

  it.each([
    ['captureContent', 'yes'],
    ['providerName', 5],
    ['tracerProvider', 'global'],
  ])('openTelemetry({ %s: %s }): InferenceError at once', (name, value) => {
    expect(() => openTelemetry({ [name]: value } as never)).toThrow(InferenceError);
  });
});

describe('one span per call, ended once', () => {
  it('a stream left with break', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      event(res, chunk({ role: 'assistant', content: 'x' }));
    });
    const p = providers();
    const stream = await traced(p).chat.completions.create({ model: 'acme/chat-1', messages: USER, stream: true });
    for await (const _ of stream) break;
    await new Promise((r) => setTimeout(r, 50));
    expect(p.recorded.spans).toHaveLength(1);
    expect(p.recorded.spans[0]!.ended).toBe(1);
    expect(p.recorded.spans[0]!.status?.code ?? 0).not.toBe(2); // not ERROR
  });

  it('a call retried twice: one span covering the retries, ended once, ok', async () => {
    let calls = 0;
    server.handle((_req, res) => (calls++ < 2 ? json(res, { error: { message: 'busy' } }, 500, { 'retry-after-ms': '0' }) : json(res, completion({ content: 'ok' }))));
    const p = providers();
    await traced(p, false, { maxRetries: 2 }).chat.completions.create({ model: 'acme/chat-1', messages: USER });
    expect(p.recorded.spans).toHaveLength(1);
    expect(p.recorded.spans[0]!.ended).toBe(1);
    expect(p.recorded.metrics.filter((m) => m.name === 'gen_ai.client.operation.duration')).toHaveLength(1);
  });

  it('a stream whose listener throws: the span ends once, with status ERROR', async () => {
    server.handle((_req, res) => sse(res, textChunks(['a', 'b'])));
    const p = providers();
    const stream = await traced(p).chat.completions.create({ model: 'acme/chat-1', messages: USER, stream: true });
    stream.on('content', () => {
      throw new Error('listener broke');
    });
    await rejection(() => stream.done());
    await new Promise((r) => setTimeout(r, 50));
    expect(p.recorded.spans).toHaveLength(1);
    expect(p.recorded.spans[0]!.ended).toBe(1);
    expect(p.recorded.spans[0]!.status?.code).toBe(2);
  });
});
