import type { APIPromise } from '../api-promise';
import { jsonCall } from '../call';
import type { ChatCompletion, ChatCompletionCreateParams } from '../generated/types.gen';
import { zChatCompletion } from '../generated/zod.gen';
import { checkRequestOptions, type RequestOptions } from '../options';
import type { RequestContext } from '../request';
import { checkBody } from './check-body';

/** Chat completion parameters without streaming. */
export type ChatCompletionCreateParamsNonStreaming = ChatCompletionCreateParams & { stream?: false | null };

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
   * `POST /chat/completions`.
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
   * ```
   */
  create(body: ChatCompletionCreateParamsNonStreaming, options?: RequestOptions): APIPromise<ChatCompletion> {
    checkBody(body, 'chat.completions.create', 'messages');
    checkRequestOptions(options, 'chat.completions.create');
    return jsonCall(this.#ctx, { method: 'POST', path: '/chat/completions', body, options }, zChatCompletion);
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
