/**
 * What a `runTools()` run takes (its body and options) and what its loop reports to: shared by the
 * runners (tools/runner.ts, tools/abstract-runner.ts, tools/run.ts) and the loop they load lazily
 * (tools/loop.ts), which import this file and never each other.
 */
import type {
  ChatCompletion,
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
} from '../generated/types.gen';
import type { RequestOptions } from '../options/types';
import type { RunnableTool } from './table';
import type { RunnerEvent } from './events';

/**
 * `runTools()`'s body: a chat completion request whose tools carry functions.
 *
 * @example
 * ```ts
 * import type { RunToolsParams } from 'model-inference-sdk';
 *
 * const body: RunToolsParams = {
 *   model: 'acme/chat-1',
 *   messages: [{ role: 'user', content: 'Is it warmer in Paris or in Oslo?' }],
 *   tools: [getWeather], // zodFunction({ name, parameters, function })
 *   stream: true,
 * };
 * for await (const text of client.chat.completions.runTools(body).textStream()) process.stdout.write(text);
 * ```
 */
export type RunToolsParams = Omit<ChatCompletionCreateParams, 'tools' | 'stream'> & {
  tools: RunnableTool[];
  /** `true`: each request streams, and the runner (a `ChatCompletionStreamingRunner`) yields their chunks as they arrive. */
  stream?: boolean | null;
  /**
   * Passed to every tool function as its third argument, as the official client does; never sent
   * to the server.
   */
  toolContext?: unknown;
};

/**
 * `runTools()`'s body without streaming: the name the `openai` client gives it.
 *
 * @example
 * ```ts
 * import type { ChatCompletionToolRunnerParams } from 'model-inference-sdk';
 *
 * const body: ChatCompletionToolRunnerParams = { model: 'acme/chat-1', messages, tools: [getWeather] };
 * console.log(await client.chat.completions.runTools(body).finalContent());
 * ```
 */
export type ChatCompletionToolRunnerParams = RunToolsParams & { stream?: false | null };

/**
 * `runTools()`'s body with `stream: true`: the name the `openai` client gives it.
 *
 * @example
 * ```ts
 * import type { ChatCompletionStreamingToolRunnerParams } from 'model-inference-sdk';
 *
 * const body: ChatCompletionStreamingToolRunnerParams = { model: 'acme/chat-1', messages, tools: [getWeather], stream: true };
 * for await (const chunk of client.chat.completions.runTools(body)) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
 * ```
 */
export type ChatCompletionStreamingToolRunnerParams = RunToolsParams & { stream: true };

/**
 * `runTools()`'s options: the per-request options, applied to every request of the run,
 * `maxRounds` (the official client's `maxChatCompletions`) and `toolTimeout`.
 *
 * @example
 * ```ts
 * import type { RunToolsOptions } from 'model-inference-sdk';
 *
 * const options: RunToolsOptions = { maxRounds: 3, timeout: 30_000, toolTimeout: 60_000, signal: AbortSignal.timeout(120_000) };
 * const runner = client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools: [getWeather] }, options);
 * console.log(await runner.finalContent()); // null if the model still called tools in round 3 (those tools ran)
 * ```
 */
export type RunToolsOptions = RequestOptions & {
  /** Most requests to make (default 10). If the model still calls tools in the last one, they run, and the run ends there (no further request). */
  maxRounds?: number;
  /** The official client's name for `maxRounds` (used when `maxRounds` is not given). */
  maxChatCompletions?: number;
  /**
   * Longest one tool function may take to settle, in milliseconds (default 10 minutes, the
   * client's default `timeout`). Past it, the run rejects with `ToolTimeoutError` (an `APIConnectionTimeoutError`) naming
   * the tool, and the `signal` of that round's tools aborts: a tool that never settles cannot
   * hold the run, or a serverless function, for ever. (The official client has no such bound.)
   */
  toolTimeout?: number;
};

/**
 * `runTools()`'s options under the name the `openai` client gives them.
 *
 * @example
 * ```ts
 * import type { RunnerOptions } from 'model-inference-sdk';
 *
 * const options: RunnerOptions = { maxChatCompletions: 5 };
 * const runner = client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools: [getWeather] }, options);
 * ```
 */
export type RunnerOptions = RunToolsOptions;

/** What the loop reports to: the runner's conversation and its events. @internal */
export interface RunSink<ParsedT> {
  readonly messages: ChatCompletionMessageParam[];
  /** One event of the run; `snapshot` gives the completion so far of the request a chunk belongs to. */
  emit(event: RunnerEvent<ParsedT>, snapshot?: () => ChatCompletion): void;
  /**
   * Settles when no reader that paces the run (a `toReadableStream()` body) is behind: a streaming
   * round reads its next chunk only then. `undefined` when none is behind (or the run was aborted).
   */
  paced(): Promise<void> | undefined;
}
