/**
 * The cassette: the file a recording writes and a replay serves (`record.ts`, `replay.ts`). JSON
 * meant to be read and committed: keys always in the same order, headers sorted, a JSON body as
 * JSON, a stream event by event. What is stored gives back the bytes received exactly: a body is
 * kept as JSON only when re-serializing it reproduces them, else as text (or base64).
 *
 * Here: the format's types and the file's text (`cassetteText`). A body's bytes as stored and back:
 * `cassette-body.ts`; a file read and checked: `cassette-check.ts`. Web-standard only: the files
 * themselves are read and written by the recorder and the replayer.
 *
 * @module
 */
/**
 * A cassette file: what a real server answered to each request of a recording, in the order the
 * requests came. Written by `startMockServer({ record })`, served by `startMockServer({ replay })`.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import type { Cassette } from 'model-inference-sdk/testing';
 *
 * const cassette = JSON.parse(readFileSync('test/cassettes/chat.json', 'utf8')) as Cassette;
 * console.log(cassette.interactions.map((i) => `${i.request.method} ${i.request.path} -> ${i.response.status}`));
 * ```
 */
export interface Cassette {
  /** The format's version: 1. */
  version: 1;
  /** The base URL that was recorded, credentials in it left out (user info, key-like query values). */
  upstream: string;
  /** One per request answered by the upstream, in the order the requests came. */
  interactions: CassetteInteraction[];
}

/**
 * One request and the upstream's answer to it.
 *
 * @example
 * ```ts
 * import type { CassetteInteraction } from 'model-inference-sdk/testing';
 *
 * const listed: CassetteInteraction = {
 *   request: { method: 'GET', path: '/models', headers: { accept: 'application/json' } },
 *   response: { status: 200, headers: { 'content-type': 'application/json' }, body: { object: 'list', data: [] } },
 * };
 * ```
 */
export interface CassetteInteraction {
  request: CassetteRequest;
  response: CassetteResponse;
}

/**
 * A recorded request. A replay matches requests by `method`, `path` (with the query) and body
 * (JSON compared as values, so key order does not matter); headers are kept for the reader only.
 *
 * @example
 * ```ts
 * import type { CassetteRequest } from 'model-inference-sdk/testing';
 *
 * const request: CassetteRequest = {
 *   method: 'POST',
 *   path: '/chat/completions',
 *   headers: { 'content-type': 'application/json' },
 *   body: { model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hi' }] },
 * };
 * ```
 */
export interface CassetteRequest {
  method: string;
  /** Under the base URL, with the query string: `/chat/completions`, `/models?limit=2`. */
  path: string;
  /** Lower-case and sorted, without credentials (`authorization`, `x-api-key`, cookies, …) or per-connection headers. */
  headers: Record<string, string>;
  /** The body, when it was JSON. */
  body?: unknown;
  /** The body, when it was not JSON. */
  text?: string;
}

/**
 * A recorded response. At most one of `body`, `text`, `base64` and `events` holds the body; none
 * for an empty one.
 *
 * @example
 * ```ts
 * import type { CassetteResponse } from 'model-inference-sdk/testing';
 *
 * const streamed: CassetteResponse = {
 *   status: 200,
 *   headers: { 'content-type': 'text/event-stream' },
 *   events: ['data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n', 'data: [DONE]\n\n'],
 *   delays: [120, 15], // recorded with timing: ms before each event
 * };
 * ```
 */
export interface CassetteResponse {
  status: number;
  /** Lower-case and sorted, without credentials (`set-cookie`, …), `content-length`, `content-encoding` or per-connection headers. */
  headers: Record<string, string>;
  /** A JSON body, whose JSON text (laid out as `layout` says) is exactly the bytes received. */
  body?: unknown;
  /** How `body` was laid out when not compact: `'indent'` (2 spaces), with `'+newline'` when a newline followed. */
  layout?: 'newline' | 'indent' | 'indent+newline';
  /** A body in UTF-8 that is not JSON (or not in a layout above). */
  text?: string;
  /** A body that is not UTF-8. */
  base64?: string;
  /** An event stream, one server-sent event per item, each with its blank line: joined, exactly the bytes received. */
  events?: string[];
  /** Recorded with `timing: true`: per event, the ms waited before it (the first counted from the response's headers). */
  delays?: number[];
  /** The upstream cut the connection after the bytes recorded. */
  cut?: true;
}

/** The cassette as its file's text: two-space indented JSON, keys in a fixed order, a final newline. */
export function cassetteText(cassette: Cassette): string {
  const ordered: Cassette = {
    version: cassette.version,
    upstream: cassette.upstream,
    interactions: cassette.interactions.map(({ request, response }) => ({
      request: pick(request, ['method', 'path', 'headers', 'body', 'text'], {
        headers: sorted(request.headers),
      }),
      response: pick(
        response,
        ['status', 'headers', 'body', 'layout', 'text', 'base64', 'events', 'delays', 'cut'],
        { headers: sorted(response.headers) },
      ),
    })),
  };
  // Delays on one line: a number per line would make a stream's timing the longest part of the file.
  const text = JSON.stringify(ordered, null, 2).replace(
    /"delays": \[([\d,\s]*)\]/g,
    (_, list: string) => `"delays": [${list.trim().split(/,\s*/).join(', ')}]`,
  );
  return `${text}\n`;
}

/** `value`'s fields in the order of `keys` (absent ones left out), with `replace` applied. */
function pick<T extends object>(value: T, keys: readonly (keyof T)[], replace: Partial<T>): T {
  const out: Partial<T> = {};
  for (const key of keys) {
    const field = key in replace ? replace[key] : value[key];
    if (key in value) out[key] = field;
  }
  return out as T;
}

export function sorted(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
