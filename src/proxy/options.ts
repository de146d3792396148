/**
 * The options of `createProxy()`: their types, defaults and checks. A mistake throws an
 * `InferenceError` where the route is created, naming the option ("did you mean `maxTokens`?").
 */
import { InferenceError, sumCosts, type ClientOptions, type Model } from 'model-inference-sdk';
import { closest, didYouMean } from '../util/suggest';
import { memoryStore, type ProxyStore } from './store';

/**
 * What the route knows of the request it is deciding on, as `system` gets it.
 *
 * @example
 * ```ts
 * import { createProxy, type ProxyContext } from 'model-inference-sdk/proxy';
 *
 * const system = ({ user }: ProxyContext) => `You help ${user}. Answer briefly.`;
 * const handler = createProxy({ models: ['acme/chat-1'], system });
 * ```
 */
export interface ProxyContext {
  /** The browser's request. */
  request: Request;
  /** The user `identify()` gave (`'anonymous'` without `identify`). */
  user: string;
}

/**
 * One call's usage, as the route counted it against the user (see `onUsage`).
 *
 * @example
 * ```ts
 * import { createProxy, type ProxyUsage } from 'model-inference-sdk/proxy';
 *
 * const log = (u: ProxyUsage) => console.log(u.user, u.model, u.usage.total_tokens, u.cost, u.outcome);
 * const handler = createProxy({ models: ['acme/chat-1'], onUsage: log });
 * ```
 */
export interface ProxyUsage {
  user: string;
  /** The model that answered (with the upstream's `fallbacks`, maybe not the one asked for). */
  model: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  /** The cost, an exact decimal in the model's price unit; `undefined` without a price. */
  cost: string | undefined;
  /** The usage is the route's estimate (no usage from the upstream: a stream cut off or aborted). */
  estimated: boolean;
  /** How the call ended. */
  outcome: 'ok' | 'aborted' | 'error' | 'budget';
}

/**
 * Requests and tokens per user per window.
 *
 * @example
 * ```ts
 * import { createProxy, type ProxyRateLimit } from 'model-inference-sdk/proxy';
 *
 * const rateLimit: ProxyRateLimit = { requests: 20, tokens: 20_000, windowMs: 60_000 };
 * const handler = createProxy({ models: ['acme/chat-1'], rateLimit });
 * ```
 */
export interface ProxyRateLimit {
  /** Window length in milliseconds. Default 60 000. */
  windowMs?: number;
  /** Requests per user per window (every endpoint). Default 60; `Infinity` for none. */
  requests?: number;
  /** Prompt + completion tokens per user per window, reserved before sending. Default 100 000. */
  tokens?: number;
}

/**
 * A cost budget per user per window, in the models' price unit (the service's currency per token).
 *
 * @example
 * ```ts
 * import { createProxy, type ProxyBudget } from 'model-inference-sdk/proxy';
 *
 * const budget: ProxyBudget = { cost: '0.50', windowMs: 24 * 60 * 60 * 1000 };
 * const handler = createProxy({ models: ['acme/chat-1'], budget });
 * ```
 */
export interface ProxyBudget {
  /** The most a user may spend in a window: a decimal (`'0.50'`, `0.5`). */
  cost: string | number;
  /** Window length in milliseconds. Default 86 400 000 (a day). */
  windowMs?: number;
}

/**
 * Options of {@link createProxy}. Only `models` is required.
 *
 * @example
 * ```ts
 * import { createProxy, type ProxyOptions } from 'model-inference-sdk/proxy';
 *
 * const options: ProxyOptions = {
 *   models: ['acme/chat-1'],
 *   system: 'You are the help desk of Acme. Answer in two sentences.',
 *   identify: (request) => request.headers.get('x-user-id'),
 *   budget: { cost: '0.10' },
 * };
 * export const POST = createProxy(options);
 * ```
 */
