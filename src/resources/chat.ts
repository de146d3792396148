import type { APIPromise } from '../api-promise';
import { jsonCall, streamCall } from '../call';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParams } from '../generated/types.gen';
import { zChatCompletion, zChatCompletionChunk } from '../generated/zod.gen';
import { ChatCompletionStream } from '../lib/chat-stream';
import { checkRequestOptions, type RequestOptions } from '../options';
import type { RequestContext } from '../request';
import { checkBody } from './check-body';

/** Chat completion parameters without streaming. */
export type ChatCompletionCreateParamsNonStreaming = ChatCompletionCreateParams & { stream?: false | null };
/** Chat completion parameters with `stream: true`. */
export type ChatCompletionCreateParamsStreaming = ChatCompletionCreateParams & { stream: true };

/**
 * `client.chat.completions`: the next assistant message for a conversation.
 *
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({
 *   model: 'acme/chat-1',
 *   messages: [{ role: 'user', content: 'Hello!' }],
 * });
 * console.log(completion.choices[0]?.message.content);
 * ```
 */
export class ChatCompletions {
  readonly #ctx: RequestContext;

  /** @internal */
  constructor(ctx: RequestContext) {
    this.#ctx = ctx;
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
   * for await (const chunk of stream) process.stdout.write(chunk.choices?.[0]?.delta.content ?? '');
   * ```
   */
  create(body: ChatCompletionCreateParamsNonStreaming, options?: RequestOptions): APIPromise<ChatCompletion>;
  create(body: ChatCompletionCreateParamsStreaming, options?: RequestOptions): APIPromise<ChatCompletionStream>;
  create(body: ChatCompletionCreateParams, options?: RequestOptions): APIPromise<ChatCompletion | ChatCompletionStream>;
  create(body: ChatCompletionCreateParams, options?: RequestOptions): APIPromise<ChatCompletion | ChatCompletionStream> {
    checkBody(body, 'chat.completions.create', 'messages');
    checkRequestOptions(options, 'chat.completions.create');
    const spec = { method: 'POST', path: '/chat/completions', body, options } as const;
    if (body.stream === true) {
      return streamCall<ChatCompletionChunk, ChatCompletionStream>(
        this.#ctx,
        spec,
        zChatCompletionChunk,
        (source, controller) => new ChatCompletionStream(source, controller),
      );
    }
    return jsonCall(this.#ctx, spec, zChatCompletion);
  }
}

/**
 * `client.chat`: groups `client.chat.completions`.
 *
 * @example
 * ```ts
 * await client.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hi' }] });
 * ```
 */
export class Chat {
  /** See {@link ChatCompletions}. */
  readonly completions: ChatCompletions;

  /** @internal */
  constructor(ctx: RequestContext) {
    this.completions = new ChatCompletions(ctx);
  }
}
