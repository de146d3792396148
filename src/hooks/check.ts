/**
 * Checking the `hooks` option (the client's and a request's): every name known, every hook a
 * function, each hooks object named as a `HookError` will name it; and the duck-typed checks of what
 * a hook returns. Its own file so that hooks/runner.ts is only the running of a call's hooks; it is
 * loaded with it (by `import()`, at the first call that has hooks), never at client construction.
 */
import { InferenceError } from '../errors/api';
import type { HookName, Hooks } from '../options/hooks';
import { closest, didYouMean } from '../util/suggest';

const HOOK_NAMES: readonly HookName[] = [
  'beforeRequest',
  'afterResponse',
  'beforeRetry',
  'onChunk',
  'onError',
  'onEnd',
];

/** One hooks object and how a `HookError` names it. */
export interface Entry {
  hooks: Hooks;
  source: string;
}

/** The hooks of one level (`new Client({ hooks })` or a request's), checked: every name known, every hook a function. */
export function entries(
  hooks: Hooks | readonly Hooks[] | undefined,
  from: 'client' | 'request',
): Entry[] {
  if (hooks === undefined) return [];
  const where = from === 'client' ? 'new Client({ hooks })' : 'The request option `hooks`';
  return (Array.isArray(hooks) ? (hooks as readonly unknown[]) : [hooks]).map((value, i) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new InferenceError(
        `${where}: hooks must be an object of hook functions, or an array of them; got ${describe(value)}${Array.isArray(hooks) ? ` at [${i}]` : ''}.`,
      );
    }
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const hook = object[key];
      if (key === 'name') {
        if (hook !== undefined && typeof hook !== 'string')
          throw new InferenceError(`${where}: \`name\` must be a string; got ${describe(hook)}.`);
      } else if (!(HOOK_NAMES as readonly string[]).includes(key)) {
        throw new InferenceError(
          `${where}: unknown hook \`${key}\`.${didYouMean(closest(key, HOOK_NAMES), '`')} Hooks: ${HOOK_NAMES.join(', ')}.`,
        );
      } else if (hook !== undefined && typeof hook !== 'function') {
        throw new InferenceError(`${where}: \`${key}\` must be a function; got ${describe(hook)}.`);
      }
    }
    const name = object.name as string | undefined;
    return { hooks: object as Hooks, source: name ? `"${name}"` : `${from} hooks[${i}]` };
  });
}

/** Whether a hook's value has the members of a `T` (a `Request`, a `Response`): duck-typed, since a polyfill's or another realm's instance is not `instanceof` this one's. */
export function isLike<T>(value: unknown, ...keys: string[]): value is T {
  return typeof value === 'object' && value !== null && keys.every((key) => key in value);
}

export function describe(value: unknown): string {
  return value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object of another kind'
        : `a ${typeof value}`;
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
