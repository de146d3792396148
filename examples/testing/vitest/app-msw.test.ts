// The same app tested in process with msw: no port, and other handlers of your own can sit beside
// the mock's. `model-inference-sdk/testing/msw` needs msw installed (an optional peer dependency).
import { Client } from 'model-inference-sdk';
import { createMockHandlers } from 'model-inference-sdk/testing/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { forecast, summarize } from '../app';

const mock = createMockHandlers(); // answers at http://mock.inference.test/v1
const server = setupServer(...mock.handlers);
const client = new Client({ apiKey: mock.apiKey, baseURL: mock.url, maxRetries: 0 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.clear());
afterAll(() => server.close());

it('summarizes through msw', async () => {
  expect(await summarize(client, 'A long text.')).toBe('You said: A long text.');
  expect(mock.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /chat/completions']);
});

it('gets a forecast from the built-in model: a value of the schema sent', async () => {
  // Without a script, the model fills the schema: strings with the question, numbers with 0.
  expect(await forecast(client, 'Paris')).toEqual({ city: 'Paris', celsius: 0 });
});

it('reports an outage', async () => {
  mock.enqueue({ error: { status: 503, message: 'The model is overloaded.' } });
  await expect(summarize(client, 'x')).rejects.toThrow('overloaded');
});
