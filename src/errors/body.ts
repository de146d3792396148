/**
 * Read an error body of any shape real servers send into one set of fields.
 *
 * Shapes seen (../shared/corpus):
 * - `{"error":{"message","type","param","code"}}`: the service's short and extended shapes, OpenAI;
 *   `type` or `code` may be null or absent, `code` may be a number (OpenRouter, Perplexity, vLLM).
 * - `{"error":"text","code":"invalid-argument"}`: xAI.
 * - `{"error":"Internal Server Error","message":"OpenAI API Error (401): …"}`: gateways (Portkey,
 *   nullplatform); `error` is the reason phrase, `message` the cause, and it wins.
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

/**
 * `body` is the parsed JSON of the response, or its text when it was not JSON. Nothing here
 * recurses into the body: a hostile server can nest JSON as deep as `JSON.parse` allows (far
 * deeper than `JSON.stringify` or `String()` survive), and the error must still carry its status.
 */
export function readErrorBody(body: unknown): ErrorDetails {
  if (typeof body === 'string') return fromText(body);
  if (!isRecord(body))
    return details(body === undefined || body === null ? 'no body' : preview(body));

  const inner = body.error;
  if (isRecord(inner)) return fromObject(inner);
  // A gateway's `{"error":"Internal Server Error","message":"OpenAI API Error (401): …"}`: the
  // string is the reason phrase, the cause is in `message`.
  if (typeof inner === 'string')
    return details(
      typeof body.message === 'string' && body.message.trim() !== '' ? body.message : inner,
      undefined,
      codeOf(body.code),
    );

  if ('detail' in body) return details(fromDetail(body.detail));
  if (typeof body.message === 'string') return fromObject(body);
  return details(preview(body));
}

function fromObject(obj: Record<string, unknown>): ErrorDetails {
  const message =
    typeof obj.message === 'string' && obj.message !== '' ? obj.message : preview(obj);
  const result = details(
    message,
    typeof obj.type === 'string' ? obj.type : undefined,
    codeOf(obj.code),
    typeof obj.param === 'string' ? obj.param : undefined,
  );
  // Groq's in-band errors carry `status_code: 400`; Azure's error objects `status: 400`.
  const status = obj.status_code ?? obj.status;
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599)
    result.status = status;
  return result;
}

/** FastAPI's `detail`: a string, or a list of `{loc, msg, type}` (Mistral's `msg` may itself be a list). */
function fromDetail(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const parts = detail.slice(0, 20).map((d) => {
      if (!isRecord(d)) return scalar(d);
      const msg = Array.isArray(d.msg)
        ? d.msg.map(scalar).join(', ')
        : d.msg === undefined
          ? preview(d)
          : scalar(d.msg);
      return Array.isArray(d.loc) ? `${d.loc.map(scalar).join('.')}: ${msg}` : msg;
    });
    return truncate(
      parts.join('; ') + (detail.length > 20 ? ` (and ${detail.length - 20} more)` : ''),
    );
  }
  return preview(detail);
}

/** A string or number as itself, anything else as a short JSON preview. */
function scalar(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : preview(value);
}

/**
 * JSON text of `value`, cut after `max` characters. It stops as soon as it has enough, and goes
 * no deeper than 32 levels, so a body nested as deep as `JSON.parse` allows cannot overflow the
 * stack, and a 64 KiB body costs no more than its first `max` characters.
 */
export function preview(value: unknown, max = MAX_TEXT): string {
  let out = '';
  const put = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') out += JSON.stringify(v.slice(0, max));
    else if (typeof v !== 'object' || v === null)
      out += typeof v === 'number' && !Number.isFinite(v) ? 'null' : String(v);
    else if (depth > 32) out += '…';
    else if (Array.isArray(v)) {
      out += '[';
      v.some((item, i) => ((out += i ? ',' : ''), put(item, depth + 1)));
      out += ']';
    } else {
      out += '{';
      Object.keys(v).some(
        (key, i) => (
          (out += `${i ? ',' : ''}${JSON.stringify(key)}:`),
          put((v as Record<string, unknown>)[key], depth + 1)
        ),
      );
      out += '}';
    }
    return out.length > max; // enough: stop
  };
  put(value, 0);
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

function fromText(text: string): ErrorDetails {
  const trimmed = text.trim();
  if (trimmed === '') return details('no body');
  if (/^<(!doctype|html|head|body)/i.test(trimmed)) {
    // A proxy or gateway page (nginx, Cloudflare): its title is the only useful part.
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
    return details(
      `the server answered with an HTML page${title ? ` ("${truncate(title)}")` : ''}`,
    );
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
