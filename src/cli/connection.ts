/**
 * What the `models`, `chat` and `complete` commands share: the connection flags, building the
 * client (or an in-process mock server with `--mock`), picking the model, and the output
 * context (colours, spinner, verbose notes). The API key is never written anywhere.
 *
 * @module
 */
import { formatWithOptions } from 'node:util';
import { Client, type Logger, type Model } from '../index';
import { startMockServer } from '../testing';
import type { CommandIO } from './command';
import { CommandError, UsageError } from './command';
import { printableURL, withoutUserInfo, type Endpoint } from './explain';
import { printable } from './safe-text';
import { colourEnabled, createStyle, type Style } from './style';

/** The options every API command takes (`-h, --help` comes with every command). */
export const CONNECTION_OPTIONS = {
  'api-key': { type: 'string', valueName: 'key' },
  'base-url': { type: 'string', valueName: 'url' },
  mock: { type: 'boolean', default: false },
  verbose: { type: 'boolean', short: 'v', default: false },
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
      // Notes name models and currencies from the server: escaped, like all of its text.
      if (verbose) io.stderr(`${err.dim(printable(text))}\n`);
    },
  };
}

/** A client and what to close after the command. */
export interface Connection {
  client: Client;
  /** Where the client talks to, for error messages (see `explain`). */
  endpoint: Endpoint;
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
export async function connect(
  values: ConnectionValues,
  io: CommandIO,
  output: Output,
): Promise<Connection> {
  const env = io.env ?? {};
  const logger = stderrLogger(io);
  const common = { logger, ...(output.verbose ? { logLevel: 'debug' as const } : {}) };
  if (values.mock === true) {
    if (values['api-key'] !== undefined || values['base-url'] !== undefined) {
      throw new UsageError('--mock runs its own server: leave out --api-key and --base-url.');
    }
    const server = await startMockServer();
    output.note(`mock server: ${server.url}`);
    return {
      client: new Client({ ...common, apiKey: server.apiKey, baseURL: server.url }),
      endpoint: { baseURL: server.url, source: '--mock', flags: '--mock' },
      close: () => server.close(),
    };
  }
  const apiKey = nonEmpty(values['api-key']) ?? nonEmpty(env['INFERENCE_API_KEY']);
  const flagURL = nonEmpty(values['base-url']);
  const baseURL = flagURL ?? nonEmpty(env['INFERENCE_BASE_URL']);
  if (apiKey === undefined)
    throw new UsageError('no API key: set INFERENCE_API_KEY or pass --api-key (or try --mock).');
  if (baseURL === undefined)
    throw new UsageError(
      'no base URL: set INFERENCE_BASE_URL or pass --base-url (it ends in /v1), or try --mock.',
    );
  const source = flagURL === undefined ? 'INFERENCE_BASE_URL' : '--base-url';
  checkBaseURL(baseURL, source);
  let client: Client;
  try {
    client = new Client({ ...common, apiKey, baseURL });
  } catch (error) {
    // Checked above; whatever else the client refuses, say it with the flag's name.
    throw new UsageError(`${source}: ${error instanceof Error ? error.message : String(error)}`);
  }
  output.note(`base URL: ${printableURL(client.baseURL)}`);
  return {
    client,
    endpoint: {
      baseURL: client.baseURL,
      source,
      flags: flagURL === undefined ? '' : `--base-url ${printableURL(flagURL)}`,
    },
    close: () => Promise.resolve(),
  };
}

/** An http(s) URL, said in the CLI's words (the client's own check names its `baseURL` option). */
function checkBaseURL(value: string, source: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `${source} is not a URL: '${withoutUserInfo(value)}'. It looks like https://host/v1.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `${source} must be an http:// or https:// URL, got '${url.protocol}'. It looks like https://host/v1.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(
      `${source} must not hold a user name or password: give the key with INFERENCE_API_KEY or --api-key.`,
    );
  }
}

/**
 * A model slug as the CLI takes it: not empty, not `.`, and no `..` part (which could leave
 * `/models/` in a URL); a server's file path (`/models/qwen.gguf`) is one. Said with the flag or
 * variable it came from, when there is one.
 *
 * @throws UsageError otherwise.
 * @example
 * ```ts
 * checkSlug('acme/chat-1');  // ok
 * checkSlug('../x', '-m');   // UsageError: '../x' is not a model slug (-m): a slug looks like vendor/model …
 * ```
 */
export function checkSlug(slug: string, source?: string): string {
  if (slug.trim() === '')
    throw new UsageError(
      source === undefined
        ? "missing <slug>: 'models get <vendor/model>'."
        : `${source} needs a model slug like acme/chat-1, got an empty one.`,
    );
  // The client's own rule (models.retrieve): a file path as llama.cpp and vLLM list models
  // (`/models/qwen.gguf`) is an id; only `.` and a `..` segment, which could leave /models/, are not.
  if (slug === '.' || slug.split(/[/\\]/).includes('..')) {
    throw new UsageError(
      `'${slug}' is not a model slug${source === undefined ? '' : ` (${source})`}: a slug looks like vendor/model (or a server's file path), with no '..' part. 'model-inference-sdk models' lists them.`,
    );
  }
  return slug;
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
  // An empty -m is a mistake; an empty INFERENCE_MODEL is unset.
  if (flag !== undefined) {
    const slug = checkSlug(flag.trim(), '-m');
    output.note(`model: ${slug} (-m)`);
    return { slug };
  }
  const fromEnv = nonEmpty(io.env?.['INFERENCE_MODEL']);
  if (fromEnv !== undefined) {
    const slug = checkSlug(fromEnv, 'INFERENCE_MODEL');
    output.note(`model: ${slug} (INFERENCE_MODEL)`);
    return { slug };
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
  const write = (message: string, rest: unknown[]): void =>
    io.stderr(
      `${printable(formatWithOptions({ colors: false, breakLength: Infinity }, message, ...rest))}\n`,
    );
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
