// Scripting, faults, tools and structured replies of model-inference-sdk/testing, through its public
// entry. The wire format is read with plain fetch where the bytes matter, and with the SDK where
// the point is what a client of the mock sees.
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  Client,
  RateLimitError,
  ResponseValidationError,
} from '../src/index';
import {
  generateChatReply,
  MOCK_API_KEY,
  startMockServer,
} from '../src/testing';
import { useMockServer } from './support/mock-server';
import { argumentFragments } from '../src/testing/model';
import { exampleFromSchema } from '../src/testing/schema-example';
import type { ChatCompletion } from '../src/index';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, each: true });

/** The first choice's content, which must be a string. */
function text(completion: ChatCompletion): string {
  const content = completion.choices[0]?.message?.content;
  if (typeof content !== 'string') throw new Error(`expected text content, got ${JSON.stringify(content)}`);
  return content;
}

const ask = (content: string) => ({ model: 'mock/echo', messages: [{ role: 'user' as const, content }] });

function post(path: string, body: unknown, key = MOCK_API_KEY): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE body, parsed; '[DONE]' kept as a string. */
async function events(res: Response): Promise<(Json | string)[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      const data = block.slice('data: '.length);
      return data === '[DONE]' ? data : (JSON.parse(data) as Json);
    });
}

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] }, days: { type: 'integer', minimum: 1 } },
      required: ['city', 'unit', 'days'],
    },
  },
};

describe('scripted reply: text', () => {
  it('renders the same text as JSON and as a stream, with usage counted', async () => {
    server.enqueue({ reply: { content: 'Paris is the capital.' } }, { reply: { content: 'Paris is the capital.' } });
    const completion = await client.chat.completions.create(ask('Capital of France?'));
    expect(completion.choices[0]?.message?.content).toBe('Paris is the capital.');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });

    const stream = await client.chat.completions.create({ ...ask('Capital of France?'), stream: true, stream_options: { include_usage: true } });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message?.content).toBe('Paris is the capital.');
    expect(final.usage).toEqual(completion.usage);
    expect(server.requests).toHaveLength(2);
  });

  it('still authenticates and validates the request', async () => {
    server.enqueue({ reply: { content: 'never sent' } }, { reply: { content: 'never sent' } });
    expect((await post('/chat/completions', ask('hi'), 'wrong-key')).status).toBe(401);
    expect((await post('/chat/completions', { ...ask('hi'), model: 'nope/x' })).status).toBe(404);
    // Both scripted replies were taken by those requests; the next one is the built-in model's.
    expect(((await (await post('/chat/completions', ask('hi'))).json()) as Json)['choices'][0]['message']['content']).toBe('You said: hi');
  });

  it('is cut by max_tokens like built-in text, with finish_reason length', async () => {
    server.enqueue({ reply: { content: 'one two three four' } });
    const completion = await client.chat.completions.create({ ...ask('x'), max_tokens: 2 });
    expect(completion.choices[0]?.message?.content).toBe('one two');
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.usage?.completion_tokens).toBe(2);
  });

  it('adds scripted headers to the generated response', async () => {
    server.enqueue({ reply: { content: 'ok' }, headers: { 'x-request-id': 'req_custom', 'x-extra': '1' } });
    const { response, requestId } = await client.chat.completions.create(ask('x')).withResponse();
    expect(requestId).toBe('req_custom');
    expect(response.headers.get('x-extra')).toBe('1');
  });

  it('answers legacy completions with the scripted text', async () => {
    server.enqueue({ reply: { content: 'upon a time' } });
    const completion = await client.completions.create({ model: 'mock/echo', prompt: 'Once' });
    expect(completion.choices[0]?.text).toBe('upon a time');
    expect(completion.usage).toEqual({ prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 });
  });
});

