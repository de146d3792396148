/**
 * A real HTTP server that speaks the Model Inference Service's wire format,
 * for integration tests, the demo and users' own tests.
 *
 * It is a real socket server (node:http) rather than a fetch interceptor so
 * that the whole client stack (fetch, keep-alive, aborts, resets, partial
 * streams) is exercised exactly as against the hosted service.
 *
 * Everything lives in the object returned by {@link startMockServer}: no
 * module state, so parallel tests can each run their own server.
 *
 * @module
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_MOCK_MODELS, MOCK_API_KEY, toModelObject } from './fixtures';
import type { MockModel, ModelObject } from './fixtures';
import { generateChatReply, generateCompletion } from './model';
import type { Generation } from './model';

/**
 * A reply to send instead of the built-in behaviour, queued with
 * {@link MockServer.enqueue}. Fields are applied in this order: `reset`,
 * `stall`, `delayMs`, then the response (`raw`, else `events`, else `body`,
 * else an empty body).
 *
 * @example
 * ```ts
 * import { startMockServer } from 'inference-sdk/testing';
 *
 * const server = await startMockServer();
 * server.enqueue(
 *   { path: '/chat/completions', status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'slow down', type: 'rate_limit_error' } } },
 *   { events: [{ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }, '[DONE]'] },
 * );
 * await server.close();
 * ```
 */
export interface ScriptedReply {
  /**
   * Only for requests to this path (e.g. '/chat/completions'; a leading
   * `/v1` is ignored); default: any path. Compared with the path as sent and
   * with its percent-decoded form.
   */
  path?: string;
  /** Default 200. */
  status?: number;
  /** Added to (and overriding) the defaults, which include `x-request-id` and CORS headers. */
  headers?: Record<string, string>;
  /**
   * Object → JSON; string or Uint8Array → sent as is. Content type
   * `application/json` unless `headers` say otherwise.
   */
  body?: unknown;
  /** SSE events: each item is sent as `data: <item>\n\n` (objects JSON-stringified, strings as is); '[DONE]' is not added automatically. `chunkDelayMs` applies between events. */
  events?: unknown[];
  /** Raw bytes/text of a stream body (sent as is, e.g. a corpus capture), with content-type text/event-stream unless headers say otherwise. */
  raw?: string | Uint8Array;
  /** Wait before sending headers (cancelled if the client disconnects). */
  delayMs?: number;
  /** Destroy the socket (TCP reset) before sending anything. */
  reset?: boolean;
  /** Never respond (stall) until the client goes away or the server is closed. */
  stall?: boolean;
  /**
   * What happens after `raw` or `events` were sent: `'end'` (default) ends the response;
   * `'stall'` keeps the connection open and silent (a stream that hangs mid-way); `'reset'`
   * destroys the socket (a stream cut off mid-way).
   */
  after?: 'end' | 'stall' | 'reset';
}

/**
 * One request as the server received it, recorded before it is answered.
 *
 * @example
 * ```ts
 * import { startMockServer, type RecordedRequest } from 'inference-sdk/testing';
 *
 * const server = await startMockServer();
 * await fetch(`${server.url}/models`, { headers: { authorization: `Bearer ${server.apiKey}` } });
 * const last: RecordedRequest | undefined = server.requests.at(-1);
 * console.log(last?.path, last?.headers['authorization']); // '/models' 'Bearer mock-key'
 * await server.close();
 * ```
 */
export interface RecordedRequest {
  method: string;
  /** Path as sent, without the /v1 prefix and the query, e.g. '/models/acme/base'. */
  path: string;
  /** Absolute URL including the /v1 prefix and the query string. */
  url: string;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** Parsed JSON, else the raw text, or undefined when the body is empty. */
  body: unknown;
}

/**
 * Options of {@link startMockServer}; every field is optional.
 *
 * @example
 * ```ts
 * import { startMockServer } from 'inference-sdk/testing';
 *
 * const server = await startMockServer({
 *   apiKeys: { 'key-a': 'all', 'key-b': ['mock/echo'] },
 *   chunkDelayMs: 20,
 * });
 * await server.close();
 * ```
 */
export interface MockServerOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Keys that are accepted, each mapped to the model ids it may use, or 'all'. Default: { [MOCK_API_KEY]: 'all' }. Must hold at least one key. */
  apiKeys?: Record<string, readonly string[] | 'all'>;
  /** Models served; default DEFAULT_MOCK_MODELS ('mock/echo', 'mock/reasoner', 'mock/sleeping'). Read once at start. */
  models?: MockModel[];
  /** Delay between streamed chunks, ms (default 0). */
  chunkDelayMs?: number;
}

