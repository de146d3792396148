/**
 * The SDK's errors in the CLI's words: what went wrong, where (host and port for a connection
 * that failed), and what to run or check next (`model-inference-sdk models` for an unknown model).
 *
 * @module
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  NotFoundError,
} from '../index';
import { CommandError, UsageError } from './command';

/** Where the command was talking to, for the hints. */
export interface Endpoint {
  /** The client's base URL. */
  baseURL: string;
  /** Where it came from: `--base-url`, `INFERENCE_BASE_URL` or `--mock`. */
  source: string;
  /** The connection flags to repeat in a suggested command (`--mock`, `--base-url <url>`), or ''. */
  flags: string;
}

/**
 * The text the CLI prints for an error (without the `model-inference-sdk <command>: ` prefix): the
 * error's class and message, and where it helps, a line saying what to do.
 *
 * @example
 * ```ts
 * explain(error, { baseURL: 'http://127.0.0.1:8787/v1', source: 'INFERENCE_BASE_URL', flags: '' }, 'acme/nope');
 * // "NotFoundError: 404 POST /v1/chat/completions: The model `acme/nope` is not available on this API.\n
 * //  Run 'model-inference-sdk models' to see the models you can use."
 * ```
 */
export function explain(error: unknown, endpoint?: Endpoint, model?: string): string {
  if (!(error instanceof Error)) return String(error);
  const plain = `${error.name}: ${error.message}`;
  if (endpoint === undefined || !(error instanceof APIError)) return plain;
  if (error instanceof APIConnectionError) {
    const where = hostAndPort(endpoint.baseURL);
    const headline =
      error instanceof APIConnectionTimeoutError
        ? `no answer in time from ${where}`
        : `cannot connect to ${where}: ${connectionProblem(error)}`;
    return `${headline}.\n  ${plain}\n  ${whereFrom(endpoint)} Check that a server is running there and that the URL is right.`;
  }
  if (error instanceof NotFoundError) {
    if (model !== undefined && isUnknownModel(error, model)) {
      return `${plain}\nRun '${['model-inference-sdk models', endpoint.flags].filter(Boolean).join(' ')}' to see the models you can use.`;
    }
    return `${plain}\n${whereFrom(endpoint)}${versionCanBeTheCause(endpoint.baseURL, error.message) ? ' Does it end in /v1?' : ''}`;
  }
  if (error instanceof AuthenticationError && endpoint.source !== '--mock') {
    return `${plain}\nCheck the API key (INFERENCE_API_KEY or --api-key) for ${hostAndPort(endpoint.baseURL)}.`;
  }
  return plain;
}

/**
 * What a command throws for an error of its request: a {@link CommandError} in the CLI's words
 * (see {@link explain}); the CLI's own errors, and anything after Ctrl-C, as they are.
 *
 * @example
 * ```ts
 * try { await client.models.retrieve(slug); } catch (error) { throw inCLIWords(error, io.signal, endpoint, slug); }
 * ```
 */
export function inCLIWords(
  error: unknown,
  signal: AbortSignal,
  endpoint: Endpoint,
  model?: string,
): unknown {
  if (signal.aborted || error instanceof UsageError || error instanceof CommandError) return error;
  return new CommandError(explain(error, endpoint, model), { cause: error });
}

/** `api.example.com:443`: the host and the port the connection goes to, default ports spelled out. */
export function hostAndPort(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return baseURL;
  }
}

/**
 * Whether to ask "Does it end in /v1?" of a 404 that is not about a model: only where the base
 * URL's version can be the cause and nobody said so yet. Its path has a version segment but does
 * not end in `/v1` (`/v2`, `/v1/chat`, `/openai/v1beta`), and the message does not already show a
 * URL ending in `/v1` (the server's "use …/v1 as the base URL", the SDK's "did you mean …/v1?").
 * Not when the path ends in `/v1`: the version is right (a cassette that lacks the request, a
 * route this server does not have). Nor when it has no version at all: the SDK's error says that
 * already ("has no /v1"), or the server's does.
 */
function versionCanBeTheCause(baseURL: string, message: string): boolean {
  let segments: string[];
  try {
    segments = new URL(baseURL).pathname.split('/').filter(Boolean);
  } catch {
    return false;
  }
  if (/\bhttps?:\/\/\S+\/v1\b(?!\/)/.test(message)) return false;
  return segments.some((s) => /^v\d+/i.test(s)) && segments.at(-1)?.toLowerCase() !== 'v1';
}

/** "The base URL is http://…/v1 (from INFERENCE_BASE_URL)." */
function whereFrom(endpoint: Endpoint): string {
  return `The base URL is ${printableURL(endpoint.baseURL)} (from ${endpoint.source}).`;
}

/**
 * A URL as the CLI may print it: scheme, host and path, without credentials or query (either can
 * hold a secret).
 *
 * @example
 * ```ts
 * printableURL('https://user:pw@api.example.com/v1?key=s3cret'); // 'https://api.example.com/v1'
 * ```
 */
export function printableURL(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return withoutUserInfo(value);
  }
}

/**
 * A URL as written, but with its user name and password replaced by `***`, also when it does not
 * parse (there, everything between the scheme and the last `@`: a password may hold a `/`). For
 * messages about a URL that is wrong, which should show what was typed.
 *
 * @example
 * ```ts
 * withoutUserInfo('https://me:pa/ss@api.example.com/v1'); // 'https://***@api.example.com/v1'
 * ```
 */
export function withoutUserInfo(value: string): string {
  return value.replace(/^([^:/?#]*:\/\/).*@/s, '$1***@');
}

/**
 * A 404 about the model, not about the URL: the provider says so (`model_not_found`, `param:
 * "model"`), or its message quotes the slug (the service, vLLM, Ollama, OpenAI all do).
 */
function isUnknownModel(error: APIError, model: string): boolean {
  if (error.code === 'model_not_found' || error.param === 'model') return true;
  return [`\`${model}\``, `'${model}'`, `"${model}"`].some((quoted) =>
    error.message.includes(quoted),
  );
}

const PROBLEMS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  EPROTO: 'a TLS protocol error (is it an http:// server behind an https:// URL?)',
};

/** What went wrong with the connection, from the codes in the error's cause chain. */
function connectionProblem(error: Error): string {
  const causes: unknown[] = [];
  for (
    let cause: unknown = error.cause;
    cause instanceof Error && causes.length < 8;
    cause = cause.cause
  )
    causes.push(cause);
  for (const cause of causes) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    const problem = PROBLEMS[code];
    if (problem !== undefined) return problem;
    if (/CERT|TLS|SSL/.test(code)) return `a TLS certificate problem (${code})`;
  }
  const last = causes.at(-1);
  // fetch refuses some ports outright (the "bad ports" of the Fetch standard: 1, 9, 6000 …).
  if (last instanceof Error && last.message === 'bad port')
    return 'fetch refuses to connect to this port (a blocked port): use another';
  return last instanceof Error ? last.message : 'the request could not be sent';
}
