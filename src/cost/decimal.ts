/**
 * Exact decimal arithmetic for prices, on bigint: a value is `units / 10^scale`. Only what cost
 * estimates need (parse, multiply by a whole number, add, shift, format), so no float ever
 * touches a price: 0.1 + 0.2 is 0.3 here.
 */

export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * The most digits (before and after the point together) a price may have. Every JSON number, read
 * as its exact decimal string by the normalizer, has fewer (`5e-324` is 325 digits); past this a
 * string is hostile, not a price, and would only cost time.
 */
export const MAX_DIGITS = 400;

/**
 * The largest exponent, up or down, a price may be written with. Expanding `1e999999999` would
 * build a billion-digit number (it never finishes); every double is within `1e±400`.
 */
export const MAX_EXPONENT = 400;

/**
 * Read a price as sent: a decimal string (`"0.15"`, the service's form) or a JSON number
 * (Perplexity), including exponent forms such as `1e-7`. `undefined` when it is not a number, or
 * has more than {@link MAX_DIGITS} digits or an exponent beyond ±{@link MAX_EXPONENT}: the work
 * is bounded whatever a server sends.
 */
export function parseDecimal(value: string | number): Decimal | undefined {
  const read = readDecimal(value);
  return typeof read === 'string' ? undefined : read;
}

/** {@link parseDecimal}, saying why a value is refused: `'not a number'`, `'too many digits'` or `'exponent too large'`. */
export function readDecimal(
  value: string | number,
): Decimal | 'not a number' | 'too many digits' | 'exponent too large' {
  const text =
    typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  // Checked before the pattern runs: a megabyte of digits is refused without being scanned.
  if (text.length > 2 * MAX_DIGITS)
    return /^[+-]?[\d.]/.test(text) ? 'too many digits' : 'not a number';
  const match = DECIMAL.exec(text);
  if (!match) return 'not a number';
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return 'not a number';
  const digits = `${whole}${fraction}` || '0';
  if (digits.length > MAX_DIGITS) return 'too many digits';
  const power = Number(exponent);
  if (!(Math.abs(power) <= MAX_EXPONENT)) return 'exponent too large';
  let units = BigInt(digits) * (sign === '-' ? -1n : 1n);
  let scale = fraction.length - power;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units, scale };
}

export function multiply(a: Decimal, factor: number | bigint): Decimal {
  return { units: a.units * BigInt(factor), scale: a.scale };
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return {
    units: a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale),
    scale,
  };
}

/** Divide by 10^digits (e.g. 6 for a price per million tokens). Exact. */
export function shift(a: Decimal, digits: number): Decimal {
  return { units: a.units, scale: a.scale + digits };
}

/** Plain decimal notation without trailing zeros: `0.000015`, `12`, `-0.5`. */
export function formatDecimal(a: Decimal): string {
  const negative = a.units < 0n;
  let digits = (negative ? -a.units : a.units).toString();
  if (a.scale > 0) {
    digits = digits.padStart(a.scale + 1, '0');
    // Trailing zeros of the fraction dropped by one scan from the end (a regex such as /0+$/
    // retries from every zero: quadratic on a long fraction).
    let end = digits.length;
    while (end > digits.length - a.scale && digits.charCodeAt(end - 1) === 48) end--;
    const point = digits.length - a.scale;
    digits =
      end > point
        ? `${digits.slice(0, point)}.${digits.slice(point, end)}`
        : digits.slice(0, point);
  }
  return negative && digits !== '0' ? `-${digits}` : digits;
}
