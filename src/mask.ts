/**
 * Keeping secrets out of what users see. Servers echo keys back ("Incorrect API key provided:
 * sk-…"), fetch wrappers quote headers in their errors, and debug logs print requests: the key
 * is replaced by `***` in every string of an error (message, stack, body, `raw`, headers, the
 * cause chain at any depth, an attached `Request`) and of every log line.
 *
 * Masking replaces the key's occurrences only: an error keeps its class, code, status and causes,
 * so a short test key does not wipe out what the error says. Values are copied only where a
 * secret was found; everything else is returned as it is.
 */

export const MASK = '***';

/**
 * Header names treated as credentials: by rule, not by list, because every gateway names its own
 * (`x-api-key`, `api-key`, `x-goog-api-key`, `x-auth-token`, `x-amz-security-token`, cookies …).
 * Used to redact debug logs and to drop headers on a redirect to another origin.
 */
const CREDENTIAL_NAME = /auth|key|token|secret|cookie|session|passw|credential|signature|bearer/i;

/** Whether a header (or JSON field) with this name carries a credential. */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

/** `text` with every occurrence of every secret replaced by `***`. */
export function maskText(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) {
    if (secret !== '' && text.includes(secret)) text = text.split(secret).join(MASK);
  }
  return text;
}

function hasSecret(text: string, secrets: readonly string[]): boolean {
  for (const secret of secrets) if (secret !== '' && text.includes(secret)) return true;
  return false;
}

/** Past this depth a value is not copied key by key (a recursive walk would overflow the stack). */
const MAX_DEPTH = 64;

/**
 * `value` with every secret masked: strings, arrays, plain objects, errors (class, own fields and
 * cause kept), `Headers`, `Request`, `Response` and `URL`. Cycles are kept as cycles. A subtree
 * deeper than 64 levels that holds a secret is replaced by `'***'` as a whole.
 */
export function mask<T>(value: T, secrets: readonly string[]): T {
  if (secrets.every((s) => s === '')) return value;
  return walk(value, secrets, new Map(), 0) as T;
}

function walk(value: unknown, secrets: readonly string[], seen: Map<object, unknown>, depth: number): unknown {
  if (typeof value === 'string') return maskText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (depth > MAX_DEPTH) return containsSecret(value, secrets) ? MASK : value;
  seen.set(value, value); // a cycle back to a value being walked: keep the reference
  const result = copy(value, secrets, seen, depth + 1);
  seen.set(value, result);
  return result;
}

function copy(value: object, secrets: readonly string[], seen: Map<object, unknown>, depth: number): unknown {
  if (value instanceof Headers) return maskHeaders(value, secrets);
  if (typeof Request !== 'undefined' && value instanceof Request) return maskRequest(value, secrets);
  if (typeof Response !== 'undefined' && value instanceof Response) {
    const headers = maskHeaders(value.headers, secrets);
    return headers === value.headers ? value : new Response(null, { status: value.status, statusText: value.statusText, headers });
  }
  if (value instanceof URL) return hasSecret(value.href, secrets) ? new URL(maskText(value.href, secrets)) : value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const masked = walk(item, secrets, seen, depth);
      if (masked !== item) (out ??= value.slice())[i] = masked;
    }
    return out ?? value;
  }
  if (value instanceof Error) return maskError(value, secrets, seen, depth);
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== Object.prototype && proto !== null) return value; // a class instance we do not know: left alone
  return copyOwn(value, secrets, seen, depth, proto);
}

/** A copy of an object's own properties, masked; the same object when nothing changed. */
function copyOwn(value: object, secrets: readonly string[], seen: Map<object, unknown>, depth: number, proto: object | null): object {
  const descriptors = Object.getOwnPropertyDescriptors(value);
  let changed = false;
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key as keyof typeof descriptors]!;
    if (!('value' in descriptor)) continue;
    const masked = walk(descriptor.value, secrets, seen, depth);
    if (masked !== descriptor.value) {
      descriptor.value = masked;
      changed = true;
    }
  }
  return changed ? Object.create(proto, descriptors) : value;
}

/**
 * An error with its message, stack and own fields masked, of the same class. Errors whose
 * message lives on the prototype (DOMException) become a plain `Error` with the same name.
 */
function maskError(error: Error, secrets: readonly string[], seen: Map<object, unknown>, depth: number): Error {
  const own = Object.getOwnPropertyDescriptors(error);
  const plain = own.message === undefined && hasSecret(String(error.message), secrets);
  if (plain) {
    const clean = new Error(maskText(String(error.message), secrets), { cause: walk(error.cause, secrets, seen, depth) });
    clean.name = error.name;
    clean.stack = maskText(error.stack ?? '', secrets);
    return clean;
  }
  // `stack` may be an accessor (newer V8): read it, so the copy holds the masked text as data.
  const stack = error.stack;
  if (own.stack && !('value' in own.stack) && typeof stack === 'string' && hasSecret(stack, secrets)) {
    const copy = copyOwn(error, secrets, seen, depth, Object.getPrototypeOf(error) as object) as Error;
    const fresh = copy === error ? (Object.create(Object.getPrototypeOf(error) as object, own) as Error) : copy;
    Object.defineProperty(fresh, 'stack', { value: maskText(stack, secrets), writable: true, configurable: true, enumerable: false });
    return fresh;
  }
  return copyOwn(error, secrets, seen, depth, Object.getPrototypeOf(error) as object) as Error;
}

function maskHeaders(headers: Headers, secrets: readonly string[]): Headers {
  let changed = false;
  headers.forEach((value) => {
    changed ||= hasSecret(value, secrets);
  });
  if (!changed) return headers;
  const out = new Headers();
  headers.forEach((value, name) => out.append(name, maskText(value, secrets)));
  return out;
}

/** A `Request` whose URL or headers hold a secret: a new one without it (and without its body). */
function maskRequest(request: Request, secrets: readonly string[]): Request {
  const headers = maskHeaders(request.headers, secrets);
  if (headers === request.headers && !hasSecret(request.url, secrets)) return request;
  return new Request(maskText(request.url, secrets), { method: request.method, headers });
}

/** Whether a secret occurs anywhere in `value`; iterative, so any depth is safe. */
function containsSecret(value: unknown, secrets: readonly string[]): boolean {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (hasSecret(item, secrets)) return true;
    } else if (typeof item === 'object' && item !== null && !seen.has(item)) {
      seen.add(item);
      if (item instanceof Error) stack.push(item.message, item.stack, item.cause);
      for (const key of Object.keys(item)) stack.push((item as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/** A URL for a log line: every query value replaced by `***` (queries carry signatures and keys). */
export function maskQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const hash = url.indexOf('#', at);
  const query = url.slice(at + 1, hash < 0 ? undefined : hash);
  const masked = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? pair : `${pair.slice(0, eq)}=${MASK}`;
    })
    .join('&');
  return `${url.slice(0, at)}?${masked}`;
}

/**
 * A JSON body for a log line: secrets masked, the values of credential-like fields (`api_key`,
 * `token` …) masked, cut to `max` characters.
 */
export function maskBody(text: string, secrets: readonly string[], max = 2_000): string {
  let out = maskText(text, secrets).replace(/"([^"\\]*)"(\s*:\s*)"(?:[^"\\]|\\.)*"/g, (whole, name: string, colon: string) =>
    isCredentialName(name) ? `"${name}"${colon}"${MASK}"` : whole,
  );
  if (out.length > max) out = `${out.slice(0, max)}… (${out.length - max} more characters)`;
  return out;
}
