// Streams taken at docs/streaming.md's and docs/reliability.md's word: `for await` once, `tee()`,
// events, `final…()`, the legacy completions stream, and what the accumulator promises.
import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIError, ResponseValidationError, type ChatCompletionChunk, type Stream } from '../../src/index';
import { chunk, clientOf, delay, event, json, rejection, sse, sseHead, textChunks } from './support';
import { useStreamServer, server, body, client, openAfter, lastRequest, closes } from '../support/adversarial-streams';

useStreamServer();

describe('reading', () => {
  it('a second for await throws and points to tee()', async () => {
    server.handle((_req, res) => sse(res, textChunks(['a'])));
    const stream = await client().chat.completions.create(body);
    for await (const _ of stream) {
      // read it all
    }
    const err = await rejection(async () => {
      for await (const _ of stream) {
        // again
      }
    });
    expect(String((err as Error).message)).toMatch(/tee\(\)/);
  });

  it('accepts what real servers send: CRLF, data: without a space, comments, event: lines, data: null, choices: null', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      res.write(': keep-alive\r\n\r\n');
      res.write(`event: message\r\ndata:${JSON.stringify(chunk({ role: 'assistant', content: 'A' }))}\r\n\r\n`);
      res.write('data: null\r\n\r\n');
      res.write(`data: ${JSON.stringify({ ...chunk({}), choices: null })}\r\n\r\n`);
      res.write(`data: ${JSON.stringify(chunk({ content: 'B' }))}\r\n\r\n`);
      res.write(`data: ${JSON.stringify(chunk({}, 'stop'))}\r\n\r\ndata: [DONE]\r\n\r\n`);
      res.end();
    });
    const stream = await client().chat.completions.create(body);
    expect(await stream.finalContent()).toBe('AB');
  });

  it('a trickle, one byte at a time: read whole, the bytes of an event keep the idle timer alive', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      const text = textChunks(['drip', 'drop']).map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
      for (const ch of text) {
        res.write(ch);
        await delay(4);
      }
      res.end();
    });
    // One event is ~150 bytes, 4 ms apart (~600 ms); the idle timeout is shorter than one event.
    const stream = await clientOf(server.baseURL, { streamIdleTimeout: 400 }).chat.completions.create(body);
    expect(await stream.finalContent()).toBe('dripdrop');
  }, 60_000);

  it('a stream cut before any finish_reason and without [DONE]: APIConnectionError from the loop and from finalChatCompletion()', async () => {
    server.handle((_req, res) => sse(res, [chunk({ role: 'assistant', content: 'half' })], false));
    const stream = await client().chat.completions.create(body);
    const err = await rejection(async () => {
      for await (const _ of stream) {
        // read
      }
    });
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(await rejection(() => stream.finalChatCompletion())).toBeInstanceOf(APIConnectionError);
  });

  it('an HTML page where a stream was asked: ResponseValidationError, not retried', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><title>Login</title></html>');
    });
    const before = server.requests.length;
    const err = await rejection(() => clientOf(server.baseURL, { maxRetries: 2 }).chat.completions.create(body));
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(server.requests.length - before).toBe(1);
  });

  it('an event larger than maxEventSize: ResponseValidationError, the connection let go', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      event(res, chunk({ role: 'assistant', content: '' }));
      res.write(`data: ${JSON.stringify(chunk({ content: 'x'.repeat(50_000) }))}`); // no end of event, connection kept open
    });
    // The error may come from create() itself (before the first chunk is handed over) or from the stream.
    const err = await rejection(async () => (await clientOf(server.baseURL, { maxEventSize: 10_000 }).chat.completions.create(body)).finalChatCompletion());
    expect(err).toBeInstanceOf(ResponseValidationError);
    await closes(lastRequest());
  });

  it('[DONE], then more events on a connection kept open: the stream ends at [DONE], the connection is let go', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      for (const c of textChunks(['done'])) event(res, c);
      event(res, '[DONE]');
      event(res, chunk({ content: ' and more' }));
    });
    const stream = await client().chat.completions.create(body);
    expect(await stream.finalContent()).toBe('done');
    await closes(lastRequest());
  });

  it('an in-band error after a chunk: APIError from the loop, the connection let go', async () => {
    openAfter([chunk({ role: 'assistant', content: 'a' }), { error: { message: 'upstream died', code: 502 } }]);
    const stream = await client().chat.completions.create(body);
    const err = await rejection(() => stream.done());
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(502);
    await closes(lastRequest());
  });

  it('__proto__ keys in a chunk pollute no prototype and keep the chunk a plain object', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      res.write(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","__proto__":{"polluted":true},"choices":[{"index":0,"delta":{"role":"assistant","content":"x","__proto__":{"polluted":true}},"finish_reason":null}]}\n\n`);
      event(res, chunk({}, 'stop'));
      event(res, '[DONE]');
      res.end();
    });
    const stream = await client().chat.completions.create(body);
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(chunks[0])).toBe(Object.prototype);
    expect((chunks[0] as unknown as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((chunks[0]!.choices[0]!.delta as unknown as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});


describe('tee()', () => {
  it('both branches see every chunk; one leaving early leaves the other reading', async () => {
    server.handle((_req, res) => sse(res, textChunks(['a', 'b', 'c'])));
    const [left, right] = (await client().chat.completions.create(body)).tee();
    const read = async (s: Stream<ChatCompletionChunk>, stopAfter = Infinity) => {
      const out: string[] = [];
      for await (const c of s) {
        out.push(c.choices[0]?.delta.content ?? '');
        if (out.length >= stopAfter) break;
      }
      return out.join('');
    };
    const [l, r] = await Promise.all([read(left, 2), read(right)]);
    expect(l).toBe('a');
    expect(r).toBe('abc');
  });

  it('both branches closed while the server is silent: the request is cancelled', async () => {
    openAfter([chunk({ role: 'assistant', content: 'x' })]);
    const [left, right] = (await client().chat.completions.create(body)).tee();
    for await (const _ of left) break;
    for await (const _ of right) break;
    await closes(lastRequest());
  });
});


describe('legacy completions stream', () => {
  it('break cancels the request', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      event(res, { id: 'cmpl', object: 'text_completion', created: 1, model: 'acme/base-1', choices: [{ index: 0, text: 'Once', finish_reason: null }] });
    });
    const stream = await client().completions.create({ model: 'acme/base-1', prompt: 'x', stream: true });
    for await (const c of stream) {
      expect(c.choices[0]?.text).toBe('Once');
      break;
    }
    await closes(lastRequest());
  });

  it('a JSON error where a stream was asked: the status class', async () => {
    server.handle((_req, res) => json(res, { error: { message: 'model_not_found', type: 'invalid_request_error' } }, 404));
    const err = await rejection(() => client().completions.create({ model: 'acme/nope', prompt: 'x', stream: true }));
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(404);
  });
});

