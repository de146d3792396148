/**
 * The public shapes of the mock's scripting and recording: what a test
 * queues with `enqueue()`, what the mock records, and the options and
 * controls every transport shares (socket server, fetch function, msw).
 *
 * Types only: no behaviour, so the msw entry and the server can share them
 * without pulling in each other.
 *
 * @module
 */
import type { MockModel } from './fixtures';

/**
 * A reply to send instead of the built-in behaviour, queued with
 * {@link MockControls.enqueue}. Each request takes the first queued reply
 * whose `path` matches (or that has none).
 *
 * Two kinds:
 *
 * - **Replace the response**: when any of `status`, `body`, `events`, `raw`
 *   or `error` is set, that is sent as is; the request is neither
 *   authenticated nor validated.
 * - **Shape the generated response**: otherwise the service answers as usual
 *   (auth, model lookup, limits, usage, the `stream` flag all apply), with
 *   `reply` as the model's output, `fault` injected, and `headers` added.
 *
 * Connection behaviour comes first, in this order: `reset`, `stall`,
 * `delayMs`.
 *
 * @example
 * ```ts
 * import { startMockServer } from 'model-inference-sdk/testing';
 *
 * const server = await startMockServer();
 * server.enqueue(
 *   { error: { status: 429, retryAfter: 1 } }, // a rate limit first
 *   { reply: { content: 'Paris' } }, // then the retried request gets this text
 *   { reply: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
 *   { reply: { content: 'Sunny' }, fault: { kind: 'reset', after: 2 } }, // a stream cut after 2 events
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

  /** Status of a replaced response; default 200. */
  status?: number;
  /** Added to (and overriding) the response headers, which include `x-request-id` and CORS headers. */
  headers?: Record<string, string>;
  /**
   * A replaced response's body: object → JSON; string or Uint8Array → sent as
   * is. Content type `application/json` unless `headers` say otherwise.
   */
  body?: unknown;
  /** SSE events: each item is sent as `data: <item>\n\n` (objects JSON-stringified, strings as is); '[DONE]' is not added automatically. `chunkDelayMs` applies between events. */
  events?: unknown[];
  /**
   * Raw bytes/text of a stream body, sent as is (e.g. a corpus capture, byte
   * for byte), with content type text/event-stream unless `headers` say
   * otherwise. An array is sent as separate writes, `chunkDelayMs` apart, to
   * split the body at chosen points.
   */
  raw?: string | Uint8Array | readonly (string | Uint8Array)[];
  /** An error response in the service's shape (see {@link MockErrorReply}). */
  error?: MockErrorReply;
  /**
   * What happens after `raw` or `events` were sent: `'end'` (default) ends the response;
   * `'stall'` keeps the connection open and silent (a stream that hangs mid-way); `'reset'`
   * cuts the connection (a stream cut off mid-way).
   */
  after?: 'end' | 'stall' | 'reset';

  /** The model's output for this request, rendered as JSON or as a stream as the request asks. */
  reply?: MockReply;
  /** A fault injected into the generated response. */
  fault?: MockFault;

  /** Wait before sending headers (cancelled if the client disconnects). */
  delayMs?: number;
  /** Cut the connection before sending anything (a TCP reset on the socket server). */
  reset?: boolean;
  /** Never respond (stall) until the client goes away or the mock is closed. */
  stall?: boolean;
}

/**
 * Scripted model output. The service renders it exactly as it renders its
 * own: a `chat.completion` (or `text_completion`), or a stream in the spec's
 * order (role chunk, reasoning, content fragments, tool-call fragments, a
 * chunk with `finish_reason`, the usage chunk if asked for, `[DONE]`). Usage
 * is counted with the built-in rules, and `max_tokens` / the model's
 * `max_output_length` cut the content as usual (finish reason `length`).
 *
 * @example
 * ```ts
 * import type { MockReply } from 'model-inference-sdk/testing';
 *
 * const structured: MockReply = { json: { city: 'Paris', temperature: 21 } };
 * const toolCall: MockReply = { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] };
 * const thinking: MockReply = { reasoning: 'The user wants a city.', content: 'Paris' };
 * ```
 */
export interface MockReply {
  /** The reply text. */
  content?: string;
  /** A value sent as the reply's JSON text (for `response_format` tests); used when `content` is not given. */
  json?: unknown;
  /** Tool calls; the content is `null` in a JSON reply when there is no text. Ignored by legacy completions. */
  tool_calls?: MockToolCall[];
  /** Reasoning text, sent as `reasoning_content` (the field DeepSeek and vLLM use). Ignored by legacy completions. */
  reasoning?: string;
  /** Default: `length` when cut by a limit, else `tool_calls` when there are tool calls, else `stop`. */
  finish_reason?: string;
}

/**
 * One scripted tool call.
 *
 * @example
 * ```ts
 * import type { MockToolCall } from 'model-inference-sdk/testing';
 *
 * const call: MockToolCall = { name: 'get_weather', arguments: { city: 'Paris' } }; // id 'call_1'
 * const raw: MockToolCall = { id: 'call_abc', name: 'search', arguments: '{"q":"x"}' };
 * ```
 */
