// "Nothing hangs" (docs/reliability.md, Guarantees and the fault table): a fetch option that never
// settles and ignores its signal, a body that stalls and ignores it, an apiKey function or a hook
// that never settles, one signal shared by a thousand calls. Each check bounds a wait generously
// (seconds where the SDK is given milliseconds) and never asserts how fast anything is.
import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  APIError,
  ChatCompletionStream,
} from '../../src/index';
import {
  chunk,
  clientOf,
  delay,
  json,
  KEY,
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

const encoder = new TextEncoder();

/** A body that sends `first` (if any), then never another byte, and ignores every signal; records its cancel. */
function stalledBody(first?: string): {
  body: ReadableStream<Uint8Array>;
  cancelled: Promise<void>;
} {
  let onCancel!: () => void;
  const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first !== undefined) controller.enqueue(encoder.encode(first));
    },
    cancel() {
      onCancel();
    },
  });
  return { body, cancelled };
}

describe('a fetch option that ignores its signal', () => {
  it('never settling: APIConnectionTimeoutError at timeout, retried, maxRetries + 1 attempts', async () => {
    let calls = 0;
    const client = clientOf(server.baseURL, {
      timeout: 200,
      maxRetries: 1,
      fetch: (() => (calls++, never())) as typeof fetch,
    });
    const result = await within(
      rejection(() => client.models.list()),
      20_000,
    );
    expect(result).not.toBe('pending');
    expect((result as { value: unknown }).value).toBeInstanceOf(APIConnectionTimeoutError);
    expect(calls).toBe(2);
  });

  it('never settling, the caller aborts: APIUserAbortError without waiting for timeout', async () => {
    const controller = new AbortController();
    const client = clientOf(server.baseURL, {
      timeout: 600_000,
      fetch: (() => never()) as typeof fetch,
    });
    const call = rejection(() => client.models.list({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    const result = await within(call, 15_000);
    expect(result).not.toBe('pending');
    expect((result as { value: unknown }).value).toBeInstanceOf(APIUserAbortError);
  });

  it('answering after the timeout: that late response has its body cancelled', async () => {
    const late = stalledBody('{"object":"list","data":[');
    const client = clientOf(server.baseURL, {
      timeout: 100,
      fetch: (async () => {
        await delay(600);
        return new Response(late.body, { headers: { 'content-type': 'application/json' } });
      }) as typeof fetch,
    });
    expect(await rejection(() => client.models.list())).toBeInstanceOf(APIConnectionTimeoutError);
    expect(await within(late.cancelled, 15_000)).not.toBe('pending');
  });

  it('a JSON body that stalls: APIConnectionTimeoutError at timeout, the body cancelled', async () => {
    const stalled = stalledBody('{"object":"list","da');
    const client = clientOf(server.baseURL, {
      timeout: 300,
      fetch: (async () =>
        new Response(stalled.body, {
          headers: { 'content-type': 'application/json' },
        })) as typeof fetch,
    });
    const result = await within(
      rejection(() => client.models.list()),
      20_000,
    );
    expect((result as { value: unknown }).value).toBeInstanceOf(APIConnectionTimeoutError);
    expect(await within(stalled.cancelled, 15_000)).not.toBe('pending');
  });

  it('an event stream that stalls after a chunk: APIConnectionTimeoutError at streamIdleTimeout, the body cancelled', async () => {
    const stalled = stalledBody(
      `data: ${JSON.stringify(chunk({ role: 'assistant', content: 'Hel' }))}\n\n`,
    );
    const client = clientOf(server.baseURL, {
      streamIdleTimeout: 300,
      fetch: (async () =>
        new Response(stalled.body, {
          headers: { 'content-type': 'text/event-stream' },
        })) as typeof fetch,
    });
    const stream = await client.chat.completions.create({
      model: 'acme/chat-1',
      messages: USER,
      stream: true,
    });
    const texts: string[] = [];
    const loop = (async () => {
      for await (const c of stream) texts.push(c.choices[0]?.delta.content ?? '');
    })();
    const result = await within(
      rejection(() => loop),
      20_000,
    );
    expect((result as { value: unknown }).value).toBeInstanceOf(APIConnectionTimeoutError);
    expect(texts).toEqual(['Hel']);
    expect(await within(stalled.cancelled, 15_000)).not.toBe('pending');
  });
});

describe('callbacks that never settle', () => {
  it('an apiKey function: APIConnectionTimeoutError naming it, nothing sent', async () => {
    let calls = 0;
    const client = clientOf(server.baseURL, {
      apiKey: () => never(),
      timeout: 200,
      fetch: ((...a: Parameters<typeof fetch>) => (calls++, fetch(...a))) as typeof fetch,
    });
    const err = (await within(
      rejection(() => client.models.list()),
      20_000,
    )) as { value: Error };
    expect(err.value).toBeInstanceOf(APIConnectionTimeoutError);
    expect(err.value.message).toMatch(/apiKey/);
    expect(calls).toBe(0);
  });

  it('an onEnd hook: the call fails at its timeout, and a later hook still runs', async () => {
    server.handle((_req, res) => json(res, { object: 'list', data: [] }));
    const after: string[] = [];
    const client = clientOf(server.baseURL, {
      timeout: 300,
      hooks: [
        { name: 'stuck', onEnd: () => never() },
        { onEnd: (s) => void after.push(s.outcome) },
      ],
    });
    const result = await within(
      rejection(() => client.models.list()),
      20_000,
    );
    const err = (result as { value: Error }).value;
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect(err.message).toMatch(/onEnd/);
    expect(after).toEqual(['ok']);
  });

  // Issue 29 item 4 (the outside round), regression check: emitted() on an aborted, unread stream.
  it('emitted() after abort() on a stream that was never read settles, and aborted is true', async () => {
    const before = server.requests.length;
    const stream = clientOf(server.baseURL).chat.completions.stream({
      model: 'acme/chat-1',
      messages: USER,
    });
    const told: string[] = [];
    stream.on('abort', () => void told.push('abort')).on('end', () => void told.push('end'));
    const pending = stream.emitted('content');
    stream.abort();
    const result = await within(pending, 5_000);
    expect(result).not.toBe('pending');
    expect((result as { error: unknown }).error).toBeInstanceOf(APIUserAbortError);
    expect(stream.aborted).toBe(true);
    expect(stream.ended).toBe(true);
    expect(told).toEqual(['abort', 'end']);
    // Read afterwards: the abort, and nothing sent.
    expect(
      await within(
        rejection(() => stream.done()),
        5_000,
      ),
    ).toEqual({ value: expect.any(APIUserAbortError) });
    expect(server.requests.length).toBe(before);
  });
});

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

describe('streams read back from a body', () => {
  it('fromReadableStream: a body that stalls and ignores its signal ends when the controller aborts, and is cancelled', async () => {
    const stalled = stalledBody(`${JSON.stringify(chunk({ role: 'assistant', content: 'x' }))}\n`);
    const controller = new AbortController();
    const stream = ChatCompletionStream.fromReadableStream(stalled.body, controller);
    const done = rejection(() => stream.done());
    setTimeout(() => controller.abort(), 50);
    const result = await within(done, 15_000);
    expect(result).not.toBe('pending');
    expect((result as { value: unknown }).value).toBeInstanceOf(APIUserAbortError);
    expect(await within(stalled.cancelled, 15_000)).not.toBe('pending');
  });

  it("a caller's own lower-case authorization header: one Authorization header reaches fetch, never a comma-joined pair", async () => {
    // Credentials travel "only in the Authorization header": a caller's own lower-case header of
    // the same name must not make a second one, nor a comma-joined value.
    const seen: string[] = [];
    const client = clientOf(server.baseURL, {
      defaultHeaders: { authorization: 'Bearer other' },
      fetch: (async (_input: RequestInfo | URL, init?: RequestInit) => {
        seen.push(new Headers(init?.headers).get('authorization') ?? '');
        return new Response('{"object":"list","data":[]}', {
          headers: { 'content-type': 'application/json' },
        });
      }) as typeof fetch,
    });
    await client.models.list();
    expect(seen).toHaveLength(1);
    expect(seen[0] === `Bearer ${KEY}` || seen[0] === 'Bearer other').toBe(true);
  });
});

describe('retries and their waits (README "Retries", docs/errors-and-retries.md)', () => {
  let tags = 0;
  /**
   * Answers the first `n` requests carrying this check's tag (a query value) with `first`, then
   * 200; requests without it (a straggler of an earlier check) get 200 and are not counted.
   */
  function failFirst(
    n: number,
    first: (res: ServerResponse) => void,
  ): { query: { t: string }; count: () => number } {
    const t = `check-${tags++}`;
    let count = 0;
    server.handle((req, res) => {
      if (!req.url?.includes(`t=${t}`)) return json(res, { object: 'list', data: [] });
      return ++count <= n ? first(res) : json(res, { object: 'list', data: [] });
    });
    return { query: { t }, count: () => count };
  }

  it('retry-after above 60 s: the error at once, header on error.headers, one attempt', async () => {
    const { query, count } = failFirst(5, (res) =>
      json(res, { error: { message: 'slow down' } }, 429, { 'retry-after': '3600' }),
    );
    const result = await within(
      rejection(() => clientOf(server.baseURL, { maxRetries: 3 }).models.list({ query })),
      15_000,
    );
    const err = (result as { value: APIError }).value;
    expect(err).toBeInstanceOf(APIError);
    expect(err.status).toBe(429);
    expect(err.headers?.get('retry-after')).toBe('3600');
    expect(count()).toBe(1);
  });

  it.each([['61'], ['99999999999999999999999'], ['Wed, 21 Oct 2999 07:28:00 GMT']])(
    'retry-after %s: the error at once, not a wait',
    async (value) => {
      const { query, count } = failFirst(5, (res) =>
        json(res, { error: { message: 'slow down' } }, 429, { 'retry-after': value }),
      );
      const result = await within(
        rejection(() => clientOf(server.baseURL, { maxRetries: 3 }).models.list({ query })),
        15_000,
      );
      expect(result).not.toBe('pending');
      expect((result as { value: APIError }).value.status).toBe(429);
      expect(count()).toBe(1);
    },
  );

  it('retry-after-ms 0, negative or unreadable: retried (at once, or with the normal backoff)', async () => {
    for (const value of ['0', '-5', 'soon', 'NaN']) {
      const { query, count } = failFirst(1, (res) =>
        json(res, { error: { message: 'busy' } }, 503, { 'retry-after-ms': value }),
      );
      const result = await within(
        clientOf(server.baseURL, { maxRetries: 1 }).models.list({ query }),
        20_000,
      );
      expect(result).toEqual({ value: expect.objectContaining({ object: 'list' }) });
      expect(count()).toBe(2);
    }
  });

  it('x-should-retry: false on a 500 is not retried; true on a 400 is', async () => {
    const no = failFirst(5, (res) =>
      json(res, { error: { message: 'no' } }, 500, {
        'x-should-retry': 'false',
        'retry-after-ms': '0',
      }),
    );
    await rejection(() =>
      clientOf(server.baseURL, { maxRetries: 2 }).models.list({ query: no.query }),
    );
    expect(no.count()).toBe(1);
    const yes = failFirst(1, (res) =>
      json(res, { error: { message: 'no' } }, 400, {
        'x-should-retry': 'true',
        'retry-after-ms': '0',
      }),
    );
    await clientOf(server.baseURL, { maxRetries: 2 }).models.list({ query: yes.query });
    expect(yes.count()).toBe(2);
  });

  it('an abort during the wait between attempts ends it at once with APIUserAbortError', async () => {
    const { query } = failFirst(5, (res) =>
      json(res, { error: { message: 'busy' } }, 503, { 'retry-after': '50' }),
    );
    const controller = new AbortController();
    const call = rejection(() =>
      clientOf(server.baseURL, { maxRetries: 2 }).models.list({ query, signal: controller.signal }),
    );
    await delay(200);
    controller.abort();
    expect(await within(call, 10_000)).toEqual({ value: expect.any(APIUserAbortError) });
  });

  it('a POST retried carries the same Idempotency-Key on every attempt', async () => {
    const mine: string[] = [];
    server.handle((req, res) => {
      if (!req.url?.includes('t=idem')) return json(res, { object: 'list', data: [] });
      mine.push(String(req.headers['idempotency-key']));
      return mine.length < 3
        ? json(res, { error: { message: 'busy' } }, 500, { 'retry-after-ms': '0' })
        : sse(res, textChunks(['ok']));
    });
    const stream = await clientOf(server.baseURL, { maxRetries: 3 }).chat.completions.create(
      { model: 'acme/chat-1', messages: USER, stream: true },
      { query: { t: 'idem' } },
    );
    expect(await stream.finalContent()).toBe('ok');
    const keys = mine;
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBeTruthy();
  });

  it('a 200 whose body is {"error": {"code": 503}}: retried as a 503', async () => {
    const { query, count } = failFirst(1, (res) =>
      json(res, { error: { message: 'overloaded', code: 503 } }),
    );
    await clientOf(server.baseURL, { maxRetries: 1 }).models.list({ query });
    expect(count()).toBe(2);
  });
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
