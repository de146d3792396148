/**
 * The in-process transport of the mock: a `fetch`-compatible function that
 * answers from the core (`engine/`) without a socket. Useful wherever a
 * server cannot be started (workers, browsers, edge runtimes) and msw is not
 * wanted: pass `service.fetch` as the client's `fetch` option.
 *
 * @module
 */
import { createEngine } from './engine';
import type { MockControls, MockServiceOptions } from './scripted';

/**
 * Options of {@link createMockService}.
 *
 * @example
 * ```ts
 * import { createMockService } from 'model-inference-sdk/testing';
 *
 * const service = createMockService({ url: 'https://inference.example.test/v1', chunkDelayMs: 5 });
 * ```
 */
export interface CreateMockServiceOptions extends MockServiceOptions {
  /** The base URL the service answers as (its path is removed before routing); default `http://mock.inference.test/v1`. */
  url?: string;
}

/**
 * The mock service behind a `fetch`-compatible function: the same behaviour
 * as {@link startMockServer}, in process.
 *
 * Faults a socket would show become what `fetch` does on a network failure:
 * `reset` (and `fault: { kind: 'reset' }` before a JSON body) rejects with a
 * `TypeError('fetch failed')`; a stream cut mid-way errors the body with a
 * `TypeError('terminated')`; `stall` never settles until the request's
 * signal aborts, which rejects with the signal's reason.
 *
 * @example
 * ```ts
 * import { Client } from 'model-inference-sdk';
 * import { createMockService } from 'model-inference-sdk/testing';
 *
 * const service = createMockService();
 * const client = new Client({ apiKey: service.apiKey, baseURL: service.url, fetch: service.fetch });
 * const { data } = await client.models.list();
 * ```
 */
export interface MockService extends MockControls {
  /** A `fetch` that answers every request from the mock, whatever its origin. */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
}

/**
 * Default base URL of the in-process transports (`createMockService`, and `createMockHandlers`
 * of `model-inference-sdk/testing/msw`). `.test` is reserved (RFC 2606), so it can never reach a real host.
 *
 * @example
 * ```ts
 * import { createMockService, DEFAULT_IN_PROCESS_URL } from 'model-inference-sdk/testing';
 *
 * createMockService().url === DEFAULT_IN_PROCESS_URL; // true: 'http://mock.inference.test/v1'
 * ```
 */
export const DEFAULT_IN_PROCESS_URL = 'http://mock.inference.test/v1';

/**
 * Creates the mock service in process, without a socket.
 *
 * @throws TypeError when `apiKeys` is empty or `url` is not an absolute URL.
 * @example
 * ```ts
 * import { createMockService } from 'model-inference-sdk/testing';
 *
 * const service = createMockService();
 * service.enqueue({ reply: { content: 'Paris' } });
 * const res = await service.fetch(`${service.url}/chat/completions`, {
 *   method: 'POST',
 *   headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'Capital of France?' }] }),
 * });
 * console.log((await res.json()).choices[0].message.content); // 'Paris'
 * ```
 */
export function createMockService(options: CreateMockServiceOptions = {}): MockService {
  const url = new URL(options.url ?? DEFAULT_IN_PROCESS_URL);
  const engine = createEngine({ ...options, basePath: url.pathname });
  return {
    url: url.href.replace(/\/+$/, ''),
    apiKey: engine.apiKey,
    requests: engine.requests,
    enqueue: engine.enqueue,
    setReady: engine.setReady,
    clear: engine.clear,
    async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      const request = new Request(input, init);
      // The caller's own signal, which the caller holds: `request.signal` follows it only while
      // `request` is alive (undici holds the link weakly), and nothing here keeps `request`.
      const signal =
        init?.signal ?? (input instanceof Request ? input.signal : new AbortController().signal);
      if (signal.aborted) throw signal.reason;
      const outcome = await engine.respond(request, signal);
      if (signal.aborted) throw signal.reason;
      if (outcome.kind === 'reset') {
        // What undici's fetch gives for a connection reset before the response.
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
        });
      }
      if (outcome.kind === 'stall') {
        return new Promise<never>((_, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      }
      return outcome.response;
    },
  };
}