describe('what the accumulator promises (docs/streaming.md, "The final message")', () => {
  it('n > 1 with choices interleaved, index 1 first: each choice accumulated on its own, in index order', async () => {
    const c = (index: number, delta: Record<string, unknown>, finish: string | null = null) => ({ ...chunk({}), choices: [{ index, delta, finish_reason: finish }] });
    server.handle((_req, res) => sse(res, [c(1, { role: 'assistant', content: 'B1' }), c(0, { role: 'assistant', content: 'A1' }), c(1, { content: 'B2' }), c(0, { content: 'A2' }), c(0, {}, 'stop'), c(1, {}, 'length')]));
    const final = await (await client().chat.completions.create({ ...body, n: 2 })).finalChatCompletion();
    expect(final.choices.map((x) => [x.index, x.message.content, x.finish_reason])).toEqual([
      [0, 'A1A2', 'stop'],
      [1, 'B1B2', 'length'],
    ]);
  });

  it("tool-call fragments with '' ids and null names on continuations, indexes from 1: one call per id", async () => {
    server.handle((_req, res) =>
      sse(res, [
        chunk({ role: 'assistant', tool_calls: [{ index: 1, id: 'call_a', type: 'function', function: { name: 'first', arguments: '{"x":' } }] }),
        chunk({ tool_calls: [{ index: 1, id: '', function: { name: null, arguments: '1}' } }] }),
        chunk({ tool_calls: [{ index: 2, id: 'call_b', type: 'function', function: { name: 'second', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 2, id: '', function: { name: '', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
      ]),
    );
    const message = await (await client().chat.completions.create(body)).finalMessage();
    expect(message.tool_calls?.map((t) => [t.id, t.function.name, t.function.arguments])).toEqual([
      ['call_a', 'first', '{"x":1}'],
      ['call_b', 'second', '{}'],
    ]);
  });

  it('a trailing usage of zeros never replaces the usage already seen', async () => {
    const usage = (n: number) => ({ ...chunk({}), choices: [], usage: { prompt_tokens: n, completion_tokens: n, total_tokens: 2 * n } });
    server.handle((_req, res) => sse(res, [...textChunks(['a']), usage(7), { ...usage(0), id: undefined }]));
    const final = await (await client().chat.completions.create(body)).finalChatCompletion();
    expect(final.usage?.total_tokens).toBe(14);
  });

  // docs/reliability.md promises "`finalChatCompletion()` never returns `choices: []`"; a stream whose only chunk was a usage chunk with `choices: []` (then [DONE]) resolved with `choices: []` (issue 29).
  it('a stream of only a usage chunk (choices: []): finalChatCompletion() never returns choices: []', async () => {
    server.handle((_req, res) => sse(res, [{ ...chunk({}), choices: [], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } }]));
    const outcome = await (async () => (await client().chat.completions.create(body)).finalChatCompletion())().then(
      (c) => c.choices.length,
      (e: unknown) => e,
    );
    if (typeof outcome === 'number') expect(outcome).toBeGreaterThan(0);
    else expect(outcome).toBeInstanceOf(ResponseValidationError);
  });

  it('a stream of only usage chunks: ResponseValidationError ("without a single choice") from the loop and from finalChatCompletion()', async () => {
    const usage = { ...chunk({}), choices: [], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } };
    server.handle((_req, res) => sse(res, [usage, usage]));
    const final = await rejection(async () => (await client().chat.completions.create(body)).finalChatCompletion());
    expect(final).toBeInstanceOf(ResponseValidationError);
    expect((final as Error).message).toMatch(/without a single choice/);
    const seen: unknown[] = [];
    const loop = await rejection(async () => {
      for await (const c of await client().chat.completions.create(body)) seen.push(c);
    });
    expect(loop).toBeInstanceOf(ResponseValidationError);
    expect(seen).toHaveLength(2);
  });

  it('a finish_reason sent twice: content.done, chatCompletion and finalContent told once each', async () => {
    server.handle((_req, res) => sse(res, [chunk({ role: 'assistant', content: 'x' }), chunk({}, 'stop'), chunk({}, 'stop')]));
    const stream = await client().chat.completions.create(body);
    const told: string[] = [];
    for (const name of ['content.done', 'chatCompletion', 'finalContent', 'end'] as const) stream.on(name, () => void told.push(name));
    await stream.done();
    expect(told).toEqual(['content.done', 'chatCompletion', 'finalContent', 'end']);
  });

  it('a gzip-compressed event stream is read', async () => {
    const { gzipSync } = await import('node:zlib');
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(gzipSync(textChunks(['zip', 'ped']).map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n'));
    });
    expect(await (await client().chat.completions.create(body)).finalContent()).toBe('zipped');
  });
});
