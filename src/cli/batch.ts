/**
 * `model-inference-sdk batch INPUT.jsonl --output OUTPUT.jsonl`: a batch file (OpenAI Batch input
 * format) run through the client, its results appended to the output (OpenAI Batch output
 * format), resumable: run it again after a crash or Ctrl-C and only the lines without a result
 * are sent. Progress on stderr; the summary on stdout.
 *
 * @module
 */
import { resolve } from 'node:path';
import { sumCosts } from '../index';
import {
  BatchInputError,
  runBatchFile,
  type BatchFileSummary,
  type BatchPlan,
  type BatchResult,
} from '../batch/index';
import type { Command, CommandIO } from './command';
import { CommandError, interruptedExitCode, UsageError } from './command';
import { CONNECTION_HELP, CONNECTION_OPTIONS, connect, outputFor } from './connection';
import { defineCommand, integerFlag } from './parse-command';
import { printable } from './safe-text';

const help = `Usage: model-inference-sdk batch INPUT.jsonl --output OUTPUT.jsonl [options]

Runs every request of INPUT.jsonl (the OpenAI Batch input format: one
{"custom_id", "method": "POST", "url": "/v1/chat/completions" or "/v1/completions", "body"}
per line) and appends one result per line to OUTPUT.jsonl (the OpenAI Batch output format), in
the order they complete. Run the same command again after a crash or Ctrl-C: only the lines
without a result are sent (a line that was in flight is sent again, with the same
idempotency key). Every input line is checked before anything is sent.

Options:
  -o, --output <file>     where results go (created, or resumed when it exists)
  --concurrency <n>       most requests in flight at once (default 16; the server's rate
                          limits may allow fewer)
  --max-cost <amount>     stop starting lines once the cost so far reaches this amount (in
                          the models' price unit); a later run goes on from there
  --shard <i/n>           only the lines whose custom_id hashes into shard i of n (1-based):
                          n machines split one file, and their outputs concatenate
  --skip-invalid          leave out the lines that cannot be run (each reported) instead of
                          refusing the input
  -q, --quiet             no progress, only the summary

${CONNECTION_HELP.replace('Exit codes: 0 ok, 1 API or runtime error, 2 usage error', 'Exit codes: 0 every line done, 1 some failed or not run (--max-cost, --skip-invalid), 2 usage\nerror or input lines that cannot be run')}`;

/**
 * `model-inference-sdk batch INPUT --output OUTPUT [--concurrency n] [--max-cost x] [--shard i/n] [--skip-invalid] [--quiet]`.
 *
 * @example
 * ```ts
 * const code = await batchCommand.run(['--mock', 'in.jsonl', '-o', 'out.jsonl'], { stdout: (t) => process.stdout.write(t), stderr: console.error, signal: new AbortController().signal });
 * ```
 */
export const batchCommand: Command = defineCommand({
  name: 'batch',
  summary: 'run a JSONL file of requests (OpenAI Batch format), resumable',
  help,
  usesCredentials: true,
  options: {
    ...CONNECTION_OPTIONS,
    output: { type: 'string', short: 'o', valueName: 'file' },
    concurrency: { type: 'string', valueName: 'n' },
    'max-cost': { type: 'string', valueName: 'amount' },
    shard: { type: 'string', valueName: 'i/n' },
    'skip-invalid': { type: 'boolean', default: false },
    quiet: { type: 'boolean', short: 'q', default: false },
  },
  positionals: true,
  async run({ values, positionals }, io) {
    if (positionals.length !== 1)
      throw new UsageError('give one input file: batch INPUT.jsonl --output OUTPUT.jsonl');
    const input = positionals[0]!;
    const output = values.output;
    if (output === undefined || output === '')
      throw new UsageError('--output is required: where the results go.');
    if (resolve(output) === resolve(input))
      throw new UsageError('--output must be another file than the input.');
    const concurrency = integerFlag('--concurrency', values.concurrency, 1, 10_000);
    const maxCost = values['max-cost'];
    // A plain decimal above 0 (0 would start no line), of digits the cost sums can hold.
    if (maxCost !== undefined && !(/^\d+(\.\d+)?$/.test(maxCost) && positiveAmount(maxCost)))
      throw new UsageError(`--max-cost must be an amount above 0 such as 2.50, got '${maxCost}'.`);
    const shard = shardFlag(values.shard);

    const style = outputFor(io, values.verbose);
    const { client, close } = await connect(values, io, style);
    const progress = values.quiet ? undefined : new Progress(io);
    try {
      let summary: BatchFileSummary;
      try {
        summary = await runBatchFile(client, {
          input,
          output,
          concurrency,
          maxCost,
          shard,
          skipInvalid: values['skip-invalid'],
          signal: io.signal,
          onStart: (plan) => progress?.start(plan),
          onResult: (result) => progress?.add(result),
          onInvalid: (problem) =>
            io.stderr(`${input}:${problem.line}: skipped: ${printable(problem.message)}\n`),
        });
      } finally {
        progress?.stop();
      }
      io.stdout(summaryText(summary));
      if (summary.stopped === 'aborted' && io.signal.aborted) return interruptedExitCode(io.signal);
      return summary.failed + summary.failedBefore > 0 ||
        summary.stopped !== undefined ||
        summary.invalid > 0 ||
        summary.done + summary.resumed < summary.total
        ? 1
        : 0;
    } catch (error) {
      if (error instanceof BatchInputError) {
        for (const p of error.problems) io.stderr(`${input}:${p.line}: ${printable(p.message)}\n`);
        if (error.count > error.problems.length)
          io.stderr(`… and ${error.count - error.problems.length} more\n`);
        throw new UsageError(
          `${error.count} input line${error.count === 1 ? '' : 's'} cannot be run; nothing was sent (--skip-invalid leaves them out).`,
        );
      }
      if (error instanceof Error && /^runBatchFile: /.test(error.message))
        throw new CommandError(error.message.replace(/^runBatchFile: /, ''));
      throw error;
    } finally {
      await close();
    }
  },
});

