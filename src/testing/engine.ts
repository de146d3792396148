/**
 * The mock service itself, independent of any transport: a web `Request` in,
 * an {@link Outcome} out. Routing, bearer auth, per-key model lists, request
 * validation, limits, the built-in model, scripted replies and faults all
 * live here, once; the socket server (`mock-server.ts`), the fetch function
 * (`service.ts`) and the msw handlers (`msw.ts`) only carry outcomes over
 * their transport.
 *
 * Web-standard APIs only (Request, Response, ReadableStream, setTimeout), so
 * the same behaviour runs in Node, in a browser under msw, or in a worker.
 *
 * @module
 */
import { DEFAULT_MOCK_MODELS, MOCK_API_KEY, toModelObject } from './fixtures';
import type { ModelObject } from './fixtures';
import { argumentFragments, generateChatReply, generateCompletion, splitTokens } from './model';
import type { Generation } from './model';
import type {
  MockControls,
  MockFault,
  MockReply,
  MockServiceOptions,
  RecordedRequest,
  ScriptedReply,
} from './scripted';

/**
 * What the service does with one request. Faults that a `Response` cannot
 * express are their own kinds; each transport maps them to its nearest
 * equivalent (a TCP reset, `HttpResponse.error()`, a rejected fetch).
 *
 * @example
 * ```ts
 * const outcome: Outcome = await createEngine().respond(new Request('http://x.test/v1/models'));
 * if (outcome.kind === 'response') console.log(outcome.response.status); // 401: no key sent
 * ```
 */
export type Outcome =
  | {
      kind: 'response';
      response: Response;
      /**
       * True for event streams: the transport must forward the body as it is
       * produced. A streamed body that errors means "cut the connection here";
       * one that never ends means "stall".
       */
      streamed: boolean;
    }
  /** Cut the connection before any byte of the response. */
  | { kind: 'reset' }
  /** Never answer; the client's abort (or closing the mock) ends it. */
  | { kind: 'stall' };

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
  /** Answers one request. Never rejects: a bug becomes a 500 response. */
  respond(request: Request): Promise<Outcome>;
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
}

interface State {
  readonly models: ModelObject[];
  readonly keys: ReadonlyMap<string, ReadonlySet<string> | 'all'>;
  readonly queue: ScriptedReply[];
  readonly requests: RecordedRequest[];
  readonly chunkDelayMs: number;
  readonly basePath: string;
  readonly counters: { request: number; chat: number; completion: number };
}

/** Body of a request, once read: the text and, when it parsed, the JSON. */
interface ReadBody {
  text: string;
  json: { ok: true; value: unknown } | { ok: false };
}

/** The parts of a scripted reply that shape a generated response. */
interface Shaping {
  reply?: MockReply;
  fault?: MockFault;
}

/** A reply for one choice, ready to render: the built-in model's or a scripted one. */
interface Turn {
  text: string;
  tokens: string[];
  reasoning: string[];
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string;
  promptTokens: number;
  completionTokens: number;
}

type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

