/**
 * Runs `estimateCost()` in a child process, so that a test can tell "returns" from "blocks the
 * event loop forever" (a synchronous loop cannot be timed out in the test's own process).
 * Reads `[{ usage, model }]` as JSON on stdin; writes one JSON line per case: `{ value }` or
 * `{ error: { name, inference, field, raw } }`.
 */
import { CostEstimateError, estimateCost, InferenceError } from '../../src/index';

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => (input += chunk));
process.stdin.on('end', () => {
  const cases = JSON.parse(input) as { usage: Parameters<typeof estimateCost>[0]; model: Parameters<typeof estimateCost>[1] }[];
  for (const { usage, model } of cases) {
    try {
      process.stdout.write(`${JSON.stringify({ value: estimateCost(usage, model) })}\n`);
    } catch (error) {
      const e = error as Error;
      const cost = error instanceof CostEstimateError ? { field: error.field, raw: error.raw } : {};
      process.stdout.write(`${JSON.stringify({ error: { name: e.name, inference: error instanceof InferenceError, message: e.message, ...cost } })}\n`);
    }
  }
});
