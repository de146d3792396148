/**
 * Running hooks (the `hooks` option; their types are in options/hooks.ts). Loaded with `import()`
 * by the first call that has any (`withHooks()` in resources/call.ts), so that a client without
 * hooks never loads or runs this.
 *
 * `runCall()` runs one call with its hooks: one `Call` per call checks the hooks, keeps the call's
 * `info` and what its summary needs, and runs each hook in order, awaited, wrapping whatever one
 * throws in a `HookError` that names it. The request path calls it at each point through the
 * `CallHooks` it is given (core/request.ts, core/retry.ts, stream/events.ts).
 *
 * No hook can hold a call: each is awaited only within the call's `timeout` (and, once a stream
 * has begun, its `streamIdleTimeout`, whichever is shorter) and until the call's `signal` aborts
 * (`onChunk` also until `stream.abort()`); past that the call fails with the
 * `APIConnectionTimeoutError` or `APIUserAbortError` a stalled server gives, and the hook is left
 * to settle on its own.
 *
 * It imports only what other lazily loaded code imports too (errors/api.ts, util/mask.ts, util/suggest.ts): a module it
 * shared with the request path alone would be split out of the entry chunk of a user's bundle.
 */
import type { Runner } from '../core/api-promise';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  HookError,
  InferenceError,
  type APIError,
} from '../errors/api';
import type { CompletionUsage } from '../generated/types.gen';
import type {
  CallHooks,
  CallSummary,
  HookInfo,
  HookName,
  Hooks,
  RetryInfo,
} from '../options/hooks';
import type { ObservableIterator } from '../util/iterator';
import type { Log } from '../util/log';
import { maskedResponse } from './response';
import { isCredentialName, mask } from '../util/mask';
import { mentions } from './mentions';
import { closest, didYouMean } from '../util/suggest';
import type { CallDescription } from '../core/call-description';
import type { RequestContext } from '../core/request';

const HOOK_NAMES: readonly HookName[] = [
  'beforeRequest',
  'afterResponse',
  'beforeRetry',
  'onChunk',
  'onError',
  'onEnd',
];

/** One hooks object and how a `HookError` names it. */
interface Entry {
  hooks: Hooks;
  source: string;
}

/** `HookInfo` as the runner keeps it: the same object for every hook of the call. */
type Info = { -readonly [K in keyof HookInfo]: HookInfo[K] } & { error?: APIError; delay?: number };

/**
 * Run one call with its hooks: `run` is the call itself (resources/call.ts), given them. A JSON call (or a
 * raw one) ends here; a stream when its iterator ends (`stream()`).
 */
export async function runCall<T>(
  ctx: RequestContext,
  description: CallDescription,
  raw: boolean,
  run: (raw: boolean, hooks: CallHooks) => ReturnType<Runner<T>>,
): ReturnType<Runner<T>> {
  const call = new Call(ctx, description);
  let result: Awaited<ReturnType<Runner<T>>>;
  try {
    result = await run(raw, call);
  } catch (error) {
    throw await call.end(error);
  }
  if (description.stream && !raw) return result;
  call.done(result.data, result.response);
  const error = await call.end();
  if (error) throw error;
  return result;
}

/** How long a hook may be awaited, and what ends the wait at once. */
interface Bounds {
  signals: readonly (AbortSignal | undefined)[];
  /** Milliseconds, and the option they come from; none while the attempt's own timer runs. */
  ms?: number;
  option?: 'timeout' | 'streamIdleTimeout';
}

class Call implements CallHooks {
  readonly info: Info;
  readonly #entries: Entry[];
  readonly #log: Log;
  readonly #started = performance.now();
  /** What the call is and its settings (the timeout, the caller's signal, where it goes). */
  readonly #call: CallDescription;
  /** The current attempt's signal (the caller's signal and the attempt's `timeout`), from `beforeRequest`. */
  #attemptSignal: AbortSignal | undefined;
  /** The stream's own signal (`stream.abort()`), once the call's stream has begun. */
  #streamSignal: AbortSignal | undefined;
  #ended = false;
  /** Attempts sent (`info.attempt` runs ahead of it while `beforeRetry` hooks run). */
  #attempts = 0;
  #status: number | undefined;
  #data: unknown;
  #id: string | undefined;
  #model: string | undefined;
  #usage: CompletionUsage | undefined;
  /** Finish reasons by choice index (a Map: an index is the server's, and may be huge). */
  readonly #reasons = new Map<number, string>();
  #chunks: number | undefined;
  #firstChunk: number | undefined;

