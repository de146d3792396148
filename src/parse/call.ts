/**
 * How `chat.completions.parse()` runs: `create()`, then the parsing, as one `APIPromise` (so
 * `withResponse()` and `asResponse()` still work). The parsing code is imported when the first
 * `parse()` runs, so that an app that only calls `create()` does not ship it when its bundler
 * splits code (Vite, webpack, Rollup, esbuild with splitting).
 */
import { APIPromise, type Later } from '../core/api-promise';
import type { ChatCompletion, ChatCompletionCreateParams } from '../generated/types.gen';
import type { ChatCompletionStream } from '../stream/chat-stream';
import type { RequestOptions } from '../options/types';
import { checkRequestOptions } from '../options/check';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionsResource as ChatCompletions,
} from '../resources/chat';
import { checkBody } from '../resources/check-body';
import type { RequestTarget } from '../errors/api';
import type { ParsedChatCompletionFor } from './completion';
import type { ParsedChatCompletionStream } from './stream';

/** What a `parse()` error after the reply names (the request's own errors name the request). */
const TARGET: RequestTarget = { method: 'POST', path: '/chat/completions (parse)' };

/** `parse()` without streaming. */
export function parseCall<Params extends ChatCompletionCreateParamsNonStreaming>(
  completions: ChatCompletions,
  body: Params,
  options: RequestOptions | undefined,
): APIPromise<ParsedChatCompletionFor<Params>> {
  check(body, options);
  return new APIPromise(async (raw) => {
    // Made here, not before: `asResponse()` must reach the inner call before it starts. The
    // arguments were checked above: `true`, not again.
    const request = completions.create(body, options, true) as APIPromise<ChatCompletion>;
    const parsed = async () => {
      const [{ data, response }, { parseChatCompletion, settleParsing }] = await Promise.all([
        request.withResponse(),
        import('./completion'),
      ]);
      try {
        return {
          data: await settleParsing(
            parseChatCompletion(data, body),
            completions.waitOf(options),
            TARGET,
          ),
          response,
        };
      } catch (error) {
        // OutputParseError quotes the reply (`raw`, `completion`), which may repeat the key.
        throw completions.masked(error);
      }
    };
    // After `asResponse()`, awaiting still parses: `create()`'s promise reads its copy of the body.
    if (raw) return { response: await request.asResponse(), later: later(parsed) };
    return parsed();
  });
}

/** `parse()` with `stream: true`: the stream, wrapped in a `ParsedChatCompletionStream`. */
export function parseStreamCall<S extends ParsedChatCompletionStream<never, never>>(
  completions: ChatCompletions,
  body: ChatCompletionCreateParamsStreaming,
  options: RequestOptions | undefined,
  params: ChatCompletionCreateParams,
): APIPromise<S> {
  check(body, options);
  return new APIPromise(async (raw) => {
    const request = completions.create(body, options, true) as APIPromise<ChatCompletionStream>;
    const parsed = async () => {
      const [{ data, response }, { ParsedChatCompletionStream }] = await Promise.all([
        request.withResponse(),
        import('./stream'),
      ]);
      return {
        data: new ParsedChatCompletionStream(
          data,
          params,
          completions.waitOf(options).timeout,
          completions,
        ) as S,
        response,
      };
    };
    if (raw) return { response: await request.asResponse(), later: later(parsed) };
    return parsed();
  });
}

/**
 * The parsing of a raw run, when awaited. Nothing to drop: the inner `create()` promise drops its
 * own copy when collected.
 */
function later<T>(parsed: () => Promise<{ data: T }>): Later<T> {
  return { read: async () => (await parsed()).data, drop: () => {} };
}

/** Bad arguments throw at the call site, as they do for `create()`. */
function check(body: unknown, options: RequestOptions | undefined): void {
  checkBody(body, 'chat.completions.parse', 'messages');
  checkRequestOptions(options, 'chat.completions.parse');
}
