// What openai's own tests do under jest's default runtime (CommonJS in jest's module system, no
// --experimental-vm-modules): stream, parse structured output and run tools. Each of these loads a
// part of the SDK on first use; in the CommonJS build that is a require(), which jest allows.
/* global require */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose (see summarize.test.cjs) */
const { afterAll, beforeAll, beforeEach, expect, test } = require('@jest/globals');
const { Client, APIConnectionTimeoutError } = require('model-inference-sdk');
const { startMockServer } = require('model-inference-sdk/testing');

/** @type {import('model-inference-sdk/testing').MockServer} */
let server;
/** @type {import('model-inference-sdk').Client} */
let client;

beforeAll(async () => {
  server = await startMockServer();
  client = new Client({ apiKey: server.apiKey, baseURL: server.url, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.clear());

test('streams a chat with for await', async () => {
  server.enqueue({ reply: { content: 'Hello from the mock.' } });
  const stream = await client.chat.completions.create({
    model: 'mock/echo',
    messages: [{ role: 'user', content: 'Hi' }],
    stream: true,
  });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  expect(text).toBe('Hello from the mock.');
  expect(server.requests).toHaveLength(1);
});

test('stream(): events and the final completion', async () => {
  server.enqueue({ reply: { content: 'Two words.' } });
  const stream = client.chat.completions.stream({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hi' }] });
  const deltas = [];
  stream.on('content', (delta) => deltas.push(delta));
  const completion = await stream.finalChatCompletion();
  expect(deltas.join('')).toBe('Two words.');
  expect(completion.choices[0].message.content).toBe('Two words.');
});

test('parse(): a JSON schema response format', async () => {
  server.enqueue({ reply: { json: { city: 'Paris' } } });
  const completion = await client.chat.completions.parse({
    model: 'mock/echo',
    messages: [{ role: 'user', content: 'Where?' }],
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'place',
        strict: true,
        schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      },
    },
  });
  expect(completion.choices[0].message.parsed).toEqual({ city: 'Paris' });
});

test('runTools(): calls the tool and sends its result back', async () => {
  server.enqueue(
    { reply: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
    { reply: { content: 'Sunny in Paris.' } },
  );
  const calls = [];
  const runner = client.chat.completions.runTools({
    model: 'mock/echo',
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          function: (args) => {
            calls.push(args);
            return 'sunny';
          },
          parse: JSON.parse,
        },
      },
    ],
  });
  expect(await runner.finalContent()).toBe('Sunny in Paris.');
  expect(calls).toEqual([{ city: 'Paris' }]);
  expect(server.requests).toHaveLength(2);
});

test('a stream timeout is a timeout, not a connection error', async () => {
  server.enqueue({ reply: { content: 'late' }, delayMs: 2_000 });
  const error = await client.chat.completions
    .create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hi' }], stream: true }, { timeout: 100 })
    .catch((e) => e);
  expect(error).toBeInstanceOf(APIConnectionTimeoutError);
});