const encoder = new TextEncoder();

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
    throw new TypeError('inference-sdk/testing: `apiKeys` must hold at least one key.');

  const state: State = {
    models: (options.models ?? DEFAULT_MOCK_MODELS).map(toModelObject),
    keys,
    queue: [],
    requests: [],
    chunkDelayMs: Math.max(0, options.chunkDelayMs ?? 0),
    basePath: (options.basePath ?? '/v1').replace(/\/+$/, ''),
    counters: { request: 0, chat: 0, completion: 0 },
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
    async respond(request: Request): Promise<Outcome> {
      const requestId = `req_${++state.counters.request}`;
      let outcome: Outcome;
      try {
        outcome = await handle(state, request);
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

async function handle(state: State, request: Request): Promise<Outcome> {
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
      errorResponse(404, `Unknown request URL: ${method} ${url.pathname}. The API is served under ${state.basePath}: use ${base} as the base URL.`, 'invalid_request_error'),
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
    !(await pause(scripted.delayMs, request.signal))
  ) {
    return { kind: 'stall' }; // the client left during the delay: nobody is listening
  }
  if (scripted !== undefined && replacesResponse(scripted))
    return sendScripted(state, scripted, request.signal);

  const outcome = await builtIn(state, method, path, request, body, scripted ?? {});
  return scripted?.headers === undefined ? outcome : withHeaders(outcome, scripted.headers);
}

function replacesResponse(reply: ScriptedReply): boolean {
  return (
    reply.status !== undefined ||
    reply.body !== undefined ||
    reply.events !== undefined ||
    reply.raw !== undefined ||
    reply.error !== undefined
  );
}

/** The service's own behaviour, shaped by `reply` / `fault` when a scripted reply asks. */
async function builtIn(
  state: State,
  method: string,
  path: string,
  request: Request,
  body: ReadBody,
  shaping: Shaping,
): Promise<Outcome> {
  // Auth comes before routing: the spec says every endpoint needs the bearer
  // credential. It gives no status codes; 401 is the natural one.
  const key = bearerToken(request.headers.get('authorization'));
  const access = key === undefined ? undefined : state.keys.get(key);
  if (access === undefined) {
    const message =
      key === undefined
        ? 'You did not provide an API key. Send it in the header `Authorization: Bearer <API_KEY>`.'
        : 'Incorrect API key provided.';
    return respondWith(errorResponse(401, message, 'authentication_error'));
  }
  // Per-key availability: a model the key may not use is indistinguishable from an unknown one.
  const visible = state.models.filter((m) => access === 'all' || access.has(m.id));

  const wrongMethod = (wanted: 'GET' | 'POST'): Outcome | undefined => {
    if (method === wanted) return undefined;
    const response = errorResponse(
      405,
      `Method ${method} is not allowed on /v1${path}; use ${wanted}.`,
      'invalid_request_error',
    );
    response.headers.set('allow', `${wanted}, OPTIONS`);
    return respondWith(response);
  };

  if (path === '/models') {
    return wrongMethod('GET') ?? respondWith(jsonResponse(200, { object: 'list', data: visible }));
  }
  if (path.startsWith('/models/')) {
    const wrong = wrongMethod('GET');
    if (wrong !== undefined) return wrong;
    const slug = decodeSegments(path.slice('/models/'.length));
    const model = visible.find((m) => m.id === slug);
    return respondWith(
      model === undefined
        ? errorResponse(404, notAvailable(slug), 'invalid_request_error')
        : jsonResponse(200, model),
    );
  }
  if (path === '/chat/completions') {
    return wrongMethod('POST') ?? chatCompletions(state, body, visible, shaping, request.signal);
  }
  if (path === '/completions') {
    return wrongMethod('POST') ?? legacyCompletions(state, body, visible, shaping, request.signal);
  }
  return respondWith(
    errorResponse(404, `Unknown request URL: ${method} /v1${path}.`, 'invalid_request_error'),
  );
}

function chatCompletions(
  state: State,
  body: ReadBody,
  visible: readonly ModelObject[],
  shaping: Shaping,
  signal: AbortSignal,
): Outcome {
  const fail = (status: number, message: string): Outcome =>
    respondWith(errorResponse(status, message, 'invalid_request_error'));
  if (!body.json.ok || !isRecord(body.json.value)) {
    return fail(400, 'We could not parse the JSON body of your request: expected a JSON object.');
  }
  const request = body.json.value;
  const modelId = request['model'];
  if (typeof modelId !== 'string' || modelId === '')
    return fail(400, 'You must provide a model parameter.');
  const messages = request['messages'];
  if (!Array.isArray(messages) || messages.length === 0)
    return fail(400, "'messages' must be a non-empty array.");
  const badIndex = messages.findIndex((m) => !isRecord(m) || typeof m['role'] !== 'string');
  if (badIndex >= 0) {
    return fail(
      400,
      `Invalid message at 'messages[${badIndex}]': each message must be an object with a string 'role'.`,
    );
  }
  const params = readSamplingParams(request);
  if (typeof params === 'string') return fail(400, params);
  const model = visible.find((m) => m.id === modelId);
  if (model === undefined) return fail(404, notAvailable(modelId));

  const limit = Math.min(params.maxTokens, model.max_output_length);
  const gen = generateChatReply(messages, limit, request);
  // The spec: context_length bounds the input. Checked on the prompt the built-in model counted.
  if (gen.promptTokens > model.context_length)
    return fail(400, contextMessage(model, gen.promptTokens));
  const turn =
    shaping.reply === undefined
      ? fromGeneration(gen)
      : fromReply(shaping.reply, gen.promptTokens, limit);

  const id = `chatcmpl-${++state.counters.chat}`;
  const created = nowSeconds();
  const usage = usageOf(turn, params.n);
  const choices = Array.from({ length: params.n }, (_, index) => index);

  if (!params.stream) {
    return jsonFault(shaping.fault, {
      id,
      object: 'chat.completion',
      created,
      model: model.id,
      choices: choices.map((index) => ({
        index,
        message: chatMessage(turn),
        finish_reason: turn.finishReason,
      })),
      usage,
    });
  }

  const chunk = (choice: unknown[], extra?: object): Record<string, unknown> => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: model.id,
    choices: choice,
    ...extra,
  });
  const events: unknown[] = [];
  // The spec's order, per choice: role chunk with empty content, fragments,
  // an empty delta with finish_reason. Reasoning comes before the content and
  // tool calls after it, as the servers that send all three do.
  for (const index of choices) {
    const delta = (d: object): unknown => chunk([{ index, delta: d, finish_reason: null }]);
    events.push(delta({ role: 'assistant', content: '' }));
    for (const token of turn.reasoning) events.push(delta({ reasoning_content: token }));
    for (const token of turn.tokens) events.push(delta({ content: token }));
    turn.toolCalls.forEach((call, i) => {
      events.push(
        delta({
          tool_calls: [
            {
              index: i,
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: '' },
            },
          ],
        }),
      );
      for (const fragment of argumentFragments(call.arguments)) {
        events.push(delta({ tool_calls: [{ index: i, function: { arguments: fragment } }] }));
      }
    });
    events.push(chunk([{ index, delta: {}, finish_reason: turn.finishReason }]));
  }
  if (params.includeUsage) events.push(chunk([], { usage }));
  return streamWithFault(state, events, shaping.fault, signal);
}

