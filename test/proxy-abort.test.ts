// model-inference-sdk/proxy: a browser that goes away. The route serves on loopback (Node's http
// through toNodeListener), the upstream is a loopback server that records when its connection is
// closed, and the browser is the package's Client, aborted mid-stream or mid-request.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError, Client } from '../src/index';
import { createProxy, memoryStore, type ProxyStore, type ProxyUsage } from '../src/proxy/index';
import { serveRoute, startUpstream, type Served } from './support/proxy';

const closing: Served[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((s) => s.close()));
});

/** An upstream that streams a chunk every 20 ms (forever), or answers JSON after 10 s; it notes when it is cut off. */
async function slowUpstream() {
  const seen = { closedAt: undefined as number | undefined, chunks: 0 };
  const upstream = await startUpstream((_req, res: ServerResponse, raw) => {
    const body = JSON.parse(raw) as { stream?: boolean };
    const timers: Array<ReturnType<typeof setTimeout>> = [];
    res.on('close', () => {
      if (!res.writableFinished) seen.closedAt = performance.now();
      timers.forEach(clearTimeout);
    });
    if (!body.stream) {
      timers.push(setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 10_000));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_slow' });
    const chunk = (delta: object) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'acme/chat', choices: [{ index: 0, delta }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }));
    const tick = () => {
      seen.chunks++;
      res.write(chunk({ content: `word${seen.chunks} ` }));
      timers.push(setTimeout(tick, 20));
    };
    tick();
  });
  closing.push(upstream);
  return { upstream, seen };
}

async function routeFor(url: string, options: { store?: ProxyStore; onUsage?: (u: ProxyUsage) => void } = {}) {
  const handler = createProxy({ models: ['acme/chat'], upstream: { apiKey: 'sk-upstream-key-123', baseURL: url, maxRetries: 0, logLevel: 'off' }, ...options });
  const served = await serveRoute(handler);
  closing.push(served);
  return new Client({ apiKey: 'unused', baseURL: served.url, maxRetries: 0, logLevel: 'off' });
}

describe('a browser that goes away', () => {
  it('mid-stream: the upstream request is aborted within 100 ms, and the tokens it used count against the user', async () => {
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
        if (++chunks === 4) {
          abortedAt = performance.now();
          stream.controller.abort();
        }
      }
    })().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(APIUserAbortError);
    await vi.waitFor(() => expect(seen.closedAt).toBeDefined(), { timeout: 5_000 });
    const after = seen.closedAt! - abortedAt;
    expect(after).toBeLessThan(100);
    await vi.waitFor(() => expect(used).toHaveLength(1));
    expect(used[0]).toMatchObject({ outcome: 'aborted', estimated: true, user: 'anonymous' });
    expect(used[0]!.usage.completion_tokens).toBeGreaterThan(0);
    // Reserved, then settled to what was used: the prompt and the text streamed so far.
    await vi.waitFor(() => expect(tokens).toHaveLength(2));
    expect(tokens[0]! + tokens[1]!).toBe(used[0]!.usage.total_tokens);
  });

  it('before the answer: the upstream request is aborted within 100 ms, and the reservation is kept', async () => {
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
    expect(seen.closedAt! - abortedAt).toBeLessThan(100);
    await vi.waitFor(() => expect(used).toHaveLength(1));
    // The upstream may have generated it all: the user is charged the reservation (max_tokens).
    expect(used[0]).toMatchObject({ outcome: 'aborted', estimated: true });
    expect(used[0]!.usage.completion_tokens).toBe(1024);
  });

  it('a Request whose signal aborts, handled in process (as Next.js, Hono, Deno and Bun give it)', async () => {
    const { upstream, seen } = await slowUpstream();
    const handler = createProxy({ models: ['acme/chat'], upstream: { apiKey: 'k-123456', baseURL: upstream.url, maxRetries: 0, logLevel: 'off' } });
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
    await reader.read();
    await reader.read();
    const abortedAt = performance.now();
    controller.abort();
    await vi.waitFor(() => expect(seen.closedAt).toBeDefined(), { timeout: 5_000 });
    expect(seen.closedAt! - abortedAt).toBeLessThan(100);
    // A body cancelled by the runtime (the other way a server says the browser left) does the same.
    seen.closedAt = undefined;
    const again = await handler(
      new Request('http://app.test/api/inference/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'acme/chat', messages: [{ role: 'user', content: 'hi' }], stream: true }),
      }),
    );
    const second = again.body!.getReader();
    await second.read();
    const cancelledAt = performance.now();
    await second.cancel();
    await vi.waitFor(() => expect(seen.closedAt).toBeDefined(), { timeout: 5_000 });
    expect(seen.closedAt! - cancelledAt).toBeLessThan(100);
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
