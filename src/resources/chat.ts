import type { APIPromise } from '../api-promise';
import { jsonCall, streamCall } from '../call';
import { normalizeChatCompletion, normalizeChatCompletionChunk } from '../generated/normalize.gen';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParams } from '../generated/types.gen';
import { ChatCompletionStream } from '../lib/chat-stream';
import type { ParsedChatCompletionFor, ParsedOutputOf, ParsedToolCallOf } from '../lib/parse';
import { parseCall, parseStreamCall } from '../lib/parse-call';
import type { ParsedChatCompletionStream } from '../lib/parse-stream';
import { ChatCompletionRunner, type RunToolsOptions, type RunToolsParams } from '../lib/run-tools';
import { checkRequestOptions, type RequestOptions } from '../options';
import { serializeBody, type RequestContext, type Wait } from '../request';
import type { EventReader } from '../stream';
import { toolCallIndexer } from '../tool-call-index';
import { validator } from '../validate';
import { checkBody } from './check-body';

/** Each chunk of one stream: its tool calls numbered across the stream, then normalized. */
const chunkReader: EventReader<ChatCompletionChunk> = (context) => {
  const index = toolCallIndexer();
  const check = validator(normalizeChatCompletionChunk, context);
  return (value, text) => {
    index(value);
    return check(value, text);
  };
};

/**
 * Chat completion parameters without streaming.
 *
 * @example
 * ```ts
 * const body: ChatCompletionCreateParamsNonStreaming = { model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hi' }] };
 * ```
 */
export type ChatCompletionCreateParamsNonStreaming = ChatCompletionCreateParams & { stream?: false | null };
/**
 * Chat completion parameters with `stream: true`.
 *
 * @example
 * ```ts
 * const body: ChatCompletionCreateParamsStreaming = { model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hi' }], stream: true };
 * ```
 */
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
 * console.log(completion.choices[0]?.message?.content);
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
   * for await (const text of stream.textStream()) process.stdout.write(text);
   * ```
   */
  create(body: ChatCompletionCreateParamsNonStreaming, options?: RequestOptions): APIPromise<ChatCompletion>;
  create(body: ChatCompletionCreateParamsStreaming, options?: RequestOptions): APIPromise<ChatCompletionStream>;
  create(body: ChatCompletionCreateParams, options?: RequestOptions): APIPromise<ChatCompletion | ChatCompletionStream>;
  create(body: ChatCompletionCreateParams, options?: RequestOptions): APIPromise<ChatCompletion | ChatCompletionStream> {
    checkBody(body, 'chat.completions.create', 'messages');
    checkRequestOptions(options, 'chat.completions.create');
    const ctx = this.#ctx;
    // Serialised here, so that a body JSON cannot carry (a BigInt, a cycle) throws at the call site.
    const json = serializeBody(body, 'chat.completions.create(body)');
    const spec = { method: 'POST', path: '/chat/completions', body, json, options, before: ctx.preflight && ((wait: Wait) => ctx.preflight!(body, wait)) } as const;
    if (body.stream === true) {
      return streamCall<ChatCompletionChunk, ChatCompletionStream>(
        this.#ctx,
        spec,
        chunkReader,
        (source, controller) => new ChatCompletionStream(source, controller),
      );
    }
    return jsonCall(this.#ctx, spec, normalizeChatCompletion);
  }

  /**
   * `create()`, then the reply parsed: `message.parsed` validated and typed from a
   * `zodResponseFormat()` response format, `parsed_arguments` on tool calls from `zodFunction()`
   * tools, `message.reasoning` filled whichever field the server used. Throws
   * `LengthFinishReasonError`, `ContentFilterFinishReasonError`, or `OutputParseError` (invalid
   * JSON or a schema mismatch). With `stream: true`, a `ParsedChatCompletionStream` whose
   * `parsedStream()` yields the output as it grows.
   *
   * @example
   * ```ts
   * const completion = await client.chat.completions.parse({
   *   model: 'acme/chat-1',
   *   messages: [{ role: 'user', content: 'Weather in Paris?' }],
   *   response_format: zodResponseFormat(z.object({ city: z.string(), celsius: z.number() }), 'weather'),
   * });
   * const message = completion.choices[0]!.message;
   * if (message.refusal) console.log('refused:', message.refusal);
   * else console.log(message.parsed?.celsius);
   * ```
   */
  parse<Params extends ChatCompletionCreateParamsStreaming>(
    body: Params,
    options?: RequestOptions,
  ): APIPromise<ParsedChatCompletionStream<ParsedOutputOf<Params['response_format']>, ParsedToolCallOf<Params['tools']>>>;
  parse<Params extends ChatCompletionCreateParamsNonStreaming>(body: Params, options?: RequestOptions): APIPromise<ParsedChatCompletionFor<Params>>;
  parse(body: ChatCompletionCreateParams, options?: RequestOptions): APIPromise<unknown> {
    if (body.stream === true) {
      return parseStreamCall(this, { ...body, stream: true }, options, body);
    }
    return parseCall(this, body as ChatCompletionCreateParamsNonStreaming, options);
  }

  /**
   * Run a tool loop: ask the model, run the tools it calls (their arguments validated first; in
   * parallel when it calls several), send the results back, until it answers without tools or
   * `maxRounds` (default 10) requests were made. Returns at once; see `ChatCompletionRunner`.
   * With `stream: true` each request streams and the runner yields its chunks.
   *
   * @example
   * ```ts
   * const runner = client.chat.completions.runTools({
   *   model: 'acme/chat-1',
   *   messages: [{ role: 'user', content: 'Weather in Paris?' }],
   *   tools: [zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }), function: ({ city }) => weather(city) })],
   * });
   * console.log(await runner.finalContent());
   * ```
   */
  runTools<Params extends RunToolsParams>(body: Params, options?: RunToolsOptions): ChatCompletionRunner<ParsedOutputOf<Params['response_format']>> {
    return new ChatCompletionRunner(this, body, options);
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
