/**
 * A batch from a file to a file, resumable: the input is checked whole first (every bad line
 * named, nothing sent), the output is read for the lines that already have a result (a torn last
 * line, left by a killed writer, is cut off and its line run again), and each result is appended
 * as one whole line by one write. Node's file system (also in Bun and Deno).
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  existsSync,
  fsyncSync,
  openSync,
  readSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CostTracker, InferenceError, type Client } from 'model-inference-sdk';
import { readLines } from './lines';
import { BatchInputError, readBatchInput, type BatchInputProblem } from './input';
import { checkShard, type Shard } from './hash';
import { IdSet } from './id-set';
import { modelPrices } from './prices';
import { runBatch, runLimits, type BatchResult, type BatchSummary } from './runner';
import type { BatchOutputLine } from './output';

/**
 * Options of {@link runBatchFile}.
 *
 * @example
 * ```ts
 * const options: BatchFileOptions = { input: 'requests.jsonl', output: 'results.jsonl', concurrency: 8, maxCost: '5' };
 * ```
 */
export interface BatchFileOptions {
  /** Path of the input JSONL (OpenAI Batch input format). */
  input: string;
  /** Path of the output JSONL (OpenAI Batch output format): created, or resumed when it exists. */
  output: string;
  /** Most lines in flight at once (default 16). */
  concurrency?: number | undefined;
  /** Stop starting lines once the cost so far (lines done before included) reaches this amount. */
  maxCost?: string | number | undefined;
  /** Only this shard's lines (by a hash of `custom_id`; 1-based `index` of `count`). */
  shard?: Shard | undefined;
  /** Leave out the lines that cannot be run (reported to `onInvalid`) instead of refusing the input. */
  skipInvalid?: boolean | undefined;
  signal?: AbortSignal | undefined;
  /** Called once the input is checked and the output read: how many lines are to run. */
  onStart?: ((plan: BatchPlan) => void) | undefined;
  /** Called with each result once its line is written. A callback that throws stops the run. */
  onResult?: ((result: BatchResult) => void) | undefined;
  /** With `skipInvalid`: called for each line left out. */
  onInvalid?: ((problem: BatchInputProblem) => void) | undefined;
}

/**
 * What a file run is about to do.
 *
 * @example
 * ```ts
 * onStart: ({ total, resumed, toRun }) => console.log(`${resumed} of ${total} already done; running ${toRun}`)
 * ```
 */
export interface BatchPlan {
  /** Requests in the input (in the shard, if given), the invalid ones left out. */
  total: number;
  /** Of those, the lines that already had a result in the output. */
  resumed: number;
  /** Of `resumed`, the lines whose result is a failure (`error` set): not sent again either. */
  failedBefore: number;
  /** Lines to run now. */
  toRun: number;
  /** Lines that cannot be run, left out (`skipInvalid`). */
  invalid: number;
  /** Whether a torn last output line (a writer killed mid-line) was cut off. */
  tornLine: boolean;
  /** Tokens and cost of the lines done before (exact decimal string). */
  tokensBefore: number;
  costBefore: string;
}

/**
 * A file run's summary: the run's, with its plan.
 *
 * @example
 * ```ts
 * const { done, failed, resumed, costs } = await runBatchFile(client, { input, output });
 * ```
 */
export interface BatchFileSummary extends BatchSummary, BatchPlan {}

/**
 * Run a batch input file into an output file, or resume it: running it again after a crash, a
 * SIGKILL or Ctrl-C sends only the lines without a result in the output. A line that was in
 * flight when the process died is sent again (at least once), with the same idempotency key.
 * One run per output file at a time. An output that is not a batch output, is the input file, or
 * holds a result of another line under a `custom_id` of the input (the input changed since) is
 * refused with an `InferenceError` before anything is sent, the file left as it is.
 *
 * @throws BatchInputError when input lines cannot be run (each named with its line number, up
 * to 100), before anything is sent, unless `skipInvalid`.
 * @example
 * ```ts
 * import { Client } from 'model-inference-sdk';
 * import { runBatchFile } from 'model-inference-sdk/batch';
 *
 * const summary = await runBatchFile(new Client(), { input: 'requests.jsonl', output: 'results.jsonl' });
 * console.log(`${summary.done} done, ${summary.failed} failed, cost ${summary.costs.cost.total}`);
 * ```
 */
