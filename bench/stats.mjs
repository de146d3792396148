// @ts-check
// The statistics of `npm run bench` (run.mjs): a series summed up as its median, min and max, and
// a figure written for the table.

/** @param {number[]} values */
export function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { median: median ?? NaN, min: sorted[0] ?? NaN, max: sorted[sorted.length - 1] ?? NaN, n: sorted.length };
}

/** @param {number} x */
export function fmt(x) {
  if (!Number.isFinite(x)) return '–';
  const abs = Math.abs(x);
  return abs >= 100 ? x.toFixed(0) : abs >= 10 ? x.toFixed(1) : x.toFixed(2);
}
