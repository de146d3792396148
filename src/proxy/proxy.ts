/**
 * `createProxy()`: the route itself. A request is matched to an endpoint under the base path,
 * its user identified and counted, its body read within bounds and rebuilt by the rules, its
 * estimate reserved, and only then sent upstream with the route's own client; the answer goes
 * back in the service's wire format with the upstream's request id, masked of every secret the
 * route sent. Any refusal or failure is the service's error shape (errors.ts).
 */
import {
  APIError,
  APIUserAbortError,
  estimatePromptTokens,
  estimateTextTokens,
} from 'model-inference-sdk';
import { readJSONObject } from './body';
import { baseHeaders, modelNotFound, Refusal, refusalResponse, upstreamRefusal } from './errors';
import { eventStream } from './events';
import { bounded, Meter, type Priced } from './meter';
import { resolveOptions, type ProxyOptions, type ProxyUsage, type Resolved } from './options';
import { chatBody, legacyBody } from './rules';
import { Upstream } from './upstream';

/**
 * A route handler: a web `Request` in, a `Response` out. Next.js route handlers, Hono, Workers,
 * Deno and Bun take it as it is; Node's `http` through {@link toNodeListener}.
 *
 * @example
 * ```ts
 * import { createProxy, type ProxyHandler } from 'model-inference-sdk/proxy';
 *
 * const handler: ProxyHandler = createProxy({ models: ['acme/chat-1'] });
 * const response = await handler(new Request('http://localhost/api/inference/v1/models'));
 * ```
 */
export type ProxyHandler = (request: Request) => Promise<Response>;

type Route =
  { kind: 'models' } | { kind: 'model'; id: string } | { kind: 'chat' } | { kind: 'completions' };

const ANONYMOUS = 'anonymous';

function match(request: Request, options: Resolved): Route {
  const path = new URL(request.url).pathname;
  const base = `${options.basePath}/`;
  const rest = path.startsWith(base) ? path.slice(base.length) : undefined;
  const method = (route: Route, allowed: 'GET' | 'POST'): Route => {
    if (request.method === allowed) return route;
    throw new Refusal(405, 'invalid_request_error', `Use ${allowed} here.`, {
      code: 'method_not_allowed',
      headers: { allow: allowed },
    });
  };
  if (rest === 'models') return method({ kind: 'models' }, 'GET');
  if (rest?.startsWith('models/')) {
    let id: string;
    try {
      id = decodeURIComponent(rest.slice('models/'.length)); // acme%2Fchat-1 and acme/chat-1 alike
    } catch {
      id = '';
    }
    return method({ kind: 'model', id }, 'GET');
  }
  if (rest === 'chat/completions') return method({ kind: 'chat' }, 'POST');
  if (rest === 'completions' && options.legacyCompletions)
    return method({ kind: 'completions' }, 'POST');
  throw new Refusal(404, 'invalid_request_error', 'There is nothing at this path.', {
    code: 'not_found',
  });
}

async function identify(request: Request, options: Resolved): Promise<string | Response> {
  if (options.identify === undefined) return ANONYMOUS;
  let user: unknown;
  try {
    user = await bounded(options.identify(request), 'identify()');
  } catch (error) {
    report(options, error, request, undefined);
    user = undefined;
  }
  if (user instanceof Response) return user;
  if (typeof user === 'string' && user !== '' && user.length <= 256) return user;
  if (typeof user === 'string' && user.length > 256)
    report(
      options,
      new Error('identify() gave a user id longer than 256 characters'),
      request,
      undefined,
    );
  throw new Refusal(401, 'authentication_error', 'Sign in to use this route.', {
    code: 'unauthenticated',
  });
}

function report(
  options: Resolved,
  error: unknown,
  request: Request,
  user: string | undefined,
): void {
  quietly(() => options.onError?.(error, { request, user }));
}

/** Runs an app's callback whose failure must not change the answer: a throw, or a rejected promise (an `async` logger). */
function quietly(callback: () => unknown): void {
  try {
    const result = callback();
    if (result instanceof Promise) result.catch(() => {});
  } catch {
    // The app's logger failing must not change the answer.
  }
}

