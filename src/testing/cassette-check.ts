/**
 * A cassette file read back: its JSON parsed and every entry checked before the first request, so
 * that a hand-edited or cut-short file fails with its name and the broken entry, not with a replay
 * that sends a wrong answer or waits for bytes that never come.
 *
 * @module
 */
import type { Cassette, CassetteRequest, CassetteResponse } from './cassette';
import { bodyPieces, LAYOUTS } from './cassette-body';

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
