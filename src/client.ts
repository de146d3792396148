/**
 * `Client`: options resolved once, the resources, and nothing else. Requests go through
 * `request.ts`; the key lives in a private field that no log, error or `util.inspect` shows.
 */
import { InferenceError } from './errors';
import type { Preflight } from './preflight';
import { Log } from './log';
import type { ClientOptions } from './options';
import { assertHeaderValue, resolveClientOptions } from './options-check';
import type { RequestContext } from './request';
import { Chat } from './lib/chat';
import { Completions } from './resources/completions';
import { Models } from './resources/models';

/**
 * The client for the Model Inference Service (and any server that speaks its wire format).
 *
 * @example
 * ```ts
 * import { Client } from 'model-inference-sdk';
 *
 * // Reads INFERENCE_API_KEY and INFERENCE_BASE_URL when not given.
 * const client = new Client({ apiKey: 'sk-…', baseURL: 'https://inference.example.com/v1' });
 *
 * const completion = await client.chat.completions.create({
 *   model: 'acme/chat-1',
 *   messages: [{ role: 'user', content: 'Hello!' }],
 * });
 * ```
 */
export class Client {
  /** `client.models.list()` and `client.models.retrieve(slug)`. */
  readonly models: Models;
  /** `client.chat.completions.create(body)`. */
  readonly chat: Chat;
  /** `client.completions.create(body)`: the legacy endpoint. */
  readonly completions: Completions;

  /** The base URL every path is joined to (ends in `/v1` on the service). */
  readonly baseURL: string;
  /** Milliseconds before an attempt is abandoned. */
  readonly timeout: number;
  /** Retries after the first attempt. */
  readonly maxRetries: number;

  readonly #options: ClientOptions;

  /**
   * @throws InferenceError when the key or base URL is missing, an option is unknown or
   * invalid, or this runs in a web page without `dangerouslyAllowBrowser`.
   */
  constructor(options: ClientOptions = {}) {
    const { resolved, apiKey } = resolveClientOptions(options);
    this.#options = { ...options };
    this.baseURL = resolved.baseURL;
    this.timeout = resolved.timeout;
    this.maxRetries = resolved.maxRetries;

    const log = new Log(resolved.logLevel, resolved.logger);
    const mode = resolved.preflight;
    let preflight: Promise<Preflight> | undefined;
    const ctx: RequestContext = {
      options: resolved,
      apiKey: typeof apiKey === 'string' ? () => apiKey : () => callKeyFunction(apiKey),
      log,
      // Loaded on the first check, so that clients without `preflight` never ship it. One attempt
      // per lookup: it is advisory, and a caller never waits longer than its own timeout.
      preflight:
        mode === 'off'
          ? undefined
          : async (body, wait) =>
              (await (preflight ??= import('./preflight').then(
                ({ Preflight }) => new Preflight(mode, (slug, signal) => this.models.retrieve(slug, { signal, maxRetries: 0 }), log),
              ))).check(body, wait),
    };
    if (typeof apiKey === 'string') log.addSecret(apiKey);
    this.models = new Models(ctx);
    this.chat = new Chat(ctx);
    this.completions = new Completions(ctx);
  }

  /**
   * A new client with some options changed; this one is left as it is.
   *
   * @example
   * ```ts
   * const patient = client.withOptions({ timeout: 30 * 60_000, maxRetries: 5 });
   * ```
   */
  withOptions(options: ClientOptions): Client {
    return new Client({ ...this.#options, ...options });
  }
}

/**
 * Resolve an `apiKey` function, checking what it returns (without ever quoting it). Its own
 * failure becomes an `InferenceError` with the original as `cause`. The request path races
 * this against the call's signal and timeout.
 */
async function callKeyFunction(fn: () => string | Promise<string>): Promise<string> {
  let key: unknown;
  try {
    key = await fn();
  } catch (error) {
    throw new InferenceError(`The \`apiKey\` function failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (typeof key !== 'string' || key === '') {
    throw new InferenceError('The `apiKey` function must return a non-empty string.');
  }
  assertHeaderValue('apiKey', key, false);
  return key;
}

