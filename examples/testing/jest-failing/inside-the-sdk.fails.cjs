// Fails on purpose: the error is thrown inside the SDK, so jest's code frame is a line of the SDK.
/* global require */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose */
const { test } = require('@jest/globals');
const { Client } = require('model-inference-sdk');

test('an argument error from inside the SDK', async () => {
  const client = new Client({ apiKey: 'test-key', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0 });
  await client.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'Hi' }] });
});
