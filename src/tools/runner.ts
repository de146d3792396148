/**
 * `chat.completions.runTools()`: the tool loop. Ask the model; if it calls tools, validate each
 * call's arguments with its tool's schema, run the tools (all of one round at once, or one after
 * another with `parallel_tool_calls: false`), send the
 * results back, and ask again, until the model answers without tools or `maxRounds` requests
 * were made. Arguments that fail validation are not a crash: the problem goes back to the model as
 * that tool's result, so it can correct itself.
 *
 * This file holds the two runners users get, `ChatCompletionRunner` (its events) and
 * `ChatCompletionStreamingRunner` (its chunks), and the `runTools()` types users reach here. What
 * they share is in tools/abstract-runner.ts and tools/run.ts; the loop in tools/loop.ts.
 */
import type { ChatCompletionChunk } from '../generated/types.gen';
import type { ChatCompletionStreamEvents } from '../stream/chat-event-types';
import { Stream } from '../stream/stream';
import { ChatCompletionStream } from '../stream/chat-stream';
import type { ParsedFunctionToolCall } from '../parse/completion';
import { AbstractChatCompletionRunner } from './abstract-runner';
import type { ChatCompletionRunnerEvents, RunnerEvent } from './events';

export type {
  RunnableFunctionTool,
  RunnableTool,
  RunnableFunction,
  RunnableFunctionWithParse,
  RunnableFunctionWithoutParse,
  RunnableToolFunction,
  RunnableToolFunctionWithParse,
  RunnableToolFunctionWithoutParse,
  RunnableTools,
} from './table';
export type {
  RunToolsParams,
  RunToolsOptions,
  RunnerOptions,
  ChatCompletionToolRunnerParams,
  ChatCompletionStreamingToolRunnerParams,
} from './params';
export type { RunnerEvent } from './events';

/**
 * A running tool loop, started by `client.chat.completions.runTools()` (without `stream: true`;
 * see {@link ChatCompletionStreamingRunner}). Iterate it for every event (each `completion`, each
 * `message` added to the conversation: the assistant's, then one per tool result); iterating again
 * replays from the start. Or listen with `on()` to the official client's runner events (`message`,
 * `functionToolCall`, `finalContent`, …; see {@link ChatCompletionRunnerEvents}), or await one of
 * the `final…()` methods. `abort()` stops it.
 *
 * @example
 * ```ts
 * const runner = client.chat.completions.runTools({ model, messages, tools: [getWeather] }, { maxRounds: 5 });
 * for await (const event of runner) {
 *   if (event.type === 'message' && event.message.role === 'tool') console.log('tool said', event.message.content);
 * }
 * console.log(await runner.finalContent());
 * ```
 */
export class ChatCompletionRunner<ParsedT = null>
  extends AbstractChatCompletionRunner<ParsedT, ChatCompletionRunnerEvents<ParsedT>>
  implements AsyncIterable<RunnerEvent<ParsedT>>
{
  /** The run's events, in order, as they happen; iterating again replays from the start. Leaving the loop early stops watching, not the run (use `abort()`). */
  [Symbol.asyncIterator](): AsyncIterator<RunnerEvent<ParsedT>> {
    return this.iterate();
  }
}

/**
 * A running tool loop whose requests stream (`runTools({ ..., stream: true })`), as the official
 * client's streaming runner: iterate it for the chunks of every request as they arrive (leaving
 * the loop early aborts the run, as with a stream), pass them on with `toReadableStream()`, or
 * listen with `on()` to the runner's events and the stream's (`content.delta`,
 * `tool_calls.function.arguments.done`, `chunk` with its snapshot …; see
 * {@link ChatCompletionStreamEvents}), request by request.
 *
 * @example
 * ```ts
 * const runner = client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools: [getWeather], stream: true });
 * for await (const chunk of runner) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
 * console.log(await runner.finalContent());
 * ```
 */
export class ChatCompletionStreamingRunner<ParsedT = null>
  extends AbstractChatCompletionRunner<
    ParsedT,
    ChatCompletionStreamEvents<ParsedT, ParsedFunctionToolCall>
  >
  implements AsyncIterable<ChatCompletionChunk>
{
  /**
   * Read a body made by a streaming run's `toReadableStream()` (in a browser, a route handler's
   * response), as the official client's static of this name does. The body holds the chunks of
   * every request of the run, not its tool messages, so this gives a `ChatCompletionStream` (what
   * `ChatCompletionStream.fromReadableStream()` gives): its events and `final…()` methods, each
   * request's chunks a completion of their own, `finalChatCompletion()` the last;
   * `finalFunctionToolCall()` reads every request's message, `finalFunctionToolCallResult()` has no
   * tool message to read (`undefined`).
   *
   * @example
   * ```ts
   * const response = await fetch('/api/agent', { method: 'POST', body: JSON.stringify({ question }) });
   * const runner = ChatCompletionStreamingRunner.fromReadableStream(response.body!);
   * runner.on('content', (delta) => output.append(delta));
   * console.log(await runner.finalContent(), await runner.finalFunctionToolCall());
   * ```
   */
  static fromReadableStream(body: ReadableStream<Uint8Array>): ChatCompletionStream {
    return ChatCompletionStream.fromReadableStream(body);
  }

  /** The chunks of every request of the run, in order; iterating again replays from the start. `break` aborts the run. */
  [Symbol.asyncIterator](): AsyncIterator<ChatCompletionChunk> {
    return this.chunks(false);
  }

  /** The chunks; `paces`: see `iterate()`. */
  private chunks(paces: boolean): AsyncIterator<ChatCompletionChunk> {
    const events = this.iterate(paces);
    return {
      next: async () => {
        for (;;) {
          const next = await events.next();
          if (next.done) return next;
          if (next.value.type === 'chunk') return { done: false, value: next.value.chunk };
        }
      },
      return: async () => {
        this.abort();
        await events.return?.();
        return { done: true, value: undefined };
      },
    };
  }

  /**
   * The chunks of every request as newline-delimited JSON bytes, for a route handler's response;
   * read them back with `ChatCompletionStream.fromReadableStream()` (each request's chunks start
   * a new completion there). Cancelling the body aborts the run. The body paces the run: while
   * its reader is behind (a slow client), the request in flight is not read further, as with a
   * stream's `toReadableStream()`; the run's events and `final…()` methods still come as it goes on.
   *
   * @example
   * ```ts
   * export async function POST(req: Request) {
   *   const runner = client.chat.completions.runTools({ model, messages, tools: [getWeather], stream: true }, { signal: req.signal });
   *   return new Response(runner.toReadableStream(), { headers: { 'content-type': 'application/x-ndjson' } });
   * }
   * ```
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    // The body paces the run: its requests are read as fast as the body is, not into memory.
    return new Stream<ChatCompletionChunk>(
      () => this.chunks(true),
      this.controller,
    ).toReadableStream();
  }
}
