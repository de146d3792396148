/**
 * The cassette: the file a recording writes and a replay serves (`record.ts`, `replay.ts`). JSON
 * meant to be read and committed: keys always in the same order, headers sorted, a JSON body as
 * JSON, a stream event by event. What is stored gives back the bytes received exactly: a body is
 * kept as JSON only when re-serializing it reproduces them, else as text (or base64).
 *
 * Web-standard only (TextEncoder/TextDecoder, btoa/atob): the files themselves are read and
 * written by the recorder and the replayer.
 *
 * @module
 */
import { parseJSON } from '../util/json';

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

type Layout = NonNullable<CassetteResponse['layout']>;

/** The JSON layouts tried, compact first: one of them reproduces most servers' bodies exactly. */
const LAYOUTS: readonly [Layout | undefined, (value: unknown) => string][] = [
  [undefined, (v) => JSON.stringify(v)],
  ['newline', (v) => `${JSON.stringify(v)}\n`],
  ['indent', (v) => JSON.stringify(v, null, 2)],
  ['indent+newline', (v) => `${JSON.stringify(v, null, 2)}\n`],
];

const LF = 10;
const CR = 13;

/** A request body as a cassette keeps it. */
export function requestBody(text: string): Pick<CassetteRequest, 'body' | 'text'> {
  if (text === '') return {};
  const parsed = parseJSON(text);
  return parsed ? { body: parsed.value } : { text };
}

/**
 * A response body as a cassette keeps it, from its bytes: an event stream split into events
 * (with their delays when `arrivals` are given), JSON when a layout reproduces it, else text or
 * base64.
 *
 * @param arrivals For timing: per network chunk, its end offset in `bytes` and when it came (ms after the headers).
 */
export function responseBody(
  bytes: Uint8Array,
  eventStream: boolean,
  arrivals?: readonly { end: number; at: number }[],
): Pick<CassetteResponse, 'body' | 'layout' | 'text' | 'base64' | 'events' | 'delays'> {
  if (bytes.byteLength === 0) return eventStream ? { events: [] } : {};
  const text = utf8(bytes);
  if (text === undefined) return { base64: toBase64(bytes) };
  if (eventStream) {
    const ends = eventEnds(bytes);
    const decoder = new TextDecoder();
    const events = ends.map((end, i) => decoder.decode(bytes.subarray(ends[i - 1] ?? 0, end)));
    if (arrivals === undefined) return { events };
    const times = ends.map(
      (end) => arrivals.find((a) => a.end >= end)?.at ?? arrivals.at(-1)?.at ?? 0,
    );
    return {
      events,
      delays: times.map((t, i) => Math.max(0, Math.round(t - (times[i - 1] ?? 0)))),
    };
  }
  const parsed = parseJSON(text);
  if (!parsed) return { text };
  const value = parsed.value;
  for (const [layout, render] of LAYOUTS) {
    if (render(value) === text)
      return layout === undefined ? { body: value } : { body: value, layout };
  }
  return { text };
}

/** The bytes a recorded response's body stands for, split as it was recorded (one piece per event). */
export function bodyPieces(response: CassetteResponse): Uint8Array[] {
  const encoder = new TextEncoder();
  if (response.events !== undefined) return response.events.map((e) => encoder.encode(e));
  if (response.base64 !== undefined) return [fromBase64(response.base64)];
  if (response.text !== undefined) return [encoder.encode(response.text)];
  if ('body' in response) {
    const render = LAYOUTS.find(([layout]) => layout === response.layout)?.[1] ?? LAYOUTS[0]![1];
    return [encoder.encode(render(response.body))];
  }
  return [];
}

/**
 * Where each event of a stream ends: after a blank line, whichever of CRLF, LF or CR ends the
 * lines (the SSE rules). A last event without its blank line ends where the bytes end.
 */
function eventEnds(bytes: Uint8Array): number[] {
  const ends: number[] = [];
  let lineStart = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte !== LF && byte !== CR) continue;
    const contentEnd = i;
    if (byte === CR && bytes[i + 1] === LF) i++;
    if (contentEnd === lineStart) ends.push(i + 1); // an empty line: the event is complete
    lineStart = i + 1;
  }
  if ((ends.at(-1) ?? 0) < bytes.length) ends.push(bytes.length);
  return ends;
}

