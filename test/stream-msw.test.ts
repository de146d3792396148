/**
 * Streams whose body is tee'd by the transport (msw keeps a copy of every mocked response; so
 * does any fetch wrapper that clones): `break` and mid-stream errors must still end at once.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { APIError } from '../src/index';
import { testClient, useMsw } from './helpers';

const server = useMsw();

/** An event stream that sends `events` and then stays open, as a long generation would. */
function serveOpenStream(events: unknown[]) {
  server.use(
    http.post('*/chat/completions', () => {
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const event of events) controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
          // no close(): the stream stays open until the client cancels it
        },
      });
      return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
    }),
  );
}

const chunk = (content: string) => ({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });

describe('streams over a transport that tees bodies', () => {
  it('break ends the loop at once and aborts the request', async () => {
    serveOpenStream([chunk('a'), chunk('b'), chunk('c')]);
    const stream = await testClient().chat.completions.create({ model: 'm', messages: [], stream: true });
    let seen = 0;
    for await (const _ of stream) if (++seen === 2) break;
    expect(seen).toBe(2);
  });

  it('an in-band error mid-stream ends the loop at once', async () => {
    serveOpenStream([chunk('a'), { error: { message: 'upstream failed', code: 502 } }]);
    const stream = await testClient({ maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [], stream: true });
    const error = await (async () => {
      try {
        for await (const _ of stream);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(502);
  });
});
