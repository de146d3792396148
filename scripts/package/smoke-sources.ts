// The programs the packed smoke writes into a temp dir with the tarball installed and runs there
// (or, for TYPES_SMOKE, type-checks): one job, the texts; smoke.ts runs them.

// The smoke runs test/runtimes/checks.ts (the checks of the runtime matrix) through both module
// systems, against the mock server of the packed `model-inference-sdk/testing`.
export const ESM_SMOKE = `
import * as sdk from 'model-inference-sdk';
import * as proxy from 'model-inference-sdk/proxy';
import { startMockServer } from 'model-inference-sdk/testing';
import { runChecks } from './checks.mjs';
const server = await startMockServer({ chunkDelayMs: 5 });
try {
  const { results } = await runChecks(sdk, { baseURL: server.url, apiKey: server.apiKey, runtime: 'esm', browser: false }, proxy);
  console.log(JSON.stringify(results));
} finally {
  await server.close();
}
`;
export const CJS_SMOKE = `
const sdk = require('model-inference-sdk');
const proxy = require('model-inference-sdk/proxy');
const { startMockServer } = require('model-inference-sdk/testing');
const { runChecks } = require('./checks.cjs');
(async () => {
  const server = await startMockServer({ chunkDelayMs: 5 });
  try {
    const { results } = await runChecks(sdk, { baseURL: server.url, apiKey: server.apiKey, runtime: 'cjs', browser: false }, proxy);
    console.log(JSON.stringify(results));
  } finally {
    await server.close();
  }
})();
`;
// Names as written in the source, in both builds: bundlers rename a class that refers to itself
// (`class _APIError`), which `console.log(err)` and stack traces then show (tsup keepNames).
const NAMES_SMOKE = (load: string) => `
${load}
const { inspect } = require('node:util');
(async () => {
  const entries = { 'model-inference-sdk': sdk, 'model-inference-sdk/helpers/zod': zodHelpers, 'model-inference-sdk/schemas': schemas, 'model-inference-sdk/testing': testing, 'model-inference-sdk/otel': otel, 'model-inference-sdk/proxy': proxy };
  const wrong = [];
  for (const [entry, exports] of Object.entries(entries)) {
    for (const [key, value] of Object.entries(exports)) {
      if (typeof value === 'function' && value.name !== key) wrong.push(entry + ': ' + key + ' is named ' + value.name);
    }
  }
  const server = await testing.startMockServer();
  const printed = [];
  try {
    const client = new sdk.Client({ apiKey: server.apiKey, baseURL: server.url, maxRetries: 0 });
    const calls = [
      () => client.models.retrieve('nope/missing'),
      () => (server.enqueue({ error: { status: 418 } }), client.models.list()),
    ];
    for (const call of calls) {
      const err = await call().then(() => undefined, (e) => e);
      printed.push(inspect(err).split('\\n').slice(0, 2).join(' | '));
    }
  } finally {
    await server.close();
  }
  console.log(JSON.stringify({ wrong, printed }));
})();
`;
export const NAMES_ESM = NAMES_SMOKE(`import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const sdk = await import('model-inference-sdk');
const zodHelpers = await import('model-inference-sdk/helpers/zod');
const schemas = await import('model-inference-sdk/schemas');
const testing = await import('model-inference-sdk/testing');
const otel = await import('model-inference-sdk/otel');
const proxy = await import('model-inference-sdk/proxy');`);
export const NAMES_CJS = NAMES_SMOKE(`const sdk = require('model-inference-sdk');
const zodHelpers = require('model-inference-sdk/helpers/zod');
const schemas = require('model-inference-sdk/schemas');
const testing = require('model-inference-sdk/testing');
const otel = require('model-inference-sdk/otel');
const proxy = require('model-inference-sdk/proxy');`);

// model-inference-sdk/otel from the tarball, with the @opentelemetry/api a user installs: one chat call
// traced by a tracer provider that keeps its spans (metrics go to the API's no-op global).
const OTEL_SMOKE = (load: string) => `
${load}
(async () => {
  const spans = [];
  const tracerProvider = {
    getTracer: () => ({
      startSpan(name, options) {
        const span = {
          name, attributes: { ...options.attributes }, ended: false,
          setAttributes(a) { Object.assign(span.attributes, a); return span; },
          setAttribute(k, v) { span.attributes[k] = v; return span; },
          setStatus() { return span; }, recordException() {}, end() { span.ended = true; },
        };
        spans.push(span);
        return span;
      },
    }),
  };
  const server = await startMockServer();
  try {
    const client = new Client({ apiKey: server.apiKey, baseURL: server.url, hooks: [openTelemetry({ tracerProvider })] });
    await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] });
  } finally {
    await server.close();
  }
  console.log(JSON.stringify(spans.map((s) => [s.name, s.ended, s.attributes['gen_ai.operation.name'], s.attributes['gen_ai.usage.output_tokens']])));
})();
`;
export const OTEL_ESM = OTEL_SMOKE(`import { Client } from 'model-inference-sdk';
import { openTelemetry } from 'model-inference-sdk/otel';
import { startMockServer } from 'model-inference-sdk/testing';`);
export const OTEL_CJS = OTEL_SMOKE(`const { Client } = require('model-inference-sdk');
const { openTelemetry } = require('model-inference-sdk/otel');
const { startMockServer } = require('model-inference-sdk/testing');`);

