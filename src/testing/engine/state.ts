/**
 * The core's state and the shapes its parts pass to each other: one request's body as read, the
 * scripted shaping of a generated reply, and the {@link Backend} that answers instead of the
 * built-in model (recording and replaying).
 *
 * @module
 */
import type { ModelObject } from '../fixtures';
import type { MockFault, MockReply, RecordedRequest, ScriptedReply } from '../scripted';
import type { Outcome } from './outcome';

/** Everything one mock knows; each transport's mock has its own (no module state). */
export interface State {
  readonly models: ModelObject[];
  readonly keys: ReadonlyMap<string, ReadonlySet<string> | 'all'>;
  readonly queue: ScriptedReply[];
  readonly requests: RecordedRequest[];
  readonly chunkDelayMs: number;
  readonly basePath: string;
  readonly counters: { request: number; chat: number; completion: number };
  /** Answers authenticated requests that no scripted reply took; the built-in model when absent. */
  readonly backend: Backend | undefined;
}

/** Body of a request, once read: the text and, when it parsed, the JSON. */
export interface ReadBody {
  text: string;
  json: { ok: true; value: unknown } | { ok: false };
}

/** The parts of a scripted reply that shape a generated response. */
export interface Shaping {
  reply?: MockReply;
  fault?: MockFault;
}

/** One authenticated request, as a {@link Backend} receives it. */
export interface Exchange {
  request: Request;
  /** Aborts when the client is gone (use it, not `request.signal`: see `Engine.respond`). */
  signal: AbortSignal;
  /** The path under the base path, e.g. '/chat/completions'. */
  path: string;
  /** The query string: '' or '?…'. */
  search: string;
  body: ReadBody;
}

/**
 * What answers a request instead of the built-in model (the recorder's proxy, the replayer).
 * Never rejects: a failure is a response that says what went wrong.
 */
export type Backend = (exchange: Exchange) => Promise<Outcome>;

export async function readBody(request: Request): Promise<ReadBody> {
  const text = request.body === null ? '' : await request.text();
  if (text === '') return { text, json: { ok: false } };
  try {
    return { text, json: { ok: true, value: JSON.parse(text) as unknown } };
  } catch {
    return { text, json: { ok: false } }; // not JSON: recorded as text; endpoints that need JSON answer 400
  }
}