export interface MockToolCall {
  /** Default `call_<n>`, n counting from 1 within the reply. */
  id?: string;
  name: string;
  /** An object (sent as its JSON text) or the JSON text itself; default `{}`. Streamed in 8-character fragments. */
  arguments?: string | Record<string, unknown>;
}

/**
 * A fault injected into a generated response.
 *
 * | kind | in a stream (after `after` events) | in a JSON response |
 * |---|---|---|
 * | `'reset'` | the connection is cut | cut before the headers |
 * | `'stall'` | the stream goes silent, connection open | no response at all |
 * | `'malformed'` | the next event's JSON, cut in half; then the rest of the stream | a 200 whose JSON is cut in half |
 * | `'error'` | an in-band error event (`data: {"error": …}`), then `[DONE]` | a 200 whose body is `{"error": …}` |
 *
 * @example
 * ```ts
 * import type { MockFault } from 'model-inference-sdk/testing';
 *
 * const cut: MockFault = { kind: 'reset', after: 3 };
 * const inBand: MockFault = { kind: 'error', error: { message: 'Provider returned error', code: 502 } };
 * ```
 */
export interface MockFault {
  kind: 'reset' | 'stall' | 'malformed' | 'error';
  /** Events sent before the fault; default 1 (the role chunk). Never past the last event before `[DONE]`. */
  after?: number;
  /** For `'error'`: the error object; default `{ message: 'The model failed while generating.', type: 'server_error', code: 'server_error' }`. */
  error?: Record<string, unknown>;
}

/**
 * An error response in the service's shape: `{"error": {message, type}}`,
 * plus `param` and `code` when given (the extended shape).
 *
 * @example
 * ```ts
 * import type { MockErrorReply } from 'model-inference-sdk/testing';
 *
 * const rateLimited: MockErrorReply = { status: 429, retryAfter: 2 };
 * const overloaded: MockErrorReply = { status: 503, message: 'The model is overloaded.', code: 'overloaded' };
 * ```
 */
export interface MockErrorReply {
  status: number;
  /** Default: a message naming the status. */
  message?: string;
  /** Default by status: 400/404/422 `invalid_request_error`, 401 `authentication_error`, 403 `permission_error`, 429 `rate_limit_error`, else `server_error`. */
  type?: string;
  code?: string | number;
  param?: string;
  /** Sent as the `retry-after` header (seconds, or an HTTP date). */
  retryAfter?: number | string;
}

/**
 * One request as the mock received it, recorded before it is answered.
 *
 * @example
 * ```ts
 * import { startMockServer, type RecordedRequest } from 'model-inference-sdk/testing';
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
  /** Path as sent, without the base path (`/v1`) and the query, e.g. '/models/acme/base'. */
  path: string;
  /** Absolute URL including the /v1 prefix and the query string. */
  url: string;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** Parsed JSON, else the raw text, or undefined when the body is empty. */
  body: unknown;
}

/**
 * Options shared by every transport of the mock; every field is optional.
 *
 * @example
 * ```ts
 * import { createMockService, type MockServiceOptions } from 'model-inference-sdk/testing';
 *
 * const options: MockServiceOptions = {
 *   apiKeys: { 'key-a': 'all', 'key-b': ['mock/echo'] },
 *   models: [{ id: 'acme/tiny', context_length: 16, max_output_length: 4 }, { id: 'mock/echo' }],
 * };
 * const service = createMockService(options);
 * ```
 */
export interface MockServiceOptions {
  /** Keys that are accepted, each mapped to the model ids it may use, or 'all'. Default: { [MOCK_API_KEY]: 'all' }. Must hold at least one key. */
  apiKeys?: Record<string, readonly string[] | 'all'>;
  /** Models served; default DEFAULT_MOCK_MODELS ('mock/echo', 'mock/reasoner', 'mock/sleeping'). Read once at start. */
  models?: readonly MockModel[];
  /** Delay between streamed events, ms (default 0). */
  chunkDelayMs?: number;
}

/**
 * What every transport of the mock offers: its address, a working key, the
 * recorded requests, and the script.
 *
 * @example
 * ```ts
 * import { startMockServer, type MockControls } from 'model-inference-sdk/testing';
 *
 * // Works with the socket server, the in-process service and the msw handlers alike.
 * function chatRequests(mock: MockControls): number {
 *   return mock.requests.filter((r) => r.path === '/chat/completions').length;
 * }
 * const server = await startMockServer();
 * console.log(chatRequests(server)); // 0
 * await server.close();
 * ```
 */
export interface MockControls {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:41234/v1. */
  readonly url: string;
  /** A key that works (the first of apiKeys). */
  readonly apiKey: string;
  /** Every request received, in order (including scripted and failed ones). Live array: clear it with `requests.length = 0`. */
  readonly requests: RecordedRequest[];
  /** Queue replies: each matching request takes the next matching one; unmatched requests get the built-in behaviour. CORS preflights never take one. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Sets a model's `is_ready` flag, as later list and retrieve responses report it. Throws a TypeError for an unknown id. */
  setReady(modelId: string, ready: boolean): void;
  /** Forgets the queued replies and the recorded requests (e.g. in `afterEach`). */
  clear(): void;
}