  constructor(ctx: RequestContext, call: CallDescription) {
    this.#log = ctx.log;
    this.#call = call;
    this.#entries = [...entries(ctx.options.hooks, 'client'), ...entries(call.hooks, 'request')];
    this.info = {
      operation: call.operation,
      model: call.model,
      stream: call.stream,
      body: call.body as HookInfo['body'],
      attempt: 1,
      startTime: Date.now(),
      queueTime: 0,
    };
  }

  async beforeRequest(
    url: string,
    init: RequestInit,
    attempt: number,
    signal: AbortSignal,
  ): Promise<{ url: string; init: RequestInit }> {
    this.info.attempt = this.#attempts = attempt;
    this.#attemptSignal = signal;
    const entries = this.#with('beforeRequest');
    if (entries.length === 0) return { url, init };
    // The key never reaches a hook: credential headers are withheld, and added back after.
    const headers = new Headers(init.headers);
    const withheld: [string, string][] = [];
    headers.forEach((value, name) => {
      if (isCredentialName(name)) withheld.push([name, value]);
    });
    for (const [name] of withheld) headers.delete(name);
    const original = new Request(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.body ?? null,
      signal,
    });
    let request = original;
    for (const entry of entries) {
      const out = await this.#run(entry, 'beforeRequest', () =>
        entry.hooks.beforeRequest!(request, this.info),
      );
      if (out === undefined) continue;
      if (!isLike<Request>(out, 'url', 'arrayBuffer'))
        throw this.#error(
          entry,
          'beforeRequest',
          `returned ${describe(out)}; expected a Request or nothing`,
        );
      request = out;
    }
    const sent = new Headers(request.headers);
    // A hook may set its own credentials (a signature, another scheme): those win.
    for (const [name, value] of withheld) if (!sent.has(name)) sent.set(name, value);
    const { body: _body, ...rest } = init;
    const body =
      request === original
        ? init.body
        : request.body === null
          ? undefined
          : new Uint8Array(await request.arrayBuffer());
    return {
      url: request.url,
      init: { ...rest, method: request.method, headers: sent, ...(body == null ? {} : { body }) },
    };
  }

  async afterResponse(response: Response): Promise<Response> {
    this.#status = response.status;
    const entries = this.#with('afterResponse');
    // The key never reaches a hook, not even as a server echoes it back (a 401's body, a header).
    if (entries.length > 0) response = maskedResponse(response, this.#log.secrets);
    for (const entry of entries) {
      try {
        const out = await this.#run(entry, 'afterResponse', () =>
          entry.hooks.afterResponse!(response, this.info),
        );
        if (out === undefined) continue;
        if (!isLike<Response>(out, 'status', 'headers'))
          throw this.#error(
            entry,
            'afterResponse',
            `returned ${describe(out)}; expected a Response or nothing`,
          );
        response = out;
      } catch (error) {
        void response.body?.cancel().catch(() => {}); // nobody reads it now
        throw error;
      }
      this.#status = response.status;
    }
    return response;
  }

  async beforeRetry(
    error: APIError,
    delay: number,
    attempt: number,
    model?: string,
  ): Promise<void> {
    // The call's own info object, with the retry's error and delay for the time of the hooks.
    const info = this.info;
    info.attempt = attempt;
    if (model !== undefined) info.model = model;
    info.error = error;
    info.delay = delay;
    try {
      for (const entry of this.#with('beforeRetry'))
        await this.#run(entry, 'beforeRetry', () => entry.hooks.beforeRetry!(info as RetryInfo));
    } finally {
      delete info.error;
      delete info.delay;
    }
  }

  queued(ms: number): void {
    this.info.queueTime += ms;
  }

  wrap<T, S>(
    wrap: (source: () => ObservableIterator<T>, controller: AbortController) => S,
  ): (source: () => ObservableIterator<T>, controller: AbortController) => S {
    return (source, controller) => {
      const follow = this.#stream<T>(controller.signal);
      return wrap(() => follow(source()), controller);
    };
  }

  /** A stream's first chunk was read (a failure before it is the attempt's): its iterator, followed. */
  #stream<T>(signal: AbortSignal): (iterator: ObservableIterator<T>) => ObservableIterator<T> {
    this.#streamSignal = signal;
    this.#chunks = 0;
    this.#firstChunk = performance.now() - this.#started;
    const entries = this.#with('onChunk');
    return (inner) => {
      // A hook that throws (or is given up on) ends the stream with its error: the hooks told, the
      // request aborted, the stream's listeners told of the error.
      const failed = async (error: unknown): Promise<never> => {
        const told = this.end(error);
        if (inner.throw) await inner.throw(error).catch(() => {});
        else await inner.return?.();
        throw await told;
      };
      // The chunk hooks in order, from `from`. Synchronous hooks cost no promise per chunk; an
      // async one is awaited before the chunk is handed over, and the ones after it run then.
      const secrets = this.#log.secrets;
      const chunk = (
        result: IteratorResult<T>,
        from: number,
      ): IteratorResult<T> | Promise<IteratorResult<T>> => {
        // A chunk that quotes the key (a model echoing it) reaches the hooks masked, a copy; the
        // check allocates nothing, and a chunk without the key is handed over as it is.
        const given = mentions(result.value, secrets) ? mask(result.value, secrets) : result.value;
        for (let i = from; i < entries.length; i++) {
          const entry = entries[i]!;
          let out: unknown;
          try {
            out = entry.hooks.onChunk!(given as never, this.info);
          } catch (error) {
            return failed(this.#threw(entry, 'onChunk', error));
          }
          if (isThenable(out)) {
            return this.#settle(out, entry, 'onChunk').then(
              () => chunk(result, i + 1),
              (error: unknown) => failed(error),
            );
          }
        }
        return result;
      };
      // Made once per stream, not per chunk: a long stream allocates nothing here per chunk but
      // the promise `then` returns.
      const read = (result: IteratorResult<T>): IteratorResult<T> | Promise<IteratorResult<T>> => {
        if (result.done) {
          return this.end().then((error) => {
            if (error) throw error;
            return result;
          });
        }
        this.#chunks!++;
        this.#read(result.value);
        return entries.length === 0 ? result : chunk(result, 0);
      };
      const fail = async (error: unknown): Promise<never> => {
        throw await this.end(error);
      };
      const followed: ObservableIterator<T> = {
        next: () => inner.next().then(read, fail),
        return: async () => {
          // Told before a pending read fails: the caller left, the stream did not fail.
          const told = this.end(undefined, true);
          await inner.return?.();
          const error = await told;
          if (error) throw error;
          return { done: true, value: undefined };
        },
      };
      // ChatCompletionStream's accumulation watches the stream's own iterator, as without hooks.
      if (inner.observe) followed.observe = (observer) => inner.observe!(observer);
      return followed;
    };
  }

  /** A JSON call (or a raw one) succeeded with `data`. */
  done(data: unknown, response: Response): void {
    this.#data = data;
    this.#status = response.status;
    this.#read(data);
  }

  /**
   * The call is over (once; later calls return `error` as it is): `onError` when it failed, then
   * `onEnd`. Every hook runs even if one throws; the first that threw makes the call's error a
   * `HookError`. Resolves to the error the caller must get (or `undefined`).
   */
  async end(error?: unknown, closed = false): Promise<unknown> {
    if (this.#ended) return error;
    this.#ended = true;
    const duration = performance.now() - this.#started;
    let failure: unknown;
    if (error !== undefined) {
      error = mask(error, this.#log.secrets);
      const failed = error instanceof Error ? `; the call had failed: ${error.message}` : '';
      for (const entry of this.#with('onError')) {
        await this.#run(
          entry,
          'onError',
          () => entry.hooks.onError!(error as InferenceError, this.info),
          failed,
        ).catch((e: unknown) => (failure ??= e));
      }
    }
    const secrets = this.#log.secrets;
    const summary: CallSummary = {
      outcome: error !== undefined ? 'error' : closed ? 'closed' : 'ok',
      error: error as InferenceError | undefined,
      duration,
      attempts: this.#attempts,
      queueTime: this.info.queueTime,
      status: this.#status,
      // The key, if a server echoed it (as the id, the model, in the body), masked: a copy, the
      // caller's data unchanged.
      id: mask(this.#id, secrets),
      model: mask(this.#model, secrets),
      usage: this.#usage,
      finishReasons: mask(
        [...this.#reasons].sort(([a], [b]) => a - b).map(([, reason]) => reason),
        secrets,
      ),
      data: mask(this.#data, secrets),
      chunks: this.#chunks,
      timeToFirstChunk: this.#firstChunk,
    };
    // For the SDK's own telemetry, which joins a stream's chunks back into its output: a key the
    // stream split across chunks is whole again there, and masked with this. It answers only
    // whether a whole key occurs in a value, never a part of one: no hook learns the key from it.
    Object.defineProperty(summary, Symbol.for('model-inference-sdk.mask'), {
      value: (value: unknown) => mask(value, secrets),
    });
    for (const entry of this.#with('onEnd')) {
      await this.#run(entry, 'onEnd', () => entry.hooks.onEnd!(summary, this.info)).catch(
        (e: unknown) => (failure ??= e),
      );
    }
    // Hooks given up on because the call was aborted: the abort the call already had stands.
    return failure instanceof APIUserAbortError && error instanceof APIUserAbortError
      ? error
      : (failure ?? error);
  }

  /** What a summary takes from a completion or a chunk (chat and legacy completions only). */
  #read(value: unknown): void {
    const { operation } = this.info;
    if (
      (operation !== 'chat' && operation !== 'completions') ||
      typeof value !== 'object' ||
      value === null
    )
      return;
    const v = value as {
      id?: unknown;
      model?: unknown;
      usage?: CompletionUsage | null;
      choices?: unknown;
    };
    if (typeof v.id === 'string' && v.id !== '') this.#id ??= v.id;
    if (typeof v.model === 'string' && v.model !== '') this.#model ??= v.model;
    if (v.usage) this.#usage = v.usage;
    if (!Array.isArray(v.choices)) return;
    for (let i = 0; i < v.choices.length; i++) {
      const choice = v.choices[i] as { index?: unknown; finish_reason?: unknown } | null;
      const reason = choice?.finish_reason;
      if (typeof reason === 'string')
        this.#reasons.set(typeof choice!.index === 'number' ? choice!.index : i, reason);
    }
  }

  #with(name: HookName): Entry[] {
    return this.#entries.filter((entry) => entry.hooks[name] !== undefined);
  }

  /** Run one hook, awaited within the call's limits; what it throws becomes a `HookError` naming it. */
  async #run<R>(entry: Entry, hook: HookName, call: () => R, suffix = ''): Promise<Awaited<R>> {
    let out: R;
    try {
      out = call();
    } catch (error) {
      throw this.#threw(entry, hook, error, suffix);
    }
    return (isThenable(out) ? this.#settle(out, entry, hook, suffix) : out) as Awaited<R>;
  }

  /**
   * What a hook returned, awaited no longer than the call may wait: its rejection a `HookError`;
   * past the limit an `APIConnectionTimeoutError`, after an abort an `APIUserAbortError` (the
   * hook itself is left to settle, its outcome ignored). No timer or listener is left behind.
   */
  #settle<R>(out: PromiseLike<R>, entry: Entry, hook: HookName, suffix = ''): Promise<Awaited<R>> {
    const { signals, ms, option } = this.#bounds(hook);
    return new Promise<Awaited<R>>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        clearTimeout(timer);
        for (const signal of signals) signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        reject(this.#aborted(entry, hook));
      };
      // Handlers first: a hook given up on must not end as an unhandled rejection later.
      Promise.resolve(out).then(
        (value) => {
          done();
          resolve(value as Awaited<R>);
        },
        (error: unknown) => {
          done();
          reject(this.#threw(entry, hook, error, suffix));
        },
      );
      if (signals.some((signal) => signal?.aborted)) return onAbort();
      for (const signal of signals) signal?.addEventListener('abort', onAbort, { once: true });
      if (ms !== undefined) {
        timer = setTimeout(() => {
          done();
          reject(
            mask(
              new APIConnectionTimeoutError(this.#call.target, ms, {
                hook: `${hook} hook of ${entry.source}`,
                option: option ?? 'timeout',
              }),
              this.#log.secrets,
            ),
          );
        }, ms);
      }
    });
  }

  /**
   * How long `hook` may be awaited. `beforeRequest` and `afterResponse` run inside an attempt,
   * within its signal (the caller's signal, and the attempt's own `timeout` timer); the others
   * within the call's `timeout`, after a stream's first chunk also its `streamIdleTimeout`
   * (whichever is shorter), and until the caller's signal aborts (or `stream.abort()`, for `onChunk`).
   */
  #bounds(hook: HookName): Bounds {
    if (hook === 'beforeRequest' || hook === 'afterResponse')
      return { signals: [this.#attemptSignal] };
    // `stream.abort()` (and `break`, which aborts the stream too) gives up on a pending onChunk;
    // the hooks that tell of the end are what follows it, so they are not given up on for it.
    const { signal, timeout, streamIdleTimeout } = this.#call;
    const signals = hook === 'onChunk' ? [signal, this.#streamSignal] : [signal];
    if (this.#streamSignal !== undefined && streamIdleTimeout < timeout)
      return { signals, ms: streamIdleTimeout, option: 'streamIdleTimeout' };
    return { signals, ms: timeout, option: 'timeout' };
  }

  /** The error for a hook given up on because a signal aborted: the caller's abort, or the attempt's timeout. */
  #aborted(entry: Entry, hook: HookName): APIError {
    const { signal, target, timeout } = this.#call;
    const user = signal?.aborted
      ? signal
      : this.#streamSignal?.aborted
        ? this.#streamSignal
        : undefined;
    const error = user
      ? new APIUserAbortError(target, user.reason)
      : // Only the attempt's signal is left: its timer fired (core/request.ts makes its error a timeout too).
        new APIConnectionTimeoutError(target, timeout, {
          hook: `${hook} hook of ${entry.source}`,
          option: 'timeout',
        });
    return mask(error, this.#log.secrets);
  }

  /** The `HookError` for what a hook threw. */
  #threw(entry: Entry, hook: HookName, error: unknown, suffix = ''): HookError {
    return this.#error(
      entry,
      hook,
      `threw: ${error instanceof Error ? error.message : String(error)}${suffix}`,
      error,
    );
  }

  #error(entry: Entry, hook: HookName, what: string, cause?: unknown): HookError {
    const error = new HookError(
      `${this.info.operation}: the ${hook} hook of ${entry.source} ${what}`,
      cause === undefined ? undefined : { cause },
    );
    return mask(Object.assign(error, { hook, source: entry.source }), this.#log.secrets);
  }
}

