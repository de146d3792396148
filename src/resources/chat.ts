import type { APIPromise } from '../core/api-promise';
import { jsonCall, rejected, streamCall } from './call';
import type { CallDescription } from '../core/call-description';
import { normalizeChatCompletion, normalizeChatCompletionChunk } from '../generated/normalize.gen';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParams,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from '../generated/types.gen';
import { ChatCompletionStream } from '../stream/chat-stream';
import type { RequestOptions } from '../options/types';
import type { RequestContext } from '../core/request';
import type { Wait } from '../util/wait';
import type { EventReader } from '../stream/events';
import { toolCallIndexer } from '../stream/tool-call-index';
import { validator } from '../core/validate';
import { checkBody } from './check-body';
import { describeCall } from './describe';
import { sentMessages } from './sent-messages';
import { mask } from '../util/mask';

/** Each chunk of one stream: its tool calls numbered across the stream, then normalized. */
const chunkReader: EventReader<ChatCompletionChunk> = (context) => {
  const index = toolCallIndexer();
  const check = validator(normalizeChatCompletionChunk, context);
  return (value, text) => {
    index(value);
    return check(value, text);
  };
};

// The bodies with and without streaming are openai's (`x-openai-names` in the spec, `streaming`):
// here for the modules that named them from this file.
export type { ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming };

/**
 * The chat-completions endpoint itself: `create()`. `client.chat.completions` is this with the
 * helpers built on it (`parse()`, `runTools()`, `stream()`; chat/completions.ts).
 * @internal
 */
export class ChatCompletionsResource {
  readonly #ctx: RequestContext;

  /** @internal */
  constructor(ctx: RequestContext) {
    this.#ctx = ctx;
  }

  /**
   * How long a helper may wait on the caller's own code once a reply is in (a schema that
   * validates asynchronously): the call's `timeout` (the client's by default) and `signal`.
   * @internal
   */
  waitOf(options: RequestOptions | undefined): Wait {
    return {
      timeout: options?.timeout ?? this.#ctx.options.timeout,
      signal: options?.signal ?? undefined,
    };
  }

  /** A call's `fallbacks`: its own, or the client's. @internal */
  fallbacksOf(options: RequestOptions | undefined): readonly string[] {
    return options?.fallbacks ?? this.#ctx.options.fallbacks;
  }

  /**
   * `error` with the client's secrets masked, as the request's own errors are: for a helper's
   * errors (`OutputParseError` quotes the reply, which may repeat the key). A method, not a
   * getter: `util.inspect` of a client shows getters, and the secrets are not to be shown.
   * @internal
   */
  masked(error: unknown): unknown {
    return mask(error, this.#ctx.log.secrets);
  }

  /**
   * `POST /chat/completions`. With `stream: true` the promise gives a `ChatCompletionStream`
   * (iterate it with `for await`) once the first chunk has arrived; otherwise the completion.
   *
   * @example
   * ```ts
   * const completion = await client.chat.completions.create({
   *   model: 'acme/chat-1',
   *   messages: [
   *     { role: 'system', content: 'Answer in one word.' },
   *     { role: 'user', content: 'Capital of France?' },
   *   ],
   *   temperature: 0,
   * });
   *
   * const stream = await client.chat.completions.create({ model: 'acme/chat-1', messages, stream: true });
   * for await (const text of stream.textStream()) process.stdout.write(text);
   * ```
   */
  create(
    body: ChatCompletionCreateParamsNonStreaming,
    options?: RequestOptions,
  ): APIPromise<ChatCompletion>;
  create(
    body: ChatCompletionCreateParamsStreaming,
    options?: RequestOptions,
  ): APIPromise<ChatCompletionStream>;
  create(
    body: ChatCompletionCreateParams,
    options?: RequestOptions,
  ): APIPromise<ChatCompletion | ChatCompletionStream>;
  /**
   * A helper's `create()` (`parse()`, `stream()`): `checked`, the body and the options were
   * checked at the helper's own call site, and are not checked a second time.
   * @internal
   */
  create(
    body: ChatCompletionCreateParams,
    options: RequestOptions | undefined,
    checked: true,
  ): APIPromise<ChatCompletion | ChatCompletionStream>;
  create(
    body: ChatCompletionCreateParams,
    options?: RequestOptions,
    checked?: true,
  ): APIPromise<ChatCompletion | ChatCompletionStream> {
    let call: CallDescription;
    try {
      if (!checked) checkBody(body, 'chat.completions.create', 'messages');
      call = describeCall(this.#ctx, {
        operation: 'chat',
        name: 'chat.completions.create',
        method: 'POST',
        path: '/chat/completions',
        options,
        checked,
        body,
        // A reply's message pushed back goes without the fields the SDK added (sent-messages.ts).
        wire: (sent) => {
          const messages = sentMessages(body.messages);
          return messages === body.messages ? sent : { ...sent, messages };
        },
      });
    } catch (error) {
      return rejected(error);
    }
    if (call.stream) {
      return streamCall<ChatCompletionChunk, ChatCompletionStream>(
        this.#ctx,
        call,
        chunkReader,
        (source, controller) => new ChatCompletionStream(source, controller),
      );
    }
    return jsonCall(this.#ctx, call, normalizeChatCompletion);
  }
}
