/**
 * The `inference-sdk` command (package.json `bin`, built to dist/cli.js).
 *
 * A small dispatcher: `inference-sdk <command> [options]`. Each command is
 * one file exporting a {@link Command}; add it to `COMMANDS` below.
 *
 * @module
 */
import process from 'node:process';
import type { Command, CommandIO } from './command';
import { UsageError } from './command';
import { mockServerCommand } from './mock-server';

const COMMANDS: readonly Command[] = [mockServerCommand];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: inference-sdk <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'inference-sdk <command> --help' for a command's options.",
    '',
  ].join('\n');
}

/**
 * Runs one command line; resolves to the exit code (0 ok, 1 failed, 2 usage error).
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
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    io.stderr(`inference-sdk: unknown command '${name}'.\n\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    // parseArgs throws TypeErrors with a code for unknown or malformed options.
    const code = (error as { code?: unknown }).code;
    if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      io.stderr(`inference-sdk ${command.name}: ${(error as Error).message}\n\n${command.help}`);
      return 2;
    }
    io.stderr(`inference-sdk ${command.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

const stop = new AbortController();
const onSignal = (): void => stop.abort();
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);

const exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: stop.signal,
});
// Let the event loop drain (no process.exit): an open handle left behind would show as a hang in tests.
process.exitCode = exitCode;
process.off('SIGINT', onSignal);
process.off('SIGTERM', onSignal);
