/**
 * Levelled logging through a user-supplied logger (default: `console`), with secrets redacted.
 * Nothing is formatted unless the level is enabled, so debug logging costs nothing when off.
 */

/**
 * How much the client logs. `'debug'` logs every request and response (with the key redacted).
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

/** Headers whose values are credentials on this service or on servers users point the SDK at. */
const SECRET_HEADERS = new Set(['authorization', 'api-key', 'x-api-key', 'proxy-authorization', 'cookie']);

/** A logger bound to a level. `enabled(level)` lets callers skip building expensive messages. */
export class Log {
  constructor(
    private readonly level: LogLevel,
    private readonly logger: Logger,
  ) {}

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return RANK[this.level] >= RANK[level];
  }

  error(message: string, ...rest: unknown[]): void {
    if (this.enabled('error')) this.logger.error(`[inference-sdk] ${message}`, ...rest);
  }
  warn(message: string, ...rest: unknown[]): void {
    if (this.enabled('warn')) this.logger.warn(`[inference-sdk] ${message}`, ...rest);
  }
  info(message: string, ...rest: unknown[]): void {
    if (this.enabled('info')) this.logger.info(`[inference-sdk] ${message}`, ...rest);
  }
  debug(message: string, ...rest: unknown[]): void {
    if (this.enabled('debug')) this.logger.debug(`[inference-sdk] ${message}`, ...rest);
  }
}

/** The headers as a plain object for logging, with every credential replaced by `***`. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = SECRET_HEADERS.has(name) ? '***' : value;
  });
  return out;
}
