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

/**
 * `body` is the parsed JSON of the response, or its text when it was not JSON. Nothing here
 * recurses into the body: a hostile server can nest JSON as deep as `JSON.parse` allows (far
 * deeper than `JSON.stringify` or `String()` survive), and the error must still carry its status.
 */
export function readErrorBody(body: unknown): ErrorDetails {
  if (typeof body === 'string') return fromText(body);
  if (!isRecord(body)) return details(body === undefined || body === null ? 'no body' : preview(body));

  const inner = body.error;
  if (isRecord(inner)) return fromObject(inner);
  if (typeof inner === 'string') return details(inner, undefined, codeOf(body.code));

  if ('detail' in body) return details(fromDetail(body.detail));
  if (typeof body.message === 'string') return fromObject(body);
  return details(preview(body));
}

function fromObject(obj: Record<string, unknown>): ErrorDetails {
  const message = typeof obj.message === 'string' && obj.message !== '' ? obj.message : preview(obj);
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
    const parts = detail.slice(0, 20).map((d) => {
      if (!isRecord(d)) return scalar(d);
      const msg = Array.isArray(d.msg) ? d.msg.map(scalar).join(', ') : d.msg === undefined ? preview(d) : scalar(d.msg);
      return Array.isArray(d.loc) ? `${d.loc.map(scalar).join('.')}: ${msg}` : msg;
    });
    return truncate(parts.join('; ') + (detail.length > 20 ? ` (and ${detail.length - 20} more)` : ''));
  }
  return preview(detail);
}

/** A string or number as itself, anything else as a short JSON preview. */
function scalar(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : preview(value);
}

/**
 * JSON text of `value`, cut after `max` characters. Iterative, with an explicit stack, so nesting
 * of any depth is safe, and it stops as soon as it has enough: a 64 KiB body costs no more than
 * its first `max` characters.
 */
export function preview(value: unknown, max = MAX_TEXT): string {
  let out = '';
  const work: ({ text: string } | { value: unknown })[] = [{ value }];
  while (work.length > 0 && out.length <= max) {
    const item = work.pop()!;
    if ('text' in item) {
      out += item.text;
      continue;
    }
    const v = item.value;
    if (Array.isArray(v)) {
      work.push({ text: ']' });
      // Only as many items as could fit: the rest would be cut anyway.
      const count = Math.min(v.length, max);
      if (count < v.length) work.push({ text: ',…' });
      for (let i = count - 1; i >= 0; i--) {
        work.push({ value: v[i] === undefined ? null : v[i] });
        if (i > 0) work.push({ text: ',' });
      }
      work.push({ text: '[' });
    } else if (isRecord(v)) {
      const keys = Object.keys(v).filter((k) => v[k] !== undefined && typeof v[k] !== 'function');
      const count = Math.min(keys.length, max);
      work.push({ text: count < keys.length ? ',…}' : '}' });
      for (let i = count - 1; i >= 0; i--) {
        const key = keys[i]!;
        work.push({ value: v[key] });
        work.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(key)}:` });
      }
      work.push({ text: '{' });
    } else if (typeof v === 'string') {
      out += JSON.stringify(v.length > max ? v.slice(0, max) : v);
    } else if (typeof v === 'number') {
      out += Number.isFinite(v) ? String(v) : 'null';
    } else if (typeof v === 'boolean' || typeof v === 'bigint') {
      out += String(v);
    } else {
      out += 'null';
    }
  }
  return out.length > max ? `${out.slice(0, max)}…` : out;
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
