/**
 * Validation means "can this be read as the contract": through the public API against the local
 * server, the default `validation: 'error'` reads what it can fill (an `index` left out, a choice
 * without a message, a finish reason under another name) and throws only where a value the
 * contract needs cannot be derived, with a message naming the field, the server's value and how
 * to relax the check.
 */
import { describe, expect, it } from 'vitest';
import { ResponseValidationError, type Logger } from '../src/index';
import { useMockServer } from './support/mock-server';

const { server, client: clientOf } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'all' });

const client = (options: { validation?: 'error' | 'warn' | 'off'; logger?: Logger } = {}) => clientOf({ logLevel: options.logger ? 'warn' : 'off', ...options });
const messages = [{ role: 'user' as const, content: 'hi' }];
const reply = (body: unknown) => server.enqueue({ status: 200, body: JSON.stringify(body) });
const sse = (...events: unknown[]) =>
  server.enqueue({ raw: events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join(''), headers: { 'content-type': 'text/event-stream' } });
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);

describe("the default validation ('error') reads what it can fill", () => {
  it('a chat reply without choices[].index (a popular OpenAI-compatible mock server)', async () => {
    reply({ id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }] });
    const completion = await client().chat.completions.create({ model: 'mock/echo', messages });
    expect(completion.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: 'hi', refusal: null }, finish_reason: 'stop', logprobs: null });
  });

  it('a legacy completion without index, finish_reason, usage, id or object (Writer)', async () => {
    reply({ choices: [{ text: 'Once' }, { text: 'Twice' }] });
    const completion = await client().completions.create({ model: 'mock/echo', prompt: 'p' });
    expect(completion).toEqual({
      id: '',
      object: 'text_completion',
      created: 0,
      model: '',
      choices: [
        { index: 0, text: 'Once', finish_reason: null, logprobs: null },
        { index: 1, text: 'Twice', finish_reason: null, logprobs: null },
      ],
      usage: null,
    });
  });

  it("Azure's filtered choice without a message, and a finish reason under another name", async () => {
    reply({ choices: [{ index: 0, finish_reason: 'content_filter' }, { index: 1, message: { content: 'ok' }, finish_reason: 'eos' }] });
    const completion = await client().chat.completions.create({ model: 'mock/echo', messages });
    expect(completion.choices.map((c) => [c.message.content, c.finish_reason])).toEqual([
      [null, 'content_filter'],
      ['ok', 'stop'],
    ]);
  });

  it('stream chunks without index, choices null, and a finish reason of ""', async () => {
    sse({ choices: null }, { choices: [{ delta: { content: 'a' } }] }, { choices: [{ delta: {}, finish_reason: '' }] }, { choices: [{ delta: {}, finish_reason: 'stop' }] }, '[DONE]');
    const stream = await client().chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices.map((x) => [x.index, x.finish_reason]))).toEqual([[], [[0, null]], [[0, null]], [[0, 'stop']]]);
  });
});

describe('it throws only where a value the contract needs cannot be derived', () => {
  it.each([
    ['a completion without choices', { id: 'x' }, 'choices', 'required array is missing'],
    ['content that is a number', { choices: [{ index: 0, message: { content: 42 } }] }, 'choices[0].message.content', 'expected string, null or array, got number (42)'],
    ['a tool call without a name', { choices: [{ index: 0, message: { tool_calls: [{ id: 'c', function: {} }] } }] }, 'choices[0].message.tool_calls[0].function.name', 'required string is missing'],
    ['usage whose tokens are text', { choices: [], usage: { prompt_tokens: '3', completion_tokens: 1 } }, 'usage.prompt_tokens', 'expected integer, got string ("3")'],
  ])('%s', async (_what, body, path, message) => {
    reply(body);
    const error = await failure(client().chat.completions.create({ model: 'mock/echo', messages }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    const v = error as ResponseValidationError;
    expect(v.issues[0]?.path).toBe(path);
    expect(v.message).toContain(`${path}: ${message}`);
    // How to relax it, and the body as the server sent it.
    expect(v.message).toContain("validation: 'warn'");
    expect(v.raw).toEqual(body);
    expect(v.status).toBe(200);
  });

  it('a stream event that is not an object', async () => {
    sse({ choices: [{ index: 0, delta: { content: 'a' } }] }, '"hello"', '[DONE]');
    const stream = await client().chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const error = await failure((async () => { for await (const _ of stream); })());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toMatch(/stream event cannot be read .*\(body\): expected object, got string/);
    expect((error as ResponseValidationError).raw).toBe('hello');
  });
});

describe("'warn' and 'off'", () => {
  const body = { choices: [{ message: { content: 42, tool_calls: null }, finish_reason: 'eos' }] };

  it("'warn' logs the issue and returns the body read as far as it could be", async () => {
    const lines: string[] = [];
    const logger: Logger = { debug: () => {}, info: () => {}, warn: (m: string) => lines.push(m), error: () => {} };
    reply(body);
    const completion = await client({ validation: 'warn', logger }).chat.completions.create({ model: 'mock/echo', messages });
    // Everything readable is in the contract's shape; the field that is not is as sent.
    expect(completion.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: 42, refusal: null }, finish_reason: 'stop', logprobs: null });
    expect(lines.join()).toContain('choices[0].message.content');
  });

  it("'off' does the same without a word", async () => {
    reply(body);
    const completion = await client({ validation: 'off' }).chat.completions.create({ model: 'mock/echo', messages });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });
});
