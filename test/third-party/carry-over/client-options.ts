// The client's options, written for the official `openai` client.
import OpenAI from 'openai';

const seen: string[] = [];
const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'],
  baseURL: process.env['OPENAI_BASE_URL'],
  timeout: 20 * 1000,
  maxRetries: 1,
  defaultHeaders: { 'X-Team': 'docs' },
  defaultQuery: { 'api-version': '1' },
  fetch: async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    seen.push(new Headers(init?.headers).get('x-team') ?? '');
    return fetch(url, init);
  },
  fetchOptions: { keepalive: false },
  logLevel: 'warn',
  logger: console,
});

const completion = await client.chat.completions.create(
  { model: 'mock/echo', messages: [{ role: 'user', content: 'Hello' }] },
  { timeout: 10 * 1000, maxRetries: 0, headers: { 'X-Request': 'one' } },
);
console.log(completion.choices[0]?.message.content, seen.join(','));

const patient = client.withOptions({ timeout: 60 * 1000 });
console.log(patient.timeout, patient.maxRetries);

const controller = new AbortController();
const request = client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hi' }] }, { signal: controller.signal });
controller.abort();
await request.catch((err: unknown) => console.log(err instanceof OpenAI.APIUserAbortError));

// A per-request query value of undefined leaves the key out, the default's too.
const searches: string[] = [];
const recorded = client.withOptions({
  fetch: async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    searches.push(new URL(url instanceof Request ? url.url : String(url)).search);
    return fetch(url, init);
  },
});
const hello = { model: 'mock/echo', messages: [{ role: 'user' as const, content: 'Hello' }] };
await recorded.chat.completions.create(hello, { query: { 'api-version': undefined } });
await recorded.chat.completions.create(hello, { query: { 'api-version': '2' } });
console.log(JSON.stringify(searches));
