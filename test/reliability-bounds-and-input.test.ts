/**
 * Reliability and security against real loopback servers: bounded memory, no leaked timers or
 * listeners; hostile input. docs/reliability.md is the table of these outcomes.
 */
import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InferenceError, ResponseValidationError, Stream, type ChatCompletionChunk, extras } from '../src/index';
import { useMockServer } from './support/mock-server';
import { useFaultServers } from './support/fault-server';
import { KEY, messages, chunk, sse, client, outcome, textOf } from './support/reliability';

const { server: mock } = useMockServer({ apiKeys: { [KEY]: 'all' } });

const { faultServer } = useFaultServers(() => {
  mock.requests.length = 0;
});

describe('bounded resources', () => {
  /** A server that sends `piece` forever (until the client goes away) and counts what it sent. */
  async function endless(contentType: string, first: string, piece: string) {
    const sent = { bytes: 0 };
    const server = await faultServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': contentType });
      res.write(first);
      const buffer = Buffer.from(piece);
      // Stops when the client goes away; each wait removes its own listeners.
      const drained = () =>
        new Promise<boolean>((resolve) => {
          const finish = (ok: boolean) => {
            res.off('drain', onDrain);
            res.off('close', onClose);
            resolve(ok);
          };
          const onDrain = () => finish(true);
          const onClose = () => finish(false);
          res.on('drain', onDrain);
          res.on('close', onClose);
        });
      while (!res.destroyed && sent.bytes < 512 * 1024 * 1024) {
        sent.bytes += buffer.length;
        if (!res.write(buffer) && !(await drained())) break;
      }
      res.end();
    });
    return { server, sent };
  }

  it('an endless stream event stops at maxEventSize with a typed error, and memory stays bounded', async () => {
    const { server, sent } = await endless('text/event-stream', `${sse(chunk('a'))}data: "`, 'x'.repeat(64 * 1024));
    const before = process.memoryUsage();
    const c = client(server.url, { maxEventSize: 1024 * 1024 });
    const stream = await c.chat.completions.create({ model: 'm', messages, stream: true });
    const error = await outcome(() => textOf(stream));
    const after = process.memoryUsage();
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/maxEventSize/);
    // The client stopped reading soon after the limit: the server could not push much more.
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
    expect(after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers)).toBeLessThan(64 * 1024 * 1024);
  });

  /**
   * A body of one large read that stays open, and a check that the read's bytes were collected
   * (collected in a later job: a WeakRef holds its target until the current one ends).
   */
  function oneOpenRead(text: string) {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let bytes: WeakRef<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const read = new TextEncoder().encode(text);
        bytes = new WeakRef(read);
        controller.enqueue(read); // and the body stays open: its reader stays inside this read
      },
    });
    const collected = async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
      await new Promise((resolve) => setTimeout(resolve, 0));
      return bytes?.deref() === undefined;
    };
    return { body, collected };
  }

  // A fast server's read holds hundreds of events. While the consumer works through them, the
  // read's bytes are garbage once decoded. (They were not: the body readers, async generators,
  // kept them in their frame at each `yield`: 200 streams waiting held 200 reads twice.)
  it('a stream waiting for its consumer keeps the read it is in once, as text, not also as its bytes', async () => {
    const { body, collected } = oneOpenRead(sse(...Array.from({ length: 600 }, (_, i) => chunk(`token ${i} `))));
    const c = client('http://127.0.0.1:9/v1', { fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }) });
    const stream = await c.chat.completions.create({ model: 'm', messages, stream: true });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('token 0 ');
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('token 1 ');
    expect(await collected()).toBe(true);
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('token 2 ');
    stream.controller.abort();
  });

  it('the same for Stream.fromReadableStream (a route handler\'s body read back)', async () => {
    const { body, collected } = oneOpenRead(Array.from({ length: 600 }, (_, i) => `${JSON.stringify(chunk(`token ${i} `))}\n`).join(''));
    const stream = Stream.fromReadableStream<ChatCompletionChunk>(body);
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('token 0 ');
    expect(await collected()).toBe(true);
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('token 1 ');
    stream.controller.abort();
  });

  it('an endless JSON body stops at maxBodySize with a typed error carrying its start', async () => {
    const { server, sent } = await endless('application/json', '{"object":"list","data":["', 'y'.repeat(64 * 1024));
    const error = await outcome(() => client(server.url, { maxBodySize: 2 * 1024 * 1024 }).models.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/maxBodySize/);
    expect(String((error as ResponseValidationError).raw).startsWith('{"object":"list"')).toBe(true);
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('1,000 concurrent streams on one client: no errors, no cross-talk', async () => {
    const c = client(mock.url);
    const texts = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        const stream = await c.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: `request ${i}` }], stream: true });
        return textOf(stream);
      }),
    );
    texts.forEach((text, i) => expect(text).toBe(`You said: request ${i}`));
  }, 60_000);

  it('one AbortSignal reused for 10,000 requests adds no listeners and no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const c = client('http://api.test/v1', { fetch: async () => Response.json({ object: 'list', data: [] }) });
      for (let i = 0; i < 10_000; i++) await c.models.list({ signal: controller.signal });
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('hostile input', () => {
  /** A client whose fetch answers with these byte chunks as an event stream. */
  const streaming = (pieces: Uint8Array[]) =>
    client('http://api.test/v1', {
      maxRetries: 0,
      fetch: async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (const piece of pieces) controller.enqueue(piece);
              controller.close();
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    });

  async function consume(pieces: Uint8Array[]) {
    const stream = await streaming(pieces).chat.completions.create({ model: 'm', messages, stream: true });
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    return chunks;
  }

  it('random bytes, randomly split: only chunks or typed errors, never another exception or a hang', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 20 }), async (pieces) => {
        const result = await outcome(() => consume(pieces));
        expect(Array.isArray(result) || result instanceof InferenceError).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('random JSON in data lines: only valid chunks or typed errors', async () => {
    const encoder = new TextEncoder();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 8 }), fc.boolean(), async (values, done) => {
        const text = sse(...values.map((v) => JSON.stringify(v)), ...(done ? ['[DONE]'] : []));
        const result = await outcome(() => consume([encoder.encode(text)]));
        if (Array.isArray(result)) {
          for (const c of result) expect(c.choices === null || Array.isArray(c.choices)).toBe(true);
        } else {
          expect(result).toBeInstanceOf(InferenceError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('deeply nested JSON: kept in an unknown field, a typed error where a type is expected', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const encoder = new TextEncoder();
    const ok = await consume([encoder.encode(`data: {"x":${deep},"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop"}]}\n\n`)]);
    expect(ok[0]?.choices?.[0]?.delta.content).toBe('a');
    const bad = await outcome(() => consume([encoder.encode(`data: {"choices":[{"index":0,"delta":{"content":${deep}}}]}\n\n`)]));
    expect(bad).toBeInstanceOf(ResponseValidationError);
  });

  it('__proto__ keys pollute nothing', async () => {
    const encoder = new TextEncoder();
    const text = sse(
      '{"__proto__":{"polluted":1},"choices":[{"index":0,"__proto__":{"polluted":2},"delta":{"content":"a","tool_calls":[{"index":0,"id":"c","__proto__":{"polluted":3},"function":{"name":"f","arguments":"{}"}}]},"finish_reason":"stop"}]}',
      '[DONE]',
    );
    const stream = await streaming([encoder.encode(text)]).chat.completions.create({ model: 'm', messages, stream: true });
    const final = await stream.finalChatCompletion();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((Object.prototype as { polluted?: unknown }).polluted).toBeUndefined();
    expect((final.choices[0]?.message?.tool_calls?.[0] as { polluted?: unknown }).polluted).toBeUndefined();
    expect(final.choices[0]?.message?.content).toBe('a');
  });

  it('numbers beyond 2^53 parse (to the nearest double) without an error', async () => {
    mock.enqueue({ status: 200, body: '{"object":"chat.completion","seed":18446744073709551615,"choices":[{"index":0,"message":{"role":"assistant","content":"x"},"finish_reason":"stop"}]}' });
    const completion = await client(mock.url).chat.completions.create({ model: 'mock/echo', messages });
    expect(extras(completion)['seed']).toBe(2 ** 64); // 18446744073709551615 rounds to the nearest double
  });
});
