/**
 * The run of `chat.completions.runTools()` as it goes, under both runners (tools/runner.ts): its
 * arguments checked, its loop loaded with `import()` (tools/loop.ts, which stays out of the main
 * entry) and fed back its events, its readers paced, its listeners told, its end. `on()`,
 * `emitted()`, `done()` and the `final…()` methods are the chat stream's (`Evented`,
 * stream/event-surface.ts), over the hooks given here; `textStream()` and `await using` are apart
 * (tools/abstract-runner.ts); `totalUsage()` and `allChatCompletions()` stay here, with the
 * completions they read.
 */
import { APIUserAbortError, InferenceError, ListenerError } from '../errors/api';
import type {
  ChatCompletion,
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
  CompletionUsage,
} from '../generated/types.gen';
import { DEFAULTS } from '../options/types';
import { checkRequestOptions, checkTimeout } from '../options/check';
import type { ChatCompletionsResource as ChatCompletions } from '../resources/chat';
import { checkBody } from '../resources/check-body';
import { follow } from '../util/signals';
import type { Events } from '../stream/chat-event-types';
import { EventSurface, Evented, outcomeOf } from '../stream/event-surface';
import { Listeners } from '../stream/listeners';
import type { ParsedChatCompletion } from '../parse/completion';
import type { RunSink, RunToolsOptions, RunToolsParams } from './params';
import { checkTools } from './table';
import type { RunnerEvent, RunnerEvents } from './events';

const DEFAULT_MAX_ROUNDS = 10;

/**
 * The run itself, under both runners: its loop (loaded with `import()` when it starts), its
 * conversation, its events and their readers, its listeners, and how it ended.
 * `AbstractChatCompletionRunner` (tools/abstract-runner.ts) adds what the run leaves.
 */