/** The text of UTF-8 bytes, or `undefined` when they are not UTF-8. */
function utf8(bytes: Uint8Array): string | undefined {
  try {
    // ignoreBOM: a byte-order mark is kept as a character, so encoding the text gives the bytes back.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
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

/**
 * A cassette file's text, checked.
 *
 * @throws TypeError naming the file and what is wrong with it.
 */
export function parseCassette(text: string, file: string): Cassette {
  const fail = (why: string): never => {
    throw new TypeError(
      `model-inference-sdk/testing: ${file} is not a cassette: ${why}. Record it again with startMockServer({ record }).`,
    );
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(`its JSON does not parse (${(error as Error).message})`);
  }
  const cassette = value as Partial<Cassette> | null;
  if (typeof cassette !== 'object' || cassette === null || Array.isArray(cassette))
    return fail('it is not a JSON object');
  if (cassette.version !== 1)
    return fail(`its version is ${JSON.stringify(cassette.version)}, this one reads version 1`);
  if (!Array.isArray(cassette.interactions)) return fail("it has no 'interactions' array");
  cassette.interactions.forEach((interaction: unknown, i) => {
    const problem = entryProblem(interaction);
    if (problem === undefined) return;
    const { method, path } = (
      isObject(interaction) && isObject(interaction['request']) ? interaction['request'] : {}
    ) as Partial<CassetteRequest>;
    const named =
      typeof method === 'string' && typeof path === 'string' ? ` (${method} ${path})` : '';
    throw new TypeError(
      `model-inference-sdk/testing: the cassette ${file} has a broken entry, interactions[${i}]${named}: ${problem}. Fix the entry, or record the cassette again with startMockServer({ record }).`,
    );
  });
  return cassette as Cassette;
}

/** An HTTP token: what a method and a header name are made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What Node's HTTP server accepts in a header value: no control character but tab. */
const HEADER_VALUE = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;
/** Statuses whose response has no body (a Response with one cannot be made). */
const NULL_BODY = new Set([204, 205, 304]);
/** Headers of one connection, or of an encoding a cassette does not keep (it stores the body decoded): a replay cannot send them truthfully. */
const NOT_REPLAYABLE = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'content-encoding',
]);
/** Longer than the SDK's default timeout between two events: no recording has it, a typo does. */
const MAX_DELAY_MS = 600_000;
const LAYOUT_NAMES: readonly (string | undefined)[] = LAYOUTS.map(([layout]) => layout);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What is wrong with one interaction of a cassette file (hand-edited, or cut short), or
 * `undefined`: everything a replay would otherwise send wrongly, or wait on, checked before the
 * first request. Among them: a `content-length` that is not the body's length (a client would wait
 * for bytes that never come), a body in two fields, base64 that is not, a status no response can
 * have, a header Node cannot send.
 */
function entryProblem(interaction: unknown): string | undefined {
  if (!isObject(interaction)) return 'it is not an object with a request and a response';
  const { request, response } = interaction;
  if (!isObject(request)) return "it has no 'request' object";
  if (typeof request['method'] !== 'string' || !TOKEN.test(request['method']))
    return `request.method must be an HTTP method, got ${show(request['method'])}`;
  if (typeof request['path'] !== 'string' || !request['path'].startsWith('/'))
    return `request.path must be a path under the base URL starting with '/', got ${show(request['path'])}`;
  if (request['headers'] !== undefined && !stringRecord(request['headers']))
    return 'request.headers must be an object of strings';
  if ('body' in request && 'text' in request) return "request has both 'body' and 'text': keep one";
  if (request['text'] !== undefined && typeof request['text'] !== 'string')
    return 'request.text must be a string';

  if (!isObject(response)) return "it has no 'response' object";
  const status = response['status'];
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)
    return `response.status must be an integer from 200 to 599, got ${show(status)}`;
  const headers = response['headers'] ?? {};
  if (!stringRecord(headers)) return 'response.headers must be an object of strings';
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name))
      return `response.headers has a name that is not a header name: ${show(name)}`;
    if (!HEADER_VALUE.test(value))
      return `response.headers['${name}'] holds a control character or a line break: ${show(value)}`;
  }
  const fields = (['body', 'text', 'base64', 'events'] as const).filter(
    (field) => field in response,
  );
  if (fields.length > 1)
    return `response has the body in ${fields.map((f) => `'${f}'`).join(' and ')}: keep one`;
  if (
    response['layout'] !== undefined &&
    !('body' in response && LAYOUT_NAMES.includes(response['layout'] as string))
  )
    return `response.layout must be one of ${LAYOUT_NAMES.filter(Boolean)
      .map((l) => `'${String(l)}'`)
      .join(', ')}, with a 'body'; got ${show(response['layout'])}`;
  if (response['text'] !== undefined && typeof response['text'] !== 'string')
    return 'response.text must be a string';
  if (
    response['base64'] !== undefined &&
    !(
      typeof response['base64'] === 'string' &&
      /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(response['base64'])
    )
  )
    return 'response.base64 is not base64';
  const events = response['events'];
  if (
    events !== undefined &&
    !(Array.isArray(events) && events.every((e) => typeof e === 'string'))
  )
    return 'response.events must be an array of strings';
  const delays = response['delays'];
  if (delays !== undefined) {
    if (
      !Array.isArray(delays) ||
      !delays.every(
        (d) => typeof d === 'number' && Number.isFinite(d) && d >= 0 && d <= MAX_DELAY_MS,
      )
    )
      return `response.delays must be an array of numbers of ms, each from 0 to ${MAX_DELAY_MS}`;
    if (!Array.isArray(events) || delays.length !== events.length)
      return `response.delays must have one number per event (${Array.isArray(events) ? events.length : 'no events'}), got ${delays.length}`;
  }
  if (response['cut'] !== undefined && response['cut'] !== true)
    return `response.cut must be true or left out, got ${show(response['cut'])}`;

  const length = bodyPieces(response as unknown as CassetteResponse).reduce(
    (n, piece) => n + piece.byteLength,
    0,
  );
  if (NULL_BODY.has(status) && fields.length > 0 && length > 0)
    return `a ${status} response has no body, but this one has ${length} bytes`;
  const lower = new Map(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  for (const name of lower.keys())
    if (NOT_REPLAYABLE.has(name))
      return `response.headers has '${name}', which a replay cannot honour (a cassette keeps the body decoded, and the connection is the replay's)`;
  const declared = lower.get('content-length');
  if (declared !== undefined && (!/^\d+$/.test(declared.trim()) || Number(declared) !== length)) {
    return `its content-length header says ${show(declared)} bytes, but the body it holds is ${length} bytes (a client would wait for bytes that never come, or get more than it was told)`;
  }
  return undefined;
}

function stringRecord(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
}

/** A value in a message: its JSON, shortened. */
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
