/**
 * `APIPromise`: what every method returns. Await it for the parsed body, or ask for more:
 * `.withResponse()` gives the body with the raw `Response` and request id, `.asResponse()` the
 * raw `Response` alone, body unread.
 *
 * The request starts right away (in a microtask, so that a chained `.asResponse()` can still
 * ask for the unread body), like a plain promise. A failure nobody awaits does not crash the
 * process with an unhandled rejection; it is delivered to whoever awaits later.
 */

/**
 * What awaiting an `APIPromise` gives: the body, and on a response object (not on a stream, a list
 * or a primitive) `_request_id`, the `x-request-id` header (`null` when absent), as the official
 * `openai` client has it. The property is not enumerable: `JSON.stringify`, `Object.keys`, spreads
 * and deep equality see the body as the server sent it. Absent when the body had a field of that
 * name (the server's is kept).
 *
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({ model: 'acme/chat-1', messages });
 * console.log(completion._request_id); // 'req_…', or null
 * ```
 */
export type WithRequestID<T> = T extends readonly unknown[] | AsyncIterable<unknown> | Response
  ? T
  : T extends object
    ? T & { _request_id?: string | null }
    : T;

/**
 * The parsed body with the response it came from.
 *
 * @example
 * ```ts
 * const { data, response, requestId }: WithResponse<ModelList> = await client.models.list().withResponse();
 * console.log(data.data.length, response.headers.get('x-ratelimit-remaining'), requestId);
 * ```
 */
export interface WithResponse<T> {
  data: T;
  response: Response;
  /** The `x-request-id` response header, if the server sent one. */
  requestId: string | undefined;
  /** The same as `requestId`, under the official `openai` client's name (`null` when absent, as there). */
  request_id: string | null;
}

/**
 * What a call gives: the parsed body (`data`), or after a raw run `later`, which reads the body from
 * a copy the raw `Response` was cloned into, when the promise is awaited after all.
 * @internal
 */
export interface RunResult<T> {
  data?: T;
  response: Response;
  later?: Later<T> | undefined;
}

/**
 * The body of a raw run, read only if asked: `read()` parses the copy; `drop()` cancels it (the
 * promise was collected unread, so the copy stops buffering what the caller reads).
 * @internal
 */
export interface Later<T> {
  read(): Promise<T>;
  drop(): void;
}

/**
 * How a resource runs its call: `raw` true means "stop at the headers, leave the body unread"
 * (for `.asResponse()`: the caller's `Response`, and `later` to parse a copy of its body); otherwise
 * the body is read and parsed into `data`.
 * @internal
 */
export type Runner<T> = (raw: boolean) => Promise<RunResult<T>>;

/** Drops the body copy of a promise collected without being awaited after `asResponse()`. */
let unawaited: FinalizationRegistry<() => void> | undefined;

/**
 * A promise of a parsed API response, with access to the raw HTTP response.
 *
 * @example
 * ```ts
 * const models = await client.models.list();
 * const { data, response, requestId } = await client.models.list().withResponse();
 * const raw = await client.models.list().asResponse(); // body unread
 * ```
 */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #run: Runner<T>;
  #raw = false;
  #pending: Promise<RunResult<T>> | undefined;
  /** The body parsed from the copy, after `asResponse()`. */
  #parsed: Promise<RunResult<T>> | undefined;

  /** @internal */
  constructor(run: Runner<T>) {
    this.#run = run;
    queueMicrotask(() => void this.#start());
  }

  #start(): Promise<RunResult<T>> {
    if (!this.#pending) {
      this.#pending = this.#run(this.#raw).then((result) => {
        if (result.later)
          (unawaited ??= new FinalizationRegistry((drop) => drop())).register(
            this,
            result.later.drop,
            this,
          );
        return result.later ? result : addRequestID(result);
      });
      this.#pending.catch(() => {}); // see the module comment: no unhandled rejection
    }
    return this.#pending;
  }

  /** The body: read with the call, or (after `asResponse()`) from the copy, once. */
  #body(): Promise<RunResult<T>> {
    return (this.#parsed ??= this.#start().then(async (result) => {
      const { later, response } = result;
      if (!later) return result;
      unawaited?.unregister(this);
      return addRequestID({ data: await later.read(), response });
    }));
  }

  /** The parsed body, the raw response and its request id. */
  async withResponse(): Promise<WithResponse<T>> {
    const { data, response } = await this.#body();
    const id = response.headers.get('x-request-id');
    return { data: data as T, response, requestId: id ?? undefined, request_id: id };
  }

  /**
   * The raw `Response` once its status is known to be 2xx (errors still throw, after retries),
   * with the body unread: call it straight after the method, before awaiting anything.
   * The request's timeout and the caller's `signal` cover only the headers from then on.
   *
   * Awaiting the promise (or `withResponse()`) afterwards still gives the parsed body, as with the
   * official `openai` client, whether or not the caller read the raw body: the response is cloned,
   * and the copy is parsed when first awaited (without retries: the request is over; its errors are
   * thrown to the awaiter). Until then, what the caller reads of the raw body is buffered for the
   * copy (a stream's events too), and freed when the promise is collected without being awaited.
   *
   * @example
   * ```ts
   * const pending = client.models.list();
   * const response = await pending.asResponse();
   * console.log(response.headers.get('x-request-id'), await response.text());
   * const list = await pending; // the parsed body as well
   * ```
   */
  asResponse(): Promise<Response> {
    if (!this.#pending) this.#raw = true;
    return this.#start().then((r) => r.response);
  }

  then<R1 = WithRequestID<T>, R2 = never>(
    onfulfilled?: ((value: WithRequestID<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#body()
      .then((r) => r.data as WithRequestID<T>)
      .then(onfulfilled, onrejected);
  }

  /** As `Promise.prototype.catch`. */
  catch<R = never>(
    onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null,
  ): Promise<WithRequestID<T> | R> {
    return this.then(undefined, onrejected);
  }

  /** As `Promise.prototype.finally`. */
  finally(onfinally?: (() => void) | null): Promise<WithRequestID<T>> {
    return this.then().finally(onfinally);
  }

  /** `'APIPromise'`, for `Object.prototype.toString`. */
  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}

/**
 * The promise `models.list()` returns: await it for the list object (`{ object, data }`), or
 * iterate it with `for await` for the models themselves, as with the official `openai` client.
 * The service has no pagination, so the iteration reads one list.
 *
 * @example
 * ```ts
 * for await (const model of client.models.list()) console.log(model.id);
 *
 * const { object, data } = await client.models.list(); // 'list', Model[]
 * ```
 */
export class PagePromise<Page extends { data: Item[] }, Item>
  extends APIPromise<Page>
  implements AsyncIterable<Item>
{
  /** Every item of the list, in order (the request is made once, when iteration starts). */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    const page = await this;
    yield* page.data;
  }
}

/**
 * `_request_id` on a response object, once per call (never per chunk: a stream is a class
 * instance and is left alone, as are lists). Not enumerable (the default of `defineProperty`), so
 * the body serializes and compares as sent; a field of that name the server sent is kept.
 */
function addRequestID<T>(result: RunResult<T>): RunResult<T> {
  const data: unknown = result.data;
  if (
    typeof data === 'object' &&
    data !== null &&
    Object.getPrototypeOf(data) === Object.prototype &&
    Object.isExtensible(data) &&
    !Object.hasOwn(data, '_request_id')
  ) {
    Object.defineProperty(data, '_request_id', {
      value: result.response.headers.get('x-request-id'),
      writable: true,
      configurable: true,
    });
  }
  return result;
}
