/**
 * Levelled logging through a user-supplied logger (default: `console`), with secrets redacted.
 * Nothing is formatted unless the level is enabled, so debug logging costs nothing when off.
 * Every line, and every value logged with it, has the API key masked (see util/mask.ts), whatever
 * its level: servers echo keys in the error messages and bodies that warnings quote.
 */
import { mask, maskText, secretForms } from './mask';

/**
 * How much the client logs. `'debug'` logs every request and response: method, URL (query values
 * masked), headers (credentials masked), bodies (cut, credentials masked), status, duration,
 * request id, and each retry with its reason. `'info'` logs retries; `'warn'` (the default)
 * problems that did not stop a request.
 *
 * @example
 * ```ts
 * const client = new Client({ logLevel: 'debug' }); // or INFERENCE_LOG=debug
 * ```
 */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * Anything with these four methods: `console`, pino, winston, a test spy.
 *
 * @example
 * ```ts
 * const client = new Client({ logLevel: 'debug', logger: pino() });
 * ```
 */
export interface Logger {
  /** Failures the SDK could not handle for you. */
  error(message: string, ...rest: unknown[]): void;
  /** Something odd that did not stop the request (e.g. a response that failed validation in `'warn'` mode). */
  warn(message: string, ...rest: unknown[]): void;
  /** Retries and other notable events. */
  info(message: string, ...rest: unknown[]): void;
  /** Every request and response, with credentials redacted. */
  debug(message: string, ...rest: unknown[]): void;
}

export const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** How many resolved keys a log remembers to mask (an `apiKey` function may rotate them). */
const MAX_SECRETS = 4;

/** A logger bound to a level. `enabled(level)` lets callers skip building expensive messages. */
export class Log {
  // Private (#), so that util.inspect of a client never shows the keys kept here for masking.
  readonly #keys: string[] = [];
  #secrets: string[] = [];
  readonly #level: LogLevel;
  readonly #logger: Logger;

  /** `from`: the log of the client this one's is a copy of (`withOptions`), whose keys it masks too. */
  constructor(level: LogLevel, logger: Logger, from?: Log) {
    this.#level = level;
    this.#logger = logger;
    if (from) {
      this.#keys.push(...from.#keys);
      this.#secrets = from.#secrets; // replaced, never changed, by addSecret
    }
  }

  /** Mask `secret`, in each of its forms (`secretForms`), in everything logged from now on. */
  addSecret(secret: string): void {
    if (secret === '' || this.#keys.includes(secret)) return;
    this.#keys.unshift(secret);
    if (this.#keys.length > MAX_SECRETS) this.#keys.length = MAX_SECRETS;
    this.#secrets = secretForms(this.#keys);
  }

  /** The forms of the secrets this log masks (longest first). */
  get secrets(): readonly string[] {
    return this.#secrets;
  }

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return RANK[this.#level] >= RANK[level];
  }

  error(message: string, ...rest: unknown[]): void {
    if (this.enabled('error')) this.#write('error', message, rest);
  }
  warn(message: string, ...rest: unknown[]): void {
    if (this.enabled('warn')) this.#write('warn', message, rest);
  }
  info(message: string, ...rest: unknown[]): void {
    if (this.enabled('info')) this.#write('info', message, rest);
  }
  debug(message: string, ...rest: unknown[]): void {
    if (this.enabled('debug')) this.#write('debug', message, rest);
  }

  /**
   * Logging never changes how a call ends: a logger that throws (a closed transport, a bug in
   * a formatter) loses its line, not the request, which would otherwise fail or be retried.
   */
  #write(level: Exclude<LogLevel, 'off'>, message: string, rest: unknown[]): void {
    try {
      this.#logger[level](...this.#line(message, rest));
    } catch {
      // Nowhere to report it: the logger is what failed.
    }
  }

  #line(message: string, rest: unknown[]): [string, ...unknown[]] {
    const secrets = this.#secrets;
    return [
      `[model-inference-sdk] ${maskText(message, secrets)}`,
      ...rest.map((value) => mask(value, secrets)),
    ];
  }
}
