/**
 * `retry-after`: the wait a server asks for, read by the retry policy (retry.ts) and by the rate
 * limiter (limiter.ts), and its bound.
 */

/**
 * The longest wait honoured: a server that asks for more (an hour of rate limit) is not waited
 * for. Its error reaches the caller at once, with the header, instead of the process sleeping for
 * an hour; a reset further away than this holds no call.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The wait a server asks for: `retry-after-ms` (milliseconds, OpenAI's header), else
 * `retry-after` in seconds or as an HTTP date (RFC 9110 §10.2.3). Anything else is ignored, as if
 * absent: a sign, an exponent, hex, a bare dot, a control character (`0x10`, `1e3`, `+5`, `.5`,
 * `Infinity`), a list (`1, 1`), or text that `Date.parse` would read as a year (`x 2030`).
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = decimal(headers.get('retry-after-ms'));
  if (ms !== undefined) return ms;
  const value = headers.get('retry-after') ?? '';
  const s = decimal(value);
  if (s !== undefined) return s * 1000;
  // The three forms of an HTTP date: `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94
  // 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994` (GMT too, which Date.parse is told: it would read
  // this one in the machine's time zone).
  const wait = /^[A-Z][a-z]+,? [\w -]+ \d\d:\d\d:\d\d (GMT|\d{4})$/.test(value)
    ? Date.parse(value.replace(/\d$/, '$& GMT')) - now
    : NaN;
  return wait >= 0 ? wait : undefined;
}

/**
 * A number as HTTP writes one: digits, with a fraction if any (real servers send `retry-after:
 * 1.5`, `retry-after-ms: 100.0`), and around it only the spaces and tabs that are no part of a
 * field value (RFC 9110 §5.5; undici keeps a trailing one); else `undefined`, where `Number()`
 * would read `0x10`, `1e3`, `+5`, `5.`, `.5`, `Infinity` or digits between control characters.
 */
export const decimal = (value: string | null | undefined): number | undefined =>
  /^[ \t]*\d+(\.\d+)?[ \t]*$/.test(value ?? '') ? Number(value) : undefined;
