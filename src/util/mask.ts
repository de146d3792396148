/**
 * Keeping secrets out of what users see. Servers echo keys back ("Incorrect API key provided:
 * sk-…"), fetch wrappers quote headers in their errors, and logs quote both: the key is replaced
 * by `***` in every string of an error (message, stack, body, `raw`, headers, the cause chain at
 * any depth, an attached `Request`) and of every log line.
 *
 * Masking replaces the key's occurrences only: an error keeps its class, code, status and causes,
 * so a short test key does not wipe out what the error says. Identifiers (`name`, `code`, `type`,
 * `param`, `syscall`) are never rewritten, and secrets shorter than 4 characters are not masked
 * (they occur in every word; no real key is that short). Values are copied only where a secret
 * was found; everything else is returned as it is.
 */

export const MASK = '***';
/** Shorter secrets are not masked: "k" would garble every message and no real key is that short. */
export const MIN_SECRET = 4;
/** Fields that name things, never quote them: left alone even when a short key occurs in them. */
const IDENTIFIERS = new Set<PropertyKey>([
  'name',
  'code',
  'type',
  'param',
  'syscall',
  'errno',
  'status',
]);

/**
 * Header names treated as credentials: by rule, not by list, because every gateway names its own
 * (`x-api-key`, `api-key`, `x-goog-api-key`, `x-auth-token`, `x-amz-security-token`, cookies …).
 * Such headers are masked in debug logs and dropped on a redirect to another origin. The
 * idempotency key is no credential: seeing it repeat is how one reads a retry.
 */
export function isCredentialName(name: string): boolean {
  return (
    /auth|key|token|secret|cookie|session|passw|credential|signature/i.test(name) &&
    !/^idempotency-key$/i.test(name)
  );
}

/**
 * Query parameter names treated as credentials: those of {@link isCredentialName}, and names with
 * a word that signed URLs and sign-in flows use for theirs (`sig`, `code`, `pass`, `pwd`, `jwt`,
 * `otp`, `sas`, `hmac`, `ticket`), in any case and any word style: `key`, `api_key`, `apiKey`,
 * `access_token`, `sig`, `X-Amz-Signature`, `X-Amz-Credential`, `auth_code`, `code` all are.
 */
export function isCredentialParam(name: string): boolean {
  if (isCredentialName(name)) return true;
  const words = name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z\d]+/);
  return words.some((word) => /^(?:sig|code|pass|pwd|jwt|otp|sas|hmac|ticket)$/.test(word));
}

/** `text` with every occurrence of every secret replaced by `***`. */
export function maskText(text: string, secrets: readonly string[]): string {
  for (const secret of secrets)
    if (secret.length >= MIN_SECRET && text.includes(secret)) text = text.split(secret).join(MASK);
  return text;
}

const has = (text: string, secrets: readonly string[]) =>
  secrets.some((secret) => secret.length >= MIN_SECRET && text.includes(secret));

/** Past this depth a value is not copied key by key (a recursive walk would overflow the stack). */
const MAX_DEPTH = 64;

/**
 * `value` with every secret masked: strings, arrays, plain objects, errors (class, own fields and
 * cause kept), `Headers` and `Request`. Cycles stay cycles. A subtree deeper than 64 levels that
 * holds a secret is replaced by `'***'` as a whole.
 */
export function mask<T>(value: T, secrets: readonly string[]): T {
  return secrets.some((secret) => secret.length >= MIN_SECRET)
    ? (walk(value, secrets, new Map(), 0) as T)
    : value;
}