export interface ProxyOptions {
  /**
   * The models the route serves: slugs, or `{ id, pricing }` to price a model without asking the
   * upstream. Others are neither listed nor served (404).
   */
  models: ReadonlyArray<string | Pick<Model, 'id' | 'pricing'>>;
  /** Options of the route's own `Client` (the key, the base URL, timeouts); default: the environment. */
  upstream?: ClientOptions;
  /** The path the route is served under, as the browser's `baseURL`. Default `'/api/inference/v1'`. */
  basePath?: string;
  /** Who is asking: a user id, or `null`/`undefined` (or a throw, or no answer within 10 s) to refuse with 401; a `Response` to answer with it. */
  identify?: (
    request: Request,
  ) => string | null | undefined | Response | Promise<string | null | undefined | Response>;
  /** The app's system prompt, sent first in every chat request (a function that throws or has not settled within 10 s is a 500). */
  system?: string | ((context: ProxyContext) => string | Promise<string>);
  /** Accept `system` and `developer` messages from the browser. Default `false`. */
  allowSystemMessages?: boolean;
  /** Accept `tools`, `tool_choice`, tool calls and tool messages. Default `false`. */
  allowTools?: boolean;
  /** Accept `response_format`. Default `false`. */
  allowResponseFormat?: boolean;
  /** Other top-level body fields to pass on as they are (`'logit_bias'`). Default none. */
  allowFields?: readonly string[];
  /** Content part types accepted in messages. Default `['text']`. */
  contentParts?: readonly string[];
  /** Serve the legacy `POST /completions`. Default `false`. */
  legacyCompletions?: boolean;
  /** The most completion tokens a request may ask for, filled in when it asks none. Default 1024. */
  maxTokens?: number;
  /** The most messages in a request. Default 100. */
  maxMessages?: number;
  /** The most bytes of a request body. Default 1 MiB. */
  maxBodyBytes?: number;
  /** The most time, in milliseconds, for a request body to arrive. Default 10 000. */
  bodyTimeoutMs?: number;
  /** The most choices (`n`) a request may ask for. Default 1. */
  maxChoices?: number;
  /** Per-user rate limit; `false` for none. Default 60 requests and 100 000 tokens a minute. */
  rateLimit?: ProxyRateLimit | false;
  /** Per-user cost budget. Default none. */
  budget?: ProxyBudget;
  /** Where the counters live. Default {@link memoryStore} (this process only). */
  store?: ProxyStore;
  /** A prefix for the store's keys, to share one store between routes. Default `'proxy:'`. */
  storePrefix?: string;
  /** Told of each call's usage once it is counted (for logs and bills); its errors (a throw, or an `async` one's rejection) are ignored. */
  onUsage?: (usage: ProxyUsage) => void;
  /** Told of every failure behind an error answer (the upstream's own error, with its detail); its errors (a throw, or an `async` one's rejection) are ignored. */
  onError?: (error: unknown, context: { request: Request; user: string | undefined }) => void;
}

export interface Resolved {
  models: Map<string, Pick<Model, 'id' | 'pricing'> | undefined>;
  upstream: ClientOptions;
  basePath: string;
  identify: ProxyOptions['identify'];
  system: ProxyOptions['system'];
  allowSystemMessages: boolean;
  allowTools: boolean;
  allowResponseFormat: boolean;
  allowFields: ReadonlySet<string>;
  contentParts: ReadonlySet<string>;
  legacyCompletions: boolean;
  maxTokens: number;
  maxMessages: number;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  maxChoices: number;
  rateLimit: { windowMs: number; requests: number; tokens: number } | undefined;
  /** The budget in nano-units (1e-9 of the price unit), with its window. */
  budget: { units: number; windowMs: number } | undefined;
  store: ProxyStore;
  storePrefix: string;
  onUsage: ProxyOptions['onUsage'];
  onError: ProxyOptions['onError'];
}

const NAMES: ReadonlyArray<keyof ProxyOptions> = [
  'models',
  'upstream',
  'basePath',
  'identify',
  'system',
  'allowSystemMessages',
  'allowTools',
  'allowResponseFormat',
  'allowFields',
  'contentParts',
  'legacyCompletions',
  'maxTokens',
  'maxMessages',
  'maxBodyBytes',
  'bodyTimeoutMs',
  'maxChoices',
  'rateLimit',
  'budget',
  'store',
  'storePrefix',
  'onUsage',
  'onError',
];

const fail = (message: string): never => {
  throw new InferenceError(`createProxy: ${message}`);
};

function whole(value: unknown, name: string, fallback: number, unbounded = false): number {
  const min = 1;
  if (value === undefined) return fallback;
  if (value === Infinity && unbounded) return Infinity;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    fail(`\`${name}\` must be a whole number of ${min} or more; got ${String(value)}.`);
  return value as number;
}

function flag(value: unknown, name: string): boolean {
  if (value !== undefined && typeof value !== 'boolean')
    fail(`\`${name}\` must be true or false; got ${String(value)}.`);
  return value === true;
}

function fn<T>(value: T, name: string): T {
  if (value !== undefined && typeof value !== 'function') fail(`\`${name}\` must be a function.`);
  return value;
}

function strings(value: unknown, name: string, fallback: readonly string[]): Set<string> {
  if (value === undefined) return new Set(fallback);
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    fail(`\`${name}\` must be an array of strings.`);
  return new Set(value as string[]);
}

/** A decimal amount in nano-units, rounded down (a budget) or up (a cost): exact, on bigint. */
export function toUnits(amount: string | number, round: 'down' | 'up'): number {
  const plain = sumCosts(amount); // the SDK's exact decimals: '1.5e-7' → '0.00000015'
  const negative = plain.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? plain.slice(1) : plain).split('.');
  let units = BigInt(whole) * 1_000_000_000n + BigInt((fraction.slice(0, 9) || '0').padEnd(9, '0'));
  if (round === 'up' && /[1-9]/.test(fraction.slice(9))) units += 1n;
  const value = Number(negative ? -units : units);
  return Number.isSafeInteger(value)
    ? value
    : negative
      ? -Number.MAX_SAFE_INTEGER
      : Number.MAX_SAFE_INTEGER;
}

