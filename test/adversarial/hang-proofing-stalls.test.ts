// "Nothing hangs" (docs/reliability.md, Guarantees and the fault table): a fetch option that never
// settles and ignores its signal, a body that stalls and ignores it, an apiKey function or a hook
// that never settles, a stream read back from a stalled body. Each check bounds a wait generously
// (seconds where the SDK is given milliseconds) and never asserts how fast anything is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, APIUserAbortError, ChatCompletionStream } from '../../src/index';
import { chunk, clientOf, delay, json, KEY, never, rejection, serve, USER, within, type TestServer } from './support';

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
