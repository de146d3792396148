/**
 * openai's request params take `null` on most optional fields (`max_tokens: opts.maxTokens ??
 * null`), and its legacy `prompt` takes token ids. Through the public API against the local server:
 * wherever the SDK reads a param itself, `null` means what leaving it out means, and the body goes
 * out as given, nulls included (as openai sends it).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, ChatCompletionStream, Client, PreflightError, type ChatCompletionCreateParams, type ClientOptions, type RunnableFunctionTool } from '../src/index';
import { startMockServer, type MockServer } from '../src/testing';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(() => server.close());
afterEach(() => server.clear());

const client = (options: ClientOptions = {}) => new Client({ apiKey: server.apiKey, baseURL: server.url, maxRetries: 0, logLevel: 'off', ...options });
const messages = [{ role: 'user' as const, content: 'Paris' }];
const sent = (i = 0) => server.requests.filter((r) => r.path !== '/models/mock/echo')[i]?.body as Record<string, unknown>;

/**
 * `null` on fields openai's types do not make nullable either (`tools`, `tool_choice`,
 * `response_format`): sent so by JavaScript callers and by bodies typed loosely. The SDK reads
 * these too, so it must take them.
 */
const loose = { tools: null, tool_choice: null, response_format: null } as unknown as Pick<ChatCompletionCreateParams, never>;

describe('chat.completions.create()', () => {
  it('stream: null is not streaming; null params are sent as given', async () => {
    const completion = await client().chat.completions.create({
      model: 'mock/echo',
      messages,
      stream: null,
      stream_options: null,
      max_tokens: null,
      max_completion_tokens: null,
      temperature: null,
      stop: null,
      n: null,
      ...loose,
    });
    expect(completion).not.toBeInstanceOf(ChatCompletionStream);
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]!.message.content).toBe('You said: Paris');
    expect(sent()).toEqual({
      model: 'mock/echo',
      messages,
      stream: null,
      stream_options: null,
      max_tokens: null,
      max_completion_tokens: null,
      temperature: null,
      stop: null,
      n: null,
      tools: null,
      tool_choice: null,
      response_format: null,
    });
    expect(server.requests[0]!.headers['accept']).toBe('application/json');
  });

  it('completions.create: stream: null is not streaming either', async () => {
    const completion = await client().completions.create({ model: 'mock/echo', prompt: 'Once upon a time', stream: null, max_tokens: null, suffix: null, echo: null });
    expect(completion.object).toBe('text_completion');
    expect(completion.choices[0]!.text).toBe('You said: Once upon a time');
    expect(sent()).toEqual({ model: 'mock/echo', prompt: 'Once upon a time', stream: null, max_tokens: null, suffix: null, echo: null });
  });
});

describe('chat.completions.parse()', () => {
  it('response_format: null and tools: null parse as no format and no tools', async () => {
    const completion = await client().chat.completions.parse({ model: 'mock/echo', messages, stream: null, ...loose });
    expect(completion.choices[0]!.message).toMatchObject({ content: 'You said: Paris', parsed: null });
    expect(sent()).toMatchObject({ stream: null, tools: null, response_format: null });
  });

  it('tools: null with a tool call in the reply: the call is kept, its arguments JSON-parsed', async () => {
    server.enqueue({ reply: { tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] } });
    const completion = await client().chat.completions.parse({ model: 'mock/echo', messages, ...loose });
    expect(completion.choices[0]!.message.tool_calls?.[0]?.function).toMatchObject({ name: 'get_weather', parsed_arguments: { city: 'Paris' } });
  });
});

describe('chat.completions.runTools()', () => {
  const getWeather: RunnableFunctionTool<{ city: string }> = {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      function: ({ city }) => `Sunny in ${city}`,
    },
  };

  it('tool_choice: null is no forced choice: the run goes on after the tools to the answer', async () => {
    const runner = client().chat.completions.runTools({ model: 'mock/echo', messages, tools: [getWeather], tool_choice: null as never, response_format: null as never, stream: null });
    expect(await runner.finalContent()).toBe('The tool returned: Sunny in Paris');
    expect(runner.allChatCompletions()).toHaveLength(2);
    expect(sent(0)).toMatchObject({ tool_choice: null, response_format: null });
    expect(sent(1)).toMatchObject({ tool_choice: null, response_format: null });
    expect(sent(1)).not.toHaveProperty('stream'); // stream is the runner's own option, never sent
  });
});

