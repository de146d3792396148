/**
 * What a `runTools()` run leaves, for both runners (tools/runner.ts): the `final…()` methods, its
 * text as it comes (`textStream()`), and `await using`. The run itself (its loop, events,
 * listeners, end) is in tools/run.ts, which this class extends.
 */
import { InferenceError } from '../errors/api';
import type { ParsedChatCompletion, ParsedChatCompletionMessage } from '../parse/completion';
import { contentOf, firstMessage } from '../stream/event-surface';
import { asyncDispose } from '../util/dispose';
import type { FunctionToolCall } from './events';
import { RunnerCore } from './run';

/**
 * What both runners share: the run (`RunnerCore`: its loop, conversation, events and listeners),
 * and the `final…()` methods. `ChatCompletionRunner` iterates the run's events;
 * `ChatCompletionStreamingRunner` (`stream: true`) its chunks.
 */
export abstract class AbstractChatCompletionRunner<ParsedT, EventMap> extends RunnerCore<
  ParsedT,
  EventMap
> {
  /**
   * `await using`: leaving the block (at its end, by `break`, `return` or a throw) aborts the run,
   * as `abort()` does (a run that has ended is left as it is), and waits for it to end: the request
   * in flight cancelled, the tools told. Never rejects; the run's error stays for `done()`.
   *
   * @example
   * ```ts
   * await using runner = client.chat.completions.runTools({ model: 'acme/chat-1', messages, tools: [getWeather] });
   * const call = await runner.emitted('functionToolCall');
   * console.log('the model called', call.name); // leaving the block stops the run here
   * ```
   */
  async [asyncDispose](): Promise<void> {
    if (!this.ended) this.abort();
    await this.done().catch(() => {});
  }

  /** The last completion of the run: the model's answer, or the last request's completion if `maxRounds` or a forced `tool_choice` ended the run. */
  async finalChatCompletion(): Promise<ParsedChatCompletion<ParsedT>> {
    await this.done();
    const last = this.allChatCompletions().at(-1);
    if (!last) throw new InferenceError('The run ended without a completion.');
    return last;
  }

  /** The assistant message of the last completion (its first choice). */
  async finalMessage(): Promise<ParsedChatCompletionMessage<ParsedT>> {
    return firstMessage(await this.finalChatCompletion());
  }

  /** The text of the final answer, or `null` when the run ended on tool calls. */
  async finalContent(): Promise<string | null> {
    const message = await this.finalMessage();
    return message.content;
  }

  /**
   * Once the run is over, the last function tool call (`{ name, arguments }`) of the assistant
   * messages of `messages` (the request's, then the run's), or `undefined` if there is none; as
   * the official client defines it. Rejects with the run's error.
   *
   * @example
   * ```ts
   * const call = await runner.finalFunctionToolCall();
   * if (call) console.log('last called', call.name, JSON.parse(call.arguments));
   * ```
   */
  async finalFunctionToolCall(): Promise<FunctionToolCall | undefined> {
    await this.done();
    return (await import('../stream/final-call')).finalFunctionToolCall(this.messages);
  }

  /**
   * Once the run is over, the content of the last tool message of `messages` that answers a
   * function tool call there (the last tool result sent back to the model), or `undefined`; as the
   * official client defines it. Rejects with the run's error.
   *
   * @example
   * ```ts
   * console.log(await runner.finalFunctionToolCallResult()); // '{"city":"Paris","celsius":21}'
   * ```
   */
  async finalFunctionToolCallResult(): Promise<string | undefined> {
    await this.done();
    return (await import('../stream/final-call')).finalFunctionToolCallResult(this.messages);
  }

  /**
   * The text the model writes, across every request of the run: deltas as they arrive when
   * streaming, else each answer's text whole. Tool calls and reasoning are left out.
   *
   * @example
   * ```ts
   * for await (const text of runner.textStream()) process.stdout.write(text);
   * ```
   */
  async *textStream(): AsyncGenerator<string> {
    let streamed = false;
    const events = this.iterate();
    for (let next = await events.next(); !next.done; next = await events.next()) {
      const event = next.value;
      if (event.type === 'chunk') {
        streamed = true;
        yield* contentOf(event.chunk);
      } else if (event.type === 'completion' && !streamed) {
        const text = event.completion.choices[0]?.message.content;
        if (text) yield text;
      }
    }
  }
}
