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
 * The hooks option is checked in hooks/check.ts, the limits on a hook's wait are kept in
 * hooks/limits.ts, and what the summary is made of in hooks/summary.ts: all loaded with this.
 *
 * These files import only what other lazily loaded code imports too (errors/api.ts, util/mask.ts,
 * util/suggest.ts): a module they shared with the request path alone would be split out of the
 * entry chunk of a user's bundle.
 */
import type { Runner } from '../core/api-promise';
import { APIUserAbortError, HookError, type APIError, type InferenceError } from '../errors/api';
import type { CallHooks, HookInfo, HookName, RetryInfo } from '../options/hooks';
import type { ObservableIterator } from '../util/iterator';
import type { Log } from '../util/log';
import { maskedResponse } from './response';
import { isCredentialName, mask } from '../util/mask';
import { mentions } from './mentions';
import type { CallDescription } from '../core/call-description';
import type { RequestContext } from '../core/request';
import { describe, entries, isLike, isThenable, type Entry } from './check';
import { HookLimits } from './limits';
import { CallRecord } from './summary';

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

class Call implements CallHooks {
  declare readonly info: Info;
  readonly #entries: Entry[];
  readonly #log: Log;
  readonly #started = performance.now();
  /** How long each hook may be awaited (hooks/limits.ts). */
  readonly #limits: HookLimits;
  /** What the call's summary is made of (hooks/summary.ts). */
  readonly #record: CallRecord;
  #ended = false;
  /** Attempts sent (`info.attempt` runs ahead of it while `beforeRetry` hooks run). */
  #attempts = 0;

  constructor(ctx: RequestContext, call: CallDescription) {
    this.#log = ctx.log;
    this.#limits = new HookLimits(call, ctx.log);
    this.#record = new CallRecord(call.operation);
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
    this.#limits.attemptSignal = signal;
    const entries = this.#with('beforeRequest');
    if (entries.length === 0) return { url, init };
    // The key never reaches a hook: credential headers are withheld, and added back after.
    const headers = new Headers(init.headers);
    const withheld = [...headers].filter(([name]) => isCredentialName(name));
    for (const [name] of withheld) headers.delete(name);
    // prepare() always sets the method; a GET has no body (undefined: none).
    const original = new Request(url, {
      method: init.method!,
      headers,
      body: init.body!,
      signal,
    });
    let request = original;
    for (const entry of entries)
      request =
        this.#returned(
          entry,
          'beforeRequest',
          await this.#run(entry, 'beforeRequest', [request, this.info]),
          'Request',
          'url',
          'arrayBuffer',
        ) ?? request;
    const sent = new Headers(request.headers);
    // A hook may set its own credentials (a signature, another scheme): those win.
    for (const [name, value] of withheld) if (!sent.has(name)) sent.set(name, value);
    const body =
      request === original
        ? init.body
        : request.body === null
          ? null
          : new Uint8Array(await request.arrayBuffer());
    return {
      url: request.url,
      init: { ...init, method: request.method, headers: sent, body } as RequestInit,
    };
  }

  async afterResponse(response: Response): Promise<Response> {
    this.#record.status = response.status;
    const entries = this.#with('afterResponse');
    // The key never reaches a hook, not even as a server echoes it back (a 401's body, a header).
    if (entries.length > 0) response = maskedResponse(response, this.#log.secrets);
    for (const entry of entries) {
      try {
        response =
          this.#returned(
            entry,
            'afterResponse',
            await this.#run(entry, 'afterResponse', [response, this.info]),
            'Response',
            'status',
            'headers',
          ) ?? response;
      } catch (error) {
        void response.body?.cancel().catch(() => {}); // nobody reads it now
        throw error;
      }
      this.#record.status = response.status;
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
        await this.#run(entry, 'beforeRetry', [info as RetryInfo]);
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
    this.#limits.streamSignal = signal;
    this.#record.chunks = 0;
    this.#record.firstChunk = performance.now() - this.#started;
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
        this.#record.chunks!++;
        this.#record.read(result.value);
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
    this.#record.data = data;
    this.#record.status = response.status;
    this.#record.read(data);
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
        await this.#run(entry, 'onError', [error as InferenceError, this.info], failed).catch(
          (e: unknown) => (failure ??= e),
        );
      }
    }
    const summary = this.#record.summary(
      error,
      closed,
      duration,
      this.#attempts,
      this.info.queueTime,
      this.#log.secrets,
    );
    for (const entry of this.#with('onEnd')) {
      await this.#run(entry, 'onEnd', [summary, this.info]).catch((e: unknown) => (failure ??= e));
    }
    // Hooks given up on because the call was aborted: the abort the call already had stands.
    return failure instanceof APIUserAbortError && error instanceof APIUserAbortError
      ? error
      : (failure ?? error);
  }

  #with(name: HookName): Entry[] {
    return this.#entries.filter((entry) => entry.hooks[name] !== undefined);
  }

  /** Run one hook, awaited within the call's limits; what it throws becomes a `HookError` naming it. */
  async #run(entry: Entry, hook: HookName, args: unknown[], suffix = ''): Promise<unknown> {
    let out: unknown;
    try {
      out = (entry.hooks[hook] as (...args: unknown[]) => unknown)(...args);
    } catch (error) {
      throw this.#threw(entry, hook, error, suffix);
    }
    return isThenable(out) ? this.#settle(out, entry, hook, suffix) : out;
  }

  /** What a hook that may replace the request or the response returned: `undefined` or a `kind`. */
  #returned<T>(
    entry: Entry,
    hook: HookName,
    out: unknown,
    kind: string,
    ...keys: string[]
  ): T | undefined {
    if (out === undefined || isLike<T>(out, ...keys)) return out;
    throw this.#error(entry, hook, `returned ${describe(out)}; expected a ${kind} or nothing`);
  }

  /** What a hook returned, awaited within the call's limits (hooks/limits.ts). */
  #settle<R>(out: PromiseLike<R>, entry: Entry, hook: HookName, suffix = ''): Promise<Awaited<R>> {
    return this.#limits.settle(out, entry, hook, (error) =>
      this.#threw(entry, hook, error, suffix),
    );
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
