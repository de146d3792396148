/**
 * Hooks that never settle, and the key, against servers on 127.0.0.1: every hook is bounded by
 * the call's `timeout` and `signal` (the same typed error as a stalled server), a pending
 * `onChunk` does not hold a loop after `abort()`, and no hook sees the key, even one a server
 * echoes back in a body or a header.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  AuthenticationError,
  Client,
  HookError,
  InternalServerError,
  type CallSummary,
  type ClientOptions,
  type HookName,
  type Hooks,
} from '../src/index';
import { pause, useFaultServers, type FaultServer } from './support/fault-server';
import { expectNoSecret } from './support/secrets';
import { within } from './support/settle';

const KEY = 'sk-hooks-SECRET-0123456789';
const { faultServer } = useFaultServers();

const chunk = (delta: object, finish_reason: string | null = null) => ({ id: 'chatcmpl-h', object: 'chat.completion.chunk', created: 1, model: 'mock/echo', choices: [{ index: 0, delta, finish_reason }] });
const completion = { id: 'chatcmpl-h', object: 'chat.completion', created: 1, model: 'mock/echo', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }] };

/**
 * A server that answers a JSON request with a completion (after `failFirst` 500s) and a stream
 * with `tail` chunks 20 ms apart (5 s for the default 250).
 */