/** Whether the cost sums take `amount` (not too many digits) and it is above 0. */
function positiveAmount(amount: string): boolean {
  try {
    return sumCosts(amount) !== '0';
  } catch {
    return false;
  }
}

/** `--shard 2/4`: shard 2 of 4. */
function shardFlag(raw: string | undefined): { index: number; count: number } | undefined {
  if (raw === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(raw);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || !(count >= 1 && count <= 1_000_000) || !(index >= 1 && index <= count))
    throw new UsageError(`--shard must be i/n with 1 <= i <= n (1/4 … 4/4), got '${raw}'.`);
  return { index, count };
}

function summaryText(s: BatchFileSummary): string {
  const stopped =
    s.stopped === 'max-cost'
      ? `stopped at --max-cost: ${s.total - s.resumed - s.done - s.failed} lines not started (run again with a higher --max-cost to go on)\n`
      : s.stopped === 'aborted'
        ? `interrupted: ${s.total - s.resumed - s.done - s.failed} lines not done (run the same command again to go on)\n`
        : '';
  return (
    [
      `${s.done} done, ${s.failed} failed${s.resumed > 0 ? `, ${s.resumed - s.failedBefore} done${s.failedBefore > 0 ? ` and ${s.failedBefore} failed` : ''} before` : ''}${s.invalid > 0 ? `, ${s.invalid} invalid lines skipped` : ''} of ${s.total}`,
      `${s.costs.tokens.total} tokens (${s.costs.tokens.prompt} prompt, ${s.costs.tokens.completion} completion), cost ${s.costs.cost.total}${s.costs.unpricedCalls > 0 ? ` (${s.costs.unpricedCalls} lines unpriced)` : ''}`,
      `${(s.durationMs / 1000).toFixed(1)} s${s.tornLine ? '; a torn last output line was cut off and its line run again' : ''}`,
    ].join('\n') + `\n${stopped}`
  );
}

/** The progress line: redrawn in place on a terminal (at most 10 times a second), a plain line every 5 s elsewhere. */
class Progress {
  readonly #tty: boolean;
  #plan: BatchPlan | undefined;
  #done = 0;
  #failed = 0;
  #cost = '0';
  #tokens = 0;
  #started = Date.now();
  #drawn = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly io: CommandIO) {
    this.#tty = io.stderrIsTTY === true;
  }

  start(plan: BatchPlan): void {
    this.#plan = plan;
    this.#started = Date.now();
    this.#cost = plan.costBefore;
    this.#tokens = plan.tokensBefore;
    if (plan.resumed > 0)
      this.io.stderr(`resuming: ${plan.resumed} of ${plan.total} lines already have a result\n`);
    if (plan.tornLine) this.io.stderr('a torn last output line was cut off; its line runs again\n');
    this.#timer = setInterval(() => this.#draw(), this.#tty ? 100 : 5_000);
    this.#timer.unref?.();
  }

  add(result: BatchResult): void {
    if (result.output.error === null) this.#done++;
    else this.#failed++;
    if (result.cost !== undefined) this.#cost = sumCosts(this.#cost, result.cost.total);
    const usage = (
      result.output.response?.body as { usage?: { total_tokens?: unknown } } | undefined
    )?.usage;
    if (typeof usage?.total_tokens === 'number') this.#tokens += usage.total_tokens;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    if (this.#tty && this.#drawn > 0) this.io.stderr('\r\x1b[2K');
  }

  #draw(): void {
    const plan = this.#plan;
    if (!plan) return;
    const finished = this.#done + this.#failed;
    const seconds = (Date.now() - this.#started) / 1000;
    const rate = seconds > 0 ? finished / seconds : 0;
    const left = plan.toRun - finished;
    const eta = rate > 0 ? `ETA ${duration(left / rate)}` : 'ETA -';
    const text = `${plan.resumed + finished}/${plan.total} lines${this.#failed > 0 ? ` (${this.#failed} failed)` : ''} · ${rate.toFixed(1)}/s · ${eta} · ${this.#tokens} tokens · cost ${this.#cost}`;
    this.#drawn++;
    this.io.stderr(this.#tty ? `\r\x1b[2K${text}` : `${text}\n`);
  }
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '-';
  const s = Math.round(seconds);
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${s}s`;
}
