// Testing an app against the mock service on a local port (startMockServer): the app's own
// code, the SDK and real HTTP all run; only the service is local.
import { APIConnectionError, Client, RateLimitError } from 'model-inference-sdk';
import { startMockServer, type MockServer } from 'model-inference-sdk/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forecast, streamAnswer, summarize } from '../app';

let server: MockServer;
let client: Client;

beforeAll(async () => {
  server = await startMockServer();
  // maxRetries: 0 unless a test is about retries, so failures show at once.
  client = new Client({ apiKey: server.apiKey, baseURL: server.url, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.clear());

describe('summarize', () => {
  it('sends the system prompt and the text, and returns the reply', async () => {
    // The built-in model is deterministic: it answers "You said: <last user text>".
    expect(await summarize(client, 'A long text.')).toBe('You said: A long text.');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toMatchObject({
      model: 'mock/echo',
      messages: [{ role: 'system' }, { role: 'user', content: 'A long text.' }],
    });
  });

  it('returns what the model said (scripted)', async () => {
    server.enqueue({ reply: { content: '  Cats sleep a lot.  ' } });
    expect(await summarize(client, 'A text about cats.')).toBe('Cats sleep a lot.');
  });

  it('fails on an empty reply', async () => {
    server.enqueue({ reply: { content: '' } });
    await expect(summarize(client, 'x')).rejects.toThrow('no summary');
  });

  it('is retried by the client after a rate limit', async () => {
    server.enqueue({ error: { status: 429, retryAfter: 0 } });
    const patient = client.withOptions({ maxRetries: 2 });
    expect(await summarize(patient, 'x')).toBe('You said: x');
    expect(server.requests).toHaveLength(2);

    server.enqueue({ error: { status: 429, retryAfter: 0 } });
    await expect(summarize(client, 'x')).rejects.toBeInstanceOf(RateLimitError);
  });
});

describe('streamAnswer', () => {
  it('hands over each fragment in order', async () => {
    const fragments: string[] = [];
    const text = await streamAnswer(client, 'one two three', (f) => fragments.push(f));
    expect(text).toBe('You said: one two three');
    expect(fragments.join('')).toBe(text);
  });

  it('surfaces a stream cut mid-way as a connection error, after the text so far', async () => {
    server.enqueue({ reply: { content: 'a b c d' }, fault: { kind: 'reset', after: 3 } });
    const fragments: string[] = [];
    await expect(streamAnswer(client, 'x', (f) => fragments.push(f))).rejects.toBeInstanceOf(APIConnectionError);
    expect(fragments.join('')).toBe('a b ');
  });
});

describe('forecast', () => {
  it('sends a json_schema and parses the reply', async () => {
    server.enqueue({ reply: { json: { city: 'Paris', celsius: 21 } } });
    expect(await forecast(client, 'Weather in Paris?')).toEqual({ city: 'Paris', celsius: 21 });
    expect(server.requests[0]?.body).toMatchObject({ response_format: { type: 'json_schema' } });
  });

  it('rejects a reply of the wrong shape', async () => {
    server.enqueue({ reply: { json: { city: 'Paris' } } });
    await expect(forecast(client, 'Weather?')).rejects.toThrow('wrong shape');
  });
});