describe('scripted reply: tool calls, JSON, reasoning', () => {
  it('renders tool calls as JSON: null content, finish_reason tool_calls', async () => {
    server.enqueue({ reply: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }, { id: 'call_x', name: 'get_time', arguments: '{}' }] } });
    const body = (await (await post('/chat/completions', { ...ask('Weather?'), tools: [weatherTool] })).json()) as Json;
    expect(body['choices'][0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_x', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      finish_reason: 'tool_calls',
    });
    // Arguments count one token per 8-character fragment.
    expect(body['usage']['completion_tokens']).toBe(2 + 1);
  });

  it('streams tool calls in order: role, header, argument fragments, finish', async () => {
    server.enqueue({ reply: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }] } });
    const data = await events(await post('/chat/completions', { ...ask('Weather?'), stream: true }));
    expect(data.at(-1)).toBe('[DONE]');
    const deltas = data.slice(0, -1).map((c) => (c as Json)['choices'][0]);
    expect(deltas[0]).toEqual({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null });
    expect(deltas[1]['delta']).toEqual({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] });
    const args = '{"city":"Paris","unit":"celsius"}';
    const fragments = deltas.slice(2, -1).map((d) => d['delta']['tool_calls'][0]['function']['arguments'] as string);
    expect(fragments).toEqual(argumentFragments(args));
    expect(fragments.length).toBeGreaterThan(1);
    expect(deltas.at(-1)).toEqual({ index: 0, delta: {}, finish_reason: 'tool_calls' });

    // The SDK's accumulator rebuilds the same call.
    server.enqueue({ reply: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }] } });
    const final = await (await client.chat.completions.create({ ...ask('Weather?'), stream: true })).finalChatCompletion();
    expect(final.choices[0]?.message?.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: args } }]);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('sends a JSON reply as content, in both forms', async () => {
    const value = { city: 'Paris', temperature: 21, tags: ['sunny'] };
    server.enqueue({ reply: { json: value } }, { reply: { json: value } });
    const completion = await client.chat.completions.create(ask('Weather as JSON'));
    expect(JSON.parse(text(completion))).toEqual(value);
    const final = await (await client.chat.completions.create({ ...ask('Weather as JSON'), stream: true })).finalChatCompletion();
    expect(final.choices[0]?.message?.content).toBe(JSON.stringify(value));
  });

  it('streams reasoning before content as reasoning_content', async () => {
    server.enqueue({ reply: { reasoning: 'Think first.', content: 'Answer.' } });
    const data = await events(await post('/chat/completions', { ...ask('x'), stream: true }));
    const deltas = data.slice(1, -2).map((c) => (c as Json)['choices'][0]['delta']);
    expect(deltas).toEqual([{ reasoning_content: 'Think ' }, { reasoning_content: 'first.' }, { content: 'Answer.' }]);
    server.enqueue({ reply: { reasoning: 'Think first.', content: 'Answer.' } });
    const body = (await (await post('/chat/completions', ask('x'))).json()) as Json;
    expect(body['choices'][0]['message']).toEqual({ role: 'assistant', content: 'Answer.', reasoning_content: 'Think first.' });
    expect(body['usage']['completion_tokens']).toBe(3);
  });
});

describe('built-in model: tools and structured outputs', () => {
  it('calls the first tool with arguments that satisfy its schema, then reads the result', async () => {
    const first = await client.chat.completions.create({ ...ask('Paris'), tools: [weatherTool] });
    const call = first.choices[0]?.message?.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' ? call.function : undefined).toEqual({
      name: 'get_weather',
      arguments: JSON.stringify({ city: 'Paris', unit: 'celsius', days: 1 }),
    });

    const second = await client.chat.completions.create({
      model: 'mock/echo',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Paris' },
        { role: 'assistant', content: null, tool_calls: first.choices[0]?.message?.tool_calls ?? [] },
        { role: 'tool', tool_call_id: call?.id ?? '', content: '21 degrees' },
      ],
    });
    expect(second.choices[0]?.message?.content).toBe('The tool returned: 21 degrees');
    expect(second.choices[0]?.finish_reason).toBe('stop');
  });

  it('honours tool_choice none and a forced function', async () => {
    const other = { type: 'function' as const, function: { name: 'get_time', parameters: { type: 'object', properties: {} } } };
    const none = await client.chat.completions.create({ ...ask('hi'), tools: [weatherTool, other], tool_choice: 'none' });
    expect(none.choices[0]?.message?.content).toBe('You said: hi');
    const forced = await client.chat.completions.create({
      ...ask('hi'),
      tools: [weatherTool, other],
      tool_choice: { type: 'function', function: { name: 'get_time' } },
    });
    const call = forced.choices[0]?.message?.tool_calls?.[0];
    expect(call?.type === 'function' ? [call.function.name, call.function.arguments] : undefined).toEqual(['get_time', '{}']);
  });

  it('answers json_schema with a value of the schema, and json_object with an object', async () => {
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string' }, confidence: { type: 'number', minimum: 0.5 }, sources: { type: 'array', items: { $ref: '#/$defs/src' } } },
      $defs: { src: { type: 'object', properties: { url: { type: 'string', format: 'uri' } } } },
    };
    const structured = await client.chat.completions.create({
      ...ask('Why is the sky blue?'),
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
    });
    expect(JSON.parse(text(structured))).toEqual({
      answer: 'Why is the sky blue?',
      confidence: 0.5,
      sources: [{ url: 'https://example.com/' }],
    });
    const object = await client.chat.completions.create({ ...ask('hi'), response_format: { type: 'json_object' } });
    expect(JSON.parse(text(object))).toEqual({ reply: 'You said: hi' });
  });

  it('builds schema examples deterministically', () => {
    expect(exampleFromSchema({ anyOf: [{ type: 'null' }, { type: 'integer', exclusiveMinimum: 3 }] })).toBe(4);
    expect(exampleFromSchema({ type: ['null', 'boolean'] })).toBe(true);
    expect(exampleFromSchema({ type: 'string', minLength: 6 }, 'ab')).toBe('ab....');
    expect(exampleFromSchema({ type: 'string', format: 'date-time' })).toBe('2025-01-01T00:00:00Z');
    expect(exampleFromSchema({ type: 'array', items: { const: 7 }, minItems: 2 })).toEqual([7, 7]);
    expect(exampleFromSchema({ default: 'd', type: 'string' })).toBe('d');
    // A recursive schema stops instead of looping.
    const tree = { $ref: '#/$defs/node', $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } } };
    expect(JSON.stringify(exampleFromSchema(tree))).toContain('"child":null');
    expect(generateChatReply([{ role: 'user', content: 'x' }], undefined, { tools: [weatherTool] }).toolCalls).toHaveLength(1);
  });
});

