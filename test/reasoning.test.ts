/**
 * Reasoning as one field: `message.reasoning` and `delta.reasoning` on what the client returns,
 * for every form servers use (reasoning_content, reasoning, Mistral thinking parts, OpenRouter
 * reasoning_details), checked on the captures of both corpora that have reasoning; and the
 * deprecated `readReasoning()`, kept for one release.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extras, readReasoning } from '../src/index';
import { useMockServer } from './support/mock-server';
import { corpusPresent, isLegacy, loadManifest, reasoning } from './support/corpus';

const manifest = loadManifest();
const withReasoning = (kind: string) => manifest.filter((e) => e.kind === kind && !isLegacy(e) && reasoning(e.expect) !== undefined);

const { server, client } = useMockServer({}, { client: { maxRetries: 0 } });

const user = [{ role: 'user' as const, content: 'think' }];

describe('readReasoning (deprecated: read message.reasoning)', () => {
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

  it('reads a normalized message too', async () => {
    server.enqueue({ body: completion({ content: [{ type: 'thinking', thinking: 'x' }, { type: 'text', text: 'y' }] }) });
    const message = (await client.chat.completions.create({ model: 'mock/echo', messages: user })).choices[0]!.message;
    expect(readReasoning(message)).toBe('x');
  });

  it('counts an empty string as reasoning (DeepSeek opens with it) and null as none', () => {
    expect(readReasoning({ reasoning_content: '' })).toBe('');
    expect(readReasoning({ reasoning_content: null, content: 'x' })).toBeUndefined();
    expect(readReasoning({ content: 'plain' })).toBeUndefined();
    expect(readReasoning({})).toBeUndefined();
  });
});

describe('every message carries reasoning, whichever field the server used', () => {
  const read = async (message: Record<string, unknown>) => {
    server.enqueue({ body: completion(message) });
    return (await client.chat.completions.create({ model: 'mock/echo', messages: user })).choices[0]!.message;
  };

  it('from reasoning_content (DeepSeek), keeping the raw field to send back', async () => {
    const message = await read({ content: '4', reasoning_content: 'two and two' });
    expect(message.reasoning).toBe('two and two');
    expect(extras(message)['reasoning_content']).toBe('two and two');
  });

  it('from reasoning (Groq, Ollama)', async () => {
    expect((await read({ content: '4', reasoning: 'adding' })).reasoning).toBe('adding');
  });

  it('from Mistral thinking parts: the text is the content, the parts are kept in content_parts', async () => {
    const content = [{ type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] }, { type: 'text', text: 'Yes.' }];
    const message = await read({ content });
    expect(message.reasoning).toBe('hmm');
    expect(message.content).toBe('Yes.');
    expect(message.content_parts).toEqual(content);
  });

  it('from OpenRouter reasoning_details, skipping encrypted blocks', async () => {
    const reasoning_details = [
      { type: 'reasoning.text', text: 'step one; ' },
      { type: 'reasoning.encrypted', data: 'opaque' },
      { type: 'reasoning.summary', summary: 'summary' },
    ];
    expect((await read({ content: 'x', reasoning_details })).reasoning).toBe('step one; summary');
  });

  it('parse() keeps it', async () => {
    server.enqueue({ body: completion({ content: '4', reasoning_content: 'two and two' }) });
    const message = (await client.chat.completions.parse({ model: 'mock/echo', messages: user })).choices[0]!.message;
    expect(message.reasoning).toBe('two and two');
    expect(message.parsed).toBeNull();
  });

  it('leaves it out when there is none', async () => {
    expect(await read({ content: 'plain', reasoning_content: null })).not.toHaveProperty('reasoning');
  });
});

describe.skipIf(!corpusPresent)('captures with reasoning, both corpora', () => {
  it.each(withReasoning('json').map((e) => [e.id, e] as const))('%s: message.reasoning', async (_id, entry) => {
    server.enqueue({ body: JSON.parse(readFileSync(entry.path, 'utf8')) as object });
    const message = (await client.chat.completions.create({ model: 'mock/echo', messages: user })).choices[0]!.message;
    expect(message.reasoning).toBe(reasoning(entry.expect));
  });

  it.each(withReasoning('stream').map((e) => [e.id, e] as const))('%s: delta.reasoning rebuilds it', async (_id, entry) => {
    server.enqueue({ raw: new Uint8Array(readFileSync(entry.path)), headers: { 'content-type': 'text/event-stream' } });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages: user, stream: true });
    let text = '';
    try {
      for await (const chunk of stream) {
        for (const choice of chunk.choices) if (choice.index === 0) text += choice.delta.reasoning ?? '';
      }
    } catch {
      // Some captures end with an in-band error (Groq, OpenRouter) or are cut off (GPUStack); the reasoning before it still counts.
    }
    expect(text).toBe(reasoning(entry.expect));
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
