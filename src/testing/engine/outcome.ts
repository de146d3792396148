/**
 * What the core answers with ({@link Outcome}) and the small builders every route uses to make
 * one: JSON, text and error responses, and headers added to an outcome.
 *
 * @module
 */

/**
 * What the service does with one request. Faults that a `Response` cannot
 * express are their own kinds; each transport maps them to its nearest
 * equivalent (a TCP reset, `HttpResponse.error()`, a rejected fetch).
 *
 * @example
 * ```ts
 * const outcome: Outcome = await createEngine().respond(new Request('http://x.test/v1/models'));
 * if (outcome.kind === 'response') console.log(outcome.response.status); // 401: no key sent
 * ```
 */
export type Outcome =
  | {
      kind: 'response';
      response: Response;
      /**
       * True for event streams: the transport must forward the body as it is
       * produced. A streamed body that errors means "cut the connection here";
       * one that never ends means "stall".
       */
      streamed: boolean;
    }
  /** Cut the connection before any byte of the response. */
  | { kind: 'reset' }
  /** Never answer; the client's abort (or closing the mock) ends it. */
  | { kind: 'stall' };

export const encoder = new TextEncoder();

export function respondWith(response: Response): Outcome {
  return { kind: 'response', response, streamed: false };
}

/**
 * Sets headers on a response outcome; other outcomes pass through. With
 * `override` false, headers the response already has win (defaults yield to
 * scripted headers).
 */
export function withHeaders(
  outcome: Outcome,
  headers: Record<string, string>,
  override = true,
): Outcome {
  if (outcome.kind !== 'response') return outcome;
  for (const [name, value] of Object.entries(headers)) {
    if (override || !outcome.response.headers.has(name)) outcome.response.headers.set(name, value);
  }
  return outcome;
}

export function jsonResponse(status: number, body: unknown): Response {
  return textResponse(status, JSON.stringify(body), 'application/json');
}

export function textResponse(
  status: number,
  body: string | Uint8Array,
  contentType: string,
): Response {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status,
    headers: { 'content-type': contentType, 'content-length': String(bytes.byteLength) },
  });
}

/** The spec's short error shape (models, chat completions, and auth everywhere). */
export function errorResponse(status: number, message: string, type: string): Response {
  return jsonResponse(status, { error: { message, type } });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
