/**
 * A response body (or stream event) → the value the types promise. The generated normalizer
 * (src/generated/normalize.gen.ts, from spec/openapi.yaml) reads it into the contract's shape in
 * place; what it cannot read is an issue. The client's `validation` option says what an issue does:
 * `'error'` throws a `ResponseValidationError`, `'warn'` logs it, `'off'` says nothing. With
 * `'warn'` and `'off'` the value is returned read as far as it could be: every field that could be
 * read is in the contract's shape, the others are as the server sent them.
 */
import type { RequestTarget } from '../errors/api';
import { ResponseValidationError, type ValidationIssue } from '../errors/validation';
import type { NormalizeContext, NormalizeIssue } from '../generated/normalize.gen';
import type { Log } from '../util/log';
import type { ValidationMode } from '../options/types';
import { formatPath } from '../util/path';
import { jsonOrText } from '../util/json';

/** A generated `normalize<Name>` function. */
export type Normalizer<T> = (value: unknown, cx: NormalizeContext) => T;

/** Where the value came from, for the error message. */
export interface ValidationContext {
  mode: ValidationMode;
  log: Log;
  target: RequestTarget;
  status: number;
  headers?: Headers | undefined;
  /** What is being checked, e.g. `'response'` or `'stream event'`. */
  what?: string | undefined;
}

/**
 * A check of values against one normalizer (a response, or each event of a stream). `text` is the
 * JSON the value was parsed from: an error's `raw` is parsed from it again, because the value itself
 * was partly rewritten by the time an issue is found.
 */
export function validator<T>(
  normalize: Normalizer<T>,
  ctx: ValidationContext,
): (value: unknown, text?: string) => T {
  const cx: NormalizeContext = { issues: [] };
  return (value, text) => {
    const out = normalize(value, cx);
    if (cx.issues.length === 0) return out;
    const issues = cx.issues;
    cx.issues = [];
    const error = new ResponseValidationError(ctx.target, {
      issues: issues.map(toIssue),
      raw: text === undefined ? value : jsonOrText(text),
      status: ctx.status,
      headers: ctx.headers,
      what: ctx.what,
      relaxable: true,
    });
    if (ctx.mode === 'error') throw error;
    if (ctx.mode === 'warn') ctx.log.warn(error.message);
    return out;
  };
}

function toIssue(issue: NormalizeIssue): ValidationIssue {
  return { path: formatPath(issue.path), message: issue.message, received: issue.received };
}