async function server(failFirst = 0, tail = 250): Promise<FaultServer> {
  let n = 0;
  return faultServer(async (_req: IncomingMessage, res: ServerResponse, body: string) => {
    if (n++ < failFirst) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'try again' } }));
      return;
    }
    if (!(JSON.parse(body) as { stream?: boolean }).stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify(chunk({ role: 'assistant', content: '' }))}\n\n`);
    for (let i = 0; i < tail; i++) {
      if (!(await pause(res, 20))) return;
      res.write(`data: ${JSON.stringify(chunk({ content: `${i} ` }))}\n\n`);
    }
    res.end(`data: ${JSON.stringify(chunk({}, 'stop'))}\n\ndata: [DONE]\n\n`);
  });
}

const client = (s: FaultServer, options: ClientOptions = {}) => new Client({ apiKey: KEY, baseURL: s.url, maxRetries: 0, logLevel: 'off', ...options });
const messages = [{ role: 'user' as const, content: 'Hello' }];

/** Which call each hook needs: a stream for onChunk, a retry for beforeRetry, a failure for onError. */
const CASES: { hook: HookName; stream: boolean; failFirst: number; maxRetries: number; tail?: number }[] = [
  { hook: 'beforeRequest', stream: false, failFirst: 0, maxRetries: 0 },
  { hook: 'afterResponse', stream: false, failFirst: 0, maxRetries: 0 },
  { hook: 'beforeRetry', stream: false, failFirst: 1, maxRetries: 1 },
  { hook: 'onChunk', stream: true, failFirst: 0, maxRetries: 0 },
  { hook: 'onError', stream: false, failFirst: 1, maxRetries: 0 },
  { hook: 'onEnd', stream: false, failFirst: 0, maxRetries: 0 },
  { hook: 'onEnd', stream: true, failFirst: 0, maxRetries: 0, tail: 3 },
];

/** Run the case's call to its end: a JSON call, or a stream read to its end. */
async function run(c: Client, stream: boolean, signal?: AbortSignal): Promise<void> {
  if (!stream) {
    await c.chat.completions.create({ model: 'mock/echo', messages }, signal ? { signal } : {});
    return;
  }
  const s = await c.chat.completions.create({ model: 'mock/echo', messages, stream: true }, signal ? { signal } : {});
  for await (const _ of s);
}

/** Hooks whose `hook` never settles (the first time it is called), and an `onEnd` after them that records. */
function stalled(hook: HookName, entered: () => void = () => {}): { hooks: Hooks[]; ends: CallSummary[] } {
  const ends: CallSummary[] = [];
  let once = false;
  const never = () => {
    if (once) return undefined;
    once = true;
    entered();
    return new Promise<never>(() => {});
  };
  return { hooks: [{ name: 'stuck', [hook]: never }, { name: 'telemetry', onEnd: (summary) => void ends.push(summary) }], ends };
}

describe('every hook is bounded by the call’s timeout and signal', () => {
  it.each(CASES)('$hook (stream: $stream) that never settles: APIConnectionTimeoutError at the timeout; the other hooks still told', async ({ hook, stream, failFirst, maxRetries, tail }) => {
    const s = await server(failFirst, tail);
    const { hooks, ends } = stalled(hook);
    const c = client(s, { hooks, timeout: 1_000, maxRetries });
    const result = await within(run(c, stream), 10_000);
    expect(result).not.toBe('pending');
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toContain(`The ${hook} hook of "stuck" did not settle within 1000 ms (timeout)`);
    // The hooks after the stalled one are still told; onEnd and onError are told the call's
    // outcome as it was before them (as when a hook throws).
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ outcome: hook === 'onEnd' ? 'ok' : 'error' });
    if (hook !== 'onEnd' && hook !== 'onError') expect(ends[0]!.error).toBe(error);
    // Every request is over on the server's side too.
    for (const request of s.requests) expect(await within(request.closed, 4_000)).not.toBe('pending');
  });

  it.each(CASES)('$hook (stream: $stream) that never settles: APIUserAbortError as soon as the signal aborts', async ({ hook, stream, failFirst, maxRetries, tail }) => {
    const s = await server(failFirst, tail);
    const controller = new AbortController();
    const { hooks, ends } = stalled(hook, () => setTimeout(() => controller.abort(), 20));
    // A timeout far beyond the test's bound: only the signal can end the call in time.
    const c = client(s, { hooks, timeout: 600_000, maxRetries });
    const result = await within(run(c, stream, controller.signal), 10_000);
    expect(result).not.toBe('pending');
    expect((result as { error: unknown }).error).toBeInstanceOf(APIUserAbortError);
    expect(ends).toHaveLength(1);
    for (const request of s.requests) expect(await within(request.closed, 4_000)).not.toBe('pending');
  });

  it('onChunk is bounded by streamIdleTimeout too, whichever is shorter', async () => {
    const s = await server();
    const { hooks } = stalled('onChunk');
    const c = client(s, { hooks, streamIdleTimeout: 300 });
    const error = (await within(run(c, true), 10_000)) as { error: unknown };
    expect(error.error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error.error as Error).message).toContain('The onChunk hook of "stuck" did not settle within 300 ms (streamIdleTimeout)');
  });

  it('a pending onChunk does not keep a loop alive after abort(): the loop ends with APIUserAbortError, the request is aborted', async () => {
    const s = await server();
    const { hooks, ends } = stalled('onChunk');
    const stream = await client(s, { hooks, timeout: 600_000 }).chat.completions.create({ model: 'mock/echo', messages, stream: true });
    const told: string[] = [];
    stream.on('abort', () => void told.push('abort')).on('end', () => void told.push('end'));
    const loop = (async () => {
      for await (const _ of stream);
    })();
    setTimeout(() => stream.abort(), 50);
    const result = await within(loop, 10_000);
    expect((result as { error: unknown }).error).toBeInstanceOf(APIUserAbortError);
    expect(told).toEqual(['abort', 'end']);
    expect([stream.ended, stream.aborted]).toEqual([true, true]);
    expect(ends).toMatchObject([{ outcome: 'error' }]);
    expect(await within(s.requests[0]!.closed, 4_000)).not.toBe('pending');
  });

  it('a pending onChunk of chat.completions.stream() after abort(): the same', async () => {
    const s = await server();
    const { hooks } = stalled('onChunk');
    const stream = client(s, { hooks, timeout: 600_000 }).chat.completions.stream({ model: 'mock/echo', messages });
    setTimeout(() => stream.abort(), 50);
    const result = await within(stream.done(), 10_000);
    expect((result as { error: unknown }).error).toBeInstanceOf(APIUserAbortError);
    expect(await within(s.requests[0]!.closed, 4_000)).not.toBe('pending');
  });

  it('a hook that fails a stream: its listeners are told error (not abort), then end; the stream errored', async () => {
    const s = await server();
    const hooks: Hooks = { name: 'quota', onChunk: () => Promise.reject(new Error('over quota')) };
    const stream = client(s, { hooks }).chat.completions.stream({ model: 'mock/echo', messages });
    const told: unknown[] = [];
    stream.on('error', (error) => void told.push(error)).on('abort', () => void told.push('abort')).on('end', () => void told.push('end'));
    const error = await stream.done().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(told).toEqual([error, 'end']);
    expect([stream.ended, stream.errored, stream.aborted]).toEqual([true, true, false]);
    expect(await within(s.requests[0]!.closed, 4_000)).not.toBe('pending');
  });
});

describe('a hook never sees the API key', () => {
  /** A server that echoes the key it was sent in its body and its headers, with `status`. */
  async function echoing(status: number, times = 1): Promise<FaultServer> {
    let n = 0;
    return faultServer((req, res) => {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const ok = n++ >= times;
      res.writeHead(ok ? 200 : status, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer realm="api", error="invalid_token", key="${key}"`,
        'x-echo-key': key,
      });
      res.end(JSON.stringify(ok ? { ...completion, echo: key } : { error: { message: `Incorrect API key provided: ${key}`, key } }));
    });
  }

  /** Hooks that keep everything they are given, the response's headers and body read out. */
  function keeper() {
    const kept: unknown[] = [];
    const hooks: Hooks = {
      beforeRequest: (request, info) => void kept.push(request, [...request.headers], request.url, info),
      afterResponse: async (response, info) => {
        kept.push([...response.headers], await response.clone().text(), response.url, response.statusText, info);
      },
      beforeRetry: (info) => void kept.push(info, info.error),
      onError: (error, info) => void kept.push(error, info),
      onEnd: (summary, info) => void kept.push(summary, summary.error, info),
    };
    return { kept, hooks };
  }

  it('a 401 that echoes the key in its body and headers: masked in afterResponse (headers and body), onError and onEnd', async () => {
    const s = await echoing(401);
    const { kept, hooks } = keeper();
    const error = await client(s, { hooks }).chat.completions.create({ model: 'mock/echo', messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(kept.length).toBeGreaterThan(8);
    expectNoSecret(KEY, ...kept, error);
    const [headers, body] = kept.slice(4, 6) as [[string, string][], string];
    expect(Object.fromEntries(headers)['x-echo-key']).toBe('***');
    expect(JSON.parse(body)).toEqual({ error: { message: 'Incorrect API key provided: ***', key: '***' } });
  });

  it('a 500 that echoes it, retried: beforeRetry and every afterResponse see it masked; the 200 body that echoes it too', async () => {
    const s = await echoing(500, 1);
    const { kept, hooks } = keeper();
    const completionWithEcho = await client(s, { hooks, maxRetries: 1 }).chat.completions.create({ model: 'mock/echo', messages });
    expect(completionWithEcho.choices[0]?.message.content).toBe('Hi.');
    expect(kept.filter((k) => k instanceof InternalServerError)).toHaveLength(1);
    expectNoSecret(KEY, ...kept);
  }, 10_000);

  it('without an afterResponse hook: a 2xx body or a chunk that quotes the key reaches onEnd and onChunk masked (a copy; the caller\'s data unchanged)', async () => {
    const s = await faultServer((req, res, body) => {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!(JSON.parse(body) as { stream?: boolean }).stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...completion, choices: [{ index: 0, message: { role: 'assistant', content: `your key is ${key}` }, finish_reason: 'stop' }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(chunk({ role: 'assistant', content: `your key is ${key}` }, 'stop'))}\n\ndata: [DONE]\n\n`);
    });
    const kept: unknown[] = [];
    const hooks: Hooks = { onChunk: (c) => void kept.push(c), onEnd: (summary) => void kept.push(summary) };
    const c = client(s, { hooks });
    const json = await c.chat.completions.create({ model: 'mock/echo', messages });
    expect(json.choices[0]?.message.content).toBe(`your key is ${KEY}`);
    const stream = await c.chat.completions.create({ model: 'mock/echo', messages, stream: true });
    expect(await stream.finalContent()).toBe(`your key is ${KEY}`);
    expect(kept).toHaveLength(3);
    expect((kept[0] as CallSummary).data).toMatchObject({ choices: [{ message: { content: 'your key is ***' } }] });
    expect(kept[1]).toMatchObject({ choices: [{ delta: { content: 'your key is ***' } }] });
    expectNoSecret(KEY, ...kept);
  });

  it('a streamed body that echoes it, split across writes: masked for afterResponse (and so for the client, which reads that response), read whole', async () => {
    const s = await faultServer(async (req, res) => {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-echo-key': key });
      const event = `data: ${JSON.stringify(chunk({ role: 'assistant', content: `key ${key} ok` }, 'stop'))}\n\ndata: [DONE]\n\n`;
      // One byte a write around the key: it reaches the client split at every place.
      const from = event.indexOf(key) - 2;
      res.write(event.slice(0, from));
      for (let at = from; at < from + key.length + 4; at++) {
        if (!(await pause(res, 2))) return;
        res.write(event.slice(at, at + 1));
      }
      res.end(event.slice(from + key.length + 4));
    });
    const seen: string[] = [];
    let read: Promise<unknown> | undefined;
    const hooks: Hooks = {
      // Read after the hook returns, as a logger would, while the client reads the same body.
      afterResponse: (response) => {
        read = response
          .clone()
          .text()
          .then((text) => seen.push(text, response.headers.get('x-echo-key') ?? ''));
      },
    };
    const stream = await client(s, { hooks }).chat.completions.create({ model: 'mock/echo', messages, stream: true });
    expect(await stream.finalContent()).toBe('key *** ok');
    await read;
    expect(seen.join('\n')).toContain('key *** ok');
    expect(seen).toContain('***');
    expectNoSecret(KEY, seen);
  });
});