/** A header-safe request id of the upstream, masked; `undefined` when there is none. */
const requestIdOf = (value: unknown, upstream: Upstream): string | undefined =>
  typeof value === 'string' && /^[\x21-\x7e]{1,200}$/.test(value)
    ? upstream.mask(value)
    : undefined;

/**
 * The route for web apps: the service's own wire format under `basePath` (`GET /models`,
 * `GET /models/{slug}`, `POST /chat/completions`, streamed or not; `POST /completions` when
 * `legacyCompletions` is on), holding the key on the server and enforcing what a browser may ask
 * (models, sizes, roles, tools) and spend (per-user rate limits and cost budget). The package's
 * `Client` in a page works against it with `baseURL: '/api/inference/v1'` and no key, as does the
 * official `openai` client. See docs/route.md.
 *
 * @throws InferenceError when an option is unknown or invalid.
 * @example
 * ```ts
 * // app/api/inference/v1/[...path]/route.ts (Next.js)
 * import { createProxy } from 'model-inference-sdk/proxy';
 *
 * const handler = createProxy({
 *   models: ['acme/chat-1'],
 *   system: 'You are the help desk of Acme.',
 *   identify: async (request) => (await getSession(request))?.userId,
 *   budget: { cost: '0.25' },
 * });
 * export { handler as GET, handler as POST };
 * ```
 */
export function createProxy(options: ProxyOptions): ProxyHandler {
  const resolved = resolveOptions(options);
  const upstream = new Upstream(resolved);
  return async (request) => {
    let user: string | undefined;
    try {
      const route = match(request, resolved);
      const who = await identify(request, resolved);
      if (who instanceof Response) return who;
      user = who;
      await Meter.request(resolved, user);
      if (route.kind === 'models') {
        const { data, request_id } = await upstream.client.models.list().withResponse();
        const served = data.data.filter((model) => resolved.models.has(model.id));
        return json({ object: 'list', data: served }, request_id, upstream);
      }
      if (route.kind === 'model') {
        if (!resolved.models.has(route.id)) throw modelNotFound();
        const { data, request_id } = await upstream.client.models.retrieve(route.id).withResponse();
        return json(data, request_id, upstream);
      }
      return await complete(request, route.kind, user, resolved, upstream);
    } catch (error) {
      if (!(error instanceof Refusal)) report(resolved, error, request, user);
      const refusal = upstreamRefusal(error, (text) => upstream.secretFree(text));
      const id = error instanceof APIError ? requestIdOf(error.requestId, upstream) : undefined;
      return refusalResponse(refusal, id);
    }
  };
}

function json(value: unknown, requestId: string | null | undefined, upstream: Upstream): Response {
  return new Response(upstream.mask(JSON.stringify(value)), {
    status: 200,
    headers: baseHeaders('application/json', requestIdOf(requestId, upstream)),
  });
}

/** Completion tokens of a JSON answer without usage: its choices' text, as the estimate counts it. */
function answerTokens(answer: { choices?: Array<Record<string, unknown>> }): number {
  let tokens = 0;
  for (const choice of answer.choices ?? []) {
    const message = choice['message'] as Record<string, unknown> | undefined;
    for (const text of [
      choice['text'],
      message?.['content'],
      message?.['reasoning'],
      message?.['refusal'],
    ])
      if (typeof text === 'string') tokens += estimateTextTokens(text);
    for (const call of (message?.['tool_calls'] as
      Array<{ function?: { arguments?: unknown } }> | undefined) ?? [])
      if (typeof call?.function?.arguments === 'string')
        tokens += estimateTextTokens(call.function.arguments);
  }
  return tokens;
}

