/**
 * `model-inference-sdk/batch`: many requests from a JSONL file in the OpenAI Batch format, run
 * through a `Client` (its retries and its limiter), written as the OpenAI Batch output format, and
 * resumable after a crash. See docs/batch.md.
 *
 * @example
 * ```ts
 * import { Client } from 'model-inference-sdk';
 * import { runBatchFile } from 'model-inference-sdk/batch';
 *
 * const summary = await runBatchFile(new Client(), { input: 'requests.jsonl', output: 'results.jsonl' });
 * ```
 *
 * @module
 */
export { runBatch, lineIdentity } from './runner';
export type { BatchOptions, BatchResult, BatchRun, BatchSummary } from './runner';
export { readBatchInput, checkBatchInput, BatchInputError, BATCH_URLS } from './input';
export type { BatchInputLine, BatchRequest, BatchInputProblem, BatchInputOptions } from './input';
export type { BatchOutputLine } from './output';
export { runBatchFile } from './file';
export type { BatchFileOptions, BatchFileSummary, BatchPlan } from './file';
export { readLines } from './lines';
export type { TextLine, LineSource } from './lines';
export { inShard } from './hash';
export type { Shard } from './hash';
