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
  /** Aborted when the process is asked to stop; long-running commands clean up and resolve. */
  signal: AbortSignal;
}

/**
 * One subcommand of `inference-sdk`.
 *
 * @example
 * ```ts
 * const hello: Command = {
 *   name: 'hello',
 *   summary: 'say hello',
 *   help: 'Usage: inference-sdk hello',
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
  /** Resolves to the process exit code. A thrown UsageError prints its message and the command's help, exit code 2. */
  run(args: string[], io: CommandIO): Promise<number>;
  help: string;
}

/**
 * Wrong arguments: the dispatcher prints the message and the command's help, and exits with 2.
 *
 * @example
 * ```ts
 * if (!Number.isInteger(port)) throw new UsageError('--port must be an integer.');
 * ```
 */
export class UsageError extends Error {
  override name = 'UsageError';
}
