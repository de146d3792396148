/**
 * One API call, described once, at the call site (resources/describe.ts builds it): what to send,
 * where, and every per-call setting already resolved over the client's. The request path
 * (core/retry.ts, core/request.ts), the readers (core/response.ts, stream/events.ts), the hooks (hooks/runner.ts)
 * and, through the hooks, telemetry all read this one object; nothing works an option out twice,
 * and nothing guesses what the call is from its URL.
 */
import type { RequestTarget } from '../errors/api';
import type { HookOperation, Hooks } from '../options/hooks';
import type { HeadersInit, RequestOptions } from '../options/types';
import type { Wait } from '../util/wait';

export interface CallDescription {
  /** What the call is, as hooks and telemetry name it: `chat`, `completions`, `models.list`, `models.retrieve`. */
  readonly operation: HookOperation;
  /** The method the caller called, for messages: `chat.completions.create`. */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** The path under the base URL, percent-encoded: `/models/acme/base-1`. */
  readonly path: string;
  /** The whole URL: base URL, path, and the client's and the request's query parameters. */
  readonly url: string;
  /** Where the call goes, as errors name it. */
  readonly target: RequestTarget;
  /** The model asked for (`body.model`, or the id of `models.retrieve`). */
  readonly model: string | undefined;
  /** The body as sent: the client's `defaultBody`, the parameters, the request's `extraBody`. */
  readonly body: object | undefined;
  /** The body serialised, at the call site (a body JSON cannot carry threw there). */
  readonly json: string | undefined;
  /** Whether the response is an event stream (`stream: true`). */
  readonly stream: boolean;
  /** Milliseconds until the headers (and, for JSON, the whole body); per attempt. */
  readonly timeout: number;
  readonly maxRetries: number;
  /** The caller's signal. */
  readonly signal: AbortSignal | undefined;
  readonly maxBodySize: number;
  readonly maxEventSize: number;
  readonly streamIdleTimeout: number;
  /** The request's own headers and query (the client's defaults are added to them when sent). */
  readonly headers: HeadersInit | undefined;
  readonly fetchOptions: RequestOptions['fetchOptions'];
  readonly idempotencyKey: string | false | undefined;
  /** The request's own hooks (the client's are in its options). */
  readonly hooks: Hooks | readonly Hooks[] | undefined;
  /** Runs before anything is sent (the pre-flight check); its rejection is the call's. */
  readonly before: ((wait: Wait) => Promise<void>) | undefined;
  /** The models to try, in order, when this one fails before anything reached the caller. */
  readonly fallbacks: readonly string[];
  /** The same call to another model (for `fallbacks`): its body and `json` with that `model`. */
  readonly to: (model: string) => CallDescription;
}