describe("preflight: 'error'", () => {
  it('max_tokens: null and max_completion_tokens: null ask for no limit: nothing to check (no lookup), the call goes out', async () => {
    const completion = await client({ preflight: 'error' }).chat.completions.create({ model: 'mock/echo', messages, max_tokens: null, max_completion_tokens: null });
    expect(completion.choices[0]!.message.content).toBe('You said: Paris');
    expect(server.requests.map((r) => r.path)).toEqual(['/chat/completions']);
    const legacy = await client({ preflight: 'error' }).completions.create({ model: 'mock/echo', prompt: 'hi', max_tokens: null });
    expect(legacy.choices[0]!.text).toBe('You said: hi');
  });

  it('max_completion_tokens: null leaves max_tokens to be checked', async () => {
    const limit = (await client().models.retrieve('mock/echo')).max_output_length!;
    server.clear();
    const error = await client({ preflight: 'error' })
      .chat.completions.create({ model: 'mock/echo', messages, max_completion_tokens: null, max_tokens: limit + 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreflightError);
    expect(error).toMatchObject({ param: 'max_tokens', requested: limit + 1, limit });
  });
});

describe('legacy completions: prompts as openai takes them', () => {
  it('token ids: one prompt, sent as given', async () => {
    const completion = await client().completions.create({ model: 'mock/echo', prompt: [15496, 995] });
    expect(sent()).toMatchObject({ prompt: [15496, 995] });
    // The built-in model has no tokenizer: it reads the ids as words.
    expect(completion.choices.map((c) => c.text)).toEqual(['You said: 15496 995']);
    expect(completion.usage?.prompt_tokens).toBe(2);
  });

  it('several prompts (token arrays or strings): n choices each, numbered across them', async () => {
    const tokens = await client().completions.create({ model: 'mock/echo', prompt: [[1, 2], [3]] });
    expect(tokens.choices.map((c) => [c.index, c.text])).toEqual([
      [0, 'You said: 1 2'],
      [1, 'You said: 3'],
    ]);
    expect(tokens.usage?.prompt_tokens).toBe(3);
    const strings = await client().completions.create({ model: 'mock/echo', prompt: ['red', 'blue'], n: 2 });
    expect(strings.choices.map((c) => [c.index, c.text])).toEqual([
      [0, 'You said: red'],
      [1, 'You said: red'],
      [2, 'You said: blue'],
      [3, 'You said: blue'],
    ]);
  });

  it('several prompts, streamed: each choice its own text', async () => {
    const stream = await client().completions.create({ model: 'mock/echo', prompt: [[7], [8, 9]], stream: true });
    const texts: string[] = [];
    for await (const chunk of stream) for (const choice of chunk.choices) texts[choice.index] = (texts[choice.index] ?? '') + choice.text;
    expect(texts).toEqual(['You said: 7', 'You said: 8 9']);
  });

  it('prompt: null is sent, and answered as an empty prompt', async () => {
    const completion = await client().completions.create({ model: 'mock/echo', prompt: null });
    expect(sent()).toEqual({ model: 'mock/echo', prompt: null });
    expect(completion.choices[0]!.text).toBe('Hello from the mock model.');
  });

  it('a prompt left out rejects at the call site, naming the shapes a prompt takes', async () => {
    await expect(client().completions.create({ model: 'mock/echo' } as never)).rejects.toThrow('completions.create(body): `prompt` is required (a string, an array of strings, or token ids).');
    expect(server.requests).toHaveLength(0);
  });

  it('a prompt of another shape is the server\'s 400, naming the shapes it takes', async () => {
    const error = await client()
      .completions.create({ model: 'mock/echo', prompt: ['a', 1] as unknown as string[] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toMatch(/'prompt' must be a string, an array of strings, an array of token ids or an array of token-id arrays/);
  });
});
