/**
 * Issue 22, items 5, 6 and 8: what real servers and gateways do on the wire, through the public
 * API against real loopback servers. A stream lets go of its connection at `[DONE]`; an HTML page
 * on a stream is a typed error; a gateway's error keeps its message; an empty trailing usage does
 * not overwrite the real one; no reasoning text is lost.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  InferenceError,
  InternalServerError,
  ResponseValidationError,
  toAssistantMessage,
  type ChatCompletionMessageParam,
} from '../src/index';
import { useFaultServers } from './support/fault-server';
import { outcome, within } from './support/settle';
import { CORPUS, corpusPresent } from './support/corpus';
import { messages, client, sse, chunk, completion } from './support/wire-quirks';

const { faultServer } = useFaultServers();

describe('streams and the wire', () => {
  it('[DONE] closes the connection at once, though the server keeps it open', async () => {
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // [DONE], then nothing: the connection stays open until the client lets go of it.
      res.write(sse(chunk({ role: 'assistant', content: 'hel' }), chunk({ content: 'lo' }, 'stop'), '[DONE]'));
    });
    const stream = await client(server.url).chat.completions.create({ model: 'm', messages, stream: true });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    expect(text).toBe('hello');
    // The server sees its response closed: the client cancelled the body at [DONE].
    expect(await within(server.requests[0]!.closed, 5_000)).not.toBe('pending');
  });

  it('an in-band error event closes the connection too, though the server keeps it open', async () => {
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chunk({ role: 'assistant', content: 'a' }), { error: { message: 'upstream failed', code: 502 } }));
    });
    const stream = await client(server.url).chat.completions.create({ model: 'm', messages, stream: true });
    const error = await outcome(async () => {
      for await (const _ of stream);
    });
    expect(error).toBeInstanceOf(InferenceError);
    expect((error as Error).message).toContain('upstream failed');
    expect(await within(server.requests[0]!.closed, 5_000)).not.toBe('pending');
  });

  it('a 200 HTML page on a stream: a ResponseValidationError naming the type and the page, not retried', async () => {
    const page = '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Please sign in to continue.</body></html>';
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    });
    const error = await outcome(() => client(server.url, { maxRetries: 2 }).chat.completions.create({ model: 'm', messages, stream: true }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    const message = (error as Error).message;
    expect(message).toContain('text/html; charset=utf-8');
    expect(message).toContain('<!DOCTYPE html>'); // the start of the body
    expect(message).not.toMatch(/finish_reason/);
    expect((error as ResponseValidationError).raw).toBe(page);
    expect(server.requests).toHaveLength(1);
  });

  it('a huge HTML page on a stream is cut, not buffered whole', async () => {
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html>${'x'.repeat(1_000_000)}</html>`);
    });
    const error = await outcome(() => client(server.url).chat.completions.create({ model: 'm', messages, stream: true }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(((error as ResponseValidationError).raw as string).length).toBeLessThan(70_000);
  });

  it("a gateway's error body keeps its message: `message`, not the reason phrase in `error`", async () => {
    const body = { error: 'Internal Server Error', message: 'OpenAI API Error (401): Incorrect API key provided', requestId: 'gw-1' };
    const server = await faultServer((req, res) => {
      res.writeHead(req.url?.includes('models') ? 401 : 500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    const error = await outcome(() => client(server.url, { maxRetries: 0 }).chat.completions.create({ model: 'm', messages }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toBe('500 POST /v1/chat/completions: OpenAI API Error (401): Incorrect API key provided');
    expect((error as InternalServerError).error).toEqual(body); // the body as sent
    const auth = await outcome(() => client(server.url, { maxRetries: 0 }).models.list());
    expect(auth).toBeInstanceOf(AuthenticationError);
    expect((auth as Error).message).toContain('OpenAI API Error (401)');
    // The same body as an in-band stream event.
    const streaming = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse(body));
    });
    const inBand = await outcome(() => client(streaming.url, { maxRetries: 0 }).chat.completions.create({ model: 'm', messages, stream: true }));
    expect((inBand as Error).message).toContain('OpenAI API Error (401): Incorrect API key provided');
  });

  it('an error string without a message is still the message (xAI)', async () => {
    const server = await faultServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'invalid-argument', error: 'Incorrect API key provided' }));
    });
    const error = await outcome(() => client(server.url).chat.completions.create({ model: 'm', messages }));
    expect((error as Error).message).toBe('400 POST /v1/chat/completions: Incorrect API key provided');
  });

  it('real usage survives an empty trailing chunk (no id, zero usage) in finalChatCompletion()', async () => {
    const zero = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    const real = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        sse(
          chunk({ role: 'assistant', content: 'hi' }, null, { usage: zero }),
          chunk({ content: '!' }, 'stop', { usage: real }),
          { object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: zero },
          '[DONE]',
        ),
      );
    });
    const stream = await client(server.url).chat.completions.create({ model: 'm', messages, stream: true });
    const final = await stream.finalChatCompletion();
    expect(final.usage).toMatchObject(real);
    expect(final.id).toBe('chatcmpl-1');
    expect(final.choices[0]?.message.content).toBe('hi!');
  });

  it('a stream whose only usage is zero keeps it', async () => {
    const zero = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse(chunk({ content: 'hi' }, 'stop', { usage: zero }), '[DONE]'));
    });
    const stream = await client(server.url).chat.completions.create({ model: 'm', messages, stream: true });
    expect((await stream.finalChatCompletion()).usage).toMatchObject(zero);
  });
});

describe('no reasoning text is lost: a reply with both `reasoning` and `reasoning_content`', () => {
  const english = 'The user wants 2+2. That is 4.';
  const other = 'Let me double-check: two plus two is four.';

  /** A server answering each request with the next body (a completion or an SSE text), recording what it is sent. */
  async function replying(...answers: (object | string)[]) {
    let i = 0;
    return faultServer((_req, res) => {
      const answer = answers[Math.min(i++, answers.length - 1)]!;
      res.writeHead(200, { 'content-type': typeof answer === 'string' ? 'text/event-stream' : 'application/json' });
      res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
    });
  }
  const assistantSent = (body: string) => (JSON.parse(body) as { messages: Record<string, unknown>[] }).messages.find((m) => m.role === 'assistant');

  it('a completion: `reasoning` by its rule (reasoning_content first), the other text in `reasoning_raw`; sent back as the server sent it', async () => {
    const server = await replying(completion({ content: '4', reasoning: english, reasoning_content: other }), completion({ content: 'ok' }));
    const c = client(server.url);
    const first = await c.chat.completions.create({ model: 'm', messages });
    const message = first.choices[0]!.message;
    expect(message.reasoning).toBe(other);
    expect(message.reasoning_raw).toBe(english);
    expect(JSON.stringify(message)).toContain(english);
    const history: ChatCompletionMessageParam[] = [...messages, message, { role: 'user', content: 'and 3+3?' }];
    await c.chat.completions.create({ model: 'm', messages: history });
    expect(assistantSent(server.requests[1]!.body)).toEqual({ role: 'assistant', content: '4', reasoning: english, reasoning_content: other });
    expect(message.reasoning_raw).toBe(english); // the caller's message is not changed
    // toAssistantMessage() (what runTools() sends back each round) sends the same two fields.
    expect(toAssistantMessage(message)).toEqual({ role: 'assistant', content: '4', reasoning: english, reasoning_content: other });
  });

  it('a stream: each text joined in its own field of finalChatCompletion(); sent back as the server sent it', async () => {
    const body = sse(
      chunk({ role: 'assistant', reasoning: 'The user ', reasoning_content: 'Let me ' }),
      chunk({ reasoning: 'wants 2+2. That is 4.', reasoning_content: 'double-check: two plus two is four.' }),
      chunk({ content: '4' }, 'stop'),
      '[DONE]',
    );
    const server = await replying(body, completion({ content: 'ok' }));
    const c = client(server.url);
    const stream = await c.chat.completions.create({ model: 'm', messages, stream: true });
    const deltas: { reasoning?: string; reasoning_raw?: string }[] = [];
    for await (const ch of stream) if (ch.choices[0]) deltas.push(ch.choices[0].delta);
    expect(deltas[0]).toMatchObject({ reasoning: 'Let me ', reasoning_raw: 'The user ' });
    const message = (await stream.finalChatCompletion()).choices[0]!.message;
    expect(message.reasoning).toBe(other);
    expect(message.reasoning_raw).toBe(english);
    await c.chat.completions.create({ model: 'm', messages: [...messages, message] });
    expect(assistantSent(server.requests[1]!.body)).toEqual({ role: 'assistant', content: '4', reasoning: english, reasoning_content: other });
  });

  it('the same text in both fields is kept once, and goes back as `reasoning_content`', async () => {
    const server = await replying(completion({ content: '4', reasoning: english, reasoning_content: english }), completion({ content: 'ok' }));
    const c = client(server.url);
    const message = (await c.chat.completions.create({ model: 'm', messages })).choices[0]!.message;
    expect(message.reasoning).toBe(english);
    expect(message).not.toHaveProperty('reasoning_raw');
    await c.chat.completions.create({ model: 'm', messages: [...messages, message] });
    expect(assistantSent(server.requests[1]!.body)).toEqual({ role: 'assistant', content: '4', reasoning_content: english });
  });

  it('one field only: nothing added; `reasoning_content` goes back without the derived `reasoning`, a sent `reasoning` goes back as it came', async () => {
    const server = await replying(completion({ content: '4', reasoning_content: other }), completion({ content: '4', reasoning: english }), completion({ content: 'ok' }));
    const c = client(server.url);
    const deepseek = (await c.chat.completions.create({ model: 'm', messages })).choices[0]!.message;
    const groq = (await c.chat.completions.create({ model: 'm', messages })).choices[0]!.message;
    expect(deepseek).not.toHaveProperty('reasoning_raw');
    expect(groq).not.toHaveProperty('reasoning_raw');
    expect([deepseek.reasoning, groq.reasoning]).toEqual([other, english]);
    await c.chat.completions.create({ model: 'm', messages: [...messages, deepseek, { role: 'user', content: 'again' }, groq] });
    const sent = (JSON.parse(server.requests[2]!.body) as { messages: Record<string, unknown>[] }).messages.filter((m) => m.role === 'assistant');
    expect(sent).toEqual([
      { role: 'assistant', content: '4', reasoning_content: other },
      { role: 'assistant', content: '4', reasoning: english },
    ]);
  });

  const capture = join(CORPUS, 'deepseek/chat-reasoning-content.json');
  it.skipIf(!corpusPresent || !existsSync(capture))('a real DeepSeek reply (corpus) with a gateway\'s `reasoning` beside its `reasoning_content`', async () => {
    const body = JSON.parse(readFileSync(capture, 'utf8')) as { choices: { message: Record<string, unknown> }[] };
    const original = body.choices[0]!.message['reasoning_content'] as string;
    body.choices[0]!.message['reasoning'] = english;
    const server = await replying(body, completion({ content: 'ok' }));
    const c = client(server.url);
    const message = (await c.chat.completions.create({ model: 'deepseek-v4-flash', messages })).choices[0]!.message;
    expect(message.reasoning).toBe(original);
    expect(message.reasoning_raw).toBe(english);
    await c.chat.completions.create({ model: 'deepseek-v4-flash', messages: [...messages, message] });
    expect(assistantSent(server.requests[1]!.body)).toMatchObject({ reasoning: english, reasoning_content: original });
    expect(assistantSent(server.requests[1]!.body)).not.toHaveProperty('reasoning_raw');
  });
});
