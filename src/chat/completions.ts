/**
 * `client.chat.completions` and `client.chat`: the endpoint (resources/chat.ts) with the helpers
 * built on it: `parse()` (structured outputs), `runTools()` (the tool loop) and `stream()`. The
 * client builds these; the resource itself knows nothing of them.
 */
import type { APIPromise } from '../core/api-promise';
import type { ChatCompletionCreateParams } from '../generated/types.gen';
import type { RequestOptions } from '../options/types';
import { checkRequestOptions } from '../options/check';
import { checkBody } from '../resources/check-body';
import { anyOf } from '../util/signals';
import { ChatCompletionStream } from '../stream/chat-stream';
import type { RequestContext } from '../core/request';
import {
  ChatCompletionsResource,
  type ChatCompletionCreateParamsNonStreaming,
  type ChatCompletionCreateParamsStreaming,
} from '../resources/chat';
import type {
  ParsedChatCompletionFor,
  ParsedOutputOf,
  ParsedToolCallOf,
  StreamedOutputOf,
  StreamedToolCallOf,
} from '../parse/completion';
import { parseCall, parseStreamCall } from '../parse/call';
import { rejected } from '../resources/call';
import type { ParsedChatCompletionStream } from '../parse/stream';
import {
  ChatCompletionRunner,
  ChatCompletionStreamingRunner,
  type RunToolsOptions,
  type RunToolsParams,
} from '../tools/runner';

/**
 * `parse()`'s body without streaming: the name the `openai` client gives it (`parse()` here also
 * takes `stream: true`).
 *
 * @example
 * ```ts
 * import type { ChatCompletionParseParams } from 'model-inference-sdk';
 *
 * const body: ChatCompletionParseParams = { model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hi' }], max_tokens: null };
 * const completion = await client.chat.completions.parse(body);
 * ```
 */
export type ChatCompletionParseParams = ChatCompletionCreateParamsNonStreaming;

/**
 * `stream()`'s body: the chat completion parameters, with `stream` left out or `true` (it always
 * streams). The name the `openai` client gives it.
 *
 * @example
 * ```ts
 * import type { ChatCompletionStreamParams } from 'model-inference-sdk';
 *
 * const body: ChatCompletionStreamParams = { model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hi' }] };
 * console.log(await client.chat.completions.stream(body).finalContent());
 * ```
 */
export type ChatCompletionStreamParams = Omit<ChatCompletionCreateParams, 'stream'> & {
  stream?: true;
};

/**
 * `client.chat.completions`: the next assistant message for a conversation.
 *
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({
 *   model: 'acme/chat-1',
 *   messages: [{ role: 'user', content: 'Hello!' }],
 * });
 * console.log(completion.choices[0]!.message.content);
 * ```
 */
export class ChatCompletions extends ChatCompletionsResource {
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
  ): APIPromise<
    ParsedChatCompletionStream<
      ParsedOutputOf<Params['response_format']>,
      ParsedToolCallOf<Params['tools']>
    >
  >;
  parse<Params extends ChatCompletionCreateParamsNonStreaming>(
    body: Params,
    options?: RequestOptions,
  ): APIPromise<ParsedChatCompletionFor<Params>>;
  parse(body: ChatCompletionCreateParams, options?: RequestOptions): APIPromise<unknown> {
    try {
      return body?.stream === true
        ? parseStreamCall(this, { ...body, stream: true }, options, body)
        : parseCall(this, body as ChatCompletionCreateParamsNonStreaming, options);
    } catch (error) {
      return rejected(error);
    }
  }

  /**
   * The chat stream with the official client's helpers, made at once, its request started at once
   * (a stream nobody reads by the time the server answers reads itself, for its listeners; a
   * loop that starts later gets the chunks from then on, as in openai): events such as
   * `on('content.delta', …)` and `on('tool_calls.function.arguments.delta', …)`, `finalContent()`,
   * `finalMessage()`, `finalChatCompletion()`. The stream `create({ stream: true })` gives, parsing
   * as the official client's does: with a `zodResponseFormat()` response format, `content.delta`
   * and `content.done` carry `parsed` and the final message has it, validated and typed; tools from
   * `zodFunction()` get `parsed_arguments` (in `tool_calls.function.arguments.delta` / `.done` and
   * in the final message). A reply that does not match throws `OutputParseError` from
   * `finalChatCompletion()` and `done()` (and tells `error`). Without schemas, nothing is parsed:
   * `message.parsed` is `null`.
   *
   * @example
   * ```ts
   * const stream = client.chat.completions.stream({
   *   model: 'acme/chat-1',
   *   messages,
   *   response_format: zodResponseFormat(z.object({ city: z.string(), celsius: z.number() }), 'weather'),
   * });
   * stream.on('content.delta', ({ parsed }) => render(parsed)); // { city: 'Par' }, then more
   * const weather = (await stream.finalMessage()).parsed; // { city: string; celsius: number } | null
   * ```
   */
  stream<Params extends ChatCompletionStreamParams>(
    body: Params,
    options?: RequestOptions,
  ): ChatCompletionStream<
    StreamedOutputOf<Params['response_format']>,
    StreamedToolCallOf<Params['tools']>
  > {
    try {
      checkBody(body, 'chat.completions.stream', 'messages');
      checkRequestOptions(options, 'chat.completions.stream');
    } catch (error) {
      // As in openai: a bad argument fails the stream (`done()`, `final…()`, `for await`, the
      // `error` event), not the call.
      return ChatCompletionStream.deferred(() => Promise.reject(error));
    }
    return ChatCompletionStream.deferred(
      // Checked above: `true`, not again by create().
      (signal) =>
        this.create(
          { ...body, stream: true },
          { ...options, signal: options?.signal ? anyOf([options.signal, signal]) : signal },
          true,
        ) as Promise<ChatCompletionStream>,
      () =>
        import('../parse/stream-parser').then(
          ({ StreamParsing }) => new StreamParsing(body, false, this.waitOf(options).timeout, this),
        ),
      body.messages,
    );
  }

  /**
   * Run a tool loop: ask the model, run the tools it calls (their arguments validated first; in
   * parallel when it calls several), send the results back, until it answers without tools or
   * `maxRounds` (default 10) requests were made. Returns at once; see `ChatCompletionRunner`.
   * With `stream: true` each request streams: a `ChatCompletionStreamingRunner`, which yields the
   * chunks, has `toReadableStream()` and tells the stream's events too, as the official client's does.
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
  runTools<Params extends RunToolsParams & { stream: true }>(
    body: Params,
    options?: RunToolsOptions,
  ): ChatCompletionStreamingRunner<ParsedOutputOf<Params['response_format']>>;
  runTools<Params extends RunToolsParams & { stream?: false | null | undefined }>(
    body: Params,
    options?: RunToolsOptions,
  ): ChatCompletionRunner<ParsedOutputOf<Params['response_format']>>;
  runTools<Params extends RunToolsParams>(
    body: Params,
    options?: RunToolsOptions,
  ):
    | ChatCompletionRunner<ParsedOutputOf<Params['response_format']>>
    | ChatCompletionStreamingRunner<ParsedOutputOf<Params['response_format']>>;
  runTools(
    body: RunToolsParams,
    options?: RunToolsOptions,
  ): ChatCompletionRunner<unknown> | ChatCompletionStreamingRunner<unknown> {
    return body?.stream === true
      ? new ChatCompletionStreamingRunner(this, body, options)
      : new ChatCompletionRunner(this, body, options);
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