/**
 * A running mock server. Close it when done.
 *
 * @example
 * ```ts
 * import { startMockServer } from 'inference-sdk/testing';
 *
 * const server = await startMockServer();
 * const res = await fetch(`${server.url}/chat/completions`, {
 *   method: 'POST',
 *   headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] }),
 * });
 * console.log((await res.json()).choices[0].message.content); // 'You said: hi'
 * await server.close();
 * ```
 */
export interface MockServer {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:41234/v1. */
  url: string;
  /** A key that works (the first of apiKeys). */
  apiKey: string;
  /** Every request received, in order (including scripted and failed ones). Live array: clear it with `requests.length = 0`. */
  requests: RecordedRequest[];
  /** Queue replies: each matching request takes the next matching one; unmatched requests get the built-in behaviour. CORS preflights never take one. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Closes the server AND destroys open sockets (keep-alive, stalled, streaming); resolves when done. Safe to call twice. */
  close(): Promise<void>;
}

/** Everything one server instance owns. */
interface Instance {
  readonly origin: string;
  readonly models: readonly ModelObject[];
  readonly keys: ReadonlyMap<string, ReadonlySet<string> | 'all'>;
  readonly queue: ScriptedReply[];
  readonly requests: RecordedRequest[];
  readonly chunkDelayMs: number;
  readonly counters: { request: number; chat: number; completion: number };
}

/** Body of a request, once read: the text and, when it parsed, the JSON. */
interface ReadBody {
  text: string;
  json: { ok: true; value: unknown } | { ok: false };
}

type ExtendedError = { message: string; type: string; param: string; code: string };