export abstract class RunnerCore<ParsedT, EventMap>
  extends Evented<EventMap, ParsedChatCompletion<ParsedT>>
  implements RunSink<ParsedT>
{
  /** The conversation: the request's messages, then every message the run added. Grows as the run goes. */
  readonly messages: ChatCompletionMessageParam[];
  /** Abort to stop the run: the request or tools in flight get the signal; the run rejects with `APIUserAbortError`. */
  readonly controller = new AbortController();
  readonly #completions: ParsedChatCompletion<ParsedT>[] = [];
  readonly #events: RunnerEvent<ParsedT>[] = [];
  readonly #listeners = new Listeners<Events>();
  /** `on` / `off` / `emitted()` and how the run ended, as a chat stream has them too. */
  readonly #surface: EventSurface<Events>;
  /** The official client's events, worked out from `#events` as they happen (loaded with the loop). */
  #tap: RunnerEvents<ParsedT> | undefined;
  #wake: (() => void)[] = [];
  /** The readers that pace the run (`toReadableStream()` bodies): the index of the next event each takes. */
  readonly #pacers = new Set<{ index: number }>();
  /** The loop, waiting for the pacers to catch up. */
  #caughtUp: (() => void)[] = [];
  #ended: { error?: unknown } | undefined;
  /** Unlinks the caller's signal (set once the arguments are checked). */
  #unlink = () => {};
  readonly #done: Promise<void>;

  /** @internal */
  constructor(completions: ChatCompletions, body: RunToolsParams, options: RunToolsOptions = {}) {
    super();
    this.messages = Array.isArray(body?.messages) ? [...body.messages] : [];
    // A bad argument fails the run (done(), final…(), the error event), not the call: as in
    // openai, whose runner reports it so (`#start` is async: what it throws rejects).
    this.#done = this.#start(completions, body, options).then(
      () => {
        // A listener of the final events may throw: the run then fails with its error.
        const ending = this.#end({});
        if ('error' in ending) throw ending.error;
      },
      (error: unknown) => {
        throw this.#end({ error }).error;
      },
    );
    this.#done.catch(() => {}); // delivered to whoever awaits a final…() or iterates; never unhandled
    this.#surface = new EventSurface(this.#listeners, 'run', this.#done);
    void this.#done.finally(() => this.#unlink()).catch(() => {});
    // An abort ends the run at once, even while it waits for a slow reader.
    this.controller.signal.addEventListener('abort', () => this.#pace(), { once: true });
  }

  /** The arguments checked (rejects for a bad one), then the loop run. */
  async #start(
    completions: ChatCompletions,
    body: RunToolsParams,
    options: RunToolsOptions,
  ): Promise<void> {
    checkBody(body, 'chat.completions.runTools', 'messages');
    const {
      maxRounds: rounds,
      maxChatCompletions,
      toolTimeout = DEFAULTS.timeout,
      ...requestOptions
    } = options;
    const maxRounds = rounds ?? maxChatCompletions ?? DEFAULT_MAX_ROUNDS;
    checkRequestOptions(requestOptions, 'chat.completions.runTools');
    checkTimeout(toolTimeout, 'toolTimeout', 'chat.completions.runTools');
    if (!Number.isInteger(maxRounds) || maxRounds < 1) {
      throw new InferenceError(
        `chat.completions.runTools: \`maxRounds\` must be a positive integer, got ${String(maxRounds)}.`,
      );
    }
    const tools = checkTools(body.tools);
    // The caller's signal aborts the run; unlinked when the run is over (see the constructor).
    this.#unlink = follow(requestOptions.signal, this.controller);
    const signal = this.controller.signal;
    const { Loop, RunnerEvents, StreamParsing } = await import('./loop');
    // A streaming run tells the stream's events too, parsed from its format and tools.
    const parser =
      body.stream === true
        ? new StreamParsing(
            body as unknown as ChatCompletionCreateParams,
            false,
            completions.waitOf(requestOptions).timeout,
          )
        : undefined;
    this.#tap = new RunnerEvents(this.#listeners, parser);
    return new Loop(
      this,
      completions,
      body,
      tools,
      { ...requestOptions, signal },
      maxRounds,
      toolTimeout,
    ).run();
  }

  /** @internal */
  paced(): Promise<void> | undefined {
    if (!this.#behind()) return undefined;
    return new Promise<void>((resolve) => this.#caughtUp.push(resolve));
  }

  #behind(): boolean {
    if (this.controller.signal.aborted) return false;
    for (const pacer of this.#pacers) if (pacer.index < this.#events.length) return true;
    return false;
  }

  /** Let the loop go on if no pacer is behind any more. */
  #pace(): void {
    if (this.#caughtUp.length === 0 || this.#behind()) return;
    const caughtUp = this.#caughtUp;
    this.#caughtUp = [];
    for (const resolve of caughtUp) resolve();
  }

  /** @internal */
  emit(event: RunnerEvent<ParsedT>, snapshot?: () => ChatCompletion): void {
    if (event.type === 'completion') this.#completions.push(event.completion);
    if (event.type === 'message') this.messages.push(event.message);
    this.#events.push(event);
    this.#notify();
    this.#tap?.event(event, snapshot);
  }

  /**
   * The run is over: its last events, each told once, then `end`. Returns how it ended: a listener
   * that throws meanwhile fails a run that went well (`error` is then told, unless it was `end`
   * itself, after which nothing is), or names what had gone wrong in its `ListenerError`.
   */
  #end(ending: { error?: unknown }): { error?: unknown } {
    if (this.#ended) return this.#ended;
    const on = this.#listeners;
    const after = (listener: unknown, error: unknown) =>
      listener instanceof ListenerError
        ? new ListenerError(listener.event, listener.cause, { what: 'run', error })
        : listener;
    this.#ending(ending); // `ended` is true while the last events are told
    if (!('error' in ending)) {
      try {
        this.#tap?.succeeded(
          this.#completions.at(-1),
          this.#completions.some((c) => c.usage) ? this.#sumUsage() : undefined,
        );
      } catch (error) {
        ending = { error };
      }
    }
    if ('error' in ending) {
      try {
        if (ending.error instanceof APIUserAbortError) on.emit('abort', ending.error);
        else on.emit('error', ending.error);
      } catch (listener) {
        ending = { error: after(listener, ending.error) };
      }
    }
    this.#ending(ending);
    try {
      on.emit('end');
    } catch (listener) {
      ending = { error: 'error' in ending ? after(listener, ending.error) : listener };
    }
    this.#ending(ending);
    this.#notify();
    return ending;
  }

  #ending(ending: { error?: unknown }): void {
    this.#ended = ending;
    this.#surface.outcome = !('error' in ending)
      ? 'ok'
      : outcomeOf(ending.error) === 'aborted'
        ? 'aborted'
        : 'error';
  }

  /** @internal */
  protected get surface(): EventSurface<Events> {
    return this.#surface;
  }

  /** @internal */
  protected over(): Promise<void> {
    return this.#done;
  }

  /** @internal */
  protected last(): ParsedChatCompletion<ParsedT> {
    const last = this.#completions.at(-1);
    if (!last) throw new InferenceError('The run ended without a completion.');
    return last;
  }

  /** @internal */
  protected conversation(): readonly unknown[] {
    return this.messages;
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = [];
    for (const resolve of wake) resolve();
  }

  /**
   * The run's events, in order, as they happen, from the start. `paces`: the run reads its next
   * chunk only once this reader has taken every event so far (a `toReadableStream()` body), until
   * it ends or is closed. @internal
   */
  protected iterate(paces = false): AsyncIterator<RunnerEvent<ParsedT>> {
    const reader = { index: 0 };
    if (paces) this.#pacers.add(reader);
    const leave = () => {
      reader.index = Number.POSITIVE_INFINITY;
      if (this.#pacers.delete(reader)) this.#pace();
    };
    return {
      next: async () => {
        for (;;) {
          if (reader.index < this.#events.length) {
            const value = this.#events[reader.index++]!;
            if (paces) this.#pace();
            return { done: false, value };
          }
          if (this.#ended) {
            leave();
            if ('error' in this.#ended) throw this.#ended.error;
            return { done: true, value: undefined };
          }
          await new Promise<void>((resolve) => this.#wake.push(resolve));
        }
      },
      // Leaving the loop early stops watching, not the run: use abort() for that.
      return: async () => {
        leave();
        return { done: true, value: undefined };
      },
    };
  }

  /** Stop the run. The request in flight is cancelled, running tools see their `signal` abort, and no tool starts after it. */
  abort(reason?: unknown): void {
    this.controller.abort(reason);
  }

  /** Every completion so far, one per request. */
  allChatCompletions(): ParsedChatCompletion<ParsedT>[] {
    return [...this.#completions];
  }

  /** Token usage added up over every request of the run (counts a server did not report are 0). */
  async totalUsage(): Promise<CompletionUsage> {
    await this.#done;
    return this.#sumUsage();
  }

  #sumUsage(): CompletionUsage {
    const total = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    for (const completion of this.#completions) {
      total.prompt_tokens += completion.usage?.prompt_tokens ?? 0;
      total.completion_tokens += completion.usage?.completion_tokens ?? 0;
      total.total_tokens += completion.usage?.total_tokens ?? 0;
    }
    return total;
  }
}
