// The mock server is driven with plain fetch (not the SDK) so that these tests pin down the wire
// format itself: scripted replies.
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../src/testing';
import { useWireServer, server, start, get, post, chatBody } from './support/mock-server-wire';

useWireServer();

describe('scripted replies', () => {
  it('sends scripted status, headers and body, in order, then falls back', async () => {
    server.enqueue(
      { status: 429, headers: { 'retry-after': '2' }, body: { error: { message: 'slow down', type: 'rate_limit_error' } } },
      { status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>bad gateway</h1>' },
    );
    const first = await post('/chat/completions', chatBody, { key: 'not-checked' });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(first.headers.get('x-request-id')).toBe('req_1');
    expect(await first.json()).toEqual({ error: { message: 'slow down', type: 'rate_limit_error' } });
    const second = await get('/models');
    expect(second.status).toBe(502);
    expect(second.headers.get('content-type')).toBe('text/html');
    expect(await second.text()).toBe('<h1>bad gateway</h1>');
    expect((await get('/models')).status).toBe(200);
  });

  it('matches scripted replies by path', async () => {
    server.enqueue({ path: '/v1/chat/completions', status: 500, body: { error: { message: 'boom', type: 'server_error' } } });
    expect((await get('/models')).status).toBe(200);
    expect((await post('/chat/completions', chatBody)).status).toBe(500);
    expect((await post('/chat/completions', chatBody)).status).toBe(200);
  });

  it('sends scripted events and raw streams', async () => {
    server.enqueue(
      { events: [{ choices: [{ index: 0, delta: { content: 'hi' } }] }, '[DONE]'] },
      { raw: 'data: {"a":1}\r\n\r\n: comment\n\ndata: [DONE]\n\n' },
    );
    const events = await post('/chat/completions', { ...chatBody, stream: true });
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    expect(await events.text()).toBe('data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n');
    const raw = await post('/chat/completions', { ...chatBody, stream: true });
    expect(raw.headers.get('content-type')).toBe('text/event-stream');
    expect(await raw.text()).toBe('data: {"a":1}\r\n\r\n: comment\n\ndata: [DONE]\n\n');
  });

  it('waits delayMs before answering', async () => {
    server.enqueue({ delayMs: 150, body: { ok: true } });
    const started = Date.now();
    const res = await get('/models');
    expect(await res.json()).toEqual({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('resets the connection', async () => {
    server.enqueue({ reset: true });
    await expect(post('/chat/completions', chatBody)).rejects.toThrow();
    expect((await post('/chat/completions', chatBody)).status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it('stalls until the client aborts', async () => {
    server.enqueue({ stall: true });
    const started = Date.now();
    await expect(post('/chat/completions', chatBody, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000); // a stall never ends by itself
    expect((await get('/models')).status).toBe(200);
  });

  it('close() resolves while a stalled request is open', async () => {
    const s = await startMockServer();
    s.enqueue({ stall: true });
    const pending = post('/chat/completions', chatBody, { server: s }).then(
      () => 'answered',
      () => 'failed',
    );
    while (s.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await s.close();
    expect(await pending).toBe('failed');
    await s.close(); // idempotent
  });

  it('stops streaming when the client goes away mid-stream', async () => {
    const s = await start({ chunkDelayMs: 30 });
    const controller = new AbortController();
    const res = await post('/chat/completions', { ...chatBody, stream: true }, { server: s, signal: controller.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"role":"assistant"');
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    // The server keeps serving afterwards.
    expect((await get('/models', s.apiKey, s)).status).toBe(200);
  });
});
