// Wire compatibility with the clients people already use: the official `openai` package and the
// Vercel AI SDK (`ai` with `@ai-sdk/openai-compatible`) run against startMockServer unchanged,
// apart from the base URL and key.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, Output, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/testing';
import type { MockServer } from '../../src/testing';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server.close();
});

describe('openai (official client)', () => {
  const client = () => new OpenAI({ apiKey: server.apiKey, baseURL: server.url, maxRetries: 0 });

  it('lists and retrieves models', async () => {
    const ids: string[] = [];
    for await (const model of client().models.list()) ids.push(model.id);
    expect(ids).toEqual(['mock/echo', 'mock/reasoner', 'mock/sleeping']);
    const model = await client().models.retrieve('mock/echo');
    expect(model).toMatchObject({ id: 'mock/echo', object: 'model', owned_by: 'mock', is_ready: true });
  });

  it('sends no Idempotency-Key, even when asked for one (docs/migrating-from-openai.md says so)', async () => {
    server.clear();
    await client().chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hello' }] });
    await client().chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hello' }] }, { idempotencyKey: 'mine' });
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(server.requests.flatMap((r) => Object.keys(r.headers).filter((name) => /idempotency/i.test(name)))).toEqual([]);
  });

  it('chats, streams, and completes legacy prompts', async () => {
    const chat = await client().chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hello' }] });
    expect(chat.choices[0]?.message.content).toBe('You said: Hello');
    expect(chat.usage).toEqual({ prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 });

    const stream = await client().chat.completions.create({
      model: 'mock/echo',
      messages: [{ role: 'user', content: 'Hello stream' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('You said: Hello stream');
    expect(usage?.total_tokens).toBe(6);

    const legacy = await client().completions.create({ model: 'mock/echo', prompt: 'Once upon a time' });
    expect(legacy.choices[0]?.text).toBe('You said: Once upon a time');
  });

  it('runs a tool call round trip with the stream helper', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    ];
    const runner = client().chat.completions.stream({ model: 'mock/echo', messages: [{ role: 'user', content: 'Paris' }], tools });
    const first = await runner.finalChatCompletion();
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function : undefined).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('raises its own error classes for the service errors', async () => {
    const missing = await client().models.retrieve('nope/missing').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.APIError>).type).toBe('invalid_request_error');

    const legacy = await client().completions.create({ model: 'nope/missing', prompt: 'x' }).catch((e: unknown) => e);
    expect(legacy).toBeInstanceOf(OpenAI.NotFoundError);
    expect((legacy as InstanceType<typeof OpenAI.APIError>).code).toBe('model_not_found');
    expect((legacy as InstanceType<typeof OpenAI.APIError>).param).toBe('model');

    const wrongKey = new OpenAI({ apiKey: 'wrong', baseURL: server.url, maxRetries: 0 });
    await expect(wrongKey.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);

    server.enqueue({ error: { status: 429, retryAfter: 0 } }, { reply: { content: 'after the retry' } });
    const retrying = new OpenAI({ apiKey: server.apiKey, baseURL: server.url, maxRetries: 1 });
    const chat = await retrying.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'x' }] });
    expect(chat.choices[0]?.message.content).toBe('after the retry');
  });
});

describe('ai + @ai-sdk/openai-compatible', () => {
  const provider = () =>
    createOpenAICompatible({ name: 'mock', baseURL: server.url, apiKey: server.apiKey, includeUsage: true });

  it('generates text with usage', async () => {
    const result = await generateText({ model: provider().chatModel('mock/echo'), prompt: 'Hello there', maxRetries: 0 });
    expect(result.text).toBe('You said: Hello there');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBe(2);
    expect(result.usage.outputTokens).toBe(4);
  });

  it('streams text', async () => {
    const result = streamText({ model: provider().chatModel('mock/echo'), prompt: 'Stream this please', maxRetries: 0 });
    const parts: string[] = [];
    for await (const part of result.textStream) parts.push(part);
    expect(parts.join('')).toBe('You said: Stream this please');
    expect(parts.length).toBeGreaterThan(1);
    expect((await result.usage).outputTokens).toBe(5);
  });

  it('completes legacy prompts', async () => {
    const result = await generateText({ model: provider().completionModel('mock/echo'), prompt: 'Once upon', maxRetries: 0 });
    // The AI SDK frames the prompt ("user:\n…\n\nassistant:"); the mock echoes what it received.
    const sent = server.requests.at(-1)?.body as { prompt: string };
    expect(sent.prompt).toContain('Once upon');
    expect(result.text).toBe(`You said: ${sent.prompt.trim()}`);
  });

  it('calls a tool and feeds its result back', async () => {
    const result = await generateText({
      model: provider().chatModel('mock/echo'),
      prompt: 'Paris',
      maxRetries: 0,
      tools: {
        get_weather: tool({
          description: 'Weather in a city',
          inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
          execute: async ({ city }) => `sunny in ${city}`,
        }),
      },
      stopWhen: ({ steps }) => steps.length >= 2,
    });
    expect(result.steps[0]?.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['get_weather', { city: 'Paris' }]]);
    expect(result.text).toBe('The tool returned: sunny in Paris');
  });

  it('gets structured output: from the built-in model, and scripted', async () => {
    const structured = () =>
      generateText({
        model: createOpenAICompatible({ name: 'mock', baseURL: server.url, apiKey: server.apiKey, supportsStructuredOutputs: true }).chatModel('mock/echo'),
        prompt: 'Weather?',
        maxRetries: 0,
        output: Output.object({
          schema: jsonSchema<{ city: string; temperature: number }>({
            type: 'object',
            properties: { city: { type: 'string' }, temperature: { type: 'number' } },
            required: ['city', 'temperature'],
          }),
        }),
      });
    // json_schema was sent, and the built-in model answered with a value of that schema.
    expect((await structured()).output).toEqual({ city: 'Weather?', temperature: 0 });
    expect((server.requests.at(-1)?.body as { response_format: { type: string } }).response_format.type).toBe('json_schema');
    server.enqueue({ reply: { json: { city: 'Paris', temperature: 21 } } });
    expect((await structured()).output).toEqual({ city: 'Paris', temperature: 21 });
  });

  it('surfaces the service error', async () => {
    const failure = await generateText({ model: provider().chatModel('nope/missing'), prompt: 'x', maxRetries: 0 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as { statusCode?: number }).statusCode).toBe(404);
    expect((failure as Error).message).toContain('is not available on this API');
  });
});
