/**
 * `model-inference-sdk/schemas`: the contract's zod schemas parse what the SDK returns from the
 * local mock server (models list, model, chat completion, stream chunks, legacy completion), and
 * refuse a response that breaks the contract, naming the field. Raw bodies parse where the wire
 * and the contract agree; a raw chat completion lacks the fields the normalizer fills in.
 */
import { describe, expect, it } from 'vitest';
import * as schemas from '../src/schemas/index';
import { zChatCompletion, zChatCompletionChunk, zCompletion, zModel, zModelList } from '../src/schemas/index';
import { useMockServer } from './support/mock-server';

const { server, client } = useMockServer({}, { reset: 'requests' });
const messages = [{ role: 'user' as const, content: 'Is it safe?' }];

/** The issues of a failed parse, as `path: message`. */
const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): string[] =>
  result.success ? [] : (result.error?.issues ?? []).map((i) => `${i.path.map(String).join('.')}: ${i.message}`);

describe('model-inference-sdk/schemas', () => {
  it('exports one zod schema per schema of the spec, and nothing else', () => {
    const names = Object.keys(schemas);
    expect(names.length).toBeGreaterThan(50);
    expect(names.every((name) => /^z[A-Z]\w+$/.test(name))).toBe(true);
    expect(names).toEqual(expect.arrayContaining(['zModel', 'zModelList', 'zChatCompletion', 'zChatCompletionChunk', 'zCompletion', 'zErrorResponse']));
  });

  it('parses what the SDK returns from the mock server: models, a model, chat completions, chunks, legacy completions', async () => {
    const c = client();
    expect(issues(zModelList.safeParse(await c.models.list()))).toEqual([]);
    expect(issues(zModel.safeParse(await c.models.retrieve('mock/reasoner')))).toEqual([]);

    const chat = await c.chat.completions.create({ model: 'mock/reasoner', messages });
    expect(issues(zChatCompletion.safeParse(chat))).toEqual([]);
    // Unknown fields are kept, as the SDK keeps them: the mock's reasoning_content passes through.
    expect(zChatCompletion.parse(chat).choices[0]?.message).toMatchObject({ content: 'You said: Is it safe?', reasoning_content: expect.any(String) });

    const stream = await c.chat.completions.create({ model: 'mock/reasoner', messages, stream: true, stream_options: { include_usage: true } });
    let chunks = 0;
    for await (const chunk of stream) {
      expect(issues(zChatCompletionChunk.safeParse(chunk))).toEqual([]);
      chunks++;
    }
    expect(chunks).toBeGreaterThan(5);
    expect(issues(zChatCompletion.safeParse(await stream.finalChatCompletion()))).toEqual([]);

    expect(issues(zCompletion.safeParse(await c.completions.create({ model: 'mock/echo', prompt: 'Once upon a time' })))).toEqual([]);
    const legacy = await c.completions.create({ model: 'mock/echo', prompt: 'Once upon a time', stream: true });
    for await (const chunk of legacy) expect(issues(zCompletion.safeParse(chunk))).toEqual([]);
  });

  it('parses the raw bodies whose wire shape is the contract; a raw chat completion lacks what the normalizer fills in', async () => {
    const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
    const get = async (path: string): Promise<unknown> => (await fetch(`${server.url}${path}`, { headers })).json();
    const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(issues(zModelList.safeParse(await get('/models')))).toEqual([]);
    expect(issues(zModel.safeParse(await get('/models/mock/echo')))).toEqual([]);
    expect(issues(zCompletion.safeParse(await (await post('/completions', { model: 'mock/echo', prompt: 'hi' })).json()))).toEqual([]);
    const sse = await (await post('/chat/completions', { model: 'mock/reasoner', messages, stream: true })).text();
    const lines = sse.split('\n').filter((line) => line.startsWith('data: {'));
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(issues(zChatCompletionChunk.safeParse(JSON.parse(line.slice(6))))).toEqual([]);
    // The service leaves out `refusal` and `logprobs`; the SDK's normalizer sets them to null.
    const raw = await (await post('/chat/completions', { model: 'mock/echo', messages })).json();
    expect(issues(zChatCompletion.safeParse(raw))).toEqual(['choices.0.message.refusal: Invalid input', 'choices.0.logprobs: Invalid input']);
  });

  it('refuses a stored response that breaks the contract, naming the field', async () => {
    const chat = await client().chat.completions.create({ model: 'mock/echo', messages });
    const broken = { ...chat, choices: [{ ...chat.choices[0], message: { ...chat.choices[0]!.message, content: 42 } }] };
    expect(issues(zChatCompletion.safeParse(broken))).toEqual(['choices.0.message.content: Invalid input']);
    expect(issues(zModel.safeParse({ id: 'acme/x', object: 'model', context_length: -1.5 }))).not.toEqual([]);
  });
});
