/**
 * `extraBody` (per request) and `defaultBody` (per client): a server's own parameters (vLLM's
 * `top_k`, llama.cpp's `grammar`, OpenRouter's `provider`) sent beside the typed ones, through
 * every call that has a body, as the local server receives them; and the mistakes they refuse at
 * the call site, before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { Client, InferenceError, PreflightError, type HookInfo } from '../src/index';
import { useMockServer } from './support/mock-server';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'all' });

const messages = [{ role: 'user' as const, content: 'hi' }];
const sent = (i: number) => server.requests[i]?.body as Record<string, unknown>;

describe('extraBody sends fields the types do not name', () => {
  it('chat.completions.create: added to the typed body, which is left untouched', async () => {
    const body = { model: 'mock/echo', messages, temperature: 0.5 };
    const before = structuredClone(body);
    const completion = await client.chat.completions.create(body, { extraBody: { top_k: 40, chat_template_kwargs: { enable_thinking: false } } });
    expect(completion.choices[0]!.message.content).toBe('You said: hi');
    expect(sent(0)).toEqual({ model: 'mock/echo', messages, temperature: 0.5, top_k: 40, chat_template_kwargs: { enable_thinking: false } });
    expect(body).toEqual(before);
  });

  it('a streamed chat, stream(), parse() and legacy completions send them too', async () => {
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages, stream: true }, { extraBody: { min_p: 0.1 } });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: hi');
    await client.chat.completions.stream({ model: 'mock/echo', messages }, { extraBody: { grammar: 'root ::= "x"' } }).finalContent();
    await client.chat.completions.parse({ model: 'mock/echo', messages }, { extraBody: { provider: { order: ['a'] } } });
    await client.completions.create({ model: 'mock/echo', prompt: 'hi' }, { extraBody: { repetition_penalty: 1.1 } });
    expect(server.requests.map((r) => r.body)).toMatchObject([
      { stream: true, min_p: 0.1 },
      { stream: true, grammar: 'root ::= "x"' },
      { provider: { order: ['a'] } },
      { prompt: 'hi', repetition_penalty: 1.1 },
    ]);
  });

  it('every request of a runTools() loop carries them', async () => {
    server.enqueue(
      { reply: { tool_calls: [{ name: 'add', arguments: { a: 1, b: 2 } }] } },
      { reply: { content: 'three' } },
    );
    const runner = client.chat.completions.runTools(
      {
        model: 'mock/echo',
        messages,
        tools: [{ type: 'function', function: { name: 'add', parameters: { type: 'object' }, function: (args: { a: number; b: number }) => args.a + args.b } }],
      },
      { extraBody: { top_k: 1 } },
    );
    expect(await runner.finalContent()).toBe('three');
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((r) => (r.body as Record<string, unknown>).top_k)).toEqual([1, 1]);
  });

  it('hooks see the body as sent, extra fields included', async () => {
    const bodies: unknown[] = [];
    await client.chat.completions.create(
      { model: 'mock/echo', messages },
      { extraBody: { top_k: 5 }, hooks: { beforeRequest: (_request: Request, info: HookInfo) => void bodies.push(info.body) } },
    );
    expect(bodies).toEqual([{ model: 'mock/echo', messages, top_k: 5 }]);
  });
});

describe('extraBody and defaultBody with the rest of the SDK', () => {
  it('a null in the body is "the server\'s default", so extraBody may give the field a value', async () => {
    await client.chat.completions.create({ model: 'mock/echo', messages, temperature: null }, { extraBody: { temperature: 0.3 } });
    expect(sent(0)).toMatchObject({ temperature: 0.3 });
  });

  it('the preflight check sees max_tokens from extraBody and defaultBody, as sent', async () => {
    const limit = (await client.models.retrieve('mock/echo')).max_output_length!;
    server.clear();
    const checked = client.withOptions({ preflight: 'error' });
    const viaExtra = await checked.chat.completions.create({ model: 'mock/echo', messages }, { extraBody: { max_tokens: limit + 1 } }).catch((e: unknown) => e);
    expect(viaExtra).toBeInstanceOf(PreflightError);
    expect(viaExtra).toMatchObject({ param: 'max_tokens', requested: limit + 1, limit });
    const viaDefault = await checked
      .withOptions({ defaultBody: { max_tokens: limit + 2 } })
      .completions.create({ model: 'mock/echo', prompt: 'hi' })
      .catch((e: unknown) => e);
    expect(viaDefault).toMatchObject({ param: 'max_tokens', requested: limit + 2, limit });
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});

describe('extraBody mistakes throw at the call site, and nothing is sent', () => {
  const cases: [string, () => unknown, RegExp][] = [
    ['a field also in the body', () => client.chat.completions.create({ model: 'mock/echo', messages, temperature: 1 }, { extraBody: { temperature: 0 } }), /`temperature` is both in the body and in `extraBody`/],
    ['stream', () => client.chat.completions.create({ model: 'mock/echo', messages }, { extraBody: { stream: true } }), /`stream` goes in the body, not in `extraBody`/],
    ['stream, in stream()', () => client.chat.completions.stream({ model: 'mock/echo', messages }, { extraBody: { stream: false } }), /chat\.completions\.stream: `stream` goes in the body/],
    ['an array', () => client.completions.create({ model: 'mock/echo', prompt: 'x' }, { extraBody: [1] as never }), /`extraBody` must be a plain object/],
    ['a Map', () => client.chat.completions.create({ model: 'mock/echo', messages }, { extraBody: new Map([['top_k', 1]]) as never }), /`extraBody` must be a plain object/],
    ['null', () => client.chat.completions.create({ model: 'mock/echo', messages }, { extraBody: null as never }), /`extraBody` must be a plain object/],
    ['a call without a body', () => client.models.list({ extraBody: { top_k: 1 } }), /models\.list: `extraBody` adds fields to a JSON body, and this call sends none/],
    ['runTools', () => client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [] }, { extraBody: { stream: true } }), /chat\.completions\.runTools: `stream` goes in the body/],
  ];
  it.each(cases)('%s', async (_name, call, message) => {
    // A bad argument rejects the call's promise (a stream's or a runner's done()), as in openai.
    let thrown: unknown;
    const made = call() as PromiseLike<unknown> | { done(): Promise<void> };
    await Promise.resolve('done' in made ? made.done() : made).catch((error: unknown) => (thrown = error));
    expect(thrown).toBeInstanceOf(InferenceError);
    expect((thrown as Error).message).toMatch(message);
    expect(server.requests).toHaveLength(0);
  });

  it('a misspelt option name still gets its suggestion', async () => {
    await expect(client.chat.completions.create({ model: 'mock/echo', messages }, { extraBdy: { top_k: 1 } } as never)).rejects.toThrow(/Did you mean `extraBody`\?/);
  });
});

describe('defaultBody: fields on every call with a body', () => {
  it('added to chat and legacy bodies; a field the call sets (body or extraBody) wins; GETs send no body', async () => {
    const router = client.withOptions({ defaultBody: { provider: { sort: 'price' }, top_k: 10, temperature: 1 } });
    await router.chat.completions.create({ model: 'mock/echo', messages, temperature: 0 });
    await router.chat.completions.create({ model: 'mock/echo', messages }, { extraBody: { top_k: 3 } });
    await router.completions.create({ model: 'mock/echo', prompt: 'hi' });
    await router.models.list();
    expect(server.requests.map((r) => r.body)).toEqual([
      { provider: { sort: 'price' }, top_k: 10, temperature: 0, model: 'mock/echo', messages },
      { provider: { sort: 'price' }, top_k: 3, temperature: 1, model: 'mock/echo', messages },
      { provider: { sort: 'price' }, top_k: 10, temperature: 1, model: 'mock/echo', prompt: 'hi' },
      undefined,
    ]);
  });

  it('a streamed chat keeps the defaults and the stream flag of its body', async () => {
    const lean = client({ defaultBody: { enable_thinking: false } });
    const stream = await lean.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    for await (const _ of stream) void _;
    expect(server.requests[0]?.body).toMatchObject({ enable_thinking: false, stream: true });
  });

  it.each([
    ['stream', { stream: true }, /new Client: `stream` goes in the body, not in `defaultBody`/],
    ['an array', [1], /new Client: `defaultBody` must be a plain object/],
    ['a string', 'top_k=1', /new Client: `defaultBody` must be a plain object/],
  ])('refuses %s when the client is made', (_name, defaultBody, message) => {
    expect(() => new Client({ apiKey: 'k', baseURL: server.url, defaultBody: defaultBody as never })).toThrow(message);
  });
});
