/**
 * `model-inference-sdk/testing/msw`: the mock service as msw request handlers, for
 * in-process tests that already use msw (Node, or a browser with msw's
 * service worker). The behaviour is the same core as `startMockServer`
 * (`engine/`); this file only carries its outcomes over msw.
 *
 * msw is an optional peer dependency: only this entry imports it, so
 * `model-inference-sdk/testing` works without msw installed.
 *
 * What a socket can do and msw cannot, and what stands in for it:
 *
 * | fault | socket server | msw |
 * |---|---|---|
 * | `reset` (before headers) | TCP reset | `HttpResponse.error()`: fetch rejects with `TypeError('Failed to fetch')` |
 * | cut mid-stream (`after: 'reset'`, `fault.kind: 'reset'`) | TCP reset after the sent bytes | the body stream errors with `TypeError('terminated')` after the sent events |
 * | `stall` (before headers) | an open, silent socket | a resolver that never settles until the request's signal aborts |
 * | stall mid-stream | an open, silent socket | a body stream that never ends until the request's signal aborts |
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { Client } from 'model-inference-sdk';
 * import { createMockHandlers } from 'model-inference-sdk/testing/msw';
 *
 * const mock = createMockHandlers();
 * const server = setupServer(...mock.handlers);
 * server.listen({ onUnhandledRequest: 'error' });
 * const client = new Client({ apiKey: mock.apiKey, baseURL: mock.url });
 * // ... tests ...
 * server.close();
 * ```
 *
 * @module
 */
import { http, HttpResponse } from 'msw';
import type { HttpHandler } from 'msw';
import { createEngine } from './engine';
import type { MockControls, MockServiceOptions } from './scripted';
import { DEFAULT_IN_PROCESS_URL } from './service';

/**
 * Options of {@link createMockHandlers}.
 *
 * @example
 * ```ts
 * import { createMockHandlers } from 'model-inference-sdk/testing/msw';
 *
 * const mock = createMockHandlers({ url: 'https://inference.example.test/v1', models: [{ id: 'acme/chat-1' }] });
 * ```
 */
export interface MockHandlersOptions extends MockServiceOptions {
  /** The base URL the handlers answer for (requests elsewhere are left to other handlers); default `http://mock.inference.test/v1`. */
  url?: string;
}

/**
 * The mock service as msw handlers, with the controls every transport has.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockHandlers, type MockHandlers } from 'model-inference-sdk/testing/msw';
 *
 * const mock: MockHandlers = createMockHandlers();
 * const server = setupServer(...mock.handlers);
 * mock.enqueue({ error: { status: 503 } });
 * ```
 */
export interface MockHandlers extends MockControls {
  /** Pass to `setupServer(...)` / `setupWorker(...)`, or to `server.use(...)`. */
  readonly handlers: HttpHandler[];
}

/**
 * Creates msw handlers that implement the mock service at `url`.
 *
 * @throws TypeError when `apiKeys` is empty or `url` is not an absolute URL.
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { Client } from 'model-inference-sdk';
 * import { createMockHandlers } from 'model-inference-sdk/testing/msw';
 *
 * const mock = createMockHandlers();
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * mock.enqueue({ reply: { json: { city: 'Paris' } } });
 * const client = new Client({ apiKey: mock.apiKey, baseURL: mock.url });
 * const completion = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'City?' }] });
 * console.log(completion.choices[0]?.message.content); // '{"city":"Paris"}'
 * server.close();
 * ```
 */
export function createMockHandlers(options: MockHandlersOptions = {}): MockHandlers {
  const base = new URL(options.url ?? DEFAULT_IN_PROCESS_URL);
  const url = base.href.replace(/\/+$/, '');
  const engine = createEngine({ ...options, basePath: base.pathname });

  const resolver = async ({ request }: { request: Request }): Promise<Response> => {
    const outcome = await engine.respond(request);
    if (outcome.kind === 'reset') return HttpResponse.error();
    if (outcome.kind === 'stall') {
      // msw rejects the client's fetch itself on abort; settling here only lets the resolver finish.
      return new Promise<Response>((resolve) => {
        if (request.signal.aborted) resolve(HttpResponse.error());
        else
          request.signal.addEventListener('abort', () => resolve(HttpResponse.error()), {
            once: true,
          });
      });
    }
    return outcome.response;
  };

  return {
    url,
    apiKey: engine.apiKey,
    requests: engine.requests,
    enqueue: engine.enqueue,
    setReady: engine.setReady,
    clear: engine.clear,
    // Both the base itself and everything under it; every method (the core answers 405 and OPTIONS).
    handlers: [http.all(url, resolver), http.all(`${url}/*`, resolver)],
  };
}
