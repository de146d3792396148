/**
 * The errors about the model asked for, before a request for it is sent: not ready yet
 * (`models.waitUntilReady()`), or asked for more than it can do (the pre-flight check).
 */
import { InferenceError } from './base';

/**
 * `models.waitUntilReady()` gave up: the model did not report `is_ready: true` in time. The
 * message says why: `is_ready` stayed false, the server kept answering 503, or the last poll had
 * no answer yet (a server that stalls). `cause` is the last poll's error, if it failed.
 *
 * @example
 * ```ts
 * try {
 *   await client.models.waitUntilReady('acme/chat-1', { timeout: 60_000 });
 * } catch (err) {
 *   if (err instanceof ModelNotReadyError) console.error(`${err.model} is still warming up`);
 * }
 * ```
 */
export class ModelNotReadyError extends InferenceError {
  override name = 'ModelNotReadyError';
  /** The slug that was waited for. */
  declare readonly model: string;
  /** How long it was waited for, in ms. */
  declare readonly waited: number;

  constructor(model: string, waited: number, why = 'is_ready stayed false', cause?: unknown) {
    super(
      `Model ${JSON.stringify(model)} was not ready after ${waited} ms (${why}).`,
      cause === undefined ? undefined : { cause },
    );
    this.model = model;
    this.waited = waited;
  }
}

/**
 * The pre-flight check (client option `preflight: 'error'`) found a request the model cannot
 * serve: more output tokens asked for than its `max_output_length`. Nothing was sent.
 *
 * @example
 * ```ts
 * const client = new Client({ preflight: 'error' });
 * try {
 *   await client.chat.completions.create({ model: 'acme/chat-1', messages, max_tokens: 1_000_000 });
 * } catch (err) {
 *   if (err instanceof PreflightError) console.error(`ask for at most ${err.limit} tokens`);
 * }
 * ```
 */
export class PreflightError extends InferenceError {
  override name = 'PreflightError';
  /** The model's slug. */
  declare readonly model: string;
  /** The field that asked for too much: `max_tokens` or `max_completion_tokens`. */
  declare readonly param: string;
  /** What was asked for. */
  declare readonly requested: number;
  /** The model's `max_output_length`. */
  declare readonly limit: number;
  constructor(model: string, param: string, requested: number, limit: number) {
    super(
      `${param} is ${requested}, but ${JSON.stringify(model)} generates at most ${limit} tokens (max_output_length).`,
    );
    this.model = model;
    this.param = param;
    this.requested = requested;
    this.limit = limit;
  }
}
