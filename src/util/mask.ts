/**
 * Keeping secrets out of what users see. Servers echo keys back ("Incorrect API key provided:
 * sk-…"), fetch wrappers quote headers in their errors, and logs quote both: the key is replaced
 * by `***` in every string of an error (message, stack, body, `raw`, headers, the cause chain at
 * any depth, an attached `Request`) and of every log line, in each form a server may echo it in
 * (`secretForms`: trimmed, percent-encoded, inside base64 …).
 *
 * Masking replaces the key's occurrences only: an error keeps its class, code, status and causes,
 * so a short test key does not wipe out what the error says. Names (property names, `name`,
 * `code`, `type`, `param`, `syscall`) are rewritten only for secrets of 8 characters or more, and
 * secrets shorter than 4 characters are not masked (they occur in every word; no real key is that
 * short). Values are copied only where a secret was found; everything else is returned as it is.
 */

export const MASK = '***';
/** Shorter secrets are not masked: "k" would garble every message and no real key is that short. */
export const MIN_SECRET = 4;
/**
 * Names (property names, and the fields that name things: `name`, `code`, `type`, `param`,
 * `syscall`, `errno`, `status`) are masked only for a secret this long: a short test key occurs in
 * them by chance ("ECON" in `ECONNREFUSED`), a real key only because someone put it there.
 */
export const MIN_NAMED = 8;
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

/** Derived forms (base64, hex …) only of secrets this long: a shorter one's would match by chance. */
const MIN_DERIVED = 8;