function walk(
  value: unknown,
  secrets: readonly string[],
  seen: Map<object, unknown>,
  depth: number,
): unknown {
  if (typeof value === 'string') return maskText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  if (depth > MAX_DEPTH) return reaches(value, secrets) ? MASK : value;
  seen.set(value, value); // a cycle back to a value being walked keeps the reference
  let out: unknown = value;
  if (value instanceof Headers) {
    if ([...value.values()].some((v) => has(v, secrets))) {
      const headers = new Headers();
      value.forEach((v, name) => headers.append(name, maskText(v, secrets)));
      out = headers;
    }
  } else if (typeof Request === 'function' && value instanceof Request) {
    // A new request without the secret (and without its body).
    const headers = walk(value.headers, secrets, seen, depth) as Headers;
    if (headers !== value.headers || has(value.url, secrets))
      out = new Request(maskText(value.url, secrets), { method: value.method, headers });
  } else if (Array.isArray(value)) {
    const items = value.map((item: unknown) => walk(item, secrets, seen, depth + 1));
    if (items.some((item, i) => item !== value[i])) out = items;
  } else {
    const proto = Object.getPrototypeOf(value) as object | null;
    const error = value instanceof Error;
    if (error || proto === Object.prototype || proto === null)
      out = copyOwn(value, proto, error, secrets, seen, depth + 1);
  }
  seen.set(value, out);
  return out;
}

/**
 * A copy of an object (or error) with its own properties masked, of the same prototype; the same
 * object when nothing changed. An error whose message lives on its prototype (DOMException)
 * becomes a plain `Error` of the same name.
 */
function copyOwn(
  value: object,
  proto: object | null,
  error: boolean,
  secrets: readonly string[],
  seen: Map<object, unknown>,
  depth: number,
): object {
  const descriptors = Object.getOwnPropertyDescriptors(value) as Record<
    PropertyKey,
    PropertyDescriptor
  >;
  let changed = false;
  if (error) {
    const { message, stack } = value as Error;
    // `stack` may be an accessor (newer V8) and `message` inherited: read both, keep them as data.
    for (const [key, text] of [
      ['message', message],
      ['stack', stack],
    ] as const) {
      if (typeof text === 'string' && has(text, secrets)) {
        descriptors[key] = {
          value: maskText(text, secrets),
          writable: true,
          configurable: true,
          enumerable: false,
        };
        changed = true;
      }
    }
    if (changed && !('message' in Object.getOwnPropertyDescriptors(value))) proto = Error.prototype;
  }
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key]!;
    if (
      !('value' in descriptor) ||
      IDENTIFIERS.has(key) ||
      ((key === 'message' || key === 'stack') && error)
    )
      continue;
    const masked = walk(descriptor.value, secrets, seen, depth);
    if (masked !== descriptor.value) {
      descriptor.value = masked;
      changed = true;
    }
  }
  if (!changed) return value;
  const copy = Object.create(proto, descriptors) as object;
  if (error && proto === Error.prototype) (copy as Error).name = (value as Error).name;
  return copy;
}

/**
 * Whether a secret occurs in a string of `value` (JSON-like data, 32 levels deep at most): the
 * check a chunk gets before an `onChunk` hook sees it, allocating nothing, so that the common
 * case, no key in it, costs a few `includes` and no copy.
 */
export function mentions(value: unknown, secrets: readonly string[], depth = 0): boolean {
  if (typeof value === 'string') return has(value, secrets);
  if (typeof value !== 'object' || value === null || depth > 32) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (mentions(item, secrets, depth + 1)) return true;
    return false;
  }
  for (const key in value)
    if (mentions((value as Record<string, unknown>)[key], secrets, depth + 1)) return true;
  return false;
}

/** Whether a secret occurs anywhere in `value`; iterative, so any depth is safe. */
function reaches(value: object, secrets: readonly string[]): boolean {
  const stack: unknown[] = [value];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string' && has(item, secrets)) return true;
    if (typeof item === 'object' && item !== null && !seen.has(item)) {
      seen.add(item);
      if (item instanceof Error) stack.push(item.message, item.stack, item.cause);
      for (const key in item) stack.push((item as Record<string, unknown>)[key]);
    }
  }
  return false;
}
