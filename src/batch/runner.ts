/**
 * The batch runner: requests in, output lines out in the order they complete, at most
 * `concurrency` in flight (and within the client's limiter, which keeps to the server's limits),
 * with exact cost totals from each model's pricing. It knows nothing of files (file.ts does).
 */
import {
  APIUserAbortError,
  CostTracker,
  InferenceError,
  type Client,
  type CostEstimate,
  type CostReport,
  type CallSummary,
} from 'model-inference-sdk';
import { add, multiply, readDecimal, type Decimal } from '../cost/decimal';
import { sha256Hex } from './hash';
import { modelPrices, type PricedModel } from './prices';
import { send, type BatchRequest } from './input';
import { failed, isError, succeeded, type BatchOutputLine } from './output';

/**
 * Options of {@link runBatch}.
 *
 * @example
 * ```ts
 * const options: BatchOptions = { concurrency: 8, maxCost: '2.50', signal: AbortSignal.timeout(3_600_000) };
 * ```
 */
export interface BatchOptions {
  /** Most lines in flight at once (default 16); the client's limiter may send fewer at a time. */
  concurrency?: number | undefined;
  /** Stops the run: no line starts, the lines in flight are aborted (they have no result, and run again on a resume). */
  signal?: AbortSignal | undefined;
  /**
   * Stop starting lines once the cost so far reaches this amount (a decimal string or number, in
   * the models' prices' unit); the lines in flight finish. Summed exactly (`CostTracker`).
   */
  maxCost?: string | number | undefined;
  /**
   * The totals to add to: a resumed run's tracker holds what the lines done before cost, so
   * `maxCost` counts them too. Default: a new one.
   */
  costs?: CostTracker | undefined;
  /** How a line's model is priced; default: `client.models.retrieve()`, once per model. @internal */
  prices?: ((slug: unknown) => Promise<PricedModel>) | undefined;
}

/**
 * One line's result: its output line, its request, and its cost when its model has prices.
 *
 * @example
 * ```ts
 * for await (const { output, cost } of run) console.log(output.custom_id, output.error?.message ?? cost?.total);
 * ```
 */
export interface BatchResult {
  output: BatchOutputLine;
  request: BatchRequest;
  /** What the line cost, from its model's pricing; `undefined` when unpriced or failed. */
  cost: CostEstimate | undefined;
}

/**
 * How a run ended.
 *
 * @example
 * ```ts
 * const { done, failed, costs, stopped } = await run.summary();
 * console.log(`${done} done, ${failed} failed, ${costs.tokens.total} tokens, cost ${costs.cost.total}`, stopped ?? '');
 * ```
 */
export interface BatchSummary {
  /** Lines answered successfully in this run. */
  done: number;
  /** Lines that failed after their retries in this run (their output line has `error`). */
  failed: number;
  /** Why the run stopped before its input ended: `'max-cost'` or `'aborted'`; `undefined` when it ran to the end. */
  stopped: 'max-cost' | 'aborted' | undefined;
  /** Tokens and exact cost, in total and per model (with those of `options.costs`, if given). */
  costs: CostReport;
  /** Milliseconds from start to end. */
  durationMs: number;
}

/**
 * A running batch: iterate it for each line's result as it completes, or call `summary()`.
 *
 * @example
 * ```ts
 * const run = runBatch(client, requests);
 * for await (const result of run) console.log(JSON.stringify(result.output));
 * console.log(await run.summary());
 * ```
 */
export interface BatchRun extends AsyncIterable<BatchResult> {
  /** The run's summary once it has ended; runs it to the end (results unread) if nobody iterates it. */
  summary(): Promise<BatchSummary>;
  /** Stop: as `options.signal` does. */
  abort(): void;
}

/**
 * The idempotency key and output id of a line: from the SHA-256 of its text, the same on every run.
 *
 * @example
 * ```ts
 * import { lineIdentity } from 'model-inference-sdk/batch';
 *
 * const { key, id } = await lineIdentity('{"custom_id":"q-1","method":"POST","url":"/v1/chat/completions","body":{}}');
 * // key: 'batch-' and 32 hex digits; id: 'batch_req_' and 24
 * ```
 */
