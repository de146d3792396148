/**
 * What a response says of the server's rate limits, read from the header families real servers
 * send, every value bounded: a count is a whole number up to 2^53, a reset at most a day away; a
 * value out of range, negative, NaN or longer than `MAX_FIELD` characters is ignored, never trusted.
 *
 * - OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` (also Groq, Together, Azure
 *   OpenAI, vLLM gateways), the reset a duration (`20ms`, `1s`, `6m0s`, `1h2m3.5s`);
 * - the common `x-ratelimit-{limit,remaining,reset}` (GitHub, many gateways), the reset a number of
 *   seconds to wait, an epoch time in seconds or in milliseconds: a number from 10^9 is epoch
 *   seconds (10^9 s is September 2001), from 10^12 epoch milliseconds, anything smaller a delay in
 *   seconds (no window is 31 years long);
 * - the IETF fields: `RateLimit: limit=10, remaining=1, reset=7` with `RateLimit-Policy: 10;w=1`
 *   (drafts 7 and before, which also had `RateLimit-Limit`, `-Remaining`, `-Reset` as separate
 *   fields), and `RateLimit: "default";r=50;t=30` with `RateLimit-Policy: "default";q=100;w=10`
 *   (drafts 8 and later); with several policies the one with the fewest requests left counts, and
 *   a policy whose quota unit (`qu`) is not requests is left out.
 */

import { decimal } from './retry-after';

/** Header values longer than this are not read (a policy list is a few dozen characters). */
const MAX_FIELD = 1024;

/** What remains of one limit until when. */
export interface Window {
  limit: number | undefined;
  remaining: number;
  /** Epoch ms; `undefined` once passed (the limit is whole again, its next reset unknown). */
  reset: number | undefined;
}

/** The rate-limit headers of a response: requests in the first family that has them, and tokens. */
export function readLimits(
  headers: Headers,
  now: number,
): { requests: Window | undefined; tokens: Window | undefined } {
  const get = (name: string) => {
    const value = headers.get(name);
    return value === null || value.length > MAX_FIELD ? undefined : value.trim();
  };
  const family = (prefix: string, suffix = '') =>
    toWindow(
      get(`${prefix}limit${suffix}`),
      get(`${prefix}remaining${suffix}`),
      get(`${prefix}reset${suffix}`),
      now,
    );
  return {
    requests:
      family('x-ratelimit-', '-requests') ??
      family('x-ratelimit-') ??
      ietf(get('ratelimit'), get('ratelimit-policy'), now) ??
      family('ratelimit-'),
    tokens: family('x-ratelimit-', '-tokens'),
  };
}

function toWindow(
  limit: string | undefined,
  remaining: string | undefined,
  reset: string | undefined,
  now: number,
): Window | undefined {
  const left = count(remaining);
  const at = resetAt(reset, now);
  if (left === undefined || at === undefined) return undefined;
  const most = count(limit);
  return { limit: most! >= left ? most : undefined, remaining: left, reset: at };
}

/**
 * `RateLimit` as drafts 7 and before (`limit=10, remaining=1, reset=7`) or 8 and later
 * (`"default";r=50;t=30`, with `RateLimit-Policy: "default";q=100;w=10` for the limit and unit).
 */
function ietf(value: string | undefined, policy = '', now: number): Window | undefined {
  if (value === undefined) return undefined;
  const items = members(value);
  const policies = members(policy);
  const all = Object.assign({}, ...items);
  if (all.remaining !== undefined)
    return toWindow(all.limit ?? policies[0]?.[''], all.remaining, all.reset, now);
  let tightest: Window | undefined;
  for (const item of items) {
    const quota = policies.find((p) => p[''] === item['']);
    const window =
      (quota?.qu ?? 'requests') === 'requests'
        ? toWindow(quota?.q, item.r, item.t, now)
        : undefined;
    if (window && window.remaining < (tightest?.remaining ?? Infinity)) tightest = window;
  }
  return tightest;
}

/**
 * The members of a structured-field list or dictionary: every `key=value` in each (quotes
 * removed), and under `''` its name.
 */
function members(value: string): Record<string, string | undefined>[] {
  return value.split(',').map((member) =>
    Object.fromEntries([
      [
        '',
        member
          .split(/[;=]/)[0]!
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      ],
      ...[...member.matchAll(/([\w-]+)\s*=\s*"?([^";,]*)/g)].map(([, key, v]) => [key, v!.trim()]),
    ]),
  );
}

/** A count: a plain decimal number from 0 (no sign, exponent or hex; a fraction rounded down), at most 2^53. */
function count(value: string | undefined): number | undefined {
  const n = decimal(value);
  return n === undefined ? n : Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER);
}

const UNITS: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 1e-3,
  µs: 1e-3,
  ns: 1e-6,
};

/**
 * When a limit resets, in epoch ms: a number (epoch ms from 10^12, epoch seconds from 10^9, else
 * seconds to wait) or a duration (`1h2m3.5s`, `20ms`); `undefined` when past or more than a day
 * away, or not a time at all.
 */
function resetAt(value: string | undefined, now: number): number | undefined {
  let ms = decimal(value);
  if (ms !== undefined) ms = ms >= 1e12 ? ms - now : ms >= 1e9 ? ms * 1000 - now : ms * 1000;
  else if (value && /^(\d+(\.\d+)?(h|ms|m|s|us|µs|ns))+$/.test(value)) {
    ms = 0;
    for (const [, n, unit] of value.matchAll(/([\d.]+)(ms|h|m|s|us|µs|ns)/g))
      ms += Number(n) * UNITS[unit!]!;
  }
  return ms! >= 0 && ms! <= 86_400_000 ? now + Math.ceil(ms!) : undefined;
}