/**
 * Starts a mock of the Model Inference Service on 127.0.0.1 (ephemeral port
 * by default).
 *
 * Built-in behaviour: bearer auth (401 otherwise), `GET /v1/models`,
 * `GET /v1/models/{vendor}/{model}`, `POST /v1/chat/completions` (JSON or
 * SSE), `POST /v1/completions` (legacy), 404 for unknown paths, 405 for
 * wrong methods, CORS. Replies come from the deterministic model in
 * `model.ts` (`You said: <last user text>`).
 *
 * @throws TypeError when `apiKeys` is empty; the listen error (e.g. EADDRINUSE) as a rejection.
 * @example
 * ```ts
 * import { startMockServer } from 'inference-sdk/testing';
 *
 * const server = await startMockServer();
 * const res = await fetch(`${server.url}/models`, { headers: { authorization: `Bearer ${server.apiKey}` } });
 * console.log((await res.json()).data.map((m: { id: string }) => m.id));
 * await server.close();
 * ```
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const keys = new Map<string, ReadonlySet<string> | 'all'>();
  for (const [key, access] of Object.entries(options.apiKeys ?? { [MOCK_API_KEY]: 'all' })) {
    keys.set(key, access === 'all' ? 'all' : new Set(access));
  }
  const firstKey = keys.keys().next();
  if (firstKey.done === true) throw new TypeError('startMockServer: `apiKeys` must hold at least one key.');

  const host = options.host ?? '127.0.0.1';
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const instance: Instance = {
    origin,
    models: (options.models ?? DEFAULT_MOCK_MODELS).map(toModelObject),
    keys,
    queue: [],
    requests: [],
    chunkDelayMs: Math.max(0, options.chunkDelayMs ?? 0),
    counters: { request: 0, chat: 0, completion: 0 },
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(instance, req, res).catch(() => {
      // A bug in a handler must not crash the test process: answer 500 if we still can.
      if (!res.headersSent) sendError(res, 500, 'The mock server failed to handle the request.', 'server_error');
      else res.destroy();
    });
  });

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/v1`,
    apiKey: firstKey.value,
    requests: instance.requests,
    enqueue(...replies: ScriptedReply[]): void {
      instance.queue.push(...replies);
    },
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        // close() alone waits for keep-alive and stalled sockets; destroying them makes it prompt.
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

async function handle(instance: Instance, req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.setHeader('x-request-id', `req_${++instance.counters.request}`);
  res.setHeader('access-control-allow-origin', '*');
  // Browsers hide non-safelisted response headers unless exposed; tests in browsers want the request id.
  res.setHeader('access-control-expose-headers', 'x-request-id');
  // Writes racing a client disconnect may error; the 'close' handler below already stops all work.
  res.on('error', () => {});
  const gone = new AbortController();
  res.once('close', () => gone.abort());

  let body: ReadBody;
  try {
    body = await readBody(req);
  } catch {
    return; // the client went away while sending its body
  }

  const url = new URL(req.url ?? '/', instance.origin);
  const path = stripVersion(url.pathname);
  const method = req.method ?? 'GET';
  instance.requests.push({
    method,
    path,
    url: url.href,
    headers: flattenHeaders(req),
    body: body.text === '' ? undefined : body.json.ok ? body.json.value : body.text,
  });

  if (method === 'OPTIONS') {
    res.statusCode = 204;
    res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
    res.setHeader('access-control-allow-headers', 'authorization, content-type, *');
    res.setHeader('access-control-max-age', '600');
    res.end();
    return;
  }

  const scripted = takeScripted(instance.queue, path);
  if (scripted !== undefined) {
    await sendScripted(instance, scripted, req, res, gone.signal);
    return;
  }
  await builtIn(instance, method, path, req, res, body, gone.signal);
}

/** The service's own behaviour, used when no scripted reply matches. */
async function builtIn(
  instance: Instance,
  method: string,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
  body: ReadBody,
  signal: AbortSignal,
): Promise<void> {
  // Auth comes before routing: the spec says every endpoint needs the bearer
  // credential. It gives no status codes; 401 is the natural one.
  const key = bearerToken(req.headers.authorization);
  const access = key === undefined ? undefined : instance.keys.get(key);
  if (access === undefined) {
    const message =
      key === undefined
        ? 'You did not provide an API key. Send it in the header `Authorization: Bearer <API_KEY>`.'
        : 'Incorrect API key provided.';
    sendError(res, 401, message, 'authentication_error');
    return;
  }
  // Per-key availability: a model the key may not use is indistinguishable from an unknown one.
  const visible = instance.models.filter((m) => access === 'all' || access.has(m.id));

  const expect = (wanted: 'GET' | 'POST'): boolean => {
    if (method === wanted) return true;
    res.setHeader('allow', `${wanted}, OPTIONS`);
    sendError(res, 405, `Method ${method} is not allowed on /v1${path}; use ${wanted}.`, 'invalid_request_error');
    return false;
  };

  if (path === '/models') {
    if (expect('GET')) sendJson(res, 200, { object: 'list', data: visible });
  } else if (path.startsWith('/models/')) {
    if (!expect('GET')) return;
    const slug = decodeSegments(path.slice('/models/'.length));
    const model = visible.find((m) => m.id === slug);
    if (model === undefined) sendError(res, 404, notAvailable(slug), 'invalid_request_error');
    else sendJson(res, 200, model);
  } else if (path === '/chat/completions') {
    if (expect('POST')) await chatCompletions(instance, res, body, visible, signal);
  } else if (path === '/completions') {
    if (expect('POST')) await legacyCompletions(instance, res, body, visible, signal);
  } else {
    sendError(res, 404, `Unknown request URL: ${method} /v1${path}.`, 'invalid_request_error');
  }
}