export async function lineIdentity(text: string): Promise<{ key: string; id: string }> {
  const hash = await sha256Hex(text);
  return { key: `batch-${hash.slice(0, 32)}`, id: `batch_req_${hash.slice(0, 24)}` };
}

/** `concurrency` and `maxCost` checked: runBatchFile() checks them before it reads a file. @internal */
export function runLimits(options: BatchOptions): {
  concurrency: number;
  maxCost: Decimal | undefined;
} {
  const concurrency = options.concurrency ?? 16;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new InferenceError(
      `runBatch: \`concurrency\` must be a whole number from 1; got ${String(concurrency)}.`,
    );
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal))
    throw new InferenceError('runBatch: `signal` must be an AbortSignal.');
  const maxCost = options.maxCost === undefined ? undefined : readDecimal(options.maxCost);
  if (typeof maxCost === 'string' || (maxCost !== undefined && maxCost.units < 0n))
    throw new InferenceError(
      `runBatch: \`maxCost\` must be a decimal amount of 0 or more; got ${typeof options.maxCost === 'string' ? JSON.stringify(options.maxCost) : String(options.maxCost)}.`,
    );
  return { concurrency, maxCost };
}

/**
 * Run batch requests (checked lines: `readBatchInput()`), `concurrency` at a time. Each line is
 * sent once with its own idempotency key (derived from its text, so a resumed run sends the same
 * key again) and retried as any call of the client; a line that still fails has `error` in its
 * output line. Ends without throwing when aborted or stopped by `maxCost` (`summary().stopped`);
 * throws when `requests` does.
 *
 * @example
 * ```ts
 * import { readBatchInput, runBatch } from 'model-inference-sdk/batch';
 *
 * const run = runBatch(client, readBatchInput(client, file.stream()), { concurrency: 8 });
 * for await (const { output } of run) out.write(`${JSON.stringify(output)}\n`);
 * const { done, failed, costs } = await run.summary();
 * ```
 */
