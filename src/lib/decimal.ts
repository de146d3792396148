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
 * Read a price as sent: a decimal string (`"0.15"`, the service's form) or a JSON number
 * (Perplexity), including exponent forms such as `1e-7`. `undefined` when it is not a number.
 */
export function parseDecimal(value: string | number): Decimal | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const digits = `${whole}${fraction}` || '0';
  let units = BigInt(digits) * (sign === '-' ? -1n : 1n);
  let scale = fraction.length - Number(exponent);
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
  return { units: a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale), scale };
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
    const point = digits.length - a.scale;
    digits = `${digits.slice(0, point)}.${digits.slice(point)}`.replace(/\.?0+$/, '');
  }
  return negative && digits !== '0' ? `-${digits}` : digits;
}
