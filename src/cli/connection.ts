/**
 * What the `models`, `chat` and `complete` commands share: the connection flags, building the
 * client (or an in-process mock server with `--mock`), picking the model, and the output
 * context (colours, spinner, verbose notes). The API key is never written anywhere.
 *
 * @module
 */
import { formatWithOptions } from 'node:util';
import { Client } from '../client';
import type { Logger } from '../log';
import type { Model } from '../generated/types.gen';
import { startMockServer } from '../testing/mock-server';
import type { CommandIO } from './command';
import { CommandError, UsageError } from './command';
import { colourEnabled, createStyle, type Style } from './style';

/** parseArgs options every API command takes. */
export const CONNECTION_OPTIONS = {
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  mock: { type: 'boolean', default: false },
  verbose: { type: 'boolean', short: 'v', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The help lines of {@link CONNECTION_OPTIONS}. */
export const CONNECTION_HELP = `Connection:
  --api-key <key>     API key (default: INFERENCE_API_KEY; the variable is safer:
                      flags show in the process list). Never printed.
  --base-url <url>    base URL, ending in /v1 (default: INFERENCE_BASE_URL)
  --mock              use a local mock server started in this process (no key, no
                      network; models mock/echo, mock/reasoner, mock/sleeping)
  -v, --verbose       log each request (key redacted), the model and usage to stderr
  -h, --help          show this help

Exit codes: 0 ok, 1 API or runtime error, 2 usage error, 130 interrupted (Ctrl-C).
`;

/** The parsed values of {@link CONNECTION_OPTIONS}. */
export interface ConnectionValues {
  'api-key'?: string | undefined;
  'base-url'?: string | undefined;
  mock?: boolean | undefined;
  verbose?: boolean | undefined;
}

/** Output settings derived from the environment and the terminal. */
export interface Output {
  /** Styles for stdout and stderr, each on only where that stream is a terminal. */
  out: Style;
  err: Style;
  /** Whether to draw a spinner on stderr. */
  spinner: boolean;
  /** Writes a `--verbose` note to stderr (nothing without `--verbose`). */
  note: (text: string) => void;
  verbose: boolean;
}

/**
 * Colours and verbosity for one run.
 *
 * @example
 * ```ts
 * const output = outputFor(io, values.verbose === true);
 * io.stdout(output.out.bold('SLUG') + '\n');
 * ```
 */
export function outputFor(io: CommandIO, verbose: boolean): Output {
  const env = io.env ?? {};
  const err = createStyle(colourEnabled(io.stderrIsTTY === true, env));
  return {
    out: createStyle(colourEnabled(io.stdoutIsTTY === true, env)),
    err,
    spinner: io.stderrIsTTY === true,
    verbose,
    note: (text) => {
      if (verbose) io.stderr(`${err.dim(text)}\n`);
    },
  };
}

/** A client and what to close after the command. */
export interface Connection {
  client: Client;
  /** Stops the `--mock` server, if any. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Builds the client from the flags and environment (or starts the mock with `--mock`).
 *
 * @throws UsageError when no key or base URL is given, or `--mock` is combined with either.
 * @example
 * ```ts
 * const { client, close } = await connect(values, io, output);
 * try { console.log((await client.models.list()).data.length); } finally { await close(); }
 * ```
 */
export async function connect(values: ConnectionValues, io: CommandIO, output: Output): Promise<Connection> {
  const env = io.env ?? {};
  const logger = stderrLogger(io);
  const common = { logger, ...(output.verbose ? { logLevel: 'debug' as const } : {}) };
  if (values.mock === true) {
    if (values['api-key'] !== undefined || values['base-url'] !== undefined) {
      throw new UsageError('--mock runs its own server: leave out --api-key and --base-url.');
    }
    const server = await startMockServer();
    output.note(`mock server: ${server.url}`);
    return { client: new Client({ ...common, apiKey: server.apiKey, baseURL: server.url }), close: () => server.close() };
  }
  const apiKey = nonEmpty(values['api-key']) ?? nonEmpty(env['INFERENCE_API_KEY']);
  const baseURL = nonEmpty(values['base-url']) ?? nonEmpty(env['INFERENCE_BASE_URL']);
  if (apiKey === undefined) throw new UsageError('no API key: set INFERENCE_API_KEY or pass --api-key (or try --mock).');
  if (baseURL === undefined) throw new UsageError('no base URL: set INFERENCE_BASE_URL or pass --base-url (it ends in /v1), or try --mock.');
  let client: Client;
  try {
    client = new Client({ ...common, apiKey, baseURL });
  } catch (error) {
    // The client's option checks name the option, never its value; still, say it in our words.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  output.note(`base URL: ${client.baseURL}`);
  return { client, close: () => Promise.resolve() };
}

/** The model a command uses, and the Model object when it was looked up. */
export interface ChosenModel {
  slug: string;
  model?: Model | undefined;
}

/**
 * `-m`, else INFERENCE_MODEL, else the first model of `models.list()` that is ready.
 *
 * @throws CommandError when no flag or variable names one and no listed model is ready.
 * @example
 * ```ts
 * const { slug } = await chooseModel(client, values.model, io, output, signal);
 * ```
 */
export async function chooseModel(
  client: Client,
  flag: string | undefined,
  io: CommandIO,
  output: Output,
  signal: AbortSignal,
): Promise<ChosenModel> {
  const named = nonEmpty(flag) ?? nonEmpty(io.env?.['INFERENCE_MODEL']);
  if (named !== undefined) {
    output.note(`model: ${named} (${nonEmpty(flag) !== undefined ? '-m' : 'INFERENCE_MODEL'})`);
    return { slug: named };
  }
  const { data } = await client.models.list({ signal });
  const model = data.find((m) => m.is_ready !== false);
  if (model === undefined) {
    throw new CommandError(
      data.length === 0
        ? 'no model is available to this key; pass -m <slug> or set INFERENCE_MODEL.'
        : `no model is ready (${data.map((m) => m.id).join(', ')}); pass -m <slug> or set INFERENCE_MODEL.`,
    );
  }
  output.note(`model: ${model.id} (the first ready model)`);
  return { slug: model.id, model };
}

/** A logger for the SDK's own messages (warnings; requests with `--verbose`), on stderr. */
function stderrLogger(io: CommandIO): Logger {
  const write = (message: string, rest: unknown[]): void => io.stderr(`${formatWithOptions({ colors: false, breakLength: Infinity }, message, ...rest)}\n`);
  return {
    debug: (message, ...rest) => write(message, rest),
    info: (message, ...rest) => write(message, rest),
    warn: (message, ...rest) => write(message, rest),
    error: (message, ...rest) => write(message, rest),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * An integer flag in a range.
 *
 * @throws UsageError otherwise.
 * @example
 * ```ts
 * const maxTokens = integerFlag('--max-tokens', values['max-tokens'], 1, 1_000_000);
 * ```
 */
export function integerFlag(flag: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got '${raw}'.`);
  }
  return value;
}

/**
 * A number flag in a range.
 *
 * @throws UsageError otherwise.
 * @example
 * ```ts
 * const temperature = numberFlag('--temperature', values.temperature, 0, 2);
 * ```
 */
export function numberFlag(flag: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be a number from ${min} to ${max}, got '${raw}'.`);
  }
  return value;
}
