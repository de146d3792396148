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
/**
 * Names (property names, and the fields that name things: `name`, `code`, `type`, `param`,
 * `syscall`, `errno`, `status`) are masked only for a secret this long: a short test key occurs in
 * them by chance ("ECON" in `ECONNREFUSED`), a real key only because someone put it there.
 */
const MIN_NAMED = 8;
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

/** `text` with every occurrence of every secret (of `min` characters or more) replaced by `***`. */
export function maskText(text: string, secrets: readonly string[], min = MIN_SECRET): string {
  for (const secret of secrets)
    if (secret.length >= min && text.includes(secret)) text = text.split(secret).join(MASK);
  return text;
}

const has = (text: string, secrets: readonly string[], min = MIN_SECRET) =>
  secrets.some((secret) => secret.length >= min && text.includes(secret));

/** Past this depth a value is not copied key by key (a recursive walk would overflow the stack). */
const MAX_DEPTH = 64;
/** Past this many objects, a value is not searched further: it is taken to hold a secret. */
const MAX_OBJECTS = 100_000;

/**
 * `value` with every secret masked, whatever it is: strings; arrays, `Map`s, `Set`s, `URL`s,
 * `Headers`, `Request`s; errors (class, own fields and cause kept) and any other object, plain or
 * of a class (a copy of its own data properties, same prototype); property names too (for
 * secrets of 8 characters or more). Cycles stay cycles, through the copies. A subtree deeper than
 * 64 levels, or past 100 000 objects, that may hold a secret is replaced by `'***'` as a whole,
 * as is one that throws when looked into. Values without a secret are returned as they are.
 */
export function mask<T>(value: T, secrets: readonly string[]): T {
  return secrets.some((secret) => secret.length >= MIN_SECRET) && reaches(value, secrets)
    ? (walk(value, secrets, new Map(), 0) as T)
    : value;
}

/**
 * The strings, names and values inside one object, as `[name, value]` pairs: for a name, `''`
 * when it is not one the mask may rewrite. Getters are not called (except an error's `message`
 * and `stack`, which `util.inspect` prints); a `Map` gives its keys as values.
 */
function parts(value: object): [PropertyKey, unknown][] {
  const out: [PropertyKey, unknown][] = [];
  if (value instanceof Map) for (const [k, v] of value) out.push(['', k], ['', v]);
  else if (value instanceof Set) for (const v of value) out.push(['', v]);
  else if (value instanceof URL) out.push(['', value.href]);
  else if (value instanceof Headers) value.forEach((v, k) => out.push(['', k], ['', v]));
  else if (typeof Request === 'function' && value instanceof Request)
    out.push(['', value.url], ['', value.headers]);
  if (value instanceof Error) out.push(['', value.message], ['', value.stack]);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if ('value' in descriptor) out.push([key, descriptor.value]);
  }
  return out;
}

/** Whether a secret occurs anywhere in `value`; iterative, so any depth is safe. */
function reaches(value: unknown, secrets: readonly string[]): boolean {
  const stack: [PropertyKey, unknown][] = [['', value]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [key, item] = stack.pop()!;
    if (typeof key === 'string' && has(key, secrets, MIN_NAMED)) return true;
    if (
      typeof item === 'string' &&
      has(item, secrets, IDENTIFIERS.has(key) ? MIN_NAMED : MIN_SECRET)
    )
      return true;
    if (typeof item === 'object' && item !== null && !seen.has(item)) {
      if (seen.add(item).size > MAX_OBJECTS) return true;
      try {
        stack.push(...parts(item));
      } catch {
        return true; // what cannot be looked into cannot be shown to be free of the key
      }
    }
  }
  return false;
}

function walk(
  value: unknown,
  secrets: readonly string[],
  seen: Map<object, unknown>,
  depth: number,
  min = MIN_SECRET,
): unknown {
  if (typeof value === 'string') return maskText(value, secrets, min);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  if (depth > MAX_DEPTH || seen.size > MAX_OBJECTS) return reaches(value, secrets) ? MASK : value;
  try {
    return copy(value, secrets, seen, depth + 1);
  } catch {
    return MASK;
  }
}

/**
 * A masked copy of `value`, the same value when nothing in it changed. The copy is made first and
 * known to `seen` while the parts are walked, so that a cycle back to `value` leads to the copy.
 */
