/**
 * Read an error body of any shape real servers send into one set of fields.
 *
 * Shapes seen (../shared/corpus):
 * - `{"error":{"message","type","param","code"}}`: the service's short and extended shapes, OpenAI;
 *   `type` or `code` may be null or absent, `code` may be a number (OpenRouter, Perplexity, vLLM).
 * - `{"error":"text","code":"invalid-argument"}`: xAI.
 * - `{"detail":"text"}` or `{"detail":[{"msg":…}]}`: Mistral and other FastAPI servers.
 * - `{"object":"error","message",…}`: vLLM before 2024, the error object without its wrapper.
 * - `{"message":"text"}`: assorted gateways.
 * - An HTML page from a proxy, plain text, or an empty body.
 */

/** The fields of an error body that clients act on. */
export interface ErrorDetails {
  message: string;
  type: string | undefined;
  code: string | number | undefined;
  param: string | undefined;
  /** An HTTP status the body itself names (Groq's `status_code`, Azure's `status`), if any. */
  status?: number | undefined;
}

const MAX_TEXT = 300;

/** `body` is the parsed JSON of the response, or its text when it was not JSON. */
export function readErrorBody(body: unknown): ErrorDetails {
  if (typeof body === 'string') return fromText(body);
  if (!isRecord(body)) return details(body === undefined || body === null ? 'no body' : JSON.stringify(body));

  const inner = body.error;
  if (isRecord(inner)) return fromObject(inner);
  if (typeof inner === 'string') return details(inner, undefined, codeOf(body.code));

  if ('detail' in body) return details(fromDetail(body.detail));
  if (typeof body.message === 'string') return fromObject(body);
  return details(truncate(JSON.stringify(body)));
}

function fromObject(obj: Record<string, unknown>): ErrorDetails {
  const message =
    typeof obj.message === 'string' && obj.message !== ''
      ? obj.message
      : truncate(JSON.stringify(obj));
  const result = details(
    message,
    typeof obj.type === 'string' ? obj.type : undefined,
    codeOf(obj.code),
    typeof obj.param === 'string' ? obj.param : undefined,
  );
  // Groq's in-band errors carry `status_code: 400`; Azure's error objects `status: 400`.
  const status = obj.status_code ?? obj.status;
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599) result.status = status;
  return result;
}

/** FastAPI's `detail`: a string, or a list of `{loc, msg, type}` (Mistral's `msg` may itself be a list). */
function fromDetail(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const parts = detail.map((d) => {
      if (!isRecord(d)) return String(d);
      const msg = Array.isArray(d.msg) ? d.msg.map(String).join(', ') : String(d.msg ?? JSON.stringify(d));
      return Array.isArray(d.loc) ? `${d.loc.join('.')}: ${msg}` : msg;
    });
    return parts.join('; ');
  }
  return truncate(JSON.stringify(detail));
}

function fromText(text: string): ErrorDetails {
  const trimmed = text.trim();
  if (trimmed === '') return details('no body');
  if (/^<(!doctype|html|head|body)/i.test(trimmed)) {
    // A proxy or gateway page (nginx, Cloudflare): its title is the only useful part.
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
    return details(`the server answered with an HTML page${title ? ` ("${truncate(title)}")` : ''}`);
  }
  return details(truncate(trimmed));
}

function codeOf(value: unknown): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

function details(
  message: string,
  type?: string,
  code?: string | number,
  param?: string,
): ErrorDetails {
  return { message, type, code, param };
}

function truncate(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