/** The hooks of one level (`new Client({ hooks })` or a request's), checked: every name known, every hook a function. */
function entries(hooks: Hooks | readonly Hooks[] | undefined, from: 'client' | 'request'): Entry[] {
  if (hooks === undefined) return [];
  const where = from === 'client' ? 'new Client({ hooks })' : 'The request option `hooks`';
  return (Array.isArray(hooks) ? (hooks as readonly unknown[]) : [hooks]).map((value, i) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new InferenceError(
        `${where}: hooks must be an object of hook functions, or an array of them; got ${describe(value)}${Array.isArray(hooks) ? ` at [${i}]` : ''}.`,
      );
    }
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const hook = object[key];
      if (key === 'name') {
        if (hook !== undefined && typeof hook !== 'string')
          throw new InferenceError(`${where}: \`name\` must be a string; got ${describe(hook)}.`);
      } else if (!(HOOK_NAMES as readonly string[]).includes(key)) {
        throw new InferenceError(
          `${where}: unknown hook \`${key}\`.${didYouMean(closest(key, HOOK_NAMES), '`')} Hooks: ${HOOK_NAMES.join(', ')}.`,
        );
      } else if (hook !== undefined && typeof hook !== 'function') {
        throw new InferenceError(`${where}: \`${key}\` must be a function; got ${describe(hook)}.`);
      }
    }
    const name = object.name as string | undefined;
    return { hooks: object as Hooks, source: name ? `"${name}"` : `${from} hooks[${i}]` };
  });
}

/** Whether a hook's value has the members of a `T` (a `Request`, a `Response`): duck-typed, since a polyfill's or another realm's instance is not `instanceof` this one's. */
function isLike<T>(value: unknown, ...keys: string[]): value is T {
  return typeof value === 'object' && value !== null && keys.every((key) => key in value);
}

function describe(value: unknown): string {
  return value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object of another kind'
        : `a ${typeof value}`;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
