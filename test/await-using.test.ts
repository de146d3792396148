/**
 * `await using`: streams and runners are `AsyncDisposable`. Leaving the block (at its end, by
 * `break`, by a throw) cancels the request as `break` out of a loop does: the server sees the
 * connection close and the limiter gets its turn back. Against a local server that holds each
 * response open until the client goes; and, in a context where `Symbol.asyncDispose` is missing
 * (some Node 20 releases), through the `Symbol.for('Symbol.asyncDispose')` fallback.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import vm from 'node:vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APIError, Client, type ChatCompletionChunk } from '../src/index';

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'acme/chat-1', choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: finish }] })}\n\n`;

/** What the next request gets: `hold` sends one chunk and keeps the stream open; `whole` a complete stream; `error` a chunk then an in-band error; `silent` no answer at all. */
type Reply = 'hold' | 'whole' | 'error' | 'silent' | 'legacy-hold';
let replies: Reply[] = [];
/** One per request: resolves when the connection closed before the response ended (the client left). */
let gone: Promise<'client left'>[] = [];
let ended: Promise<'response ended'>[] = [];
let base = '';
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  const reply = replies.shift() ?? 'whole';
  gone.push(new Promise((resolve) => res.on('close', () => { if (!res.writableFinished) resolve('client left'); })));
  ended.push(new Promise((resolve) => res.on('finish', () => resolve('response ended'))));
  if (reply === 'silent') return;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (reply === 'legacy-hold') res.write(`data: ${JSON.stringify({ id: 'p1', object: 'text_completion', created: 1, model: 'acme/base-1', choices: [{ index: 0, text: 'Once', finish_reason: null }] })}\n\n`);
  else res.write(chunk('Hello'));
  if (reply === 'whole') res.end(`${chunk(' world', 'stop')}data: [DONE]\n\n`);
  if (reply === 'error') res.end('event: error\ndata: {"error":{"message":"the model fell over","type":"server_error"}}\n\n');
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  replies = [];
  gone = [];
  ended = [];
});

const client = () => new Client({ apiKey: 'sk-test', baseURL: base, logLevel: 'off', maxRetries: 0, maxConcurrency: 1 });
const ask = { model: 'acme/chat-1', messages: [{ role: 'user' as const, content: 'hi' }] };
const within = <T>(promise: Promise<T>, ms = 2_000) =>
  Promise.race([promise, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms))]);

describe('a stream, leaving its `await using` block', () => {
  it('at its end, after one chunk read: the request is cancelled and the limiter slot given back', async () => {
    replies = ['hold'];
    const c = client();
    let s: Awaited<ReturnType<typeof create>> | undefined;
    const create = () => c.chat.completions.create({ ...ask, stream: true });
    {
      await using stream = await create();
      s = stream;
      const first = await stream[Symbol.asyncIterator]().next();
      expect((first.value as ChatCompletionChunk).choices[0]?.delta.content).toBe('Hello');
      expect(c.rateLimits().inFlight).toBe(1);
    }
    expect(await within(gone[0]!)).toBe('client left');
    expect(c.rateLimits().inFlight).toBe(0);
    expect(s.aborted).toBe(true);
  });

  it('never read: the request is cancelled, and the next call (maxConcurrency 1) goes at once', async () => {
    replies = ['hold', 'whole'];
    const c = client();
    {
      await using _stream = await c.chat.completions.create({ ...ask, stream: true });
    }
    expect(await within(gone[0]!)).toBe('client left');
    expect(c.rateLimits().inFlight).toBe(0);
    const next = await within(c.chat.completions.create({ ...ask, stream: true }).then((s) => s.finalContent()));
    expect(next).toBe('Hello world');
  });

  it('by `break` out of an enclosing loop, and by a throw', async () => {
    replies = ['hold', 'hold'];
    const c = client();
    for (;;) {
      await using stream = await c.chat.completions.create({ ...ask, stream: true });
      await stream[Symbol.asyncIterator]().next();
      break;
    }
    expect(await within(gone[0]!)).toBe('client left');
    await expect(
      (async () => {
        await using stream = await c.chat.completions.create({ ...ask, stream: true });
        await stream[Symbol.asyncIterator]().next();
        throw new Error('the caller failed');
      })(),
    ).rejects.toThrow('the caller failed');
    expect(await within(gone[1]!)).toBe('client left');
    expect(c.rateLimits().inFlight).toBe(0);
  });

  it('a stream that ended (well, or with an error) is left as it is; disposing twice is fine', async () => {
    replies = ['whole', 'error'];
    const c = client();
    const whole = await c.chat.completions.create({ ...ask, stream: true });
    {
      await using stream = whole;
      for await (const _ of stream);
    }
    await whole[Symbol.asyncDispose]();
    expect(whole.aborted).toBe(false);
    expect(whole.controller.signal.aborted).toBe(false);
    expect(await whole.finalContent()).toBe('Hello world');
    expect(await within(ended[0]!)).toBe('response ended');

    const failed = await c.chat.completions.create({ ...ask, stream: true });
    await expect(
      (async () => {
        await using stream = failed;
        for await (const _ of stream);
      })(),
    ).rejects.toBeInstanceOf(APIError);
    await failed[Symbol.asyncDispose]();
    expect(c.rateLimits().inFlight).toBe(0);
  });

  it('the stream helper (`chat.completions.stream()`, its request made at the first read)', async () => {
    replies = ['hold'];
    const c = client();
    const helper = c.chat.completions.stream(ask);
    {
      await using stream = helper;
      await stream[Symbol.asyncIterator]().next();
    }
    expect(await within(gone[0]!)).toBe('client left');
    expect(c.rateLimits().inFlight).toBe(0);
    expect(helper.aborted).toBe(true);
  });

  it('the legacy completions stream', async () => {
    replies = ['legacy-hold'];
    const c = client();
    {
      await using stream = await c.completions.create({ model: 'acme/base-1', prompt: 'Once', stream: true });
      await stream[Symbol.asyncIterator]().next();
    }
    expect(await within(gone[0]!)).toBe('client left');
    expect(c.rateLimits().inFlight).toBe(0);
  });
});