function copy(
  value: object,
  secrets: readonly string[],
  seen: Map<object, unknown>,
  depth: number,
): unknown {
  const next = (item: unknown, min?: number) => walk(item, secrets, seen, depth, min);
  let out: unknown = value;
  if (value instanceof Headers) {
    const headers = new Headers();
    value.forEach((v, name) => headers.append(maskText(name, secrets), maskText(v, secrets)));
    if ([...headers].join() !== [...value].join()) out = headers;
  } else if (value instanceof URL) {
    const href = maskText(value.href, secrets);
    if (href !== value.href) out = URL.canParse(href) ? new URL(href) : href;
  } else if (typeof Request === 'function' && value instanceof Request) {
    // A new request without the secret (and without its body).
    const headers = next(value.headers) as Headers;
    if (headers !== value.headers || has(value.url, secrets))
      out = new Request(maskText(value.url, secrets), { method: value.method, headers });
  } else if (value instanceof Map || value instanceof Set || Array.isArray(value)) {
    const items: unknown[] = value instanceof Map ? [...value].flat() : [...value];
    const made: Map<unknown, unknown> | Set<unknown> | unknown[] =
      value instanceof Map ? new Map() : value instanceof Set ? new Set() : [];
    seen.set(value, made);
    const masked = items.map((item) => next(item));
    if (masked.some((item, i) => item !== items[i])) {
      out = made;
      for (let i = 0; i < masked.length; i += made instanceof Map ? 2 : 1) {
        if (made instanceof Map) made.set(masked[i], masked[i + 1]);
        else if (made instanceof Set) made.add(masked[i]);
        else made[i] = masked[i];
      }
    }
  } else out = copyOwn(value, secrets, seen, next);
  seen.set(value, out);
  return out;
}

/**
 * A copy of an object (error, plain or of a class) with its own data properties and their names
 * masked, of the same prototype; the same object when nothing changed. An error whose message
 * lives on its prototype (DOMException) becomes a plain `Error` of the same name.
 */
function copyOwn(
  value: object,
  secrets: readonly string[],
  seen: Map<object, unknown>,
  next: (item: unknown, min?: number) => unknown,
): object {
  let proto = Object.getPrototypeOf(value) as object | null;
  const descriptors: [PropertyKey, PropertyDescriptor][] = Reflect.ownKeys(value).map((key) => [
    key,
    Object.getOwnPropertyDescriptor(value, key)!,
  ]);
  let changed = false;
  if (value instanceof Error) {
    const { message, stack } = value;
    // `stack` may be an accessor (newer V8) and `message` inherited: read both, keep them as data.
    for (const [key, text] of [
      ['message', message],
      ['stack', stack],
    ] as const) {
      if (typeof text === 'string' && has(text, secrets)) {
        const at = descriptors.findIndex(([name]) => name === key);
        const descriptor = { value: maskText(text, secrets), writable: true, configurable: true };
        if (at < 0) descriptors.push([key, descriptor]);
        else descriptors[at] = [key, descriptor];
        changed = true;
      }
    }
    if (changed && !Object.hasOwn(value, 'message')) proto = Error.prototype;
  }
  const made = Object.create(proto) as object;
  seen.set(value, made);
  const props: PropertyDescriptorMap = {};
  for (const [key, descriptor] of descriptors) {
    let name = key;
    if (typeof key === 'string') name = maskText(key, secrets, MIN_NAMED);
    if (
      'value' in descriptor &&
      !(value instanceof Error && (key === 'message' || key === 'stack'))
    ) {
      const masked = next(descriptor.value, IDENTIFIERS.has(key) ? MIN_NAMED : MIN_SECRET);
      if (masked !== descriptor.value) {
        descriptor.value = masked;
        changed = true;
      }
    }
    if (name !== key) changed = true;
    props[name] = descriptor;
  }
  if (!changed) return value;
  Object.defineProperties(made, props);
  if (value instanceof Error && proto === Error.prototype) (made as Error).name = value.name;
  return made;
}

/**
 * Whether a secret occurs in a string or a property name of `value` (JSON-like data, 32 levels
 * deep at most): the check a chunk gets before an `onChunk` hook sees it, allocating nothing, so
 * that the common case, no key in it, costs a few `includes` and no copy.
 */
export function mentions(value: unknown, secrets: readonly string[], depth = 0): boolean {
  if (typeof value === 'string') return has(value, secrets);
  if (typeof value !== 'object' || value === null || depth > 32) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (mentions(item, secrets, depth + 1)) return true;
    return false;
  }
  for (const key in value)
    if (
      has(key, secrets, MIN_NAMED) ||
      mentions((value as Record<string, unknown>)[key], secrets, depth + 1)
    )
      return true;
  return false;
}
