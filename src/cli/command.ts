/**
 * What a CLI command is: a name, a one-line summary for the command list,
 * and a `run` that gets the arguments after the command name. Commands write
 * through `io` (not `console`) so that they can be run and checked in
 * process, and resolve to an exit code.
 *
 * @module
 */

/**
 * Where a command writes, and the signal that asks it to stop (SIGINT/SIGTERM).
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const io: CommandIO = { stdout: (t) => lines.push(t), stderr: (t) => lines.push(t), signal: new AbortController().signal };
 * ```
 */
export interface CommandIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Aborted when the process is asked to stop; long-running commands clean up and resolve. Its `reason` is the signal's name (`'SIGINT'`, `'SIGTERM'`) when a signal stopped it. */
  signal: AbortSignal;
  /** Environment variables; default: none (commands then see only their flags). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Standard input; default: none (an empty input). Read lazily: only commands that need it touch it. */
  readonly stdin?: (NodeJS.ReadableStream & { isTTY?: boolean }) | undefined;
  /** Whether stdout is a terminal (colours, interactive output); default false. */
  stdoutIsTTY?: boolean | undefined;
  /** Whether stderr is a terminal (the spinner); default false. */
  stderrIsTTY?: boolean | undefined;
  /** Where an interactive prompt is drawn (readline's output): the terminal stream. Default: none. */
  readonly terminal?: NodeJS.WritableStream | undefined;
  /**
   * While the returned function has not been called, Ctrl-C (SIGINT) calls `handler` instead of
   * aborting `signal`: an interactive command cancels one request and carries on. Default: none.
   */
  trapInterrupt?: ((handler: () => void) => () => void) | undefined;
  /**
   * What the command must never print (the API key, a URL's password): the dispatcher masks them
   * in every write, and a streamed reply also where they come split across its deltas. Default: none.
   */
  readonly secrets?: readonly string[] | undefined;
}

/**
 * One subcommand of `model-inference-sdk`.
 *
 * @example
 * ```ts
 * const hello: Command = {
 *   name: 'hello',
 *   summary: 'say hello',
 *   help: 'Usage: model-inference-sdk hello',
 *   async run(_args, io) {
 *     io.stdout('hello\n');
 *     return 0;
 *   },
 * };
 * ```
 */
export interface Command {
  name: string;
  summary: string;
  /** Resolves to the process exit code. A thrown UsageError prints its message and the help's synopsis (its first paragraph), exit code 2. */
  run(args: string[], io: CommandIO): Promise<number>;
  help: string;
  /**
   * The command takes credentials (`--api-key`, INFERENCE_API_KEY): the dispatcher then replaces
   * them with `***` in everything the command writes, errors included.
   */
  usesCredentials?: boolean;
}

/**
 * Wrong arguments: the dispatcher prints the message and the command's synopsis, and exits with 2.
 *
 * @example
 * ```ts
 * if (!Number.isInteger(port)) throw new UsageError('--port must be an integer.');
 * ```
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * A runtime failure with a message that says it all: the dispatcher prints the message alone
 * (no class name) and exits with 1.
 *
 * @example
 * ```ts
 * throw new CommandError('no ready model: pass -m <slug> or set INFERENCE_MODEL.');
 * ```
 */
export class CommandError extends Error {
  override name = 'CommandError';
}

/**
 * The exit code of a command stopped by a signal: 130 for SIGINT (Ctrl-C), 143 for SIGTERM.
 *
 * @example
 * ```ts
 * if (io.signal.aborted) return interruptedExitCode(io.signal); // 130 after Ctrl-C
 * ```
 */
export function interruptedExitCode(signal: AbortSignal): number {
  return signal.reason === 'SIGTERM' ? 143 : 130;
}