function legacyCompletions(
  state: State,
  body: ReadBody,
  visible: readonly ModelObject[],
  shaping: Shaping,
  signal: AbortSignal,
): Outcome {
  // The spec gives the legacy endpoint the extended error shape; we use it for all of its errors.
  const fail = (status: number, message: string, param: string, code: string): Outcome =>
    respondWith(
      jsonResponse(status, { error: { message, type: 'invalid_request_error', param, code } }),
    );
  if (!body.json.ok || !isRecord(body.json.value)) {
    return fail(
      400,
      'We could not parse the JSON body of your request: expected a JSON object.',
      'body',
      'invalid_json',
    );
  }
  const request = body.json.value;
  const modelId = request['model'];
  if (typeof modelId !== 'string' || modelId === '') {
    return fail(400, 'You must provide a model parameter.', 'model', 'missing_required_parameter');
  }
  const prompt = request['prompt'];
  if (typeof prompt !== 'string')
    return fail(400, "'prompt' must be a string.", 'prompt', 'invalid_type');
  const params = readSamplingParams(request);
  if (typeof params === 'string') return fail(400, params, 'max_tokens', 'invalid_value');
  const model = visible.find((m) => m.id === modelId);
  if (model === undefined) return fail(404, notAvailable(modelId), 'model', 'model_not_found');

  const limit = Math.min(params.maxTokens, model.max_output_length);
  const gen = generateCompletion(prompt, limit);
  if (gen.promptTokens > model.context_length) {
    return fail(400, contextMessage(model, gen.promptTokens), 'prompt', 'context_length_exceeded');
  }
  const turn =
    shaping.reply === undefined
      ? fromGeneration(gen)
      : fromReply({ ...shaping.reply, tool_calls: [], reasoning: '' }, gen.promptTokens, limit);

  const id = `cmpl-${++state.counters.completion}`;
  const created = nowSeconds();
  const usage = usageOf(turn, params.n);
  // Shape of the widely used legacy API (the spec leaves it open).
  const completion = (choices: unknown[], extra?: object): Record<string, unknown> => ({
    id,
    object: 'text_completion',
    created,
    model: model.id,
    choices,
    ...extra,
  });
  const choices = Array.from({ length: params.n }, (_, index) => index);
  if (!params.stream) {
    return jsonFault(
      shaping.fault,
      completion(
        choices.map((index) => ({
          text: turn.text,
          index,
          logprobs: null,
          finish_reason: turn.finishReason,
        })),
        { usage },
      ),
    );
  }
  const events: unknown[] = [];
  for (const index of choices) {
    for (const token of turn.tokens)
      events.push(completion([{ text: token, index, logprobs: null, finish_reason: null }]));
    events.push(
      completion([{ text: '', index, logprobs: null, finish_reason: turn.finishReason }]),
    );
  }
  if (params.includeUsage) events.push(completion([], { usage }));
  return streamWithFault(state, events, shaping.fault, signal);
}

