// model-inference-sdk/proxy: a browser that goes away. The route serves on loopback (Node's http
// through toNodeListener), the upstream is a loopback server that records when its connection is
// closed, and the browser is the package's Client, aborted mid-stream or mid-request.
//
// "At once" is checked against the upstream's own pace, not a clock: the upstream streams three
// pieces 20 ms apart, then one every 2 s, and must see its connection closed before it writes
// the next one; the JSON upstream answers after 10 s and must be cut off before it does. (On an
// idle machine the abort arrives within a few milliseconds, well under the 100 ms; the
// time is in the failure message. Wall-clock bounds are not asserted: the machine is shared.)
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError, Client } from '../src/index';
import { createProxy, memoryStore, type ProxyStore, type ProxyUsage } from '../src/proxy/index';
import { serveRoute, startUpstream, type Served } from './support/proxy';

const closing: Served[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((s) => s.close()));
});

/** The pieces an upstream stream sends quickly before it slows to one every 2 s. */
const QUICK = 3;

/** An upstream that streams QUICK pieces 20 ms apart and then one every 2 s, or answers JSON after 10 s; it notes when it is cut off. */
async function slowUpstream() {
  const seen = { closedAt: undefined as number | undefined, chunks: 0, chunksAtClose: -1, answered: false };
  const upstream = await startUpstream((_req, res: ServerResponse, raw) => {
    const body = JSON.parse(raw) as { stream?: boolean };
    const timers: Array<ReturnType<typeof setTimeout>> = [];
    res.on('close', () => {
      if (!res.writableFinished) {
        seen.closedAt = performance.now();
        seen.chunksAtClose = seen.chunks;
      }
      timers.forEach(clearTimeout);
    });
    if (!body.stream) {
      timers.push(setTimeout(() => ((seen.answered = true), res.writeHead(200, { 'content-type': 'application/json' }).end('{}')), 10_000));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_slow' });
    const chunk = (delta: object) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'acme/chat', choices: [{ index: 0, delta }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }));
    const tick = () => {
      seen.chunks++;
      res.write(chunk({ content: `word${seen.chunks} ` }));
      timers.push(setTimeout(tick, seen.chunks < QUICK ? 20 : 2_000));
    };
    tick();
  });
  closing.push(upstream);
  return { upstream, seen };
}

/** The upstream saw the abort before its next piece: it was not waiting for a token. */
async function expectCutAtOnce(seen: { closedAt: number | undefined; chunks: number; chunksAtClose: number }, abortedAt: number, pieces = QUICK) {
  await vi.waitFor(() => expect(seen.closedAt).toBeDefined(), { timeout: 5_000 });
  const ms = (seen.closedAt! - abortedAt).toFixed(1);
  expect(seen.chunksAtClose, `the upstream was cut off ${ms} ms after the abort`).toBe(pieces);
}

async function routeFor(url: string, options: { store?: ProxyStore; onUsage?: (u: ProxyUsage) => void } = {}) {
  const handler = createProxy({ models: ['acme/chat'], upstream: { apiKey: 'sk-upstream-key-123', baseURL: url, maxRetries: 0, logLevel: 'off' }, ...options });
  const served = await serveRoute(handler);
  closing.push(served);
  return new Client({ apiKey: 'unused', baseURL: served.url, maxRetries: 0, logLevel: 'off' });
}

