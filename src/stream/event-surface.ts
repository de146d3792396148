/**
 * What a chat stream (`ChatCompletionStream`) and a tool run (`runTools()`'s runners) share of the
 * official client's event surface, written once: `on` / `once` / `off` over their listeners,
 * `emitted()`, and how they ended (`ended`, `errored`, `aborted`). Each class keeps its public
 * methods, with its own event names in their types, and hands them to its surface. And the two
 * views of a completion they both give: its first message (`finalMessage()`) and a stream's text
 * (`textStream()`).
 */
import type { ChatCompletion, ChatCompletionChunk } from '../generated/types.gen';
import { APIUserAbortError, EventNotEmittedError } from '../errors/api';
import type { Listeners } from './listeners';

/** How a stream or a run ended. */
export type Outcome = 'ok' | 'error' | 'aborted';

/** The outcome of an end with `error` (none: it went well; an abort is not an error). */
export function outcomeOf(error: unknown): Outcome {
  return error === undefined ? 'ok' : error instanceof APIUserAbortError ? 'aborted' : 'error';
}

type Listener = (...args: never[]) => void;

export class EventSurface<Events extends { [K in keyof Events]: Listener }> {
  /** How it ended, once it has: set before its last events are told (`ended` is true in an `end` listener). */
  outcome: Outcome | undefined;

  /**
   * `what` names it in `EventNotEmittedError`; `over` settles once it has ended and every listener
   * was told (rejecting with its error).
   */
  constructor(
    readonly listeners: Listeners<Events>,
    private readonly what: 'stream' | 'run',
    private readonly over: Promise<unknown>,
  ) {}

  on(event: keyof Events, listener: Listener, once = false): void {
    this.listeners.on(event, listener as Events[keyof Events], once);
  }

  off(event: keyof Events, listener: Listener): void {
    this.listeners.off(event, listener as Events[keyof Events]);
  }

  /**
   * The next `event`'s first argument. Rejects when it is over without it: with its error if it
   * failed, else with `EventNotEmittedError` (at once when it had already ended). An event that
   * never comes is an error, not a hang.
   */
  emitted(event: keyof Events): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.outcome !== undefined)
        return reject(new EventNotEmittedError(this.what, String(event), true));
      const listener = (value: unknown) => resolve(value);
      this.on(event, listener as Listener, true);
      const over = (error: unknown) => {
        this.off(event, listener as Listener);
        reject(error);
      };
      this.over.then(() => over(new EventNotEmittedError(this.what, String(event))), over);
    });
  }

  get ended(): boolean {
    return this.outcome !== undefined;
  }

  get errored(): boolean {
    return this.outcome === 'error';
  }

  get aborted(): boolean {
    return this.outcome === 'aborted';
  }
}

/** The first choice's message of a completion (`finalMessage()`), or an empty assistant message. */
export function firstMessage<M>(completion: ChatCompletion): M {
  return (completion.choices[0]?.message ?? {
    role: 'assistant',
    content: null,
    refusal: null,
    parsed: null,
  }) as M;
}

/** The text of the first choice of each chunk (`textStream()`): reasoning, tool calls and empty deltas left out. */
export function* contentOf(chunk: ChatCompletionChunk): Generator<string> {
  for (const choice of chunk.choices)
    if (choice.index === 0 && choice.delta.content) yield choice.delta.content;
}
