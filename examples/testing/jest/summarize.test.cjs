// Jest runs test files as CommonJS by default, so this example uses require(): the package ships
// a CommonJS build of both `model-inference-sdk` and `model-inference-sdk/testing`.
/* global require */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose (see above) */
const { afterAll, beforeAll, beforeEach, expect, test } = require('@jest/globals');
const { Client, RateLimitError } = require('model-inference-sdk');
const { startMockServer } = require('model-inference-sdk/testing');
const { summarize } = require('./summarize.cjs');

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

test('sends the text and returns the reply of the built-in model', async () => {
  await expect(summarize(client, 'A long text.')).resolves.toBe('You said: A long text.');
  expect(server.requests).toHaveLength(1);
  expect(server.requests[0].headers.authorization).toBe(`Bearer ${server.apiKey}`);
});

test('returns a scripted reply', async () => {
  server.enqueue({ reply: { content: 'Cats sleep a lot.' } });
  await expect(summarize(client, 'A text about cats.')).resolves.toBe('Cats sleep a lot.');
});

test('lets a rate limit through when retries are off', async () => {
  server.enqueue({ error: { status: 429, retryAfter: 1 } });
  const error = await summarize(client, 'x').catch((e) => e);
  expect(error).toBeInstanceOf(RateLimitError);
  expect(error.headers.get('retry-after')).toBe('1');
});

test('recovers after a reset when retries are on', async () => {
  server.enqueue({ reset: true });
  await expect(summarize(client.withOptions({ maxRetries: 1 }), 'x')).resolves.toBe('You said: x');
  expect(server.requests).toHaveLength(2);
});