export async function runBatchFile(
  client: Client,
  options: BatchFileOptions,
): Promise<BatchFileSummary> {
  const { input, output, shard } = options;
  if (typeof input !== 'string' || typeof output !== 'string' || input === '' || output === '')
    throw new InferenceError('runBatchFile: `input` and `output` must be file paths.');
  // Checked before any file is read (a torn output line would be cut off first).
  checkShard(shard, 'runBatchFile');
  runLimits(options);
  if (!existsSync(input))
    throw new InferenceError(`runBatchFile: no input file ${JSON.stringify(input)}.`);
  // Both are read to the end before anything is sent: the input twice, the output to resume. A
  // pipe would give its lines once (nothing to run the second time), a terminal never ends.
  for (const [what, file, hint] of [
    ['input', input, 'save it to a file first'],
    ['output', output, 'give the path of a file'],
  ] as const)
    if (existsSync(file) && !statSync(file).isFile())
      throw new InferenceError(
        `runBatchFile: the ${what} ${JSON.stringify(file)} is not a regular file (a pipe, a device or a directory), and it is read to the end before anything is sent: ${hint}.`,
      );
  if (existsSync(output) && sameFile(input, output))
    throw new InferenceError(
      `runBatchFile: the output ${JSON.stringify(output)} is the input file; give another path.`,
    );
  if (!existsSync(dirname(resolve(output))))
    throw new InferenceError(
      `runBatchFile: no directory ${JSON.stringify(dirname(output))} for the output ${JSON.stringify(output)}.`,
    );
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // Every line checked before anything is sent; each request's custom_id kept with the first
    // 32 bits of its output id, to tell an output line of this input from one of another.
    const inputIds = new IdSet();
    const problems: BatchInputProblem[] = [];
    let invalid = 0;
    for await (const request of readBatchInput(client, createReadStream(input), {
      shard,
      signal: stop.signal,
      onInvalid: (problem) => {
        if (invalid++ < 100) problems.push(problem);
      },
    }))
      inputIds.add(request.custom_id, idBits(request.text));
    if (invalid > 0 && !options.skipInvalid) throw new BatchInputError(problems, invalid);
    const prices = modelPrices(client, stop.signal);
    const costs = new CostTracker();
    const previous = await readBatchOutput(output, inputIds, costs, prices);
    const plan: BatchPlan = {
      total: inputIds.size,
      resumed: previous.done.size,
      failedBefore: previous.failed,
      toRun: inputIds.size - previous.done.size,
      invalid,
      tornLine: previous.tornLine,
      tokensBefore: costs.report().tokens.total,
      costBefore: costs.report().cost.total,
    };
    options.onStart?.(plan);
    const requests = readBatchInput(client, createReadStream(input), {
      shard,
      skip: previous.done,
      onInvalid: (problem) => options.onInvalid?.(problem),
    });
    const run = runBatch(client, requests, {
      concurrency: options.concurrency,
      maxCost: options.maxCost,
      signal: stop.signal,
      costs,
      prices,
    });
    const fd = openSync(output, 'a');
    try {
      // The next line must not be glued onto a last line that has no line end.
      if (previous.unended) writeAll(fd, '\n');
      for await (const result of run) {
        // One write of one whole line: a process killed now leaves whole lines behind, or a torn
        // last one that the next run cuts off (readBatchOutput).
        writeAll(fd, `${JSON.stringify(result.output)}\n`);
        options.onResult?.(result);
      }
    } finally {
      fsyncSync(fd);
      closeSync(fd);
    }
    return { ...(await run.summary()), ...plan };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
}

