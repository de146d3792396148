/**
 * Batch input lines, in the OpenAI Batch API's format, read and checked one by one: what each
 * request is, or what is wrong with it and on which line. A body is checked by the same call-site
 * checks as `create()`, by calling it with a signal that has already aborted: its checks run, and
 * nothing is sent.
 */
import { APIUserAbortError, InferenceError, type Client, type Hooks } from 'model-inference-sdk';
import { isError } from './output';
import { readLines, type LineSource, type TextLine } from './lines';
import { checkShard, inShard, type Shard } from './hash';
import { IdSet } from './id-set';

/**
 * The two endpoints a batch line may name (as in the OpenAI Batch API).
 *
 * @example
 * ```ts
 * import { BATCH_URLS } from 'model-inference-sdk/batch';
 *
 * console.log(BATCH_URLS.join(', ')); // /v1/chat/completions, /v1/completions
 * ```
 */
export const BATCH_URLS = ['/v1/chat/completions', '/v1/completions'] as const;

/**
 * One line of a batch input file: OpenAI's Batch API input format.
 *
 * @example
 * ```ts
 * const line: BatchInputLine = {
 *   custom_id: 'q-1',
 *   method: 'POST',
 *   url: '/v1/chat/completions',
 *   body: { model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hello' }] },
 * };
 * ```
 */
export interface BatchInputLine {
  /** Your id for the line, unique in the file: its output line carries it. */
  custom_id: string;
  method: 'POST';
  url: (typeof BATCH_URLS)[number];
  /** The request body, as `create()` takes it (without `stream`: a batch line is answered whole). */
  body: Record<string, unknown>;
}

/**
 * A checked input line, with where it came from.
 *
 * @example
 * ```ts
 * for await (const request of requests) console.log(request.line, request.custom_id);
 * ```
 */
export interface BatchRequest extends BatchInputLine {
  /** 1-based line number in the input. */
  line: number;
  /** The line's text as read: its SHA-256 names its idempotency key and output id. */
  text: string;
}

/**
 * What is wrong with one input line.
 *
 * @example
 * ```ts
 * const problem: BatchInputProblem = { line: 7, message: 'duplicate custom_id "q-3" (first on line 2)' };
 * ```
 */
export interface BatchInputProblem {
  line: number;
  message: string;
}

/**
 * Input lines that cannot be run, found before anything was sent; `problems` lists them (up to
 * the first 100), each with its line number.
 *
 * @example
 * ```ts
 * try {
 *   await runBatchFile(client, { input: 'in.jsonl', output: 'out.jsonl' });
 * } catch (err) {
 *   if (err instanceof BatchInputError) for (const p of err.problems) console.error(`line ${p.line}: ${p.message}`);
 * }
 * ```
 */
export class BatchInputError extends InferenceError {
  override name = 'BatchInputError';
  constructor(
    readonly problems: BatchInputProblem[],
    /** How many lines had a problem (`problems` holds the first 100). */
    readonly count = problems.length,
  ) {
    const first = problems
      .slice(0, 5)
      .map((p) => `line ${p.line}: ${p.message}`)
      .join('; ');
    super(
      `${count} input line${count === 1 ? '' : 's'} cannot be run (${first}${count > 5 ? '; …' : ''}); nothing was sent.`,
    );
  }
}