/** Request fields shared by both generation endpoints, validated; a string is the error message. */
function readSamplingParams(
  request: Record<string, unknown>,
): { n: number; maxTokens: number; stream: boolean; includeUsage: boolean } | string {
  const n = request['n'] ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 128) {
    return "Invalid 'n': expected an integer from 1 to 128.";
  }
  // max_completion_tokens is the newer name; it wins when both are sent.
  const limitName =
    request['max_completion_tokens'] != null ? 'max_completion_tokens' : 'max_tokens';
  const limit = request[limitName] ?? Number.POSITIVE_INFINITY;
  if (
    typeof limit !== 'number' ||
    !(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 1))
  ) {
    return `Invalid '${limitName}': expected a positive integer.`;
  }
  const streamOptions = request['stream_options'];
  return {
    n,
    maxTokens: limit,
    stream: request['stream'] === true,
    includeUsage: isRecord(streamOptions) && streamOptions['include_usage'] === true,
  };
}

function fromGeneration(gen: Generation): Turn {
  return {
    text: gen.text,
    tokens: gen.tokens,
    reasoning: [],
    toolCalls: gen.toolCalls,
    finishReason: gen.finishReason,
    promptTokens: gen.promptTokens,
    completionTokens: gen.completionTokens,
  };
}

/** A scripted reply as a turn: counted and limited by the built-in rules. */
function fromReply(reply: MockReply, promptTokens: number, limit: number): Turn {
  const content = reply.content ?? (reply.json !== undefined ? JSON.stringify(reply.json) : '');
  let tokens = splitTokens(content);
  const cut = tokens.length > limit;
  if (cut) {
    tokens = tokens.slice(0, limit);
    const last = tokens.length - 1;
    if (last >= 0) tokens[last] = (tokens[last] ?? '').trimEnd();
  }
  const reasoning = splitTokens(reply.reasoning ?? '');
  const toolCalls = (reply.tool_calls ?? []).map((call, i) => ({
    id: call.id ?? `call_${i + 1}`,
    name: call.name,
    arguments:
      typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
  const fragments = toolCalls.reduce(
    (sum, call) => sum + argumentFragments(call.arguments).length,
    0,
  );
  return {
    // Tokens are cut at a limit, so the text is rebuilt from them rather than taken as given.
    text: cut ? tokens.join('') : content,
    tokens,
    reasoning,
    toolCalls,
    finishReason:
      reply.finish_reason ?? (cut ? 'length' : toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    promptTokens,
    completionTokens: tokens.length + reasoning.length + fragments,
  };
}

function chatMessage(turn: Turn): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    // The widely used API sends null content beside tool calls.
    content: turn.text === '' && turn.toolCalls.length > 0 ? null : turn.text,
  };
  if (turn.reasoning.length > 0) message['reasoning_content'] = turn.reasoning.join('');
  if (turn.toolCalls.length > 0) {
    message['tool_calls'] = turn.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return message;
}

/** A JSON completion, or the non-streaming form of a fault (see MockFault). */
function jsonFault(fault: MockFault | undefined, value: Record<string, unknown>): Outcome {
  switch (fault?.kind) {
    case undefined:
      return respondWith(jsonResponse(200, value));
    case 'reset':
      return { kind: 'reset' };
    case 'stall':
      return { kind: 'stall' };
    case 'malformed': {
      const text = JSON.stringify(value);
      return respondWith(
        textResponse(200, text.slice(0, Math.floor(text.length / 2)), 'application/json'),
      );
    }
    case 'error':
      return respondWith(jsonResponse(200, { error: inBandError(fault) }));
  }
}

/** Frames events as SSE, applying a fault after `fault.after` events. */
function streamWithFault(
  state: State,
  events: unknown[],
  fault: MockFault | undefined,
  signal: AbortSignal,
): Outcome {
  if (fault === undefined)
    return sse(state, [...events.map(sseEvent), sseEvent('[DONE]')], 'end', signal);
  const after = Math.max(0, Math.min(fault.after ?? 1, events.length));
  const before = events.slice(0, after).map(sseEvent);
  switch (fault.kind) {
    case 'reset':
    case 'stall':
      return sse(state, before, fault.kind, signal);
    case 'malformed': {
      const next = events[after];
      // The next event's JSON cut in half; a bare `{` when there is none left.
      const json = next === undefined ? '{' : JSON.stringify(next);
      const broken = `data: ${json.slice(0, Math.max(1, Math.floor(json.length / 2)))}\n\n`;
      return sse(
        state,
        [...before, broken, ...events.slice(after + 1).map(sseEvent), sseEvent('[DONE]')],
        'end',
        signal,
      );
    }
    case 'error':
      return sse(
        state,
        [...before, sseEvent({ error: inBandError(fault) }), sseEvent('[DONE]')],
        'end',
        signal,
      );
  }
}

function inBandError(fault: MockFault): Record<string, unknown> {
  return (
    fault.error ?? {
      message: 'The model failed while generating.',
      type: 'server_error',
      code: 'server_error',
    }
  );
}

/** A scripted reply that replaces the response. */
function sendScripted(state: State, reply: ScriptedReply, signal: AbortSignal): Outcome {
  const status = reply.status ?? reply.error?.status ?? 200;
  const headers = reply.headers ?? {};
  const after = reply.after ?? 'end';
  let outcome: Outcome;
  if (reply.raw !== undefined) {
    const pieces =
      typeof reply.raw === 'string' || reply.raw instanceof Uint8Array
        ? [reply.raw]
        : [...reply.raw];
    outcome = sse(state, pieces, after, signal, { status, split: true });
  } else if (reply.events !== undefined) {
    outcome = sse(state, reply.events.map(sseEvent), after, signal, { status });
  } else if (reply.body !== undefined) {
    const body = reply.body;
    outcome = respondWith(
      typeof body === 'string' || body instanceof Uint8Array
        ? textResponse(status, body, 'application/json')
        : jsonResponse(status, body),
    );
  } else if (reply.error !== undefined) {
    const e = reply.error;
    const error: Record<string, unknown> = {
      message: e.message ?? defaultMessage(e.status),
      type: e.type ?? defaultType(e.status),
    };
    if (e.param !== undefined) error['param'] = e.param;
    if (e.code !== undefined) error['code'] = e.code;
    const response = jsonResponse(status, { error });
    if (e.retryAfter !== undefined) response.headers.set('retry-after', String(e.retryAfter));
    outcome = respondWith(response);
  } else {
    outcome = respondWith(new Response(null, { status }));
  }
  return withHeaders(outcome, headers);
}

function defaultType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status < 500) return 'invalid_request_error';
  return 'server_error';
}

function defaultMessage(status: number): string {
  if (status === 429) return 'Rate limit reached. Please retry later.';
  if (status >= 500)
    return `The server had an error while processing your request (status ${status}).`;
  return `The request failed with status ${status}.`;
}

/** One server-sent event: objects JSON-stringified, strings as is. */
function sseEvent(item: unknown): string {
  return `data: ${typeof item === 'string' ? item : JSON.stringify(item)}\n\n`;
}

/**
 * An event-stream response whose body yields `pieces`, `chunkDelayMs` apart,
 * then ends, stalls, or errors (= the connection is cut). The body errors
 * with the client's abort reason when the request's signal aborts, so no
 * timer outlives the client on any transport.
 */
function sse(
  state: State,
  given: readonly (string | Uint8Array)[],
  after: 'end' | 'stall' | 'reset',
  signal: AbortSignal,
  { status = 200, split = false }: { status?: number; split?: boolean } = {},
): Outcome {
  // Without pacing, the events go out as one piece, as a fast server's would arrive. It also
  // matters under msw, which tees every mocked body: a tee branch's cancel() settles only once
  // the source has ended, so a client that stops reading early must find the source already
  // read to its end. `split` keeps the pieces of a scripted `raw` array apart.
  const pieces = state.chunkDelayMs > 0 || split || given.length < 2 ? given : [concat(given)];
  let next = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  const stop = (): void => {
    clearTimeout(timer);
    wake?.();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        signal.addEventListener(
          'abort',
          () => {
            stop();
            try {
              controller.error(signal.reason);
            } catch {
              // already closed or errored
            }
          },
          { once: true },
        );
      },
      async pull(controller) {
        if (next > 0 && next < pieces.length && state.chunkDelayMs > 0) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, state.chunkDelayMs);
          });
          if (signal.aborted) return;
        }
        const piece = pieces[next++];
        if (piece !== undefined) {
          controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
          return;
        }
        if (after === 'end') controller.close();
        else if (after === 'reset') {
          // A moment first: erroring a stream drops chunks still queued, and a tee (msw tees mocked
          // bodies) may pull the source on behalf of the other branch before the client has read.
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, 5);
          });
          // undici's own message for a body cut by the peer: clients see what a real cut gives.
          if (!signal.aborted) controller.error(new TypeError('terminated'));
        }
        // 'stall': enqueue nothing, ever; the client's abort or idle timeout ends it.
      },
      cancel: stop,
    },
    // Pull only when a reader asks: a cut ('reset') must not come before the reader has taken
    // the pieces sent ahead of it, since erroring a stream drops what is still queued.
    { highWaterMark: 0 },
  );
  return {
    kind: 'response',
    response: new Response(body, {
      status,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    }),
    streamed: true,
  };
}

