/**
 * Paths into a JSON value, as validation issues report them: `['choices', 0, 'message']` is
 * `choices[0].message`.
 */

/** `['choices', 0, 'message']` → `choices[0].message`; `[]` → `''`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** The value at `path` (own properties only, so `__proto__` finds nothing), or `undefined`. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key))
      return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
