// "Nothing hangs" (docs/reliability.md, Guarantees and the fault table): one signal shared by a
// thousand calls, and a signal that is already aborted, at every entry. Each check bounds a wait
// generously (seconds where the SDK is given milliseconds) and never asserts how fast anything is.
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIUserAbortError, APIError } from '../../src/index';
import {
  chunk,
  clientOf,
  delay,
  json,
  never,
  rejection,
  serve,
  sse,
  sseHead,
  event,
  textChunks,
  USER,
  within,
  type TestServer,
} from './support';

let server: TestServer;
beforeAll(async () => {
  server = await serve((_req, res) => json(res, { object: 'list', data: [] }));
});
afterAll(() => server.close());

describe('one signal for a thousand calls', () => {
  it('no abort listener is left on it, whatever way the calls ended', async () => {
    let lists = 0;
    server.handle((req, res) => {
      // Every other models.list fails, counted apart from the streams: the limiter's slow start
      // interleaves the two kinds differently from run to run.
      if (req.url?.startsWith('/v1/models'))
        return lists++ % 2
          ? json(res, { object: 'list', data: [] })
          : json(res, { error: { message: 'no' } }, 400);
      sse(res, textChunks(['a', 'b', 'c']));
    });
    const signal = new AbortController().signal;
    const client = clientOf(server.baseURL, { maxRetries: 4 }); // (a burst may overflow the listen backlog: ECONNRESET, retried)
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 250; i++)
      calls.push(client.models.list({ signal }).catch((e: unknown) => e));
    for (let i = 0; i < 250; i++)
      calls.push(client.models.list({ signal }).catch((e: unknown) => e));
    for (let i = 0; i < 250; i++)
      calls.push(
        (async () => {
          const stream = await client.chat.completions.create(
            { model: 'acme/chat-1', messages: USER, stream: true },
            { signal },
          );
          for await (const _ of stream) break;
        })(),
      );
    for (let i = 0; i < 250; i++)
      calls.push(
        client.chat.completions
          .stream({ model: 'acme/chat-1', messages: USER }, { signal })
          .finalContent(),
      );
    const results = await Promise.all(calls);
    expect(results.filter((r) => r instanceof APIError && r.status === 400).length).toBe(250);
    await delay(50);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  }, 120_000);

  it('aborted while a thousand wait on a silent server: every call rejects with APIUserAbortError, every connection closes', async () => {
    server.handle(() => {}); // never answers
    const before = server.requests.length;
    const controller = new AbortController();
    // Retries: on a loaded machine a burst of 1,000 connections can overflow the listen backlog
    // (ECONNRESET); a retried connection then reaches the silent server like the others.
    const client = clientOf(server.baseURL, { timeout: 600_000, maxRetries: 4 });
    const calls = Array.from({ length: 1000 }, (_, i) =>
      i % 2
        ? rejection(() => client.models.list({ signal: controller.signal }))
        : rejection(() =>
            client.chat.completions.create(
              { model: 'acme/chat-1', messages: USER, stream: true },
              { signal: controller.signal },
            ),
          ),
    );
    // Every call on its way (the server has it), or settled already: a bound, not a speed.
    let settled = 0;
    for (const c of calls) void c.then(() => settled++);
    const deadline = Date.now() + 60_000;
    while (server.requests.length - before + settled < 1000 && Date.now() < deadline)
      await delay(20);
    expect(settled).toBe(0); // nothing ended before the abort (the server never answers)
    controller.abort();
    const results = await within(Promise.all(calls), 60_000);
    expect(results).not.toBe('pending');
    const errors = (results as { value: unknown[] }).value;
    expect(errors.every((e) => e instanceof APIUserAbortError)).toBe(true);
    const closed = await within(
      Promise.all(server.requests.slice(before).map((r) => r.closed)),
      30_000,
    );
    expect(closed).not.toBe('pending');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  }, 120_000);

  it('no timer is left behind by calls that timed out, failed or were left early', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    let n = 0;
    server.handle((_req, res) => {
      const i = n++ % 3;
      if (i === 0) return; // stall: the call's timeout ends it
      if (i === 1) return json(res, { error: { message: 'no' } }, 400);
      sseHead(res);
      event(res, chunk({ role: 'assistant', content: 'x' })); // then silence
    });
    const before = timers();
    const client = clientOf(server.baseURL, { timeout: 300, streamIdleTimeout: 300 });
    await Promise.all(
      Array.from({ length: 30 }, async () => {
        try {
          const stream = await client.chat.completions.create({
            model: 'acme/chat-1',
            messages: USER,
            stream: true,
          });
          for await (const _ of stream) {
            /* the idle timeout ends it */
          }
        } catch {
          // each way it can end
        }
      }),
    );
    await delay(100);
    expect(timers()).toBeLessThanOrEqual(before);
  }, 60_000);
});

describe('a signal that is already aborted, at every entry', () => {
  const aborted = () => AbortSignal.abort();
  const tools = [
    {
      type: 'function' as const,
      function: { name: 't', function: () => 'x', parameters: { type: 'object', properties: {} } },
    },
  ] as never;
  const entries: [string, (c: ReturnType<typeof clientOf>) => Promise<unknown>][] = [
    ['models.list()', (c) => c.models.list({ signal: aborted() })],
    ['models.retrieve()', (c) => c.models.retrieve('acme/chat-1', { signal: aborted() })],
    [
      'models.waitUntilReady()',
      (c) => c.models.waitUntilReady('acme/chat-1', { signal: aborted() } as never),
    ],
    [
      'completions.create({ stream: true })',
      (c) =>
        c.completions.create(
          { model: 'acme/base-1', prompt: 'x', stream: true },
          { signal: aborted() },
        ),
    ],
    [
      'chat.completions.stream().done()',
      (c) =>
        c.chat.completions
          .stream({ model: 'acme/chat-1', messages: USER }, { signal: aborted() })
          .done(),
    ],
    [
      'chat.completions.parse()',
      (c) =>
        c.chat.completions.parse({ model: 'acme/chat-1', messages: USER }, { signal: aborted() }),
    ],
    [
      'runTools().done()',
      (c) =>
        c.chat.completions
          .runTools({ model: 'acme/chat-1', messages: USER, tools }, { signal: aborted() })
          .done(),
    ],
    [
      'runTools({ stream: true }).done()',
      (c) =>
        c.chat.completions
          .runTools(
            { model: 'acme/chat-1', messages: USER, tools, stream: true },
            { signal: aborted() },
          )
          .done(),
    ],
    [
      'an apiKey function',
      (c) => c.withOptions({ apiKey: () => never() }).models.list({ signal: aborted() }),
    ],
    [
      'a preflight lookup',
      (c) =>
        c
          .withOptions({ preflight: 'error' })
          .chat.completions.create(
            { model: 'acme/chat-1', messages: USER, max_tokens: 5 },
            { signal: aborted() },
          ),
    ],
  ];
  it.each(entries)('%s: APIUserAbortError at once, nothing sent', async (_name, call) => {
    server.handle(() => {}); // would never answer
    const before = server.requests.length;
    const result = await within(
      rejection(() => call(clientOf(server.baseURL))),
      5_000,
    );
    expect(result).not.toBe('pending');
    expect((result as { value: unknown }).value).toBeInstanceOf(APIUserAbortError);
    await delay(50);
    expect(server.requests.length).toBe(before);
  });
});
