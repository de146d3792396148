import type { APIPromise } from '../core/api-promise';
import { eventsOf, jsonCall, rejected, streamCall } from './call';
import type { CallDescription } from '../core/call-description';
import { Stream } from '../stream/stream';
import type {
  Completion,
  CompletionCreateParams,
  CompletionCreateParamsNonStreaming,
  CompletionCreateParamsStreaming,
} from '../generated/types.gen';
import { normalizeCompletion } from '../generated/normalize.gen';
import type { RequestOptions } from '../options/types';
import type { RequestContext } from '../core/request';
import { checkBody } from './check-body';
import { describeCall } from './describe';

/**
 * `client.completions`: the legacy text completion endpoint, kept by the service for
 * compatibility. New code should use `client.chat.completions`.
 *
 * @example
 * ```ts
 * const completion = await client.completions.create({ model: 'acme/base-1', prompt: 'Once upon a time' });
 * console.log(completion.choices[0]?.text);
 * ```
 */
export class Completions {
  readonly #ctx: RequestContext;

  /** @internal */
  constructor(ctx: RequestContext) {
    this.#ctx = ctx;
  }

  /**
   * `POST /completions`. The service does not document the response; its fields follow the
   * widely used API (`choices[].text`, `finish_reason`, `usage`). With `stream: true`, a
   * `Stream<Completion>` of text fragments.
   *
   * @example
   * ```ts
   * const completion = await client.completions.create({ model: 'acme/base-1', prompt: 'Say hi', max_tokens: 5 });
   * ```
   */
  create(
    body: CompletionCreateParamsNonStreaming,
    options?: RequestOptions,
  ): APIPromise<Completion>;
  create(
    body: CompletionCreateParamsStreaming,
    options?: RequestOptions,
  ): APIPromise<Stream<Completion>>;
  create(
    body: CompletionCreateParams,
    options?: RequestOptions,
  ): APIPromise<Completion | Stream<Completion>>;
  create(
    body: CompletionCreateParams,
    options?: RequestOptions,
  ): APIPromise<Completion | Stream<Completion>> {
    let call: CallDescription;
    try {
      checkBody(body, 'completions.create', 'prompt');
      call = describeCall(this.#ctx, {
        operation: 'completions',
        name: 'completions.create',
        method: 'POST',
        path: '/completions',
        options,
        body,
      });
    } catch (error) {
      return rejected(error);
    }
    if (call.stream) {
      // Each event of a legacy stream is a Completion carrying a text fragment.
      return streamCall(
        this.#ctx,
        call,
        eventsOf(normalizeCompletion),
        (source, controller) => new Stream(source, controller),
      );
    }
    return jsonCall(this.#ctx, call, normalizeCompletion);
  }
}