// model-inference-sdk/proxy from the tarball: the route on Node's http (toNodeListener) in front of
// the packed mock server, and the packed Client reading a streamed answer through it.
const PROXY_SMOKE = (load: string) => `
${load}
(async () => {
  const mock = await startMockServer();
  const handler = createProxy({ models: ['mock/echo'], upstream: { apiKey: mock.apiKey, baseURL: mock.url } });
  const server = createServer(toNodeListener(handler));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const client = new Client({ apiKey: 'unused', baseURL: 'http://127.0.0.1:' + server.address().port + '/api/inference/v1', maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'through the route' }], stream: true });
    const text = await stream.finalContent();
    const refused = await client.models.retrieve('mock/sleeping').then(() => 'served', (e) => e.status);
    console.log(JSON.stringify([text, refused]));
  } finally {
    server.close();
    await mock.close();
  }
})();
`;
export const PROXY_ESM = PROXY_SMOKE(`import { createServer } from 'node:http';
import { Client } from 'model-inference-sdk';
import { createProxy, toNodeListener } from 'model-inference-sdk/proxy';
import { startMockServer } from 'model-inference-sdk/testing';`);
export const PROXY_CJS = PROXY_SMOKE(`const { createServer } = require('node:http');
const { Client } = require('model-inference-sdk');
const { createProxy, toNodeListener } = require('model-inference-sdk/proxy');
const { startMockServer } = require('model-inference-sdk/testing');`);

// model-inference-sdk/batch from the tarball: a two-line file run against the packed mock, then
// run again (resumed: nothing sent). Prints [done, resumed, lines in the output].
const BATCH_SMOKE = (imports: string) => `${imports}
(async () => {
  const mock = await startMockServer();
  try {
    const client = new Client({ apiKey: mock.apiKey, baseURL: mock.url });
    const line = (id) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'mock/echo', messages: [{ role: 'user', content: id }] } });
    writeFileSync('batch-in.jsonl', line('a') + '\\n' + line('b') + '\\n');
    rmSync('batch-out.jsonl', { force: true });
    const first = await runBatchFile(client, { input: 'batch-in.jsonl', output: 'batch-out.jsonl' });
    const again = await runBatchFile(client, { input: 'batch-in.jsonl', output: 'batch-out.jsonl' });
    console.log(JSON.stringify([first.done, again.resumed, readFileSync('batch-out.jsonl', 'utf8').trim().split('\\n').length]));
  } finally {
    await mock.close();
  }
})();
`;
export const BATCH_ESM = BATCH_SMOKE(`import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Client } from 'model-inference-sdk';
import { runBatchFile } from 'model-inference-sdk/batch';
import { startMockServer } from 'model-inference-sdk/testing';`);
export const BATCH_CJS = BATCH_SMOKE(`const { readFileSync, rmSync, writeFileSync } = require('node:fs');
const { Client } = require('model-inference-sdk');
const { runBatchFile } = require('model-inference-sdk/batch');
const { startMockServer } = require('model-inference-sdk/testing');`);

// Type-checked against the tarball's .d.ts/.d.cts with the resolution Node uses; not run.
export const TYPES_SMOKE = `
import { Client, NotFoundError, type ChatCompletion, type ChatCompletionChunk, type ChatCompletionCreateParams, type ChatCompletionMessageFunctionToolCall, type ChatCompletionRole, type Hooks } from 'model-inference-sdk';
import { openTelemetry, type OpenTelemetryOptions } from 'model-inference-sdk/otel';
import { startMockServer, type MockServer } from 'model-inference-sdk/testing';
export async function main(): Promise<string> {
  const server: MockServer = await startMockServer();
  const options: OpenTelemetryOptions = { captureContent: false };
  const hooks: Hooks[] = [openTelemetry(options), { beforeRequest: (request) => request.headers.set('x-tenant', 'acme') }];
  const client = new Client({ apiKey: server.apiKey, baseURL: server.url, hooks });
  const completion: ChatCompletion = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] });
  const stream = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }], stream: true });
  let text = '';
  for await (const chunk of stream) text += chunk.choices?.[0]?.delta?.content ?? '';
  stream.controller.abort();
  await server.close();
  return String(NotFoundError.name) + (completion.choices[0]?.message?.content ?? '') + text;
}
// The openai client's names through the class (\`import { Client as OpenAI }\`): the namespace merged
// with it, and the error classes as statics (values) and as types.
export function throughTheClass(err: unknown, chunk: Client.ChatCompletionChunk): [Client.Chat.ChatCompletionMessageParam, Client.Chat.Completions.ChatCompletionTool[], Client.APIError | undefined] {
  const message: Client.Chat.ChatCompletionMessageParam = { role: 'user', content: chunk.choices[0]?.delta.content ?? '' };
  return [message, [], err instanceof Client.RateLimitError ? err : err instanceof Client.APIError ? err : undefined];
}
// The openai client's names: aliases and the type-only namespaces merged with the interfaces.
export function openaiNames(completion: ChatCompletion, chunk: ChatCompletionChunk): [ChatCompletion.Choice | undefined, ChatCompletionChunk.Choice.Delta.ToolCall.Function | undefined, ChatCompletionMessageFunctionToolCall.Function | undefined, ChatCompletionRole] {
  const where: ChatCompletionCreateParams.WebSearchOptions.UserLocation = { type: 'approximate', approximate: { city: 'Paris' } };
  void where;
  return [completion.choices[0], chunk.choices[0]?.delta.tool_calls?.[0]?.function, completion.choices[0]?.message.tool_calls?.[0]?.function, 'user'];
}
`;
