// Handling errors, written for the official `openai` client.
import OpenAI from 'openai';

const client = new OpenAI({ maxRetries: 0 });

function describe(err: unknown): string {
  if (err instanceof OpenAI.NotFoundError) return `not found (${err.status})`;
  if (err instanceof OpenAI.AuthenticationError) return `authentication (${err.status})`;
  if (err instanceof OpenAI.RateLimitError) return `rate limited (${err.status})`;
  if (err instanceof OpenAI.APIConnectionError) return 'connection';
  if (err instanceof OpenAI.APIError) return `api error (${err.status})`;
  return 'other';
}

try {
  await client.models.retrieve('nope/missing');
} catch (err) {
  console.log(describe(err));
  if (err instanceof OpenAI.APIError) console.log(typeof err.requestID, err.type);
}

try {
  await client.chat.completions.create({ model: 'nope/missing', messages: [{ role: 'user', content: 'Hi' }] });
} catch (err) {
  console.log(describe(err));
}

const wrongKey = new OpenAI({ apiKey: 'wrong', maxRetries: 0 });
await wrongKey.models.list().catch((err: unknown) => console.log(describe(err)));

const nowhere = new OpenAI({ baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, timeout: 5_000 });
await nowhere.models.list().catch((err: unknown) => console.log(describe(err)));
