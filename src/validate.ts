/**
 * Schema check of a response body → the typed value, or a `ResponseValidationError` that lists
 * each problem's path and the value found there. The policy (`'error'`, `'warn'`, `'off'`) is
 * the client's `validation` option.
 *
 * The responses that matter for speed (chat completions, their stream chunks, legacy
 * completions) first go through a hand-written fast path (src/fast/) that accepts what the zod
 * schema accepts for the shapes servers send and returns the same value; anything it is not sure
 * of goes to the zod schema, so errors and their messages are zod's. About ten times cheaper
 * than zod per chunk; test/fast-path.test.ts holds the two to each other.
 */
import type { ZodMiniType } from 'zod/mini';
import { ResponseValidationError, type RequestTarget, type ValidationIssue } from './errors';
import type { FastPath, LazySchema } from './fast/schemas';
import type { Log } from './log';
import { formatPath, valueAt } from './path';
import type { ValidationMode } from './options';

/** A zod schema, or a `LazySchema` (a fast path, and the zod schema imported on first need). */
export type Schema<T> = ZodMiniType<T> | LazySchema<T>;

/** Where the value came from, for the error message. */
export interface ValidationContext {
  mode: ValidationMode;
  log: Log;
  target: RequestTarget;
  status: number;
  headers?: Headers | undefined;
  /** What is being checked, e.g. `'response'` or `'stream event'`. */
  what?: string;
}

/** Minimal view of a zod issue (zod/mini issues carry no readable message of their own). */
interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  expected?: string;
  errors?: ZodIssueLike[][];
  values?: unknown[];
  message?: string;
}

/**
 * Check `value` against `schema` (after `fast`, when given and sure). With mode `'off'` the
 * value is returned unchecked; with `'warn'` a mismatch is logged and the value returned as received.
 */
export function validate<T>(schema: ZodMiniType<T>, value: unknown, ctx: ValidationContext, fast?: FastPath<T>): T {
  if (ctx.mode === 'off') return value as T;
  return fast?.(value) ?? check(schema, value, ctx);
}

/**
 * A check of many values against one schema (a stream's events), with the lookups done once.
 * It returns a promise only when a `LazySchema` has to load its zod schema.
 */
export function checker<T>(schema: Schema<T>, ctx: ValidationContext): (value: unknown) => T | Promise<T> {
  if (ctx.mode === 'off') return (value) => value as T;
  if (!isLazy(schema)) return (value) => check(schema, value, ctx);
  const fast = schema.fast;
  let loaded: ZodMiniType<T> | undefined;
  return (value) => {
    const out = fast?.(value);
    if (out !== undefined) return out;
    if (loaded) return check(loaded, value, ctx);
    return schema.load().then((full) => {
      loaded = full;
      return check(full, value, ctx);
    });
  };
}

function isLazy<T>(schema: Schema<T>): schema is LazySchema<T> {
  return typeof (schema as Partial<LazySchema<T>>).load === 'function';
}

/** The full check with zod. */
function check<T>(schema: ZodMiniType<T>, value: unknown, ctx: ValidationContext): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const error = new ResponseValidationError(ctx.target, {
    issues: (result.error.issues as ZodIssueLike[]).map((issue) => toIssue(issue, value)),
    raw: value,
    status: ctx.status,
    headers: ctx.headers,
    what: ctx.what,
  });
  if (ctx.mode === 'error') throw error;
  ctx.log.warn(error.message);
  return value as T;
}

function toIssue(issue: ZodIssueLike, root: unknown): ValidationIssue {
  const received = valueAt(root, issue.path);
  return { path: formatPath(issue.path), message: describe(issue, received), received };
}

function describe(issue: ZodIssueLike, received: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return received === undefined
        ? `required ${issue.expected ?? 'value'} is missing`
        : `expected ${issue.expected ?? 'another type'}, got ${typeName(received)}`;
    case 'invalid_union': {
      // List what each alternative wanted at this spot (e.g. "string, null or array").
      const wanted = new Set<string>();
      for (const branch of issue.errors ?? []) {
        const first = branch[0];
        if (first) wanted.add(first.path.length === 0 && first.expected ? first.expected : 'object of another shape');
      }
      return `expected ${[...wanted].join(' or ') || 'another shape'}, got ${typeName(received)}`;
    }
    case 'invalid_value':
      return `expected one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(received)}`;
    default:
      return issue.message && issue.message !== 'Invalid input' ? issue.message : `invalid value (${issue.code})`;
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
