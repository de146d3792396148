/**
 * Reading a browser's request body, bounded: at most `maxBytes` (a larger `content-length` is
 * refused before a byte is read, a body that grows past it as soon as it does), within
 * `timeoutMs` in all (a body sent a byte at a time, slow-loris, is cut off there), and JSON that
 * is an object. What is read is never more than the limit plus one chunk.
 */
import { invalid, Refusal } from './errors';

export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
}

const tooLarge = (maxBytes: number) =>
  new Refusal(413, 'invalid_request_error', `The request body is over ${maxBytes} bytes.`, {
    code: 'request_too_large',
  });

/** The body as a JSON object, or a `Refusal` thrown (400, 408, 413, 415). */
export async function readJSONObject(
  request: Request,
  limits: BodyLimits,
): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type') ?? '';
  // JSON only: a cross-site form can post text/plain without asking, never application/json.
  if (!/^application\/json\s*(;|$)/i.test(type.trim()))
    throw new Refusal(415, 'invalid_request_error', 'The request body must be application/json.', {
      code: 'unsupported_media_type',
    });
  const length = Number(request.headers.get('content-length') ?? NaN);
  if (length > limits.maxBytes) {
    void request.body?.cancel().catch(() => {});
    throw tooLarge(limits.maxBytes);
  }
  const text = await readText(request, limits);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('The request body is not JSON.', undefined, 'invalid_json');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('The request body must be a JSON object.', undefined, 'invalid_json');
  return value as Record<string, unknown>;
}

async function readText(request: Request, { maxBytes, timeoutMs }: BodyLimits): Promise<string> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Refusal(408, 'invalid_request_error', 'The request body took too long to arrive.', {
            code: 'request_timeout',
          }),
        ),
      timeoutMs,
    );
  });
  try {
    for (;;) {
      const { value, done } = await Promise.race([reader.read(), timedOut]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    void reader.cancel().catch(() => {});
    if (error instanceof Refusal) throw error;
    throw invalid('The request body could not be read.', undefined, 'invalid_body');
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid('The request body is not UTF-8.', undefined, 'invalid_json');
  }
}