export function resolveOptions(options: ProxyOptions): Resolved {
  if (typeof options !== 'object' || options === null) fail('options must be an object.');
  for (const name of Object.keys(options))
    if (!(NAMES as readonly string[]).includes(name))
      fail(`unknown option \`${name}\`.${didYouMean(closest(name, NAMES), '`')}`);

  if (!Array.isArray(options.models) || options.models.length === 0)
    fail('`models` must be a non-empty array of model slugs (the models the route serves).');
  const models = new Map<string, Pick<Model, 'id' | 'pricing'> | undefined>();
  for (const entry of options.models) {
    const id = typeof entry === 'string' ? entry : (entry as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || id === '')
      fail('each of `models` must be a slug or `{ id, pricing }`.');
    models.set(id as string, typeof entry === 'string' ? undefined : entry);
  }

  const basePath = options.basePath ?? '/api/inference/v1';
  if (typeof basePath !== 'string' || !/^(\/[\w.~-]+)*\/?$/.test(basePath))
    fail(
      `\`basePath\` must be a path such as '/api/inference/v1'; got ${JSON.stringify(basePath)}.`,
    );

  if (
    options.upstream !== undefined &&
    (typeof options.upstream !== 'object' || options.upstream === null)
  )
    fail('`upstream` must be the options of a Client.');
  // A fallback is a model the route serves too: the allow-list holds for what answers.
  for (const model of options.upstream?.fallbacks ?? [])
    if (!models.has(model))
      fail(
        `\`upstream.fallbacks\`: ${JSON.stringify(model)} is not one of \`models\` (the route serves only those).`,
      );
  if (
    options.system !== undefined &&
    typeof options.system !== 'string' &&
    typeof options.system !== 'function'
  )
    fail('`system` must be a string or a function returning one.');

  let rateLimit: Resolved['rateLimit'];
  if (options.rateLimit !== false) {
    const limit = options.rateLimit ?? {};
    if (typeof limit !== 'object' || limit === null)
      fail('`rateLimit` must be an object or false.');
    rateLimit = {
      windowMs: whole(limit.windowMs, 'rateLimit.windowMs', 60_000),
      requests: whole(limit.requests, 'rateLimit.requests', 60, true),
      tokens: whole(limit.tokens, 'rateLimit.tokens', 100_000, true),
    };
  }

  let budget: Resolved['budget'];
  if (options.budget !== undefined) {
    const { cost, windowMs } = options.budget ?? {};
    let units: number | undefined;
    try {
      units = cost === undefined ? undefined : toUnits(cost, 'down');
    } catch {
      units = undefined;
    }
    if (units === undefined || units < 0)
      fail(
        `\`budget.cost\` must be a decimal amount of 0 or more ('0.50'); got ${JSON.stringify(cost)}.`,
      );
    budget = { units: units as number, windowMs: whole(windowMs, 'budget.windowMs', 86_400_000) };
  }

  const store = options.store ?? memoryStore();
  if (typeof store?.increment !== 'function')
    fail('`store` must have an `increment(key, amount, ttlMs)` method.');
  const storePrefix = options.storePrefix ?? 'proxy:';
  if (typeof storePrefix !== 'string') fail('`storePrefix` must be a string.');

  return {
    models,
    upstream: options.upstream ?? {},
    basePath: basePath.replace(/\/$/, ''),
    identify: fn(options.identify, 'identify'),
    system: options.system,
    allowSystemMessages: flag(options.allowSystemMessages, 'allowSystemMessages'),
    allowTools: flag(options.allowTools, 'allowTools'),
    allowResponseFormat: flag(options.allowResponseFormat, 'allowResponseFormat'),
    allowFields: strings(options.allowFields, 'allowFields', []),
    contentParts: strings(options.contentParts, 'contentParts', ['text']),
    legacyCompletions: flag(options.legacyCompletions, 'legacyCompletions'),
    maxTokens: whole(options.maxTokens, 'maxTokens', 1024),
    maxMessages: whole(options.maxMessages, 'maxMessages', 100),
    maxBodyBytes: whole(options.maxBodyBytes, 'maxBodyBytes', 1024 * 1024),
    bodyTimeoutMs: whole(options.bodyTimeoutMs, 'bodyTimeoutMs', 10_000),
    maxChoices: whole(options.maxChoices, 'maxChoices', 1),
    rateLimit,
    budget,
    store,
    storePrefix,
    onUsage: fn(options.onUsage, 'onUsage'),
    onError: fn(options.onError, 'onError'),
  };
}
