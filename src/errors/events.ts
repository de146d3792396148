/**
 * The errors of code the SDK calls back and of the events it tells: a hook threw, a listener threw,
 * or `emitted(name)` waited for an event that never came.
 */
import { InferenceError } from './base';
import { APIUserAbortError } from './connection';

/**
 * The name of a hook, as a {@link HookError} reports it.
 *
 * @example
 * ```ts
 * const name: HookName = 'beforeRequest';
 * ```
 */
export type HookName =
  'beforeRequest' | 'afterResponse' | 'beforeRetry' | 'onChunk' | 'onError' | 'onEnd';

/**
 * A hook (the `hooks` option) threw, or returned something it may not: the call failed because of
 * it and was not retried. `hook` names the hook, `source` the hooks object (its `name`, or its
 * place: `client hooks[0]`, `request hooks[1]`), `cause` is what the hook threw.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.completions.create({ model: 'acme/chat-1', messages });
 * } catch (err) {
 *   if (err instanceof HookError) console.error(`${err.source} failed in ${err.hook}:`, err.cause);
 * }
 * ```
 */
export class HookError extends InferenceError {
  override name = 'HookError';
  // Declared, not initialised here: the hook runner sets them, so a bundle without hooks pays
  // for little more than the class's name.
  /** The hook that failed: `beforeRequest`, `afterResponse`, `beforeRetry`, `onChunk`, `onError` or `onEnd`. */
  declare readonly hook: HookName;
  /** Which hooks object: its `name`, or its place in the list (`client hooks[0]`, `request hooks[0]`). */
  declare readonly source: string;
}

/**
 * A listener of a stream's or a runner's events (`stream.on(…)`, `runner.on(…)`) threw: the
 * stream or the run ended there, with this error (the request aborted, `error` and `end` told).
 * `event` names the event, `cause` is what the listener threw.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.completions.stream({ model: 'acme/chat-1', messages }).on('content', render).done();
 * } catch (err) {
 *   if (err instanceof ListenerError) console.error(`the ${err.event} listener failed:`, err.cause);
 * }
 * ```
 */
export class ListenerError extends InferenceError {
  override name = 'ListenerError';
  /** The event whose listener threw (`'content.delta'`, `'functionToolCall'`, `'end'` …). */
  declare readonly event: string;
  /** `after`: what had already gone wrong, when the listener threw while the stream or run was failing. */
  constructor(event: string, thrown: unknown, after?: { what: 'stream' | 'run'; error: unknown }) {
    const had =
      after === undefined
        ? ''
        : `; the ${after.what} had ${after.error instanceof APIUserAbortError ? 'been aborted' : `failed: ${messageOf(after.error)}`}`;
    super(`The '${event}' listener threw: ${messageOf(thrown)}${had}`, { cause: thrown });
    this.event = event;
  }
}

/**
 * `emitted(name)` of a stream or a runner: the stream or run ended without telling that event
 * (`await runner.emitted('totalUsage')` when the server reported no usage). A stream or run that
 * failed rejects `emitted()` with its own error instead.
 *
 * @example
 * ```ts
 * const usage = await runner.emitted('totalUsage').catch((err) => {
 *   if (err instanceof EventNotEmittedError) return undefined; // the server reported none
 *   throw err;
 * });
 * ```
 */
export class EventNotEmittedError extends InferenceError {
  override name = 'EventNotEmittedError';
  /** The event that was waited for. */
  declare readonly event: string;
  constructor(what: 'stream' | 'run', event: string, already = false) {
    super(
      already
        ? `The ${what} has already ended; no '${event}' event will come.`
        : `The ${what} ended without a '${event}' event${event === 'totalUsage' ? ' (the server reported no usage)' : ''}.`,
    );
    this.event = event;
  }
}

// An arrow in a const, as the helpers of errors/api-error.ts: the classes keep one `var` in a bundle.
const messageOf = (thrown: unknown): string => {
  if (thrown instanceof Error) return thrown.message;
  try {
    return String(thrown);
  } catch {
    return 'a value that cannot be shown as text'; // an object without toString
  }
};
