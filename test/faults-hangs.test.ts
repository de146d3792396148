/**
 * Faults (first filed as issue 13), against a real loopback server and through the public API:
 * nothing outlives its caller. Cancellation reaches every wait, and a stream of keep-alive comments
 * only cannot hang. docs/reliability.md lists these cases with their outcomes.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  InferenceError,
} from '../src/index';
import { useMockServer } from './support/mock-server';
import { pause, useFaultServers } from './support/fault-server';
import { delay, outcome, within } from './support/settle';
import { KEY, messages, chunk, sse, completionBody, client, openStream, ping } from './support/faults';

const { server: mock } = useMockServer({ apiKeys: { [KEY]: 'all' } });

const { faultServer } = useFaultServers(() => {
  mock.clear();
});

describe('1. cancellation reaches every wait', () => {
  describe('preflight: the model lookup', () => {
    /** A server whose GET /models/… never answers, and whose completions answer at once. */
    async function stallingLookups() {
      return faultServer((req, res) => {
        if (req.method === 'GET') return; // never answers; the client must let go
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completionBody('sent')));
      });
    }
    const body = { model: 'acme/chat-1', messages, max_tokens: 10 };

    it("honours the call's signal, even when another caller shares the pending lookup", async () => {
      const server = await stallingLookups();
      const c = client(server.url, { preflight: 'error' });
      const first = new AbortController();
      const second = new AbortController();
      const a = c.chat.completions.create(body, { signal: first.signal });
      const b = c.chat.completions.create(body, { signal: second.signal });
      // Abort once the shared lookup is on the wire (a fixed pause can end first on a loaded machine).
      for (let i = 0; i < 500 && !server.requests.some((r) => r.method === 'GET'); i++) await delay(10);
      first.abort();
      expect(await within(a, 5_000)).toMatchObject({ error: expect.any(APIUserAbortError) });
      // The other caller still waits for the shared lookup; it is released by its own abort.
      expect(await within(b, 100)).toBe('pending');
      second.abort();
      expect(await within(b, 5_000)).toMatchObject({ error: expect.any(APIUserAbortError) });
      // Nobody waits any more: the lookup itself is cancelled, and one lookup was made for both.
      const lookups = server.requests.filter((r) => r.method === 'GET');
      expect(lookups).toHaveLength(1);
      expect(await within(lookups[0]!.closed, 5_000)).not.toBe('pending');
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    });

    it("honours the call's timeout: past it, the request is sent unchecked", async () => {
      const server = await stallingLookups();
      const c = client(server.url, { preflight: 'error', timeout: 300 });
      const result = await within(c.chat.completions.create(body), 5_000);
      expect(result).toMatchObject({ value: { choices: [{ message: { content: 'sent' } }] } });
      // One lookup attempt (not maxRetries + 1 of them), abandoned.
      expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
    });
  });

  describe('an apiKey function', () => {
    /** A key function that takes 2.5 s, like a slow token refresh. */
    function slowKey() {
      const state = { returned: false };
      const apiKey = () =>
        new Promise<string>((resolve) =>
          setTimeout(() => {
            state.returned = true;
            resolve(KEY);
          }, 2_500),
        );
      return { state, apiKey };
    }

    it('is raced against the signal', async () => {
      const { state, apiKey } = slowKey();
      const c = client(mock.url, { apiKey });
      const error = await outcome(() => c.models.list({ signal: AbortSignal.timeout(100) }));
      expect(error).toBeInstanceOf(APIUserAbortError);
      expect(state.returned).toBe(false);
      expect(mock.requests).toHaveLength(0);
      await delay(2_600); // let the key function finish, so its timer does not count as leaked
    });

    it('is raced against the timeout', async () => {
      const { state, apiKey } = slowKey();
      const c = client(mock.url, { apiKey, timeout: 400 });
      const error = await outcome(() => c.models.list());
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect((error as Error).message).toMatch(/apiKey/);
      expect(state.returned).toBe(false);
      expect(mock.requests).toHaveLength(0);
      await delay(2_300);
    });

    it('that throws gives an InferenceError with the cause', async () => {
      const boom = new Error('token service down');
      const c = client(mock.url, {
        apiKey: () => {
          throw boom;
        },
      });
      const error = await outcome(() => c.models.list());
      expect(error).toBeInstanceOf(InferenceError);
      expect((error as Error).message).toMatch(/apiKey.*token service down/);
      expect((error as Error).cause).toBe(boom);
    });
  });

  describe('closing a stream while a read is pending aborts the request at once', () => {
    async function stalledAfterOneChunk() {
      const server = await faultServer((_req, res) => openStream(res, sse(chunk('one'))));
      const stream = await client(server.url, { streamIdleTimeout: 60_000 }).chat.completions.create({ model: 'm', messages, stream: true });
      return { server, stream };
    }

    it('iterator.return()', async () => {
      const { server, stream } = await stalledAfterOneChunk();
      const iterator = stream[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ choices: [{ delta: { content: 'one' } }] });
      const pending = iterator.next().then((value) => ({ value }), (error: unknown) => ({ error })); // waits for bytes that never come
      await delay(20);
      const returned = iterator.return!();
      expect(await within(server.requests[0]!.closed, 5_000)).not.toBe('pending');
      expect(await within(returned, 5_000)).toMatchObject({ value: { done: true } });
      expect(await within(pending, 5_000)).toMatchObject({ value: { error: expect.any(APIUserAbortError) } });
    });

    it('toReadableStream().cancel()', async () => {
      const { server, stream } = await stalledAfterOneChunk();
      const reader = stream.toReadableStream().getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('"one"');
      const pending = reader.read();
      await delay(20);
      const cancelled = reader.cancel();
      expect(await within(server.requests[0]!.closed, 5_000)).not.toBe('pending');
      expect(await within(cancelled, 5_000)).not.toBe('pending');
      expect(await within(pending, 5_000)).toMatchObject({ value: { done: true } });
    });

    it('tee(): when both branches are closed, the request is cancelled', async () => {
      const { server, stream } = await stalledAfterOneChunk();
      const [left, right] = stream.tee();
      for await (const _ of left) break;
      expect(await within(server.requests[0]!.closed, 200)).toBe('pending'); // the other side may still read
      for await (const _ of right) break;
      expect(await within(server.requests[0]!.closed, 5_000)).not.toBe('pending');
    });

    it('tee(): one branch closed while the other ends normally', async () => {
      const server = await faultServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(sse(chunk('a'), chunk('b', 'stop'), '[DONE]'));
      });
      const stream = await client(server.url).chat.completions.create({ model: 'm', messages, stream: true });
      const [left, right] = stream.tee();
      for await (const _ of left) break;
      let text = '';
      for await (const c of right) text += c.choices?.[0]?.delta.content ?? '';
      expect(text).toBe('ab');
    });
  });

  it('every route-handler example passes request.signal', () => {
    const files = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => join('docs', f)), ...sources('src'), ...sources('examples')];
    const handlers: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      // Every code block (fenced in Markdown and in TSDoc) holding a route handler: a function
      // taking the web Request (Next.js, Vercel, Workers) that starts a completion.
      for (const [, block] of text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
        if (!/(export (default )?async function \w*|async fetch)\s*\((request|req)\b/.test(block!)) continue;
        if (!/\.(create|parse|runTools)\(/.test(block!)) continue;
        handlers.push(file);
        expect(block, file).toMatch(/\b(request|req)\.signal\b/);
      }
    }
    expect(handlers.length).toBeGreaterThanOrEqual(4);
  });
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('2. a stream of keep-alive comments only cannot hang', () => {
  it('before the first event: ends with APIConnectionTimeoutError after streamIdleTimeout', async () => {
    const server = await faultServer(async (_req, res) => {
      openStream(res);
      await ping(res, 20);
    });
    const c = client(server.url, { streamIdleTimeout: 300, maxRetries: 0 });
    const result = await within(
      c.chat.completions.create({ model: 'm', messages, stream: true }).then(() => 'resolved'),
      10_000,
    );
    expect(result).toMatchObject({ error: expect.any(APIConnectionTimeoutError) });
    expect(((result as { error: Error }).error).message).toMatch(/keep-alive/);
  });

  it('after a chunk: comments do not keep the idle timeout from firing', async () => {
    const server = await faultServer(async (_req, res) => {
      openStream(res, sse(chunk('one')));
      await ping(res, 20);
    });
    const stream = await client(server.url, { streamIdleTimeout: 300 }).chat.completions.create({ model: 'm', messages, stream: true });
    const result = await within(
      (async () => {
        for await (const _ of stream);
      })(),
      10_000,
    );
    expect(result).toMatchObject({ error: expect.any(APIConnectionTimeoutError) });
  });

  it('comments while queueing, then events, within the limit: read whole (OpenRouter)', async () => {
    const server = await faultServer(async (_req, res) => {
      openStream(res, ': OPENROUTER PROCESSING\n\n');
      for (let i = 0; i < 5; i++) if (!(await pause(res, 30))) return;
      res.end(sse(chunk('ok', 'stop'), '[DONE]'));
    });
    const stream = await client(server.url, { streamIdleTimeout: 2_000 }).chat.completions.create({ model: 'm', messages, stream: true });
    let text = '';
    for await (const c of stream) text += c.choices?.[0]?.delta.content ?? '';
    expect(text).toBe('ok');
  });
});
