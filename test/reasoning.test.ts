/**
 * Reasoning as one field: `readReasoning()` on messages and deltas, and `message.reasoning` on
 * what `parse()` returns, for every form servers use (reasoning_content, reasoning, Mistral
 * thinking parts, OpenRouter reasoning_details), checked on the corpus captures that have reasoning.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, readReasoning } from '../src/index';
import { startMockServer, type MockServer } from '../src/testing';

const CORPUS = fileURLToPath(new URL('../../shared/corpus/', import.meta.url));
const corpusPresent = existsSync(`${CORPUS}MANIFEST.json`);
interface Entry {
  file: string;
  kind: string;
  endpoint: string;
  expect: { reasoning?: string; text?: string | null };
}
const manifest: Entry[] = corpusPresent ? (JSON.parse(readFileSync(`${CORPUS}MANIFEST.json`, 'utf8')) as Entry[]) : [];
const withReasoning = (kind: string) =>
  manifest.filter((e) => e.kind === kind && e.endpoint.includes('chat/completions') && typeof e.expect.reasoning === 'string');

let server: MockServer;
let client: Client;
beforeAll(async () => {
  server = await startMockServer();
  client = new Client({ apiKey: server.apiKey, baseURL: server.url, logLevel: 'off', maxRetries: 0 });
});
afterAll(() => server.close());

const user = [{ role: 'user' as const, content: 'think' }];

describe('readReasoning', () => {
  it('reads reasoning_content (DeepSeek, xAI, vLLM up to 0.8)', () => {
    expect(readReasoning({ content: '4', reasoning_content: '2 + 2' })).toBe('2 + 2');
  });

  it('reads reasoning (Groq, Ollama, gpt-oss servers)', () => {
    expect(readReasoning({ content: '4', reasoning: 'adding' })).toBe('adding');
  });

  it('prefers reasoning_content when a server sends both', () => {
    expect(readReasoning({ reasoning_content: 'a', reasoning: 'b' })).toBe('a');
  });

  it('reads Mistral thinking parts, leaving text parts out', () => {
    const content = [
      { type: 'thinking', thinking: [{ type: 'text', text: 'First ' }, { type: 'text', text: 'think.' }] },
      { type: 'text', text: 'Answer.' },
    ];
    expect(readReasoning({ content })).toBe('First think.');
  });

  it('reads OpenRouter reasoning_details text and summaries, skipping encrypted blocks', () => {
    const reasoning_details = [
      { type: 'reasoning.text', text: 'step one; ' },
      { type: 'reasoning.encrypted', data: 'opaque' },
      { type: 'reasoning.summary', summary: 'summary' },
    ];
    expect(readReasoning({ content: 'x', reasoning_details })).toBe('step one; summary');
  });

  it('counts an empty string as reasoning (DeepSeek opens with it) and null as none', () => {
    expect(readReasoning({ reasoning_content: '' })).toBe('');
    expect(readReasoning({ reasoning_content: null, content: 'x' })).toBeUndefined();
    expect(readReasoning({ content: 'plain' })).toBeUndefined();
    expect(readReasoning({})).toBeUndefined();
  });
});

describe('parse() fills message.reasoning', () => {
  it('from reasoning_content, keeping the raw field to send back', async () => {
    server.enqueue({ body: completion({ content: '4', reasoning_content: 'two and two' }) });
    const message = (await client.chat.completions.parse({ model: 'mock/echo', messages: user })).choices[0]!.message;
    expect(message.reasoning).toBe('two and two');
    expect(message.reasoning_content).toBe('two and two');
    expect(message.parsed).toBeNull();
  });

  it('from Mistral thinking parts, keeping the content array as sent', async () => {
    const content = [{ type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] }, { type: 'text', text: 'Yes.' }];
    server.enqueue({ body: completion({ content }) });
    const message = (await client.chat.completions.parse({ model: 'mock/echo', messages: user })).choices[0]!.message;
    expect(message.reasoning).toBe('hmm');
    expect(message.content).toEqual(content);
  });

  it('leaves it out when there is none', async () => {
    server.enqueue({ body: completion({ content: 'plain' }) });
    const message = (await client.chat.completions.parse({ model: 'mock/echo', messages: user })).choices[0]!.message;
    expect(message).not.toHaveProperty('reasoning');
  });
});

describe.skipIf(!corpusPresent)('corpus captures with reasoning', () => {
  it.each(withReasoning('json').map((e) => [e.file, e] as const))('%s: parse() gives message.reasoning', async (_file, entry) => {
    server.enqueue({ body: JSON.parse(readFileSync(CORPUS + entry.file, 'utf8')) as object });
    const message = (await client.chat.completions.parse({ model: 'mock/echo', messages: user })).choices[0]!.message;
    expect(message.reasoning).toBe(entry.expect.reasoning);
  });

  it.each(withReasoning('stream').map((e) => [e.file, e] as const))('%s: readReasoning over the deltas rebuilds it', async (_file, entry) => {
    server.enqueue({ raw: new Uint8Array(readFileSync(CORPUS + entry.file)), headers: { 'content-type': 'text/event-stream' } });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages: user, stream: true });
    let reasoning = '';
    try {
      for await (const chunk of stream) {
        for (const choice of chunk.choices ?? []) reasoning += readReasoning(choice.delta) ?? '';
      }
    } catch {
      // Some captures end with an in-band error (Groq, OpenRouter); the reasoning before it still counts.
    }
    expect(reasoning).toBe(entry.expect.reasoning);
  });
});

function completion(message: Record<string, unknown>, finish_reason = 'stop') {
  return {
    id: 'chatcmpl-r',
    object: 'chat.completion',
    created: 1,
    model: 'mock/echo',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  };
}