/**
 * Every text form of the secrets that a server, a proxy or a tool may echo, longest first (a form
 * that contains another is masked whole): each secret, and trimmed (a key with spaces around it
 * reaches the server without them); for secrets of 8 characters or more also percent-encoded (either
 * case), JSON-escaped (`\/`), as UTF-16 read as UTF-8 (a NUL between characters: an error page in
 * `charset=utf-16`, which `Response.text()` decodes as UTF-8), and base64 (at each of the three alignments a key
 * can have inside a longer base64 text, as in `Basic` credentials, in the standard and URL-safe
 * alphabets). A log masks them all (`Log.addSecret`), and so every error and hook masks them too; a
 * cassette also their hex (testing/redact.ts).
 */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets.flatMap((s) => [s, s.trim()])) {
    if (secret.length < MIN_SECRET) continue;
    forms.add(secret);
    if (secret.length < MIN_DERIVED) continue;
    const bytes = new TextEncoder().encode(secret);
    const percent = encodeURIComponent(secret);
    const binary = Array.from(bytes, (b) => String.fromCharCode(b)).join('');
    forms
      .add(percent)
      .add(percent.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()))
      .add(secret.replaceAll('/', '\\/'))
      .add([...secret].join('\0'));
    for (let lead = 0; lead < 3; lead++) {
      // The base64 characters that depend on the secret's bytes alone, the secret starting at
      // byte `lead` of a 3-byte group: character i stands for bits [6i, 6i + 6).
      const text = btoa('\0'.repeat(lead) + binary);
      const core = text.slice(
        Math.ceil((8 * lead) / 6),
        Math.floor((8 * (lead + bytes.length)) / 6),
      );
      if (core.length >= MIN_DERIVED)
        forms.add(core).add(core.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Whether a secret (of `min` characters or more) occurs in `text`. */
export const has = (text: string, secrets: readonly string[], min = MIN_SECRET) =>
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
 * 64 levels that holds a secret (or that has over 100 000 objects to search) is replaced by
 * `'***'` as a whole, as is one that throws when looked into. Values without a secret are returned
 * as they are.
 */
export function mask<T>(value: T, secrets: readonly string[]): T {
  return secrets.some((secret) => secret.length >= MIN_SECRET) && reaches(value, secrets)
    ? (walk(value, secrets, new Map(), 0) as T)
    : value;
}

type Parts = [items: unknown[], made: unknown, make: (items: unknown[]) => unknown];
const pairs = (items: unknown[]) =>
  items.flatMap((item, i) => (i % 2 ? [] : [[item, items[i + 1]]])) as [string, string][];

/**
 * The parts of a container, an empty one of its kind (to which a cycle may lead while the parts
 * are walked, or `undefined` when none can), and how to make the masked one from masked parts;
 * `undefined` for an object that is no container.
 */
function container(value: object): Parts | undefined {
  if (Array.isArray(value)) {
    const made: unknown[] = [];
    return [[...value], made, (items) => (made.push(...items), made)];
  }
  if (value instanceof Map) {
    const made = new Map();
    return [
      [...value].flat(),
      made,
      (items) => (pairs(items).forEach(([k, v]) => made.set(k, v)), made),
    ];
  }
  if (value instanceof Set) {
    const made = new Set();
    return [[...value], made, (items) => (items.forEach((item) => made.add(item)), made)];
  }
  if (value instanceof URL)
    return [
      [value.href],
      undefined,
      ([h]) => (URL.canParse(h as string) ? new URL(h as string) : h),
    ];
  if (value instanceof Headers)
    return [[...value].flat(), undefined, (items) => new Headers(pairs(items))];
  // A new request without the secret (and without its body).
  if (typeof Request === 'function' && value instanceof Request)
    return [
      [value.url, value.headers],
      undefined,
      ([url, headers]) =>
        new Request(url as string, { method: value.method, headers: headers as Headers }),
    ];
  return undefined;
}

/**
 * An object's own data properties (getters are not called), with an error's `message` and `stack`
 * (which `util.inspect` prints, own or inherited) as data properties.
 */
function own(value: object): [PropertyKey, PropertyDescriptor][] {
  const error = value instanceof Error;
  const out = Reflect.ownKeys(value)
    .filter((key) => !error || (key !== 'message' && key !== 'stack'))
    .map(
      (key) =>
        [key, Object.getOwnPropertyDescriptor(value, key)!] as [PropertyKey, PropertyDescriptor],
    );
  if (error)
    for (const key of ['message', 'stack'] as const)
      out.push([key, { value: value[key], writable: true, configurable: true }]);
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
        for (const part of container(item)?.[0] ?? []) stack.push(['', part]);
        for (const [name, descriptor] of own(item)) stack.push([name, descriptor.value]);
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
  if (depth > MAX_DEPTH) return reaches(value, secrets) ? MASK : value;
  try {
    const out = copy(
      value,
      (item, min) => walk(item, secrets, seen, depth + 1, min),
      secrets,
      seen,
    );
    seen.set(value, out);
    return out;
  } catch {
    return MASK;
  }
}

/**
 * A masked copy of `value`, the same value when nothing in it changed. The copy is made first and
 * known to `seen` while the parts are walked, so that a cycle back to `value` leads to the copy.
 * Any object that is no container (an error, a plain object, one of a class) is copied as its own
 * data properties and their names, masked, on the same prototype; an error whose message lives on
 * its prototype (DOMException) becomes a plain `Error` of the same name.
 */
function copy(
  value: object,
  next: (item: unknown, min?: number) => unknown,
  secrets: readonly string[],
  seen: Map<object, unknown>,
): unknown {
  const parts = container(value);
  if (parts) {
    const [items, made, make] = parts;
    seen.set(value, made ?? value);
    const masked = items.map((item) => next(item));
    return masked.some((item, i) => item !== items[i]) ? make(masked) : value;
  }
  const error = value instanceof Error;
  const made = Object.create(
    error && !Object.hasOwn(value, 'message') ? Error.prototype : Object.getPrototypeOf(value),
  ) as object;
  seen.set(value, made);
  const props: PropertyDescriptorMap = {};
  let changed = false;
  for (const [key, descriptor] of own(value)) {
    const name = typeof key === 'string' ? maskText(key, secrets, MIN_NAMED) : key;
    if ('value' in descriptor) {
      const masked = next(descriptor.value, IDENTIFIERS.has(key) ? MIN_NAMED : MIN_SECRET);
      changed ||= masked !== descriptor.value;
      descriptor.value = masked;
    }
    changed ||= name !== key;
    props[name] = descriptor;
  }
  if (!changed) return value;
  Object.defineProperties(made, props);
  if (error && !Object.hasOwn(value, 'message')) (made as Error).name = (value as Error).name;
  return made;
}
