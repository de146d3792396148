/**
 * The response `afterResponse` hooks see: the key masked in its headers, status text and body,
 * as it is in every error (servers echo keys back: "Incorrect API key provided: sk-…", a
 * `www-authenticate` header quoting it). Loaded only with hooks/runner.ts, by calls that have
 * `afterResponse` hooks: nobody else pays for the body passing through the mask.
 */
import { mask, maskText, MASK, MIN_SECRET } from '../util/mask';

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * `response` with every secret masked. Its body is the original's, passed through the mask as it
 * is read (so a hook's `response.clone().text()` and the client's own reading both get the masked
 * bytes); the original is not to be read after this.
 */
export function maskedResponse(response: Response, secrets: readonly string[]): Response {
  const keys = secrets.filter((secret) => secret.length >= MIN_SECRET);
  // A status a Response cannot be made with (0: an opaque response) has nothing readable anyway.
  if (keys.length === 0 || response.status < 200 || response.status > 599) return response;
  const body =
    response.body === null || NULL_BODY.has(response.status)
      ? null
      : response.body.pipeThrough(maskBytes(keys));
  const shown = new Response(body, {
    status: response.status,
    statusText: maskText(response.statusText, keys),
    headers: mask(response.headers, keys),
  });
  // Read-only getters of a made Response: kept as fetch gave them.
  Object.defineProperties(shown, {
    url: { value: maskText(response.url, keys) },
    redirected: { value: response.redirected },
  });
  return shown;
}

/**
 * A byte stream with every occurrence of the keys (as UTF-8) replaced by `***`, also one split
 * across chunks: a chunk's tail that could begin a key is held until the next chunk says. A
 * chunk without a key passes as it is, uncopied.
 */
function maskBytes(keys: readonly string[]): TransformStream<Uint8Array, Uint8Array> {
  const encoder = new TextEncoder();
  // Longest first: a key that contains another is masked whole.
  const patterns = keys.map((key) => encoder.encode(key)).sort((a, b) => b.length - a.length);
  const star = encoder.encode(MASK);
  let held: Uint8Array | undefined;

  const pass = (
    chunk: Uint8Array,
    last: boolean,
    controller: TransformStreamDefaultController<Uint8Array>,
  ) => {
    const bytes = held === undefined ? chunk : concat([held, chunk]);
    held = undefined;
    const pieces: Uint8Array[] = [];
    let from = 0;
    for (let at = nextCandidate(bytes, patterns, 0); at >= 0;) {
      const match = matchAt(bytes, at, patterns);
      if (match === 'partial' && !last) {
        held = bytes.slice(at);
        break;
      }
      if (typeof match === 'number') {
        pieces.push(bytes.subarray(from, at), star);
        from = at + match;
        at = nextCandidate(bytes, patterns, from);
      } else at = nextCandidate(bytes, patterns, at + 1);
    }
    const end = held === undefined ? bytes.length : bytes.length - held.length;
    if (pieces.length === 0 && from === 0 && end === bytes.length) {
      if (bytes.length > 0) controller.enqueue(bytes);
      return;
    }
    pieces.push(bytes.subarray(from, end));
    const out = concat(pieces);
    if (out.length > 0) controller.enqueue(out);
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    transform: (chunk, controller) => pass(chunk, false, controller),
    flush: (controller) => {
      if (held !== undefined) pass(new Uint8Array(0), true, controller);
    },
  });
}

/** The first index at or after `from` where some key's first byte is, or -1. */
function nextCandidate(bytes: Uint8Array, patterns: readonly Uint8Array[], from: number): number {
  let next = -1;
  for (const pattern of patterns) {
    const at = bytes.indexOf(pattern[0]!, from);
    if (at >= 0 && (next < 0 || at < next)) next = at;
  }
  return next;
}

/** The length of the key found whole at `at`; `'partial'` when the bytes end inside one; else `undefined`. */
function matchAt(
  bytes: Uint8Array,
  at: number,
  patterns: readonly Uint8Array[],
): number | 'partial' | undefined {
  let partial = false;
  for (const pattern of patterns) {
    let n = 0;
    while (n < pattern.length && at + n < bytes.length && bytes[at + n] === pattern[n]) n++;
    if (n === pattern.length) return n;
    if (at + n === bytes.length) partial = true;
  }
  return partial ? 'partial' : undefined;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