describe('faults', () => {
  it('answers a scripted error with the service shape and retry-after', async () => {
    server.enqueue({ error: { status: 429, retryAfter: 7 } }, { error: { status: 400, message: 'bad', param: 'model', code: 'model_not_found' } });
    const res = await post('/chat/completions', ask('x'));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({ error: { message: expect.any(String), type: 'rate_limit_error' } });
    expect(await (await post('/completions', { model: 'mock/echo', prompt: 'x' })).json()).toEqual({
      error: { message: 'bad', type: 'invalid_request_error', param: 'model', code: 'model_not_found' },
    });
  });

  it('lets the SDK retry after a scripted 429 and succeed', async () => {
    server.enqueue({ error: { status: 429, retryAfter: 0 } }, { reply: { content: 'second time' } });
    const retrying = client({ maxRetries: 1 });
    const completion = await retrying.chat.completions.create(ask('x'));
    expect(completion.choices[0]?.message?.content).toBe('second time');
    expect(server.requests).toHaveLength(2);

    server.enqueue({ error: { status: 429, retryAfter: 0 } });
    await expect(client.chat.completions.create(ask('x'))).rejects.toBeInstanceOf(RateLimitError);
  });

  it('cuts a stream after the given events (reset)', async () => {
    server.enqueue({ reply: { content: 'a b c d e' }, fault: { kind: 'reset', after: 3 } });
    const stream = await client.chat.completions.create({ ...ask('x'), stream: true });
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices?.[0]?.delta.content ?? '');
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(APIConnectionError);
    expect(seen).toEqual(['', 'a ', 'b ']);
  });

  it('stalls a stream mid-way; the client idle timeout ends it', async () => {
    server.enqueue({ reply: { content: 'a b c' }, fault: { kind: 'stall', after: 2 } });
    const stream = await client.chat.completions.create({ ...ask('x'), stream: true }, { streamIdleTimeout: 150 });
    const seen: unknown[] = [];
    const started = Date.now();
    const failure = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices?.[0]?.delta.content ?? '');
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(APIConnectionTimeoutError);
    expect(seen).toEqual(['', 'a ']);
    expect(Date.now() - started).toBeLessThan(10_000); // a stall never ends by itself
  });

  it('sends a malformed chunk in place of the next event', async () => {
    server.enqueue({ reply: { content: 'a b' }, fault: { kind: 'malformed', after: 1 } });
    const raw = await (await post('/chat/completions', { ...ask('x'), stream: true })).text();
    const blocks = raw.split('\n\n').filter((b) => b !== '');
    expect(() => JSON.parse(blocks[1]!.slice('data: '.length))).toThrow(SyntaxError);
    expect(blocks.at(-1)).toBe('data: [DONE]');

    server.enqueue({ reply: { content: 'a b' }, fault: { kind: 'malformed', after: 1 } });
    const stream = await client.chat.completions.create({ ...ask('x'), stream: true });
    await expect(stream.finalChatCompletion()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('sends an in-band error event, then [DONE]', async () => {
    server.enqueue({ reply: { content: 'a b' }, fault: { kind: 'error', after: 2, error: { message: 'Provider returned error', code: 502 } } });
    const data = await events(await post('/chat/completions', { ...ask('x'), stream: true }));
    expect(data.slice(2)).toEqual([{ error: { message: 'Provider returned error', code: 502 } }, '[DONE]']);

    server.enqueue({ reply: { content: 'a b' }, fault: { kind: 'error' } });
    const stream = await client.chat.completions.create({ ...ask('x'), stream: true });
    const failure = await stream.finalChatCompletion().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(APIError);
    expect((failure as APIError).message).toContain('The model failed while generating.');
  });

  it('applies faults to JSON responses too', async () => {
    server.enqueue({ fault: { kind: 'error' } });
    const inBand = await post('/chat/completions', ask('x'));
    expect(inBand.status).toBe(200);
    expect(await inBand.json()).toEqual({ error: { message: 'The model failed while generating.', type: 'server_error', code: 'server_error' } });

    server.enqueue({ fault: { kind: 'malformed' } });
    const text = await (await post('/chat/completions', ask('x'))).text();
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(text.startsWith('{"id":"chatcmpl-')).toBe(true);

    server.enqueue({ fault: { kind: 'reset' } });
    await expect(client.chat.completions.create(ask('x'))).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('replays raw pieces as separate writes, byte for byte', async () => {
    const pieces = ['data: {"choices":[{"index":0,"delta":{"content":"he', 'llo"}}]}\r\n', '\r\ndata: [DONE]\r\n\r\n'];
    server.enqueue({ raw: pieces, headers: { 'x-provider': 'replay' } });
    const res = await post('/chat/completions', { ...ask('x'), stream: true });
    expect(res.headers.get('x-provider')).toBe('replay');
    expect(await res.text()).toBe(pieces.join(''));
  });
});

describe('controls', () => {
  it('setReady changes is_ready as retrieve reports it (waitUntilReady sees it)', async () => {
    expect((await client.models.retrieve('mock/sleeping')).is_ready).toBe(false);
    setTimeout(() => server.setReady('mock/sleeping', true), 60);
    const model = await client.models.waitUntilReady('mock/sleeping', { pollInterval: 20, timeout: 5_000 });
    expect(model.is_ready).toBe(true);
    expect(server.requests.length).toBeGreaterThanOrEqual(3);
    expect(() => server.setReady('nope/x', true)).toThrow(TypeError);
  });

  it('clear() forgets queued replies and recorded requests', async () => {
    server.enqueue({ error: { status: 500 } });
    await post('/models', {});
    server.enqueue({ error: { status: 500 } });
    server.clear();
    expect(server.requests).toEqual([]);
    expect((await client.models.list()).data).toHaveLength(3);
  });

  it('enforces context_length and max_output_length per model', async () => {
    const s = await startMockServer({ models: [{ id: 'acme/tiny', context_length: 3, max_output_length: 2 }] });
    try {
      const tiny = new Client({ apiKey: s.apiKey, baseURL: s.url, maxRetries: 0, logLevel: 'off' });
      const capped = await tiny.chat.completions.create({ model: 'acme/tiny', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 });
      expect(capped.choices[0]?.finish_reason).toBe('length');
      expect(capped.usage?.completion_tokens).toBe(2);
      const failure = await tiny.chat.completions
        .create({ model: 'acme/tiny', messages: [{ role: 'user', content: 'one two three four' }] })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(APIError);
      expect((failure as APIError).status).toBe(400);
      expect((failure as APIError).message).toContain('maximum context length is 3 tokens');
    } finally {
      await s.close();
    }
  });
});

describe('the entry', () => {
  it('exports the documented kit only: the mock model’s parts stay internal', async () => {
    const kit = await import('../src/testing');
    expect(Object.keys(kit).sort()).toEqual([
      'DEFAULT_IN_PROCESS_URL',
      'DEFAULT_MOCK_MODELS',
      'MOCK_API_KEY',
      'createMockService',
      'generateChatReply',
      'generateCompletion',
      'startMockServer',
    ]);
  });
});