describe('a runner, leaving its `await using` block', () => {
  const wait = {
    type: 'function' as const,
    function: { name: 'wait', parameters: { type: 'object', properties: {} }, function: () => 'done' },
  };

  it('aborts the run (the request in flight cancelled) and waits for its end without rejecting', async () => {
    replies = ['silent'];
    const c = client();
    const runner = c.chat.completions.runTools({ ...ask, tools: [wait] });
    {
      await using r = runner;
      await within(new Promise((resolve) => setTimeout(resolve, 200)));
      expect(r.ended).toBe(false);
    }
    expect(runner.ended).toBe(true);
    expect(runner.aborted).toBe(true);
    expect(await within(gone[0]!)).toBe('client left');
    expect(c.rateLimits().inFlight).toBe(0);
  });

  it('a streaming runner, a chunk read', async () => {
    replies = ['hold'];
    const c = client();
    const runner = c.chat.completions.runTools({ ...ask, tools: [wait], stream: true });
    {
      await using r = runner;
      await r.emitted('chunk');
    }
    expect(runner.aborted).toBe(true);
    expect(await within(gone[0]!)).toBe('client left');
    expect(c.rateLimits().inFlight).toBe(0);
  });

  it('a run that ended is left as it is', async () => {
    const c = client();
    replies = ['whole'];
    const runner = c.chat.completions.runTools({ ...ask, tools: [wait], stream: true });
    await runner.done();
    await runner[Symbol.asyncDispose]();
    await runner[Symbol.asyncDispose]();
    expect(runner.aborted).toBe(false);
    expect(runner.controller.signal.aborted).toBe(false);
  });
});

it('where Symbol.asyncDispose is missing (some Node 20 releases): the Symbol.for fallback, the global left as it is', async () => {
  // A fresh context has no Symbol.asyncDispose (Node 20 adds it to its own context only), as
  // those releases have none. `await using` there is esbuild's lowering, which uses the fallback.
  const entry = `
    import { Stream } from './src/index';
    export async function run() {
      let cancelled = false;
      const body = new ReadableStream({ pull(c) { c.enqueue(new TextEncoder().encode('{"n":1}\\n')); }, cancel() { cancelled = true; } });
      const stream = Stream.fromReadableStream(body);
      {
        await using s = stream;
        await s[Symbol.asyncIterator]().next();
      }
      return { cancelled, key: typeof stream[Symbol.for('Symbol.asyncDispose')], global: typeof Symbol.asyncDispose };
    }`;
  const out = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'entry',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  const context = vm.createContext({ ReadableStream, TextEncoder, TextDecoder, AbortController, DOMException, setTimeout, clearTimeout, queueMicrotask });
  expect(vm.runInContext('typeof Symbol.asyncDispose', context)).toBe('undefined');
  vm.runInContext(out.outputFiles[0]!.text, context);
  const result = await (vm.runInContext('entry.run()', context) as Promise<unknown>);
  expect(result).toEqual({ cancelled: true, key: 'function', global: 'undefined' });
});
