/**
 * What a `runTools()` run leaves, for both runners (tools/runner.ts): its text as it comes
 * (`textStream()`) and `await using`. The run itself (its loop, events, listeners, end) is in
 * tools/run.ts, which this class extends; the `final…()` methods, `on()` and the rest of the event
 * surface, shared with the chat stream, in stream/event-surface.ts (`Evented`).
 */
import { contentOf } from '../stream/event-surface';
import { asyncDispose } from '../util/dispose';
import { RunnerCore } from './run';

/**
 * What both runners share: the run (`RunnerCore`: its loop, conversation, events and listeners,
 * and the `final…()` methods of `Evented`), `textStream()` and `await using`. `ChatCompletionRunner` iterates the run's events;
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
