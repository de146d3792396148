/**
 * The mock service itself, independent of any transport: a web `Request` in,
 * an {@link Outcome} out. Routing, bearer auth, per-key model lists, request
 * validation, limits, the built-in model, scripted replies and faults all
 * live here, once; the socket server (`mock-server.ts`), the fetch function
 * (`service.ts`) and the msw handlers (`msw.ts`) only carry outcomes over
 * their transport.
 *
 * This file is the request's way through, top to bottom: recorded, checked
 * against the base path, scripted replies, auth, then the built-in routes
 * (`routes.ts`) or a backend (recording, replaying). One file per job beside
 * it: `chat.ts` and `completions.ts` (the generation routes), `turn.ts` (a
 * reply counted and limited), `faults.ts`, `script.ts` (scripted replies),
 * `sse.ts` (stream bodies), `outcome.ts` (responses), `paths.ts`.
 *
 * Web-standard APIs only (Request, Response, ReadableStream, setTimeout), so
 * the same behaviour runs in Node, in a browser under msw, or in a worker.
 *
 * @module
 */
import { DEFAULT_MOCK_MODELS, MOCK_API_KEY, toModelObject } from '../fixtures';
import type { MockControls, MockServiceOptions, ScriptedReply } from '../scripted';
import { errorResponse, respondWith, withHeaders } from './outcome';
import type { Outcome } from './outcome';
import { underBase } from './paths';
import { authenticate, builtIn } from './routes';
import { pause, replacesResponse, sendScripted, takeScripted } from './script';
import { readBody } from './state';
import type { Backend, State } from './state';

export type { Outcome } from './outcome';
export type { Backend, Exchange, ReadBody } from './state';

/**
 * The core plus the controls every transport exposes (minus `url`, which the transport knows).
 *
 * @example
 * ```ts
 * const engine: Engine = createEngine();
 * engine.enqueue({ reset: true });
 * (await engine.respond(new Request('http://x.test/v1/models'))).kind; // 'reset'
 * ```
 */
export interface Engine extends Omit<MockControls, 'url'> {
  /**
   * Answers one request. Never rejects: a bug becomes a 500 response. `signal` says when the
   * client is gone; default `request.signal`. A transport passes the signal it holds itself:
   * a `Request` follows the signal it was made with only weakly (undici), so once the `Request`
   * is garbage, an abort no longer reaches `request.signal`.
   */
  respond(request: Request, signal?: AbortSignal): Promise<Outcome>;
}

/**
 * Options of the core; `basePath` is where the API lives on the transport's origin.
 *
 * @example
 * ```ts
 * const options: EngineOptions = { basePath: '/api/v1', chunkDelayMs: 10 };
 * const engine = createEngine(options);
 * ```
 */
export interface EngineOptions extends MockServiceOptions {
  /**
   * Where the API lives; default '/v1'. Requests outside it get a 404 (as on the service); a
   * scripted reply's `path` may be given with or without it.
   */
  basePath?: string;
  /**
   * Answers authenticated requests that no scripted reply took, instead of the built-in model
   * (the recorder's proxy, the replayer). Scripted replies, auth and the base path apply as usual.
   */
  backend?: Backend;
}

/** Extra headers of every response. */
const BASE_HEADERS = {
  'access-control-allow-origin': '*',
  // Browsers hide non-safelisted response headers unless exposed; tests in browsers want the request id.
  'access-control-expose-headers': 'x-request-id',
};

/**
 * Builds the core. Throws a TypeError when `apiKeys` is empty.
 *
 * @example
 * ```ts
 * const engine = createEngine({ apiKeys: { k: 'all' } });
 * const outcome = await engine.respond(new Request('http://x.test/v1/models', { headers: { authorization: 'Bearer k' } }));
 * ```
 */