async function complete(
  request: Request,
  kind: 'chat' | 'completions',
  user: string,
  options: Resolved,
  upstream: Upstream,
): Promise<Response> {
  const raw = await readJSONObject(request, {
    maxBytes: options.maxBodyBytes,
    timeoutMs: options.bodyTimeoutMs,
  });
  let system: string | undefined;
  if (kind === 'chat' && options.system !== undefined) {
    system =
      typeof options.system === 'function'
        ? await bounded(options.system({ request, user }), 'the `system` function')
        : options.system;
    if (typeof system !== 'string') throw new Error('the `system` option gave no string');
  }
  const out = kind === 'chat' ? chatBody(raw, options, system) : legacyBody(raw, options);

  let price: Priced = options.models.get(out.model);
  if (options.budget !== undefined) {
    price = await upstream.price(out.model);
    if (price === undefined)
      throw new Refusal(503, 'server_error', 'The route cannot price this model for your budget.', {
        code: 'model_not_priced',
      });
  }
  const meter = new Meter(options, user, price);
  const prompt = estimatePromptTokens(out.body);
  await meter.reserve(prompt, out.completionTokens);

  const finish = async (
    usage: { prompt: number; completion: number; estimated: boolean; model?: unknown },
    outcome: ProxyUsage['outcome'],
  ) => {
    // With the upstream's `fallbacks`, the model that answered is counted, at its own price.
    const model =
      typeof usage.model === 'string' && options.models.has(usage.model) ? usage.model : out.model;
    if (model !== out.model)
      meter.reprice(
        options.budget === undefined
          ? options.models.get(model)
          : await upstream.price(model).catch(() => undefined),
      );
    const counted = {
      prompt_tokens: usage.prompt,
      completion_tokens: usage.completion,
      total_tokens: usage.prompt + usage.completion,
    };
    void meter
      .settle(usage.prompt, usage.completion)
      .catch((error: unknown) => report(options, error, request, user));
    quietly(() =>
      options.onUsage?.({
        user,
        model,
        usage: counted,
        cost: meter.cost(counted),
        estimated: usage.estimated,
        outcome,
      }),
    );
  };

  // The browser going away (its request's signal, or the body cancelled) aborts the upstream at once.
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (request.signal.aborted) abort();
  request.signal.addEventListener('abort', abort, { once: true });
  const release = () => request.signal.removeEventListener('abort', abort);

  let answer: { data: unknown; request_id: string | null };
  try {
    const body = out.body as never;
    const call =
      kind === 'chat'
        ? upstream.client.chat.completions.create(body, { signal: controller.signal })
        : upstream.client.completions.create(body, { signal: controller.signal });
    answer = await call.withResponse();
  } catch (error) {
    release();
    // Aborted: the upstream may have generated the whole reservation. Failed: it billed nothing.
    const aborted = error instanceof APIUserAbortError;
    void finish(
      {
        prompt: aborted ? prompt : 0,
        completion: aborted ? out.completionTokens : 0,
        estimated: true,
      },
      aborted ? 'aborted' : 'error',
    );
    throw error;
  }
  const id = requestIdOf(answer.request_id, upstream);

  if (!out.stream) {
    release();
    const data = answer.data as {
      model?: unknown;
      usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
      choices?: Array<Record<string, unknown>>;
    };
    const p = data.usage?.prompt_tokens;
    const c = data.usage?.completion_tokens;
    const reported = Number.isSafeInteger(p) && Number.isSafeInteger(c);
    void finish(
      {
        ...(reported
          ? { prompt: p as number, completion: c as number, estimated: false }
          : { prompt, completion: answerTokens(data), estimated: true }),
        model: data.model,
      },
      'ok',
    );
    return new Response(upstream.mask(JSON.stringify(data)), {
      status: 200,
      headers: baseHeaders('application/json', id),
    });
  }

  const body = eventStream(answer.data as AsyncIterable<object>, {
    promptTokens: prompt,
    wantsUsage: out.wantsUsage,
    grow: (completion) => meter.grow(completion),
    overLimit: () =>
      new Refusal(429, 'insufficient_quota', 'Your limit was reached during this answer.', {
        code: 'insufficient_quota',
      }),
    failure: (error) => {
      report(options, error, request, user);
      return upstreamRefusal(error, (text) => upstream.secretFree(text));
    },
    mask: (text) => upstream.mask(text),
    abort,
    end: (counted, outcome) => {
      release();
      void finish(counted, outcome);
    },
  });
  const headers = baseHeaders('text/event-stream; charset=utf-8', id);
  headers.set('cache-control', 'no-cache, no-transform');
  headers.set('x-accel-buffering', 'no'); // nginx and some hosts buffer events otherwise
  return new Response(body, { status: 200, headers });
}
