/**
 * The dispatcher of the `model-inference-sdk` command: `runCli(argv, io)` runs one command line
 * against an io (the process's in `index.ts`, a test's in process) and resolves to the exit code.
 * It prints errors in the CLI's words and replaces the key in everything a command writes.
 *
 * @module
 */
import type { Command, CommandIO } from './command';
import { CommandError, interruptedExitCode, UsageError } from './command';
import { batchCommand } from './batch';
import { chatCommand } from './chat';
import { completeCommand } from './complete';
import { mockServerCommand } from './mock-server';
import { modelsCommand } from './models';
import { printable } from './safe-text';
import { closest, didYouMean } from '../util/suggest';
import { secretForms } from '../util/mask';
import { packageVersion } from './version';

const COMMANDS: readonly Command[] = [
  modelsCommand,
  chatCommand,
  completeCommand,
  batchCommand,
  mockServerCommand,
];

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
  const safe = redacting(io, secretsIn(args, io.env, command.usesCredentials === true));
  try {
    return await command.run(args, safe);
  } catch (error) {
    if (error instanceof UsageError) {
      // The message and the synopsis; the full help is one --help away.
      const synopsis = command.help.split('\n\n')[0] ?? '';
      safe.stderr(
        `model-inference-sdk ${command.name}: ${printable((error as Error).message)}\n\n${synopsis}\nRun 'model-inference-sdk ${command.name} --help' for every option.\n`,
      );
      return 2;
    }
    if (io.signal.aborted) {
      safe.stderr(`model-inference-sdk ${command.name}: interrupted\n`);
      return interruptedExitCode(io.signal);
    }
    const message =
      error instanceof CommandError
        ? error.message
        : error instanceof Error
          ? `${error.name}: ${error.message}`
          : String(error);
    // A server's words (an error message, a model id): escaped, so they cannot drive the terminal.
    safe.stderr(`model-inference-sdk ${command.name}: ${printable(message)}\n`);
    return 1;
  }
}

/** Why `name` is not a command, and what was probably meant. */
function unknownCommand(name: string, rest: readonly string[]): string {
  const names = COMMANDS.map((c) => c.name);
  if (name.startsWith('-')) {
    // `model-inference-sdk --mock models`: options go after the command.
    const later = rest.find((word) => names.includes(word));
    const fix =
      later === undefined
        ? ''
        : ` Did you mean 'model-inference-sdk ${later} ${[name, ...rest.filter((w) => w !== later)].join(' ')}'?`;
    const version =
      closest(name.replace(/^-+/, ''), ['version']).length > 0 || name === '-v' || name === '-V'
        ? " Did you mean '--version'?"
        : '';
    return `unknown option '${name}': options go after the command (model-inference-sdk <command> [options]).${fix || version}`;
  }
  return `unknown command '${name}'.${didYouMean(closest(name, names))}`;
}

/**
 * What the command must never print: the API keys of a command that takes them (`--api-key k`,
 * `--api-key=k`, INFERENCE_API_KEY), the upstream key of `mock-server --record` (also
 * INFERENCE_API_KEY; `mock-server --api-key` names the mock's own keys, which it prints on
 * purpose), and the user name and password of a URL given (`--base-url`, `--record`,
 * INFERENCE_BASE_URL), even one that does not parse.
 */
function secretsIn(
  args: readonly string[],
  env: CommandIO['env'],
  usesCredentials: boolean,
): string[] {
  const secrets: string[] = [];
  const flag = (name: string): string[] =>
    args.flatMap((arg, i) =>
      arg === name && args[i + 1] !== undefined
        ? [args[i + 1] as string]
        : arg.startsWith(`${name}=`)
          ? [arg.slice(name.length + 1)]
          : [],
    );
  if (usesCredentials) secrets.push(...flag('--api-key'));
  const fromEnv = env?.['INFERENCE_API_KEY'];
  if (fromEnv !== undefined && (usesCredentials || flag('--record').length > 0))
    secrets.push(fromEnv);
  for (const url of [...flag('--base-url'), ...flag('--record'), env?.['INFERENCE_BASE_URL'] ?? ''])
    secrets.push(...userInfo(url));
  // Each in every form a server may echo it in (trimmed, percent-encoded, inside base64 …), as the
  // SDK's errors and logs mask it; none shorter than 4 characters (it would blank out ordinary
  // text; real keys are long). Longest first: a password inside a masked user-and-password
  // leaves nothing behind.
  return secretForms(secrets);
}

/**
 * The credentials of a URL's user info, as written and decoded; found by hand when it does not
 * parse. The password; or the user name when there is no password (`https://<token>@host`: a
 * token). A user name beside a password is a name, and masking it would garble the messages.
 */
function userInfo(value: string): string[] {
  let info: string | undefined;
  try {
    const url = new URL(value);
    if (url.username !== '' || url.password !== '')
      info = url.password === '' ? url.username : `${url.username}:${url.password}`;
  } catch {
    // Everything between the scheme and the last '@': a password may hold a '/' or a '#'.
    info = /^[^:/?#]*:\/\/(.*)@/s.exec(value)?.[1];
  }
  if (info === undefined) return [];
  const colon = info.indexOf(':');
  const secret = colon < 0 ? info : info.slice(colon + 1);
  return [info, secret, decode(info), decode(secret)];
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The same io, with every secret replaced by `***` in what is written, and the secrets for a streamed reply to mask across its deltas. */
function redacting(io: CommandIO, secrets: readonly string[]): CommandIO {
  if (secrets.length === 0) return io;
  const clean = (text: string): string =>
    secrets.reduce((t, secret) => t.split(secret).join('***'), text);
  return Object.create(io, {
    stdout: { value: (text: string) => io.stdout(clean(text)) },
    stderr: { value: (text: string) => io.stderr(clean(text)) },
    secrets: { value: secrets },
  }) as CommandIO;
}
