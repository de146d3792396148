/**
 * The `model-inference-sdk` command (package.json `bin`, built to dist/cli.js).
 *
 * A small dispatcher: `model-inference-sdk <command> [options]`. Each command is
 * one file exporting a {@link Command}; add it to `COMMANDS` below.
 *
 * @module
 */
import process from 'node:process';
import type { Command, CommandIO } from './command';
import { CommandError, interruptedExitCode, UsageError } from './command';
import { chatCommand } from './chat';
import { completeCommand } from './complete';
import { mockServerCommand } from './mock-server';
import { modelsCommand } from './models';
import { closest, didYouMean } from './suggest';
import { packageVersion } from './version';

const COMMANDS: readonly Command[] = [modelsCommand, chatCommand, completeCommand, mockServerCommand];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: model-inference-sdk <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -h, --help   show this help',
    '  --version    print the version',
    '',
    "Run 'model-inference-sdk <command> --help' for a command's options.",
    '',
  ].join('\n');
}

/**
 * Runs one command line; resolves to the exit code (0 ok, 1 failed, 2 usage error, 130 after
 * Ctrl-C). Errors print as `model-inference-sdk <command>: <message>`, in the CLI's words.
 *
 * @example
 * ```ts
 * const code = await runCli(['--help'], { stdout: console.log, stderr: console.error, signal: new AbortController().signal }); // 0
 * ```
 */
export async function runCli(argv: readonly string[], io: CommandIO): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout)(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    io.stdout(`model-inference-sdk ${packageVersion()}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    io.stderr(`model-inference-sdk: ${unknownCommand(name, args)}\n\n${usage()}`);
    return 2;
  }
  const safe = command.usesCredentials === true ? redacting(io, secretsIn(args, io.env)) : io;
  try {
    return await command.run(args, safe);
  } catch (error) {
    if (error instanceof UsageError) {
      // The message and the synopsis; the full help is one --help away.
      const synopsis = command.help.split('\n\n')[0] ?? '';
      safe.stderr(`model-inference-sdk ${command.name}: ${(error as Error).message}\n\n${synopsis}\nRun 'model-inference-sdk ${command.name} --help' for every option.\n`);
      return 2;
    }
    if (io.signal.aborted) {
      safe.stderr(`model-inference-sdk ${command.name}: interrupted\n`);
      return interruptedExitCode(io.signal);
    }
    const message =
      error instanceof CommandError ? error.message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    safe.stderr(`model-inference-sdk ${command.name}: ${message}\n`);
    return 1;
  }
}

/** Why `name` is not a command, and what was probably meant. */
function unknownCommand(name: string, rest: readonly string[]): string {
  const names = COMMANDS.map((c) => c.name);
  if (name.startsWith('-')) {
    // `model-inference-sdk --mock models`: options go after the command.
    const later = rest.find((word) => names.includes(word));
    const fix = later === undefined ? '' : ` Did you mean 'model-inference-sdk ${later} ${[name, ...rest.filter((w) => w !== later)].join(' ')}'?`;
    const version = closest(name.replace(/^-+/, ''), ['version']).length > 0 || name === '-v' || name === '-V' ? " Did you mean '--version'?" : '';
    return `unknown option '${name}': options go after the command (model-inference-sdk <command> [options]).${fix || version}`;
  }
  return `unknown command '${name}'.${didYouMean(closest(name, names))}`;
}

/** The API keys of a command line (`--api-key k`, `--api-key=k`) and of INFERENCE_API_KEY. */
function secretsIn(args: readonly string[], env: CommandIO['env']): string[] {
  const secrets: string[] = [];
  args.forEach((arg, i) => {
    if (arg === '--api-key' && args[i + 1] !== undefined) secrets.push(args[i + 1] as string);
    else if (arg.startsWith('--api-key=')) secrets.push(arg.slice('--api-key='.length));
  });
  const fromEnv = env?.['INFERENCE_API_KEY'];
  if (fromEnv !== undefined) secrets.push(fromEnv);
  // A key of a character or two would blank out ordinary text; real keys are long.
  return secrets.map((s) => s.trim()).filter((s) => s.length >= 4);
}

/** The same io, with every secret replaced by `***` in what is written. */
function redacting(io: CommandIO, secrets: readonly string[]): CommandIO {
  if (secrets.length === 0) return io;
  const clean = (text: string): string => secrets.reduce((t, secret) => t.split(secret).join('***'), text);
  return Object.create(io, {
    stdout: { value: (text: string) => io.stdout(clean(text)) },
    stderr: { value: (text: string) => io.stderr(clean(text)) },
  }) as CommandIO;
}

const stop = new AbortController();
// Commands that handle Ctrl-C themselves (an interactive chat cancels one request) trap it.
const traps: (() => void)[] = [];
const onSignal = (signal: NodeJS.Signals): void => {
  const trap = traps.at(-1);
  if (signal === 'SIGINT' && trap !== undefined) trap();
  else if (stop.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143); // a second signal: stop now
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
    return process.stdout.isTTY === true ? process.stdout : process.stderr.isTTY === true ? process.stderr : undefined;
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
