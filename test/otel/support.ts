/**
 * Shared by the test/otel/otel-*.test.ts files: the mock server for the file, and for each test a
 * fresh in-memory span exporter and metric reader with their providers (`useTelemetry()`); a client
 * with openTelemetry() as its hook, and readers of the spans and histograms.
 */
import type { Attributes } from '@opentelemetry/api';
import { DataPointType, MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { Client, type ClientOptions } from '../../src/index';
import { openTelemetry, type OpenTelemetryOptions } from '../../src/otel/index';
import { startMockServer, type MockServer } from '../../src/testing/index';
import pkg from '../../package.json';

/** A metric reader that keeps nothing itself: `collect()` reads the meters when a test asks. */
class TestMetricReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export let server: MockServer;
export let exporter: InMemorySpanExporter;
export let tracerProvider: BasicTracerProvider;
export let reader: TestMetricReader;
export let meterProvider: MeterProvider;

/** Starts `server` for the file; gives each test fresh providers, shut down after it. */
export function useTelemetry(): void {
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
}

export const client = (telemetry: OpenTelemetryOptions = {}, options: ClientOptions = {}) =>
  new Client({
    apiKey: server.apiKey,
    baseURL: server.url,
    logLevel: 'off',
    maxRetries: 0,
    hooks: [openTelemetry({ tracerProvider, meterProvider, ...telemetry })],
    ...options,
  });
export const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Hello there' },
];
export const port = () => Number(new URL(server.url).port);
export const spans = () => exporter.getFinishedSpans();
export const only = (): ReadableSpan => {
  const finished = spans();
  expect(finished).toHaveLength(1);
  return finished[0]!;
};

/** Every histogram by name: its data points' attributes, counts and sums. */
export async function histograms(): Promise<Record<string, { attributes: Attributes; count: number; sum: number; boundaries: number[] }[]>> {
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
export const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