/** A line's request, or its problem; `undefined` for a blank line (not a request). */
export function readRequest(
  line: TextLine,
  seen: IdSet,
): BatchRequest | BatchInputProblem | undefined {
  const problem = (message: string): BatchInputProblem => ({ line: line.number, message });
  if (line.text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch (error) {
    return problem(`not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return problem('not a JSON object');
  const { custom_id: id, method, url, body } = value as Record<string, unknown>;
  if (typeof id !== 'string' || id === '') return problem('no custom_id (a non-empty string)');
  const first = seen.add(id, line.number);
  if (first !== undefined)
    return problem(`duplicate custom_id ${JSON.stringify(id)} (first on line ${first})`);
  if (method !== 'POST') return problem(`method must be "POST", not ${JSON.stringify(method)}`);
  if (!(BATCH_URLS as readonly unknown[]).includes(url))
    return problem(
      `url must be ${BATCH_URLS.map((u) => `"${u}"`).join(' or ')}, not ${JSON.stringify(url)}`,
    );
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return problem('body must be a JSON object');
  if ((body as { stream?: unknown }).stream === true)
    return problem('body.stream: a batch line is answered whole; leave stream out');
  return {
    custom_id: id,
    method,
    url: url as BatchRequest['url'],
    body: body as Record<string, unknown>,
    line: line.number,
    text: line.text,
  };
}

/** What `create()`'s call-site checks say of a request's body, without sending it; `undefined` when it passes. */
export async function bodyProblem(
  client: Client,
  request: BatchRequest,
  aborted: AbortSignal,
): Promise<string | undefined> {
  try {
    await send(client, request, { signal: aborted, maxRetries: 0 });
  } catch (error) {
    if (isError(error, 'APIUserAbortError')) return undefined;
    if (isError(error, 'InferenceError'))
      return error.message.replace(/^[\w.]+\(body\): /, 'body: ');
    throw error;
  }
  return undefined;
}

/** The request of a line, sent with `options`, as its raw response and body. */
export function send(
  client: Client,
  request: BatchInputLine,
  options: { signal?: AbortSignal; maxRetries?: number; idempotencyKey?: string; hooks?: Hooks },
) {
  const call =
    request.url === '/v1/chat/completions'
      ? client.chat.completions.create(request.body as never, options)
      : client.completions.create(request.body as never, options);
  return (
    call as unknown as { withResponse(): Promise<{ data: unknown; response: Response }> }
  ).withResponse();
}

/**
 * Options of {@link readBatchInput} and {@link checkBatchInput}.
 *
 * @example
 * ```ts
 * const options: BatchInputOptions = { shard: { index: 1, count: 4 }, skip: new Set(['q-1']) };
 * ```
 */
export interface BatchInputOptions {
  /** Only the lines whose `custom_id` falls in this shard (1-based `index` of `count`). */
  shard?: Shard | undefined;
  /** `custom_id`s to leave out (those that already have a result, when resuming). */
  skip?: { has(id: string): boolean } | undefined;
  /** Called for a line that cannot be run instead of throwing: the line is left out. */
  onInvalid?: ((problem: BatchInputProblem) => void) | undefined;
  /** Longest line, in characters (default 64 MiB). */
  maxLineSize?: number | undefined;
  /** Stops the reading: the next line throws an `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
}

/**
 * The requests of a batch input (JSONL in the OpenAI Batch format), read as a stream and checked
 * line by line, each body by `create()`'s own call-site checks (nothing is sent). A line that
 * cannot be run throws a {@link BatchInputError} naming it, unless `onInvalid` takes it. To find
 * every bad line before anything is sent, run {@link checkBatchInput} over the input first.
 *
 * @example
 * ```ts
 * import { readBatchInput, runBatch } from 'model-inference-sdk/batch';
 *
 * const requests = readBatchInput(client, (await fetch(url)).body!);
 * for await (const { output } of runBatch(client, requests)) console.log(output.custom_id);
 * ```
 */
export async function* readBatchInput(
  client: Client,
  source: LineSource,
  options: BatchInputOptions = {},
): AsyncGenerator<BatchRequest> {
  checkShard(options.shard, 'readBatchInput');
  const seen = new IdSet();
  // One signal, aborted once, for every body's dry run: a new one per line costs a DOMException.
  const aborted = AbortSignal.abort(new InferenceError('checking a batch line'));
  for await (const line of readLines(source, options.maxLineSize)) {
    if (options.signal?.aborted)
      throw new APIUserAbortError({ method: 'POST', path: '(batch input)' }, options.signal.reason);
    let read = readRequest(line, seen);
    if (read === undefined) continue;
    if (!('custom_id' in read)) {
      if (!options.onInvalid) throw new BatchInputError([read]);
      options.onInvalid(read);
      continue;
    }
    if (!inShard(read.custom_id, options.shard) || options.skip?.has(read.custom_id)) continue;
    const problem = await bodyProblem(client, read, aborted);
    if (problem !== undefined) {
      read = { line: line.number, message: problem };
      if (!options.onInvalid) throw new BatchInputError([read]);
      options.onInvalid(read);
      continue;
    }
    yield read;
  }
}

/**
 * What a batch input holds, read once to the end without sending anything: the number of
 * requests (in the shard, if given) and the problems of the lines that cannot be run, each with
 * its line number (the first 100 kept, all counted).
 *
 * @example
 * ```ts
 * const { requests, problems, invalid } = await checkBatchInput(client, createReadStream('in.jsonl'));
 * if (invalid > 0) throw new BatchInputError(problems, invalid);
 * ```
 */
export async function checkBatchInput(
  client: Client,
  source: LineSource,
  options: Omit<BatchInputOptions, 'onInvalid'> = {},
): Promise<{ requests: number; invalid: number; problems: BatchInputProblem[] }> {
  const problems: BatchInputProblem[] = [];
  let invalid = 0;
  let requests = 0;
  const onInvalid = (problem: BatchInputProblem) => {
    invalid++;
    if (problems.length < 100) problems.push(problem);
  };
  for await (const _ of readBatchInput(client, source, { ...options, onInvalid })) requests++;
  return { requests, invalid, problems };
}