async function chatCompletions(
  instance: Instance,
  res: ServerResponse,
  body: ReadBody,
  visible: readonly ModelObject[],
  signal: AbortSignal,
): Promise<void> {
  const fail = (status: number, message: string): void => sendError(res, status, message, 'invalid_request_error');
  if (!body.json.ok || !isRecord(body.json.value)) {
    fail(400, 'We could not parse the JSON body of your request: expected a JSON object.');
    return;
  }
  const request = body.json.value;
  const modelId = request['model'];
  if (typeof modelId !== 'string' || modelId === '') {
    fail(400, 'You must provide a model parameter.');
    return;
  }
  const messages = request['messages'];
  if (!Array.isArray(messages) || messages.length === 0) {
    fail(400, "'messages' must be a non-empty array.");
    return;
  }
  const badIndex = messages.findIndex((m) => !isRecord(m) || typeof m['role'] !== 'string');
  if (badIndex >= 0) {
    fail(400, `Invalid message at 'messages[${badIndex}]': each message must be an object with a string 'role'.`);
    return;
  }
  const params = readSamplingParams(request);
  if (typeof params === 'string') {
    fail(400, params);
    return;
  }
  const model = visible.find((m) => m.id === modelId);
  if (model === undefined) {
    fail(404, notAvailable(modelId));
    return;
  }
  const gen = generateChatReply(messages, Math.min(params.maxTokens, model.max_output_length));
  if (gen.promptTokens > model.context_length) {
    fail(400, contextMessage(model, gen.promptTokens));
    return;
  }

  const id = `chatcmpl-${++instance.counters.chat}`;
  const created = nowSeconds();
  const usage = usageOf(gen, params.n);
  if (!params.stream) {
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model: model.id,
      choices: Array.from({ length: params.n }, (_, index) => ({
        index,
        message: { role: 'assistant', content: gen.text },
        finish_reason: gen.finishReason,
      })),
      usage,
    });
    return;
  }

  const chunk = (choices: unknown[], extra?: object): unknown => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: model.id,
    choices,
    ...extra,
  });
  const events: unknown[] = [];
  // The spec's order, per choice: role chunk, one chunk per token, empty delta with finish_reason.
  for (let index = 0; index < params.n; index++) {
    events.push(chunk([{ index, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
    for (const token of gen.tokens) events.push(chunk([{ index, delta: { content: token }, finish_reason: null }]));
    events.push(chunk([{ index, delta: {}, finish_reason: gen.finishReason }]));
  }
  if (params.includeUsage) events.push(chunk([], { usage }));
  events.push('[DONE]');
  await writeStream(res, 200, {}, events.map(sseEvent), instance.chunkDelayMs, signal);
}

async function legacyCompletions(
  instance: Instance,
  res: ServerResponse,
  body: ReadBody,
  visible: readonly ModelObject[],
  signal: AbortSignal,
): Promise<void> {
  // The spec gives the legacy endpoint the extended error shape; we use it for all of its errors.
  const fail = (status: number, error: ExtendedError): void => sendJson(res, status, { error });
  const invalid = (message: string, param: string, code: string): ExtendedError => ({
    message,
    type: 'invalid_request_error',
    param,
    code,
  });
  if (!body.json.ok || !isRecord(body.json.value)) {
    fail(400, invalid('We could not parse the JSON body of your request: expected a JSON object.', 'body', 'invalid_json'));
    return;
  }
  const request = body.json.value;
  const modelId = request['model'];
  if (typeof modelId !== 'string' || modelId === '') {
    fail(400, invalid('You must provide a model parameter.', 'model', 'missing_required_parameter'));
    return;
  }
  const prompt = request['prompt'];
  if (typeof prompt !== 'string') {
    fail(400, invalid("'prompt' must be a string.", 'prompt', 'invalid_type'));
    return;
  }
  const params = readSamplingParams(request);
  if (typeof params === 'string') {
    fail(400, invalid(params, 'max_tokens', 'invalid_value'));
    return;
  }
  const model = visible.find((m) => m.id === modelId);
  if (model === undefined) {
    fail(404, invalid(notAvailable(modelId), 'model', 'model_not_found'));
    return;
  }
  const gen = generateCompletion(prompt, Math.min(params.maxTokens, model.max_output_length));
  if (gen.promptTokens > model.context_length) {
    fail(400, invalid(contextMessage(model, gen.promptTokens), 'prompt', 'context_length_exceeded'));
    return;
  }

  const id = `cmpl-${++instance.counters.completion}`;
  const created = nowSeconds();
  const usage = usageOf(gen, params.n);
  // Shape of the widely used legacy API (the spec leaves it open).
  const completion = (choices: unknown[], extra?: object): unknown => ({
    id,
    object: 'text_completion',
    created,
    model: model.id,
    choices,
    ...extra,
  });
  if (!params.stream) {
    const choices = Array.from({ length: params.n }, (_, index) => ({
      text: gen.text,
      index,
      logprobs: null,
      finish_reason: gen.finishReason,
    }));
    sendJson(res, 200, completion(choices, { usage }));
    return;
  }
  const events: unknown[] = [];
  for (let index = 0; index < params.n; index++) {
    for (const token of gen.tokens) {
      events.push(completion([{ text: token, index, logprobs: null, finish_reason: null }]));
    }
    events.push(completion([{ text: '', index, logprobs: null, finish_reason: gen.finishReason }]));
  }
  if (params.includeUsage) events.push(completion([], { usage }));
  events.push('[DONE]');
  await writeStream(res, 200, {}, events.map(sseEvent), instance.chunkDelayMs, signal);
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
  const limitName = request['max_completion_tokens'] != null ? 'max_completion_tokens' : 'max_tokens';
  const limit = request[limitName] ?? Number.POSITIVE_INFINITY;
  if (typeof limit !== 'number' || !(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 1))) {
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

async function sendScripted(
  instance: Instance,
  reply: ScriptedReply,
  req: IncomingMessage,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  if (reply.reset === true) {
    resetSocket(req.socket);
    return;
  }
  // Stalling is doing nothing: the response stays open until the client
  // aborts or close() destroys the socket, and no timer is left behind.
  if (reply.stall === true) return;
  if (reply.delayMs !== undefined && reply.delayMs > 0 && !(await pause(reply.delayMs, signal))) return;
  if (signal.aborted) return;

  const status = reply.status ?? 200;
  const headers = reply.headers ?? {};
  const after = reply.after ?? 'end';
  if (reply.raw !== undefined) {
    await writeStream(res, status, headers, [reply.raw], 0, signal, after);
  } else if (reply.events !== undefined) {
    await writeStream(res, status, headers, reply.events.map(sseEvent), instance.chunkDelayMs, signal, after);
  } else if (reply.body !== undefined) {
    const data =
      typeof reply.body === 'string' || reply.body instanceof Uint8Array ? reply.body : JSON.stringify(reply.body);
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    setHeaders(res, headers);
    res.end(data);
  } else {
    res.statusCode = status;
    setHeaders(res, headers);
    res.end();
  }
}

/** One server-sent event: objects JSON-stringified, strings as is. */
function sseEvent(item: unknown): string {
  return `data: ${typeof item === 'string' ? item : JSON.stringify(item)}\n\n`;
}

/**
 * Writes a streamed body piece by piece, `delayMs` apart. Stops quietly when
 * the client disconnects, so no write or timer outlives it.
 */
async function writeStream(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  pieces: readonly (string | Uint8Array)[],
  delayMs: number,
  signal: AbortSignal,
  after: 'end' | 'stall' | 'reset' = 'end',
): Promise<void> {
  res.statusCode = status;
  res.setHeader('content-type', 'text/event-stream');
  res.setHeader('cache-control', 'no-cache');
  setHeaders(res, headers);
  // Send the headers now so clients see the response start before the first event.
  res.flushHeaders();
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0 && delayMs > 0 && !(await pause(delayMs, signal))) return;
    const piece = pieces[i];
    if (signal.aborted || res.destroyed || piece === undefined) return;
    res.write(piece);
  }
  if (after === 'reset') {
    // Let the written pieces leave before the reset, so the client sees them first.
    await new Promise<void>((resolve) => res.write('', () => resolve()));
    resetSocket(res.socket!);
  } else if (after === 'end') {
    res.end();
  } // 'stall': leave the response open; close() or the client ends it.
}

/** Takes the first queued reply whose path matches (or that has none). */
function takeScripted(queue: ScriptedReply[], path: string): ScriptedReply | undefined {
  const decoded = decodeSegments(path);
  const index = queue.findIndex((r) => {
    if (r.path === undefined) return true;
    const wanted = stripVersion(r.path);
    return wanted === path || wanted === decoded;
  });
  if (index < 0) return undefined;
  return queue.splice(index, 1)[0];
}

function readBody(req: IncomingMessage): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', reject);
    // 'close' before 'end' means the client aborted mid-body.
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: ReadBody['json'] = { ok: false };
      if (text !== '') {
        try {
          json = { ok: true, value: JSON.parse(text) as unknown };
        } catch {
          // Not JSON: recorded as text; endpoints that need JSON answer 400.
        }
      }
      resolve({ text, json });
    });
  });
}

/** Resolves true after `ms`, or false as soon as the client is gone (the timer is cleared). */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

function resetSocket(socket: Socket): void {
  // A TCP RST is what a crashed proxy looks like; fall back to a plain close where unsupported.
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.setHeader('content-length', Buffer.byteLength(data));
  res.end(data);
}

/** The spec's short error shape (models, chat completions, and auth everywhere). */
function sendError(res: ServerResponse, status: number, message: string, type: string): void {
  sendJson(res, status, { error: { message, type } });
}

function setHeaders(res: ServerResponse, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function stripVersion(pathname: string): string {
  if (pathname === '/v1') return '/';
  return pathname.startsWith('/v1/') ? pathname.slice(3) : pathname;
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

function usageOf(gen: Generation, n: number): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const completion = gen.completionTokens * n;
  return { prompt_tokens: gen.promptTokens, completion_tokens: completion, total_tokens: gen.promptTokens + completion };
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