export function createEngine(options: EngineOptions = {}): Engine {
  const keys = new Map<string, ReadonlySet<string> | 'all'>();
  for (const [key, access] of Object.entries(options.apiKeys ?? { [MOCK_API_KEY]: 'all' })) {
    keys.set(key, access === 'all' ? 'all' : new Set(access));
  }
  const firstKey = keys.keys().next();
  if (firstKey.done === true)
    throw new TypeError('model-inference-sdk/testing: `apiKeys` must hold at least one key.');

  const state: State = {
    models: (options.models ?? DEFAULT_MOCK_MODELS).map(toModelObject),
    keys,
    queue: [],
    requests: [],
    chunkDelayMs: Math.max(0, options.chunkDelayMs ?? 0),
    basePath: (options.basePath ?? '/v1').replace(/\/+$/, ''),
    counters: { request: 0, chat: 0, completion: 0 },
    backend: options.backend,
  };

  return {
    apiKey: firstKey.value,
    requests: state.requests,
    enqueue(...replies: ScriptedReply[]): void {
      state.queue.push(...replies);
    },
    setReady(modelId: string, ready: boolean): void {
      const model = state.models.find((m) => m.id === modelId);
      if (model === undefined) throw new TypeError(`setReady: no model '${modelId}' is served.`);
      model.is_ready = ready;
    },
    clear(): void {
      state.queue.length = 0;
      state.requests.length = 0;
    },
    async respond(request: Request, signal: AbortSignal = request.signal): Promise<Outcome> {
      const requestId = `req_${++state.counters.request}`;
      let outcome: Outcome;
      try {
        outcome = await handle(state, request, signal);
      } catch (error) {
        // A bug here (or a scripted reply the Response constructor refuses) must not crash
        // the test process or hang the client.
        outcome = respondWith(
          errorResponse(
            500,
            `The mock server failed to handle the request: ${String(error)}`,
            'server_error',
          ),
        );
      }
      return withHeaders(outcome, { 'x-request-id': requestId, ...BASE_HEADERS }, false);
    },
  };
}

async function handle(state: State, request: Request, signal: AbortSignal): Promise<Outcome> {
  const body = await readBody(request);
  const url = new URL(request.url);
  const path = underBase(url.pathname, state.basePath);
  const method = request.method;
  state.requests.push({
    method,
    path: path ?? url.pathname,
    url: url.href,
    headers: Object.fromEntries(request.headers),
    body: body.text === '' ? undefined : body.json.ok ? body.json.value : body.text,
  });
  // As strict as the service: nothing answers outside the base path, so a client whose base URL
  // lacks /v1 fails in tests as it would in production.
  if (path === undefined) {
    const base = `${url.origin}${state.basePath}`;
    return respondWith(
      errorResponse(
        404,
        `Unknown request URL: ${method} ${url.pathname}. The API is served under ${state.basePath}: use ${base} as the base URL.`,
        'invalid_request_error',
      ),
    );
  }

  if (method === 'OPTIONS') {
    return respondWith(
      new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': 'authorization, content-type, *',
          'access-control-max-age': '600',
        },
      }),
    );
  }

  const scripted = takeScripted(state, path);
  if (scripted?.reset === true) return { kind: 'reset' };
  // Stalling is doing nothing: no timer is left behind, the client's abort ends it.
  if (scripted?.stall === true) return { kind: 'stall' };
  if (
    scripted?.delayMs !== undefined &&
    scripted.delayMs > 0 &&
    !(await pause(scripted.delayMs, signal))
  ) {
    return { kind: 'stall' }; // the client left during the delay: nobody is listening
  }
  if (scripted !== undefined && replacesResponse(scripted))
    return sendScripted(state, scripted, signal);

  const auth = authenticate(state, request);
  if ('denied' in auth) return auth.denied;
  // A scripted reply is the mock's own answer: it never goes to a backend.
  const outcome =
    scripted === undefined && state.backend !== undefined
      ? await state.backend({ request, signal, path, search: url.search, body })
      : builtIn(state, request, signal, path, body, auth.visible, scripted ?? {});
  return scripted?.headers === undefined ? outcome : withHeaders(outcome, scripted.headers);
}
