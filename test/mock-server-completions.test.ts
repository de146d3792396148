// The mock server is driven with plain fetch (not the SDK) so that these tests pin down the wire
// format itself: chat and legacy completions, the built-in model, and mock/reasoner.
import { describe, expect, it } from 'vitest';
import { generateChatReply } from '../src/testing';
import { countTokens, splitTokens } from '../src/testing/model';
import { type Json, useWireServer, server, start, post, sseData, chatBody } from './support/mock-server-wire';

useWireServer();

describe('chat completions', () => {
  it('answers JSON deterministically with usage', async () => {
    const res = await post('/chat/completions', chatBody);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'mock/echo',
      choices: [{ index: 0, message: { role: 'assistant', content: 'You said: Hello there,  world!' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
    });
    expect(Math.abs(body['created'] - Date.now() / 1000)).toBeLessThan(60);
    const again = (await (await post('/chat/completions', chatBody)).json()) as Json;
    expect(again['id']).toBe('chatcmpl-2');
    expect(again['choices']).toEqual(body['choices']);
  });

  it('greets when there is no user text, and reads content parts', async () => {
    const greet = (await (await post('/chat/completions', { model: 'mock/echo', messages: [{ role: 'system', content: 'x' }] })).json()) as Json;
    expect(greet['choices'][0]['message']['content']).toBe('Hello from the mock model.');
    const parts = (await (
      await post('/chat/completions', { model: 'mock/echo', messages: [{ role: 'user', content: [{ type: 'text', text: 'a b' }] }] })
    ).json()) as Json;
    expect(parts['choices'][0]['message']['content']).toBe('You said: a b');
  });

  it('streams the spec order and rebuilds the JSON text exactly', async () => {
    const json = (await (await post('/chat/completions', chatBody)).json()) as Json;
    const res = await post('/chat/completions', { ...chatBody, stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const data = sseData(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as Json);
    for (const chunk of chunks) {
      expect(chunk['id']).toBe('chatcmpl-2');
      expect(chunk['object']).toBe('chat.completion.chunk');
      expect(chunk['model']).toBe('mock/echo');
      expect(chunk['choices']).toHaveLength(1);
    }
    expect(chunks[0]?.['choices'][0]).toEqual({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null });
    const last = chunks.at(-1)?.['choices'][0];
    expect(last).toEqual({ index: 0, delta: {}, finish_reason: 'stop' });
    const middle = chunks.slice(1, -1);
    expect(middle).toHaveLength(5);
    for (const c of middle) {
      expect(Object.keys(c['choices'][0]['delta'])).toEqual(['content']);
      expect(c['choices'][0]['finish_reason']).toBeNull();
    }
    const text = chunks.map((c) => (c['choices'][0]['delta']['content'] as string | undefined) ?? '').join('');
    expect(text).toBe(json['choices'][0]['message']['content']);
    expect(chunks.some((c) => 'usage' in c)).toBe(false);
  });

  it('adds a usage trailer with include_usage', async () => {
    const res = await post('/chat/completions', { ...chatBody, stream: true, stream_options: { include_usage: true } });
    const data = sseData(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const trailer = JSON.parse(data.at(-2) ?? '') as Json;
    expect(trailer['choices']).toEqual([]);
    expect(trailer['usage']).toEqual({ prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 });
    expect((JSON.parse(data.at(-3) ?? '') as Json)['choices'][0]['finish_reason']).toBe('stop');
  });

  it('truncates at max_tokens / max_completion_tokens with finish_reason length', async () => {
    const json = (await (await post('/chat/completions', { ...chatBody, max_tokens: 3 })).json()) as Json;
    expect(json['choices'][0]).toEqual({ index: 0, message: { role: 'assistant', content: 'You said: Hello' }, finish_reason: 'length' });
    expect(json['usage']).toEqual({ prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 });

    const newer = (await (await post('/chat/completions', { ...chatBody, max_tokens: 100, max_completion_tokens: 1 })).json()) as Json;
    expect(newer['choices'][0]['message']['content']).toBe('You');

    const data = sseData(await (await post('/chat/completions', { ...chatBody, max_tokens: 3, stream: true })).text());
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as Json);
    expect(chunks.map((c) => c['choices'][0]['delta']['content'] ?? '').join('')).toBe('You said: Hello');
    expect(chunks.at(-1)?.['choices'][0]['finish_reason']).toBe('length');

    const bad = await post('/chat/completions', { ...chatBody, max_tokens: 0 });
    expect(bad.status).toBe(400);
  });

  it('caps output at the model max_output_length and rejects over-long prompts', async () => {
    const s = await start({ models: [{ id: 'acme/tiny', context_length: 4, max_output_length: 2 }] });
    const short = (await (await post('/chat/completions', { model: 'acme/tiny', messages: [{ role: 'user', content: 'hi' }] }, { server: s, key: s.apiKey })).json()) as Json;
    expect(short['choices'][0]['finish_reason']).toBe('length');
    expect(short['choices'][0]['message']['content']).toBe('You said:');
    const long = await post('/chat/completions', { model: 'acme/tiny', messages: [{ role: 'user', content: 'one two three four five' }] }, { server: s, key: s.apiKey });
    expect(long.status).toBe(400);
    expect(((await long.json()) as Json)['error']['type']).toBe('invalid_request_error');
  });

  it('returns n choices', async () => {
    const json = (await (await post('/chat/completions', { ...chatBody, n: 2 })).json()) as Json;
    expect(json['choices'].map((c: Json) => c['index'])).toEqual([0, 1]);
    expect(json['usage']['completion_tokens']).toBe(10);
  });

  it('rejects bad bodies with 400 and unknown models with 404 (short shape)', async () => {
    for (const body of ['{not json', JSON.stringify({ messages: [] }), JSON.stringify({ model: 'mock/echo' }), JSON.stringify({ model: 'mock/echo', messages: ['x'] })]) {
      const res = await post('/chat/completions', body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error' } });
    }
    const unknown = await post('/chat/completions', { ...chatBody, model: 'nope/x' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { message: 'The model `nope/x` is not available on this API.', type: 'invalid_request_error' },
    });
  });
});

describe('legacy completions', () => {
  it('answers with a text_completion', async () => {
    const res = await post('/completions', { model: 'mock/echo', prompt: 'Once upon a time' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: 'cmpl-1',
      object: 'text_completion',
      created: expect.any(Number),
      model: 'mock/echo',
      choices: [{ text: 'You said: Once upon a time', index: 0, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 },
    });
  });

  it('streams text fragments then [DONE]', async () => {
    const res = await post('/completions', { model: 'mock/echo', prompt: 'Once upon a time', stream: true, max_tokens: 4 });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const data = sseData(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as Json);
    for (const c of chunks) {
      expect(c['object']).toBe('text_completion');
      expect(c['id']).toBe('cmpl-1');
    }
    expect(chunks.map((c) => c['choices'][0]['text']).join('')).toBe('You said: Once upon');
    expect(chunks.at(-1)?.['choices'][0]).toEqual({ text: '', index: 0, logprobs: null, finish_reason: 'length' });
  });

  it('answers an unknown model with the extended error shape', async () => {
    const res = await post('/completions', { model: 'nope/missing', prompt: 'x' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: {
        message: 'The model `nope/missing` is not available on this API.',
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    });
  });
});

describe('built-in model', () => {
  it('splits tokens so that they rebuild the text', () => {
    const text = '  Hello big\nworld  ';
    expect(splitTokens(text)).toEqual(['  Hello ', 'big\n', 'world  ']);
    expect(splitTokens(text).join('')).toBe(text);
    expect(splitTokens('')).toEqual([]);
    expect(countTokens(text)).toBe(3);
  });

  it('is deterministic and honours the limit', () => {
    const messages = [{ role: 'user', content: ' one two ' }];
    expect(generateChatReply(messages)).toEqual(generateChatReply(messages));
    expect(generateChatReply(messages)).toMatchObject({ text: 'You said: one two', promptTokens: 2, completionTokens: 4, finishReason: 'stop' });
    expect(generateChatReply(messages, 4).finishReason).toBe('stop');
    expect(generateChatReply(messages, 3)).toMatchObject({ text: 'You said: one', finishReason: 'length', completionTokens: 3 });
  });
});

describe('mock/reasoner reasons, as its name says', () => {
  const reasonerBody = { model: 'mock/reasoner', messages: [{ role: 'user', content: 'why not' }] };
  const thought = 'The user said "why not". I will repeat it.';

  it('sends reasoning_content before the answer, counted in completion_tokens, as JSON and as a stream', async () => {
    const json = (await (await post('/chat/completions', reasonerBody)).json()) as Json;
    expect(json['choices'][0]['message']).toEqual({ role: 'assistant', content: 'You said: why not', reasoning_content: thought });
    // 4 tokens of answer, 9 of reasoning.
    expect(json['usage']).toEqual({ prompt_tokens: 2, completion_tokens: 13, total_tokens: 15 });

    const data = sseData(await (await post('/chat/completions', { ...reasonerBody, stream: true })).text());
    const deltas = data.filter((d) => d !== '[DONE]').map((d) => (JSON.parse(d) as Json)['choices'][0]['delta'] as Json);
    const reasoning = deltas.filter((d) => 'reasoning_content' in d);
    expect(reasoning.map((d) => d['reasoning_content']).join('')).toBe(thought);
    // All of the reasoning comes before the first piece of content.
    const firstContent = deltas.findIndex((d) => typeof d['content'] === 'string' && d['content'] !== '');
    expect(deltas.findIndex((d) => 'reasoning_content' in d)).toBeLessThan(firstContent);
    expect(deltas.slice(firstContent).some((d) => 'reasoning_content' in d)).toBe(false);
  });

  it('a scripted reply says whether it reasons; a model without the feature never does', async () => {
    server.enqueue({ reply: { content: 'Plain.' } });
    const scripted = (await (await post('/chat/completions', reasonerBody)).json()) as Json;
    expect(scripted['choices'][0]['message']).toEqual({ role: 'assistant', content: 'Plain.' });
    server.enqueue({ reply: { content: 'Yes.', reasoning: 'Mine.' } });
    expect(((await (await post('/chat/completions', reasonerBody)).json()) as Json)['choices'][0]['message']['reasoning_content']).toBe('Mine.');
    const echo = (await (await post('/chat/completions', { ...reasonerBody, model: 'mock/echo' })).json()) as Json;
    expect(echo['choices'][0]['message']).toEqual({ role: 'assistant', content: 'You said: why not' });
  });

  it('generateChatReply({ reasoning: true }) gives the same reasoning, for replies and tool calls', () => {
    const messages = [{ role: 'user', content: 'why not' }];
    expect(generateChatReply(messages, undefined, { reasoning: true })).toMatchObject({ text: 'You said: why not', completionTokens: 13 });
    expect(generateChatReply(messages, undefined, { reasoning: true }).reasoning.join('')).toBe(thought);
    expect(generateChatReply(messages).reasoning).toEqual([]);
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    expect(generateChatReply(messages, undefined, { tools, reasoning: true }).reasoning.join('')).toBe('The request offers a tool. I will call get_weather.');
    expect(generateChatReply([{ role: 'user', content: ' ' }], undefined, { reasoning: true }).reasoning.join('')).toBe('There is no user text. I will greet.');
    expect(generateChatReply([...messages, { role: 'tool', content: '21' }], undefined, { reasoning: true }).reasoning.join('')).toBe('The tool returned its result. I will pass it on.');
  });
});