/** Joins pieces into one byte array. */
function concat(pieces: readonly (string | Uint8Array)[]): Uint8Array {
  const parts = pieces.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** Takes the first queued reply whose path matches (or that has none). */
function takeScripted(state: State, path: string): ScriptedReply | undefined {
  const decoded = decodeSegments(path);
  const index = state.queue.findIndex((r) => {
    if (r.path === undefined) return true;
    const wanted = stripBase(r.path, state.basePath);
    return wanted === path || wanted === decoded;
  });
  if (index < 0) return undefined;
  return state.queue.splice(index, 1)[0];
}

async function readBody(request: Request): Promise<ReadBody> {
  const text = request.body === null ? '' : await request.text();
  if (text === '') return { text, json: { ok: false } };
  try {
    return { text, json: { ok: true, value: JSON.parse(text) as unknown } };
  } catch {
    return { text, json: { ok: false } }; // not JSON: recorded as text; endpoints that need JSON answer 400
  }
}

/** Resolves true after `ms`, or false as soon as the client is gone (the timer is cleared). */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function respondWith(response: Response): Outcome {
  return { kind: 'response', response, streamed: false };
}

/**
 * Sets headers on a response outcome; other outcomes pass through. With
 * `override` false, headers the response already has win (defaults yield to
 * scripted headers).
 */
function withHeaders(outcome: Outcome, headers: Record<string, string>, override = true): Outcome {
  if (outcome.kind !== 'response') return outcome;
  for (const [name, value] of Object.entries(headers)) {
    if (override || !outcome.response.headers.has(name)) outcome.response.headers.set(name, value);
  }
  return outcome;
}

function jsonResponse(status: number, body: unknown): Response {
  return textResponse(status, JSON.stringify(body), 'application/json');
}

function textResponse(status: number, body: string | Uint8Array, contentType: string): Response {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status,
    headers: { 'content-type': contentType, 'content-length': String(bytes.byteLength) },
  });
}

