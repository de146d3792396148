/**
 * Debug logging (`logLevel: 'debug'`, `INFERENCE_LOG=debug`): what a person needs to see what the
 * SDK sent and got. One line per event: the request (method, URL with every query value masked,
 * headers with credentials masked, the body cut and masked), the response (status, time, request
 * id, headers, body), redirects, and the end of a stream. Retries are logged at `info` by the
 * request path itself.
 *
 * Logging never changes how a call ends: every line is bounded (a 10 MB image in a request, a
 * 10 MB answer, are cut before anything scans them), and a line that cannot be written (a logger
 * that throws) is dropped rather than failing the request.
 *
 * Loaded with `import()` only when debug logging is on, so that nobody else ships or parses it.
 */
import { preview } from '../errors/body';
import type { Log } from '../util/log';
import { isCredentialName, MASK, maskText } from '../util/mask';

/** Bodies in log lines are cut here. */
const MAX_BODY = 2_000;

/** The debug lines of one call. */
export interface Trace {
  request(attempt: number, attempts: number, headers: Headers, body: string | undefined): void;
  response(response: Response, started: number): void;
  body(status: number, bytes: number, text: string): void;
  errorBody(status: number, body: unknown): void;
  redirect(status: number, from: string, method: string, to: string): void;
  streamEnd(events: number, started: number, ending: string): void;
}

/** A trace for one call: `method url`, with the URL's query values masked in every line. */
export function trace(log: Log, method: string, url: string): Trace {
  const where = `${method} ${maskQuery(url)}`;
  const body = (text: string) => maskBody(text, log.secrets);
  return {
    request(attempt, attempts, headers, text) {
      log.debug(`→ ${where} (attempt ${attempt} of ${attempts})`, {
        headers: redactHeaders(headers),
        ...(text === undefined ? {} : { body: body(text) }),
      });
    },
    response(response, started) {
      const id = response.headers.get('x-request-id');
      log.debug(
        `← ${response.status} ${where} in ${Date.now() - started} ms${id ? ` (request id ${id})` : ''}`,
        { headers: redactHeaders(response.headers) },
      );
    },
    body(status, bytes, text) {
      log.debug(`${status} ${where} body (${bytes} bytes):`, body(text));
    },
    errorBody(status, value) {
      // A parsed error body as bounded text too (`preview` stops early and goes no deeper than
      // 32 levels: a body nested as deep as JSON.parse allows would overflow JSON.stringify).
      log.debug(
        `${status} ${where} error body:`,
        body(typeof value === 'string' ? value : preview(value, MAX_BODY + 1)),
      );
    },
    redirect(status, from, next, to) {
      log.debug(`${status} redirect: ${method} ${maskQuery(from)} → ${next} ${maskQuery(to)}`);
    },
    streamEnd(events, started, ending) {
      log.debug(
        `${where}: stream ended: ${events} ${events === 1 ? 'event' : 'events'} in ${Date.now() - started} ms (${ending})`,
      );
    },
  };
}

/** The headers as a plain object for logging, every credential-like header (see util/mask.ts) as `***`. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = isCredentialName(name) ? MASK : value;
  });
  return out;
}

/** A URL for a log line: every query value replaced by `***` (queries carry signatures and keys). */
export function maskQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const hash = url.indexOf('#', at);
  const query = url
    .slice(at + 1, hash < 0 ? undefined : hash)
    .split('&')
    .map((pair) => (pair.includes('=') ? `${pair.slice(0, pair.indexOf('='))}=${MASK}` : pair))
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/**
 * A JSON body for a log line: secrets masked, the values of credential-like fields (`api_key`,
 * `token` …) masked, cut to `max` characters.
 *
 * Cut first, then masked: a 10 MB body is never scanned whole (a regex over it overflows the
 * stack). The part masked runs past `max` by the longest secret, so that a key across the cut is
 * still found whole; what is shown stops short of that part's last characters, where only the
 * start of a key could be.
 */
export function maskBody(text: string, secrets: readonly string[], max = MAX_BODY): string {
  let longest = 0;
  for (const secret of secrets) longest = Math.max(longest, secret.length);
  const cut = text.length > max;
  let out = maskText(cut ? text.slice(0, max + longest) : text, secrets).replace(
    // A value cut off at the end (no closing quote) is masked too.
    /"([^"\\]*)"(\s*:\s*)"[^"\\]*(?:\\.[^"\\]*)*(?:"|$)/g,
    (whole, name: string, colon: string) =>
      isCredentialName(name) ? `"${name}"${colon}"${MASK}"` : whole,
  );
  if (cut)
    out = `${out.slice(0, Math.max(0, Math.min(max, out.length - longest)))}… (${text.length} characters in all)`;
  return out;
}