export function runBatch(
  client: Client,
  requests: AsyncIterable<BatchRequest> | Iterable<BatchRequest>,
  options: BatchOptions = {},
): BatchRun {
  const { concurrency, maxCost } = runLimits(options);
  const costs = options.costs ?? new CostTracker();
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  const started = Date.now();
  let done = 0;
  let failures = 0;
  let stopped: BatchSummary['stopped'];
  let iterating = false;
  let end: Promise<BatchSummary> | undefined;
  let finish!: (summary: BatchSummary) => void;
  const ended = new Promise<BatchSummary>((resolve) => (finish = resolve));

  const priceOf = options.prices ?? modelPrices(client, stop.signal);
  // A signal of its own per line in flight, all aborted by `stop` through one listener: one
  // shared signal would gather a listener per call (and Node's warning past 10).
  const lineSignals = new Set<AbortController>();
  stop.signal.addEventListener('abort', () => {
    for (const line of lineSignals) line.abort(stop.signal.reason);
  });

  const costReached = () => {
    if (maxCost === undefined) return false;
    const total = readDecimal(costs.report().cost.total) as Decimal;
    return add(total, multiply(maxCost, -1n)).units >= 0n;
  };

  async function runOne(request: BatchRequest): Promise<BatchResult | undefined> {
    const { key, id } = await lineIdentity(request.text);
    if (stop.signal.aborted) return undefined;
    const line = new AbortController();
    lineSignals.add(line);
    try {
      return await answer(request, key, id, line.signal);
    } finally {
      lineSignals.delete(line);
    }
  }

  async function answer(
    request: BatchRequest,
    key: string,
    id: string,
    signal: AbortSignal,
  ): Promise<BatchResult | undefined> {
    let output: BatchOutputLine | undefined;
    let cost: CostEstimate | undefined;
    try {
      // What is written is the copy `onEnd` gets: the SDK has masked the key in it, should the
      // server echo it (the output is a file, and the key never reaches one).
      // So is its request id: the one the `afterResponse` hook sees (a server may echo the key
      // as its x-request-id, and the response the call resolves to is not masked).
      let data: unknown;
      let requestId: string | null = null;
      const hooks = {
        name: 'batch',
        afterResponse: (shown: Response) => void (requestId = shown.headers.get('x-request-id')),
        onEnd: (summary: CallSummary) => void (data = summary.data),
      };
      const { data: answer, response } = await send(client, request, {
        signal,
        idempotencyKey: key,
        hooks,
      });
      data ??= answer;
      output = succeeded(id, request.custom_id, data, response.status, requestId);
      const usage = (data as { usage?: unknown }).usage;
      if (usage) {
        try {
          // Priced by the model that answered (as a resumed run prices the lines done before).
          const model = (data as { model?: unknown }).model;
          cost = costs.add(
            usage as never,
            await priceOf(typeof model === 'string' ? model : request.body['model']),
          );
        } catch {
          // Usage the tracker cannot add (not whole numbers): the answer is kept, its cost unknown.
        }
      }
      done++;
    } catch (error) {
      if (stop.signal.aborted && isError(error, 'APIUserAbortError')) return undefined;
      output = failed(id, request.custom_id, error);
      if (!output) return undefined;
      failures++;
    }
    return { output, request, cost };
  }

  async function* lines(): AsyncGenerator<BatchResult> {
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const source = (
      Symbol.asyncIterator in requests
        ? (requests as AsyncIterable<BatchRequest>)[Symbol.asyncIterator]()
        : (requests as Iterable<BatchRequest>)[Symbol.iterator]()
    ) as AsyncIterator<BatchRequest> | Iterator<BatchRequest>;
    const inFlight = new Map<number, Promise<{ slot: number; result: BatchResult | undefined }>>();
    let slot = 0;
    let exhausted = false;
    let completed = false;
    try {
      for (;;) {
        while (!exhausted && inFlight.size < concurrency && !stop.signal.aborted) {
          const next = await source.next();
          if (next.done) {
            exhausted = true;
            break;
          }
          // Checked with a line to start: a run whose lines are all done has not been stopped.
          if (costReached()) {
            stopped = 'max-cost';
            exhausted = true;
            break;
          }
          const at = slot++;
          inFlight.set(
            at,
            runOne(next.value).then((result) => ({ slot: at, result })),
          );
        }
        if (inFlight.size === 0) break;
        const { slot: settled, result } = await Promise.race(inFlight.values());
        inFlight.delete(settled);
        if (result) yield result;
      }
      if (stop.signal.aborted) stopped = 'aborted';
      completed = true;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      if (!completed) {
        // A consumer that stopped early, or a source that threw: nothing keeps running.
        stop.abort(new APIUserAbortError({ method: 'POST', path: '(batch)' }));
        await Promise.allSettled(inFlight.values());
        stopped ??= 'aborted';
      }
      await (source as AsyncIterator<BatchRequest>).return?.();
      finish({
        done,
        failed: failures,
        stopped,
        costs: costs.report(),
        durationMs: Date.now() - started,
      });
    }
  }

  const iterate = (): AsyncGenerator<BatchResult> => {
    if (iterating) throw new InferenceError('runBatch: a run can be iterated once.');
    iterating = true;
    const generator = lines();
    return generator;
  };

  return {
    [Symbol.asyncIterator]: iterate,
    summary() {
      // Nobody iterates: run it to the end here (a source that throws rejects the summary).
      end ??= iterating
        ? ended
        : (async () => {
            for await (const _ of { [Symbol.asyncIterator]: iterate }) void _;
            return ended;
          })();
      return end;
    },
    abort: () => stop.abort(new APIUserAbortError({ method: 'POST', path: '(batch)' })),
  };
}
