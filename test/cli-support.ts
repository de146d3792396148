// Helpers of the CLI tests (test/cli.test.ts: pipes; test/cli-pty.test.ts: a pseudo-terminal).
//
// `runCli()` runs a command line in this process, through `runCli` of src/cli/run.ts, the entry the
// bin itself calls with the process's streams (src/cli/index.ts): starting a node process (and tsx)
// per case cost seconds each, and thirty at once timed out on a busy machine. What only a process
// shows (signals, exit codes, real pipes, the terminal) is tested with `start()`, a child process:
// from source through tsx by default; CI sets CLI_BIN=dist/cli.js after the build to run the same
// tests against the published bin, and then `runCli()` spawns it too.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { runCli as runInProcess } from '../src/cli/run';

const bin = process.env['CLI_BIN'];
/** The node arguments that start the CLI. */
export const CLI = bin === undefined ? ['--import', 'tsx', 'src/cli/index.ts'] : [bin];

/** A key the tests use for their own mock server; it must never appear in any output. */
export const SECRET_KEY = 'sk-test-9f8e7d6c5b4a-never-print-me';

/** The environment without anything of the developer's that would change the CLI's behaviour. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(INFERENCE_|NO_COLOR$|FORCE_COLOR$|CLI_BIN$)/.test(k)) env[k] = v;
  }
  return { ...env, TERM: 'xterm-256color', ...extra };
}

/** A running CLI process with its output so far. */
export interface Running {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when the output (ANSI escapes stripped, \r\n as \n) matches; rejects after `ms`. */
  waitFor: (pattern: RegExp, ms?: number) => Promise<void>;
}

const started: Running[] = [];

/** Kills whatever a failed test left running (call from afterEach). */
export function killLeftovers(): void {
  for (const run of started.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
}

/** Spawns `file args` with pipes and records its output. */
export function start(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Running {
  const child = spawn(file, args, { stdio: 'pipe', env });
  let out = '';
  let err = '';
  let both = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    both += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    both += d.toString();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const run: Running = {
    child,
    output: () => both,
    stdout: () => out,
    stderr: () => err,
    exit,
    async waitFor(pattern, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (!pattern.test(stripVTControlCharacters(both).replace(/\r+\n/g, '\n'))) {
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`no ${String(pattern)} in the output (exit ${String(child.exitCode)}): ${JSON.stringify(both)}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
  started.push(run);
  return run;
}

/** The outcome of a finished run. */
export interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs one command line with pipes, optionally with `stdin` (then closed), and waits for its exit
 * code: in this process, as the bin runs it (a spawned bin when CLI_BIN is set). The command sees
 * only `env` and TERM, never the developer's INFERENCE_* variables.
 */
export async function runCli(args: readonly string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<Result> {
  if (bin !== undefined) return spawnCli(args, options);
  let stdout = '';
  let stderr = '';
  const code = await runInProcess(args, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    signal: new AbortController().signal,
    env: { TERM: 'xterm-256color', ...options.env },
    // A pipe, as a spawned process gets: closed at once when there is no input.
    stdin: Object.assign(Readable.from(options.stdin === undefined || options.stdin === '' ? [] : [options.stdin]), { isTTY: false }),
    stdoutIsTTY: false,
    stderrIsTTY: false,
  });
  return { code, signal: null, stdout, stderr };
}

/** The same in a child process: the bin as a user starts it. */
export async function spawnCli(args: readonly string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<Result> {
  const run = start(process.execPath, [...CLI, ...args], cleanEnv(options.env));
  if (options.stdin !== undefined) run.child.stdin.end(options.stdin);
  else run.child.stdin.end();
  const { code, signal } = await run.exit;
  return { code, signal, stdout: run.stdout(), stderr: run.stderr() };
}

/** Quotes one word for `sh -c`. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

// eslint-disable-next-line no-control-regex
export const ANSI = /\u001b/;
