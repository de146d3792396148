// model-inference-sdk/otel without an OpenTelemetry SDK registered (only @opentelemetry/api, as when an
// app installs the API but never sets up tracing): every call works as without hooks, and the
// hooks cost a stream nothing per chunk. The spans and metrics themselves are tested with the SDK
// in test/otel/ (npm run test:otel).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, type Hooks } from '../src/index';
import { openTelemetry } from '../src/otel/index';
import { startMockServer, type MockServer } from '../src/testing';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server.close();
});

it('without an SDK registered, every call works and records nothing', async () => {
  const seen: string[] = [];
  const after: Hooks = { onEnd: (summary, info) => void seen.push(`${info.operation} ${summary.outcome}`) };
  const client = new Client({ apiKey: server.apiKey, baseURL: server.url, logLevel: 'off', maxRetries: 0, hooks: [openTelemetry({ captureContent: true }), after] });
  const completion = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hi' }] });
  expect(completion.choices[0]!.message.content).toBe('You said: Hi');
  const stream = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hi' }], stream: true });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  expect(text).toBe('You said: Hi');
  server.enqueue({ error: { status: 404 } });
  await expect(client.models.retrieve('mock/echo')).rejects.toThrow(/404/);
  expect(seen).toEqual(['chat ok', 'chat ok', 'models.retrieve error']);
});

it('is a named hooks object; onChunk only with captureContent', () => {
  const hooks = openTelemetry();
  expect(hooks.name).toBe('openTelemetry');
  expect(hooks.onChunk).toBeUndefined();
  expect(typeof openTelemetry({ captureContent: true }).onChunk).toBe('function');
  expect(() => openTelemetry({ captureContnet: true } as never)).toThrow('openTelemetry(options): unknown option `captureContnet`. Known options: tracerProvider, meterProvider, captureContent, providerName.');
});
