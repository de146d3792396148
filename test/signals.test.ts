/**
 * One `AbortSignal` shared by many calls at once (util/signals.ts): 30 chat completions, streams
 * and not, some failing, some waiting their turn under `maxConcurrency: 1`, some aborted, against
 * a loopback server. Node warns (`MaxListenersExceededWarning`) from 11 listeners on one signal;
 * the SDK keeps one on it at most, and none once the calls are done. Counted by wrapping the
 * signal's `addEventListener` / `removeEventListener`, and seen in a real `node` process's stderr.
 */
import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { APIUserAbortError, BadRequestError, Client, type ClientOptions } from '../src/index';
import { startFaultServer, type FaultServer } from './support/fault-server';

const KEY = 'sk-signals-SECRET-0123456789';
const opened: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const chunk = (delta: object, finish_reason: string | null = null) =>
  JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason }] });
const completion = { id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };

/** A server answering a stream, a completion, or a 400 when the message says `fail`; with `hold`, never answering. */
async function server(hold = false): Promise<FaultServer> {
  const s = await startFaultServer((_req: IncomingMessage, res: ServerResponse, body: string) => {
    if (hold) return;
    const { stream, messages } = JSON.parse(body) as { stream?: boolean; messages: { content: string }[] };
    if (messages[0]!.content === 'fail') {
      res.writeHead(400, { 'content-type': 'application/json' });
      return void res.end('{"error":{"message":"no"}}');
    }
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(completion));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${chunk({ role: 'assistant', content: 'ok' })}\n\ndata: ${chunk({}, 'stop')}\n\ndata: [DONE]\n\n`);
  });
  opened.push(s);
  return s;
}

/** The abort listeners on `signal` as its add/remove calls and its abort leave them: now, and at most. */
function track(signal: AbortSignal) {
  const live = new Map<unknown, boolean>();
  let most = 0;
  type Listener = EventListenerOrEventListenerObject;
  const add = signal.addEventListener.bind(signal) as (type: string, listener: Listener, options?: boolean | AddEventListenerOptions) => void;
  const remove = signal.removeEventListener.bind(signal) as (type: string, listener: Listener, options?: boolean | EventListenerOptions) => void;
  // First, so it runs before the others: a `once` listener is gone once the signal aborts.
  add('abort', () => live.forEach((once, listener) => once && live.delete(listener)));
  signal.addEventListener = (type: string, listener: Listener, options?: boolean | AddEventListenerOptions) => {
    if (type === 'abort' && !signal.aborted) live.set(listener, typeof options === 'object' && options.once === true);
    most = Math.max(most, live.size);
    add(type, listener, options);
  };
  signal.removeEventListener = (type: string, listener: Listener, options?: boolean | EventListenerOptions) => {
    if (type === 'abort') live.delete(listener);
    remove(type, listener, options);
  };
  return { live: () => live.size, most: () => most };
}

/** `run()`'s outcome, and the warnings Node emitted meanwhile. */
async function warned<T>(run: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  try {
    const value = await run();
    await new Promise((resolve) => setImmediate(resolve));
    return { value, warnings };
  } finally {
    process.off('warning', onWarning);
  }
}

/** 30 calls at once on `signal`: a stream, a completion, a 400, and so on; what each ended with. */
function thirty(client: Client, signal: AbortSignal): Promise<unknown[]> {
  return Promise.all(
    Array.from({ length: 30 }, async (_, i) => {
      const messages = [{ role: 'user' as const, content: i % 3 === 2 ? 'fail' : 'hi' }];
      try {
        if (i % 3 === 1) return (await client.chat.completions.create({ model: 'm', messages }, { signal })).choices[0]!.message.content;
        let text = '';
        for await (const c of await client.chat.completions.create({ model: 'm', messages, stream: true }, { signal })) text += c.choices[0]?.delta.content ?? '';
        return text;
      } catch (error) {
        return error;
      }
    }),
  );
}

const client = (s: FaultServer, options: ClientOptions = {}) => new Client({ apiKey: KEY, baseURL: s.url, maxRetries: 0, logLevel: 'off', ...options });

describe('one signal shared by many calls at once', () => {
  for (const [name, options] of [
    ['at once', {}],
    ['queued by maxConcurrency: 1', { maxConcurrency: 1 }],
  ] as const) {
    for (const [kind, make] of [
      ['AbortSignal.timeout(60_000)', () => AbortSignal.timeout(60_000)],
      ["an AbortController's signal", () => new AbortController().signal],
    ] as const) {
      it(`${name}, on ${kind}: one listener at most, none left, no MaxListenersExceededWarning`, async () => {
        const s = await server();
        const signal = make();
        const listeners = track(signal);
        const { value: outcomes, warnings } = await warned(() => thirty(client(s, options), signal));
        outcomes.forEach((outcome, i) => (i % 3 === 2 ? expect(outcome).toBeInstanceOf(BadRequestError) : expect(outcome).toBe('ok')));
        expect(s.requests).toHaveLength(30);
        expect(warnings).not.toContain('MaxListenersExceededWarning');
        expect(listeners.most()).toBeLessThanOrEqual(1);
        expect(listeners.live()).toBe(0);
      });
    }
  }

  it('aborted while one is sent and 29 wait their turn: all end with APIUserAbortError, none left, no warning', async () => {
    const s = await server(true);
    const controller = new AbortController();
    const listeners = track(controller.signal);
    const { value: outcomes, warnings } = await warned(async () => {
      const all = thirty(client(s, { maxConcurrency: 1 }), controller.signal);
      while (s.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      return all;
    });
    expect(s.requests).toHaveLength(1);
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(APIUserAbortError);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    expect(listeners.most()).toBeLessThanOrEqual(1);
    expect(listeners.live()).toBe(0);
  });

  it('a real node process: 60 calls on one AbortSignal.timeout(60_000) write no warning to stderr', async () => {
    const s = await server();
    const script = `
      import { Client } from './src/index.ts';
      const signal = AbortSignal.timeout(60_000);
      const messages = [{ role: 'user', content: 'hi' }];
      const call = async (client, i) => {
        if (i % 2) return (await client.chat.completions.create({ model: 'm', messages }, { signal })).choices[0].message.content;
        let text = '';
        for await (const c of await client.chat.completions.create({ model: 'm', messages, stream: true }, { signal })) text += c.choices[0]?.delta.content ?? '';
        return text;
      };
      const clients = [{}, { maxConcurrency: 1 }].map((o) => new Client({ apiKey: '${KEY}', baseURL: process.env.BASE_URL, logLevel: 'off', ...o }));
      const texts = await Promise.all(clients.flatMap((client) => Array.from({ length: 30 }, (_, i) => call(client, i))));
      console.log('done', texts.filter((t) => t === 'ok').length);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BASE_URL: s.url, INFERENCE_LOG: 'off' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stdout.trim()).toBe('done 60');
    expect(stderr).not.toMatch(/MaxListenersExceededWarning/);
    expect(code).toBe(0);
  }, 60_000);
});
