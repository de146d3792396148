/**
 * `openTelemetry()`: hooks that trace and measure every call by the GenAI semantic conventions.
 * One CLIENT span per call, started with the call (`info.startTime`) when its first request goes
 * out and ended by `onEnd` (for a stream: when it ends, fails or is left), so that retries are
 * inside it; the metrics are recorded at the same moment. Telemetry never fails a call: an error
 * of its own is reported to OpenTelemetry's `diag` logger.
 */
import {
  context,
  diag,
  metrics,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Histogram,
  type MeterProvider,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { version } from '../../package.json';
// The SDK as its users import it: the same classes as theirs, and none of its code in this entry's.
import { InferenceError, type CallSummary, type HookInfo, type Hooks } from 'model-inference-sdk';
import {
  metricAttributes,
  requestAttributes,
  responseAttributes,
  serverAttributes,
  spanName,
} from './attributes';
import { inputMessages, OutputCollector, outputMessages } from './content';

/**
 * Options of {@link openTelemetry}; every one is optional.
 *
 * @example
 * ```ts
 * import { openTelemetry, type OpenTelemetryOptions } from 'model-inference-sdk/otel';
 *
 * const options: OpenTelemetryOptions = { captureContent: process.env.NODE_ENV !== 'production', providerName: 'openrouter' };
 * const client = new Client({ hooks: [openTelemetry(options)] });
 * ```
 */
export interface OpenTelemetryOptions {
  /** Where spans go. Default: the global tracer provider (`trace.getTracerProvider()`), as registered by the OpenTelemetry SDK. */
  tracerProvider?: TracerProvider | undefined;
  /** Where metrics go. Default: the global meter provider (`metrics.getMeterProvider()`), taken at the first call. */
  meterProvider?: MeterProvider | undefined;
  /**
   * Record the messages sent and received (`gen_ai.input.messages`, `gen_ai.output.messages`).
   * Off by default: prompts and replies often hold personal data, and they make spans large.
   */
  captureContent?: boolean | undefined;
  /**
   * `gen_ai.provider.name` (and `gen_ai.system`). Default `'model_inference_service'`; name the
   * provider when the client points elsewhere (`'openai'`, `'openrouter'`, `'groq'` …).
   */
  providerName?: string | undefined;
}

/** The instrumentation scope: spans and metrics say they come from this package, at this version. */
const SCOPE = 'model-inference-sdk';
const DEFAULT_PROVIDER = 'model_inference_service';

/** The conventions' advised bucket boundaries (seconds, then tokens). */
const SECONDS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
const TOKENS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

interface Instruments {
  duration: Histogram;
  tokens: Histogram;
  firstChunk: Histogram;
}

/** What a call's span needs between its hooks. */
interface CallState {
  span: Span;
  /** The attributes its metrics carry. */
  metrics: Attributes;
  /** A stream's output, when content is captured. */
  output: OutputCollector | undefined;
  /** The call's queue time at its last attempt (ms), to tell the wait before this one. */
  queued: number;
}

/**
 * Hooks that trace and measure every call with OpenTelemetry, by the GenAI semantic conventions:
 * a CLIENT span per call named `{operation} {model}` (e.g. `chat acme/chat-1`) with the request's
 * model and sampling parameters, the server, the response's id, model, finish reasons and token
 * usage, `error.type` and status ERROR on failure; a stream's span ends with the stream (or when
 * the caller leaves it) and records the time to its first chunk. Metrics:
 * `gen_ai.client.operation.duration`, `gen_ai.client.token.usage` and, for streams,
 * `gen_ai.client.operation.time_to_first_chunk`. Message content only with `captureContent: true`.
 *
 * Uses the global tracer and meter providers unless given others; without an OpenTelemetry SDK
 * registered, everything is a no-op. `@opentelemetry/api` is an optional peer dependency: install
 * it (the SDK you register brings it) to use this entry.
 *
 * @throws InferenceError for options of the wrong type.
 * @example
 * ```ts
 * import { Client } from 'model-inference-sdk';
 * import { openTelemetry } from 'model-inference-sdk/otel';
 *
 * // After the OpenTelemetry SDK is set up (NodeSDK, or providers registered by hand):
 * const client = new Client({ hooks: [openTelemetry()] });
 * await client.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hi' }] });
 * // → a span "chat acme/chat-1" with gen_ai.usage.input_tokens, gen_ai.response.finish_reasons …
 * ```
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Hooks {
  checkOptions(options);
  const provider = options.providerName ?? DEFAULT_PROVIDER;
  const capture = options.captureContent === true;
  // Taken at the first call, not now: the global providers are often registered after the client is made.
  let tracer: Tracer | undefined;
  let instruments: Instruments | undefined;
  const calls = new WeakMap<HookInfo, CallState>();

  /** The call's span: started by its first request, or at its end when it failed before sending one. */
  const begin = (info: HookInfo, request?: Request): CallState => {
    let state = calls.get(info);
    if (state) return state;
    const attributes = requestAttributes(info, provider);
    if (request) Object.assign(attributes, serverAttributes(request.url));
    if (capture && info.body) {
      const input = inputMessages(info.body);
      if (input) attributes['gen_ai.input.messages'] = JSON.stringify(input);
    }
    tracer ??= (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, version);
    const span = tracer.startSpan(
      spanName(info),
      { kind: SpanKind.CLIENT, startTime: info.startTime, attributes },
      context.active(),
    );
    state = {
      span,
      metrics: metricAttributes(attributes),
      output: capture && info.stream ? new OutputCollector() : undefined,
      queued: 0,
    };
    calls.set(info, state);
    return state;
  };

  const end = (summary: CallSummary, info: HookInfo): void => {
    const { span, metrics: attributes, output } = begin(info);
    calls.delete(info);
    span.setAttributes(responseAttributes(summary));
    if (summary.queueTime > 0)
      span.setAttribute('model_inference.queue_time', summary.queueTime / 1000);
    if (capture) {
      const messages = output ? maskOf(summary)(output.messages()) : outputMessages(summary.data);
      if (messages) span.setAttribute('gen_ai.output.messages', JSON.stringify(messages));
    }
    if (summary.model !== undefined) attributes['gen_ai.response.model'] = summary.model;
    const tokens = { ...attributes };
    if (summary.error) {
      const type = summary.error.name || 'Error';
      attributes['error.type'] = type;
      span.setAttribute('error.type', type);
      span.recordException(summary.error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: summary.error.message });
    }
    span.end();

    const {
      duration,
      tokens: usage,
      firstChunk,
    } = (instruments ??= createInstruments(options.meterProvider ?? metrics.getMeterProvider()));
    duration.record(summary.duration / 1000, attributes);
    if (summary.usage) {
      usage.record(summary.usage.prompt_tokens, { ...tokens, 'gen_ai.token.type': 'input' });
      usage.record(summary.usage.completion_tokens, { ...tokens, 'gen_ai.token.type': 'output' });
    }
    if (summary.timeToFirstChunk !== undefined)
      firstChunk.record(summary.timeToFirstChunk / 1000, attributes);
  };

  return {
    name: 'openTelemetry',
    // Each attempt: the wait before it in the client's queue (rate limits, maxConcurrency), and
    // from the second on, which it is and the model it goes to (a retry, or a fallback).
    beforeRequest(request, info) {
      guard(() => {
        const state = begin(info, request);
        if (info.queueTime > state.queued) {
          state.span.addEvent('model_inference.queued', {
            'model_inference.queue_time': (info.queueTime - state.queued) / 1000,
          });
          state.queued = info.queueTime;
        }
        if (info.attempt > 1)
          state.span.addEvent('model_inference.attempt', {
            'model_inference.attempt': info.attempt,
            ...(info.model === undefined ? {} : { 'gen_ai.request.model': info.model }),
          });
      });
    },
    // Only when content is captured: otherwise a stream's chunks cost telemetry nothing.
    ...(capture
      ? { onChunk: (chunk, info) => guard(() => calls.get(info)?.output?.add(chunk)) }
      : {}),
    onEnd(summary, info) {
      guard(() => end(summary, info));
    },
  } satisfies Hooks;
}