describe('a browser that goes away', () => {
  it('mid-stream: the upstream request is aborted at once, and the tokens it used count against the user', async () => {
    const { upstream, seen } = await slowUpstream();
    const used: ProxyUsage[] = [];
    const inner = memoryStore();
    const tokens: number[] = [];
    const store: ProxyStore = { increment: (key, amount, ttl) => (key.includes('tokens') && tokens.push(amount), inner.increment(key, amount, ttl)) };
    const client = await routeFor(upstream.url, { store, onUsage: (u) => void used.push(u) });
    const stream = await client.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'tell me a long story' }], stream: true });
    let chunks = 0;
    let abortedAt = 0;
    const thrown = await (async () => {
      for await (const _chunk of stream) {
        // The role chunk, then QUICK pieces: abort at the last quick one.
        if (++chunks === QUICK + 1) {
          abortedAt = performance.now();
          stream.controller.abort();
        }
      }
    })().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(APIUserAbortError);
    await expectCutAtOnce(seen, abortedAt);
    await vi.waitFor(() => expect(used).toHaveLength(1));
    expect(used[0]).toMatchObject({ outcome: 'aborted', estimated: true, user: 'anonymous' });
    expect(used[0]!.usage.completion_tokens).toBeGreaterThan(0);
    // Reserved, then settled to what was used: the prompt and the text streamed so far.
    await vi.waitFor(() => expect(tokens).toHaveLength(2));
    expect(tokens[0]! + tokens[1]!).toBe(used[0]!.usage.total_tokens);
  });

  it('before the answer: the upstream request is aborted at once, and the reservation is kept', async () => {
    const { upstream, seen } = await slowUpstream();
    const used: ProxyUsage[] = [];
    const client = await routeFor(upstream.url, { onUsage: (u) => void used.push(u) });
    const controller = new AbortController();
    const pending = client.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'hi' }] }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 200)); // the request is at the upstream
    const abortedAt = performance.now();
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    await vi.waitFor(() => expect(seen.closedAt).toBeDefined(), { timeout: 5_000 });
    expect(seen.answered, `cut off ${(seen.closedAt! - abortedAt).toFixed(1)} ms after the abort`).toBe(false);
    await vi.waitFor(() => expect(used).toHaveLength(1));
    // The upstream may have generated it all: the user is charged the reservation (max_tokens).
    expect(used[0]).toMatchObject({ outcome: 'aborted', estimated: true });
    expect(used[0]!.usage.completion_tokens).toBe(1024);
  });

  it('a Request whose signal aborts, handled in process (as Next.js, Hono, Deno and Bun give it)', async () => {
    const { upstream, seen } = await slowUpstream();
    const used: ProxyUsage[] = [];
    const errors: unknown[] = [];
    const handler = createProxy({ models: ['acme/chat'], upstream: { apiKey: 'k-123456', baseURL: upstream.url, maxRetries: 0, logLevel: 'off' }, onUsage: (u) => void used.push(u), onError: (e) => void errors.push(e) });
    const controller = new AbortController();
    const response = await handler(
      new Request('http://app.test/api/inference/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'acme/chat', messages: [{ role: 'user', content: 'hi' }], stream: true }),
        signal: controller.signal,
      }),
    );
    const reader = response.body!.getReader();
    for (let i = 0; i <= QUICK; i++) await reader.read(); // the role chunk and the quick pieces
    const abortedAt = performance.now();
    controller.abort();
    await expectCutAtOnce(seen, abortedAt);
    // A runtime that still pulls the body: it ends, and the call counts as aborted, not as a failure.
    let rest = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += new TextDecoder().decode(read.value);
    expect(rest).toBe('');
    await vi.waitFor(() => expect(used).toHaveLength(1));
    expect(used[0]).toMatchObject({ outcome: 'aborted', estimated: true });
    expect(errors).toEqual([]);
    // A body cancelled by the runtime (the other way a server says the browser left) does the same.
    seen.closedAt = undefined;
    seen.chunks = 0;
    const again = await handler(
      new Request('http://app.test/api/inference/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'acme/chat', messages: [{ role: 'user', content: 'hi' }], stream: true }),
      }),
    );
    const second = again.body!.getReader();
    for (let i = 0; i <= QUICK; i++) await second.read();
    const cancelledAt = performance.now();
    await second.cancel();
    await expectCutAtOnce(seen, cancelledAt);
  });

  it('reads the upstream only as fast as the browser reads (backpressure), holding no generation', async () => {
    // An upstream body that would never end, counting what is read of it.
    let pulled = 0;
    const encoder = new TextEncoder();
    const fetch: typeof globalThis.fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>(
          {
            pull(controller) {
              pulled++;
              const delta = pulled === 1 ? { role: 'assistant', content: '' } : { content: `w${pulled} ` };
              controller.enqueue(encoder.encode(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'acme/chat', choices: [{ index: 0, delta }] })}\n\n`));
            },
          },
          { highWaterMark: 0 },
        ),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const handler = createProxy({ models: ['acme/chat'], upstream: { apiKey: 'k-123456', baseURL: 'http://upstream.test/v1', fetch, maxRetries: 0, logLevel: 'off' } });
    const response = await handler(
      new Request('http://app.test/api/inference/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'acme/chat', messages: [{ role: 'user', content: 'hi' }], stream: true }),
      }),
    );
    const reader = response.body!.getReader();
    for (let i = 0; i < 5; i++) expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^data: \{/);
    const afterFive = pulled;
    // The browser stops reading: nothing more is read upstream while it waits.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pulled).toBe(afterFive);
    expect(pulled).toBeLessThanOrEqual(5 + 2);
    await reader.read();
    expect(pulled).toBeGreaterThan(afterFive - 1);
    await reader.cancel();
  });
});