/** The spec's short error shape (models, chat completions, and auth everywhere). */
function errorResponse(status: number, message: string, type: string): Response {
  return jsonResponse(status, { error: { message, type } });
}

function bearerToken(header: string | null): string | undefined {
  const match = header === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The path under the base path, or `undefined` when the request is outside it. */
function underBase(pathname: string, basePath: string): string | undefined {
  if (basePath === '') return pathname;
  if (pathname === basePath) return '/';
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined;
}

/** Removes the base path (and a leading /v1 in any case) from a scripted reply's path. */
function stripBase(pathname: string, basePath: string): string {
  for (const base of [basePath, '/v1']) {
    if (base === '') continue;
    if (pathname === base) return '/';
    if (pathname.startsWith(`${base}/`)) return pathname.slice(base.length);
  }
  return pathname;
}

/** Percent-decodes each segment, so `acme/base` and `acme%2Fbase` name the same model. */
function decodeSegments(path: string): string {
  try {
    return path
      .split('/')
      .map((s) => decodeURIComponent(s))
      .join('/');
  } catch {
    return path; // malformed escapes: match nothing rather than fail
  }
}

function notAvailable(slug: string): string {
  return `The model \`${slug}\` is not available on this API.`;
}

function contextMessage(model: ModelObject, promptTokens: number): string {
  return `This model's maximum context length is ${model.context_length} tokens. However, your request has ${promptTokens} prompt tokens.`;
}

function usageOf(turn: Turn, n: number): Usage {
  const completion = turn.completionTokens * n;
  return {
    prompt_tokens: turn.promptTokens,
    completion_tokens: completion,
    total_tokens: turn.promptTokens + completion,
  };
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
