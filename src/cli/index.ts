/**
 * The `model-inference-sdk` command (package.json `bin`, built to dist/cli.js): the process around
 * the dispatcher (`run.ts`): its argv, stdout and stderr, signals, and the exit code. Each command
 * is one file exporting a `Command`; add it to `COMMANDS` in `run.ts`.
 *
 * @module
 */
import process from 'node:process';
import { runCli } from './run';

const stop = new AbortController();
// Commands that handle Ctrl-C themselves (an interactive chat cancels one request) trap it.
const traps: (() => void)[] = [];
const onSignal = (signal: NodeJS.Signals): void => {
  const trap = traps.at(-1);
  if (signal === 'SIGINT' && trap !== undefined) trap();
  else if (stop.signal.aborted)
    process.exit(signal === 'SIGINT' ? 130 : 143); // a second signal: stop now
  else stop.abort(signal);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
// `model-inference-sdk models | head -1`: the reader went away; that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: stop.signal,
  env: process.env,
  // A getter: standard input is opened only by the commands that read it.
  get stdin() {
    return process.stdin;
  },
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  get terminal() {
    return process.stdout.isTTY === true
      ? process.stdout
      : process.stderr.isTTY === true
        ? process.stderr
        : undefined;
  },
  trapInterrupt: (handler) => {
    traps.push(handler);
    return () => {
      const at = traps.lastIndexOf(handler);
      if (at >= 0) traps.splice(at, 1);
    };
  },
});
// Let the event loop drain (no process.exit): an open handle left behind would show as a hang in tests.
process.exitCode = exitCode;
process.off('SIGINT', onSignal);
process.off('SIGTERM', onSignal);