function createInstruments(provider: MeterProvider): Instruments {
  const meter = provider.getMeter(SCOPE, version);
  return {
    duration: meter.createHistogram('gen_ai.client.operation.duration', {
      description: 'GenAI operation duration.',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS },
    }),
    tokens: meter.createHistogram('gen_ai.client.token.usage', {
      description: 'Number of input and output tokens used.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKENS },
    }),
    firstChunk: meter.createHistogram('gen_ai.client.operation.time_to_first_chunk', {
      description: 'Time to receive the first chunk of a streamed response.',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS },
    }),
  };
}

/**
 * The client's mask, which the hook runner attaches to a summary (not enumerable, under a
 * registered symbol: this entry is bundled apart from the client's). A stream's output is joined
 * here from its chunks, and a key the stream split across them is whole again once joined; each
 * chunk, and `summary.data`, the runner masked already.
 */
function maskOf(summary: CallSummary): <T>(value: T) => T {
  const masks = (summary as unknown as Record<symbol, unknown>)[
    Symbol.for('model-inference-sdk.mask')
  ];
  return typeof masks === 'function' ? (masks as <T>(value: T) => T) : (value) => value;
}

/** Telemetry must not fail the call it watches: its own errors go to OpenTelemetry's diagnostic logger. */
function guard(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    diag.error('model-inference-sdk/otel: recording a call failed', error);
  }
}

function checkOptions(options: OpenTelemetryOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new InferenceError('openTelemetry(options): options must be an object.');
  const known = ['tracerProvider', 'meterProvider', 'captureContent', 'providerName'];
  for (const name of Object.keys(options)) {
    if (!known.includes(name))
      throw new InferenceError(
        `openTelemetry(options): unknown option \`${name}\`. Known options: ${known.join(', ')}.`,
      );
  }
  const { tracerProvider, meterProvider, captureContent, providerName } = options;
  if (tracerProvider !== undefined && typeof tracerProvider?.getTracer !== 'function') {
    throw new InferenceError(
      'openTelemetry(options): `tracerProvider` must be a TracerProvider (with getTracer()).',
    );
  }
  if (meterProvider !== undefined && typeof meterProvider?.getMeter !== 'function') {
    throw new InferenceError(
      'openTelemetry(options): `meterProvider` must be a MeterProvider (with getMeter()).',
    );
  }
  if (captureContent !== undefined && typeof captureContent !== 'boolean') {
    throw new InferenceError(
      `openTelemetry(options): \`captureContent\` must be true or false; got ${JSON.stringify(captureContent)}.`,
    );
  }
  if (providerName !== undefined && (typeof providerName !== 'string' || providerName === '')) {
    throw new InferenceError('openTelemetry(options): `providerName` must be a non-empty string.');
  }
}
