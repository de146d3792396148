// "Nothing leaks" and "The stream idle timer never keeps a process alive by itself"
// (docs/reliability.md, Guarantees). Each check runs a child process, so that what is alive, and
// what keeps the process alive, is only what the script made: objects are counted with WeakRef
// after global.gc() (node --expose-gc), and a process that should exit is given a generous bound.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function runScript(script: string, nodeArgs: string[] = [], boundMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, INFERENCE_LOG: 'off' } });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, boundMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, killed });
    });
  });
}

const SERVER = `
  import { createServer } from 'node:http';
  const chunk = (delta, finish_reason = null) => JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'acme/chat-1', choices: [{ index: 0, delta, finish_reason }] });
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.url.startsWith('/v1/models')) { res.writeHead(200, { 'content-type': 'application/json' }); return res.end('{"object":"list","data":[]}'); }
      const b = JSON.parse(body);
      if (b.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: ' + chunk({ role: 'assistant', content: 'a' }) + '\\n\\n');
        res.write('data: ' + chunk({ content: 'b' }) + '\\n\\n');
        res.write('data: ' + chunk({}, 'stop') + '\\n\\ndata: [DONE]\\n\\n');
        return res.end();
      }
      const last = b.messages.at(-1);
      const message = last.role === 'tool' || !b.tools
        ? { role: 'assistant', content: 'done' }
        : { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 't', arguments: '{}' } }] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: 'acme/chat-1', choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const baseURL = 'http://127.0.0.1:' + server.address().port + '/v1';
`;

describe('nothing leaks', () => {
  it('streams (read whole, left with break, aborted), runners and JSON results are all collectable once done', async () => {
    const script = `${SERVER}
      import { Client } from './src/index.ts';
      const refs = { streams: [], runners: [], results: [], clients: [] };
      const signal = new AbortController().signal; // one long-lived signal shared by every call
      await (async () => {
        const client = new Client({ apiKey: 'k', baseURL, maxRetries: 0, logLevel: 'off' });
        refs.clients.push(new WeakRef(client));
        const body = { model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }], stream: true };
        for (let i = 0; i < 60; i++) {
          const s = await client.chat.completions.create(body, { signal });
          refs.streams.push(new WeakRef(s));
          if (i % 3 === 0) { for await (const _ of s) {} }
          else if (i % 3 === 1) { for await (const _ of s) break; }
          else { s.controller.abort(); await s.done().catch(() => {}); }
        }
        for (let i = 0; i < 30; i++) {
          const helper = client.chat.completions.stream({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }] }, { signal });
          refs.streams.push(new WeakRef(helper));
          await helper.finalContent();
        }
        const tool = { type: 'function', function: { name: 't', function: () => 'ok', parameters: { type: 'object', properties: {} } } };
        for (let i = 0; i < 30; i++) {
          const r = client.chat.completions.runTools({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }], tools: [tool] }, { signal });
          refs.runners.push(new WeakRef(r));
          await r.finalContent();
        }
        for (let i = 0; i < 30; i++) refs.results.push(new WeakRef(await client.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }] }, { signal })));
      })();
      for (let i = 0; i < 10; i++) { await new Promise((r) => setTimeout(r, 20)); globalThis.gc(); }
      const alive = Object.fromEntries(Object.entries(refs).map(([k, v]) => [k, v.filter((r) => r.deref() !== undefined).length]));
      console.log(JSON.stringify(alive));
      server.close();
      process.exit(0);
    `;
    const r = await runScript(script, ['--expose-gc']);
    expect(r.killed).toBe(false);
    expect(r.code, r.stderr).toBe(0);
    const alive = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
    expect(alive).toEqual({ streams: 0, runners: 0, results: 0, clients: 0 });
  }, 300_000);
});

describe('timers never hold a process', () => {
  it('a stream waiting for its next event (idle timeout 5 min) does not keep the process alive by itself', async () => {
    // The body is a ReadableStream with no I/O behind it: once the first chunk is read and the
    // loop waits, only the SDK's own timers could keep the event loop alive.
    const script = `
      import { Client } from './src/index.ts';
      const enc = new TextEncoder();
      const line = 'data: ' + JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'x' }, finish_reason: null }] }) + '\\n\\n';
      const client = new Client({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, logLevel: 'off',
        fetch: async () => new Response(new ReadableStream({ start(c) { c.enqueue(enc.encode(line)); } }), { headers: { 'content-type': 'text/event-stream' } }) });
      const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
      process.stdout.write('waiting\\n');
      for await (const _ of stream) {}
      process.stdout.write('ended\\n');
    `;
    const r = await runScript(script, [], 90_000);
    expect(r.stdout).toContain('waiting');
    expect(r.killed).toBe(false); // it exited on its own, long before the 5-minute idle timeout
  }, 120_000);
});

describe('a fresh process', () => {
  // Issue 29 item 3 (the outside round), regression check: an attempt timeout that fires while the
  // SSE reader is first loaded (after the headers, before the first event). Only a fresh process
  // has the reader still to load, so each timeout gets its own process. The window moves with the
  // machine's load, so the timeouts sweep it in 5 ms steps (2 to 152 ms), stopping at the first
  // plain APIConnectionError.
  it('a stream timeout on the first stream of a process: APIConnectionTimeoutError or success, never a plain APIConnectionError', async () => {
    const outcomes: string[] = [];
    for (let timeout = 2; timeout <= 152 && !outcomes.includes('APIConnectionError'); timeout += 5) {
      const script = `${SERVER}
        import { Client } from './src/index.ts';
        const client = new Client({ apiKey: 'k', baseURL, maxRetries: 0, timeout: ${timeout}, logLevel: 'off' });
        let outcome = 'ok';
        try {
          const s = await client.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'hi' }], stream: true });
          await s.finalContent();
        } catch (e) { outcome = e.constructor.name; }
        console.log(outcome);
        server.close();
        process.exit(0);
      `;
      const r = await runScript(script);
      outcomes.push(r.stdout.trim().split('\n').at(-1) ?? `exit ${String(r.code)}`);
    }
    expect(outcomes.filter((o) => o !== 'ok' && o !== 'APIConnectionTimeoutError')).toEqual([]);
  }, 300_000);
});