function sameFile(a: string, b: string): boolean {
  const [x, y] = [statSync(a), statSync(b)];
  return x.ino !== 0 && x.ino === y.ino && x.dev === y.dev;
}

/** The first 32 bits of the SHA-256 of a line's text: of its output id (`lineIdentity()`). */
function idBits(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** What every output line starts with (runBatchFile writes `id` first). */
const OUTPUT_START = '{"id":"batch_req_';

/**
 * The `custom_id`s of `requests` the output file already has a result for, their usage added to
 * `costs`; a torn last line (a writer killed mid-line: no line end, the start of an output line)
 * is cut off the file. The lines of other `custom_id`s (another shard's) are left as they are;
 * any line that is not an output line, or is the result of another line with a `custom_id` of
 * `requests` (the input changed since), stops the run: the file is not this runner's to rewrite.
 */
async function readBatchOutput(
  path: string,
  requests: IdSet,
  costs: CostTracker,
  priceOf: ReturnType<typeof modelPrices>,
): Promise<{ done: IdSet; failed: number; tornLine: boolean; unended: boolean }> {
  const done = new IdSet();
  let failed = 0;
  if (!existsSync(path)) return { done, failed, tornLine: false, unended: false };
  // Bytes of whole output lines, from a UTF-8 BOM (a file saved by a Windows editor) if any: the
  // decoder drops it from the text, and a torn line is cut off at this offset.
  let good = startsWithBom(path) ? 3 : 0;
  let unended = false;
  for await (const line of readLines(createReadStream(path))) {
    if (line.text.trim() === '') {
      good += Buffer.byteLength(line.text) + (line.crlf ? 2 : 1);
      continue;
    }
    const value = parse(line.text) as Partial<BatchOutputLine> | undefined;
    const id = /^batch_req_([0-9a-f]{24})$/.exec(String(value?.id))?.[1];
    const customId = value?.custom_id;
    const whole =
      id !== undefined && typeof customId === 'string' && 'response' in value! && 'error' in value!;
    if (!line.ended && !whole) {
      // No line end and not a whole output line: the start of one, torn by a killed writer.
      const text = line.text.trimStart();
      if (!(text.startsWith(OUTPUT_START) || OUTPUT_START.startsWith(text)))
        throw notOutput(path, line.number);
      truncateSync(path, good);
      return { done, failed, tornLine: true, unended: false };
    }
    // A whole last line without its line end (a writer killed between the two) is a result.
    if (!line.ended) unended = true;
    good += Buffer.byteLength(line.text) + (line.crlf ? 2 : 1);
    if (!whole) throw notOutput(path, line.number);
    const bits = requests.get(customId);
    if (bits === undefined) continue;
    if (bits !== parseInt(id.slice(0, 8), 16))
      throw new InferenceError(
        `runBatchFile: line ${line.number} of ${JSON.stringify(path)} is the result of another input line with custom_id ${JSON.stringify(customId)} (the input changed since); run the input it was written for, or give another --output.`,
      );
    if (done.add(customId) !== undefined) continue;
    const body = (value.response as { body?: { usage?: unknown; model?: unknown } } | null)?.body;
    if (value.error != null) failed++;
    else if (body?.usage) {
      try {
        costs.add(body.usage as never, await priceOf(body.model));
      } catch {
        // usage the tracker cannot add: counted nowhere, as in the run itself
      }
    }
  }
  return { done, failed, tornLine: false, unended };
}

function startsWithBom(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(3);
    return readSync(fd, head, 0, 3, 0) === 3 && head.equals(BOM);
  } finally {
    closeSync(fd);
  }
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function notOutput(path: string, line: number): InferenceError {
  return new InferenceError(
    `runBatchFile: line ${line} of ${JSON.stringify(path)} is not a batch output line; it is not this runner's to overwrite (move the file, or give another --output).`,
  );
}
