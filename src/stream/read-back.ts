/**
 * `ChatCompletionStream.fromReadableStream()`'s reading (imported by chat-stream.ts): the NDJSON lines
 * of a body made by `toReadableStream()` (stream.ts reads them), each checked as a chunk from a
 * server is (the generated normalizer), with the end of the body and a failed connection told
 * apart. (A streaming run's body holds each request's chunks: the stream's tap starts a new
 * completion at each new chunk `id`, stream/chat-tap.ts.)
 */
import type { ChatCompletionChunk } from '../generated/types.gen';
import { normalizeChatCompletionChunk } from '../generated/normalize.gen';
import { APIConnectionError, InferenceError } from '../errors/api';
import { Log } from '../util/log';
import { validator } from '../core/validate';
import type { Stream } from './stream';

const WHERE = { method: 'read', path: 'ChatCompletionStream.fromReadableStream' };

/**
 * The chunks of `body` (`Stream.fromReadableStream()`'s lines). A line that is not a chunk is a `ResponseValidationError`; a body that
 * ends before any `finish_reason`, or whose reading fails (the route handler's upstream failed, the
 * connection dropped), is an `APIConnectionError`.
 */
export function readBack(body: Stream<unknown>): AsyncIterator<ChatCompletionChunk> {
  const lines = body[Symbol.asyncIterator]();
  // The client's `validation` option does not reach here: a line that is not a chunk always throws.
  const check = validator(normalizeChatCompletionChunk, {
    mode: 'error',
    log: new Log('off', console),
    target: WHERE,
    status: 200,
    what: 'stream line',
  });
  let finished = false;
  return {
    async next() {
      let chunk: ChatCompletionChunk;
      try {
        const line = await lines.next();
        if (line.done) {
          if (finished) return line;
          throw new APIConnectionError(WHERE, {
            message: `${WHERE.path}: the body ended before any finish_reason; the response is incomplete`,
          });
        }
        chunk = check(line.value);
      } catch (error) {
        await lines.return?.();
        throw error instanceof InferenceError
          ? error
          : new APIConnectionError(WHERE, {
              message: `${WHERE.path}: the body could not be read`,
              cause: error,
            });
      }
      finished ||= chunk.choices.some((c) => c.finish_reason !== null);
      return { done: false, value: chunk };
    },
    async return() {
      await lines.return?.();
      return { done: true, value: undefined };
    },
  };
}
