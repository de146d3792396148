/**
 * The official client's event surface, written once for a chat stream (`ChatCompletionStream`)
 * and a tool run (`runTools()`'s runners): `on` / `once` / `off` over their listeners,
 * `emitted()`, how they ended (`ended`, `errored`, `aborted`), `done()` and the `final…()`
 * methods. `EventSurface` keeps the state (the listeners and the outcome); `Evented` is the class
 * of the public methods, typed by each one's event map, which the runners extend and the stream
 * takes on (`evented()`: it extends `Stream`). And the two views of a completion they both give:
 * its first message and a stream's text (`textStream()`).
 */
import type { ChatCompletionChunk } from '../generated/types.gen';
import { APIUserAbortError, EventNotEmittedError } from '../errors/api';
import type { Listeners } from './listeners';
import type { Events, FunctionToolCall } from './chat-event-types';

/** How a stream or a run ended. */
export type Outcome = 'ok' | 'error' | 'aborted';

/** The outcome of an end with `error` (none: it went well; an abort is not an error). */
export function outcomeOf(error: unknown): Outcome {
  return error === undefined ? 'ok' : error instanceof APIUserAbortError ? 'aborted' : 'error';
}

type Listener = (...args: never[]) => void;

export class EventSurface<EventMap extends { [K in keyof EventMap]: Listener }> {
  /** How it ended, once it has: set before its last events are told (`ended` is true in an `end` listener). */
  outcome: Outcome | undefined;

  /**
   * `what` names it in `EventNotEmittedError`; `over` settles once it has ended and every listener
   * was told (rejecting with its error).
   */
  constructor(
    readonly listeners: Listeners<EventMap>,
    private readonly what: 'stream' | 'run',
    private readonly over: Promise<unknown>,
  ) {}

  /**
   * The next `event`'s first argument. Rejects when it is over without it: with its error if it
   * failed, else with `EventNotEmittedError` (at once when it had already ended). An event that
   * never comes is an error, not a hang.
   */
  emitted(event: keyof EventMap): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.outcome !== undefined)
        return reject(new EventNotEmittedError(this.what, String(event), true));
      const listener = ((value: unknown) => resolve(value)) as never;
      this.listeners.on(event, listener, true);
      const over = (error: unknown) => {
        this.listeners.off(event, listener);
        reject(error);
      };
      this.over.then(() => over(new EventNotEmittedError(this.what, String(event))), over);
    });
  }
}

/** The first argument of a listener (`undefined` for one without arguments). */
type FirstArg<F> = F extends (...args: infer A) => void ? A[0] : never;

/**
 * The public methods of a chat stream and of a tool run, over their `EventSurface`. `EventMap`
 * types the listeners (`ChatCompletionStreamEvents`, `ChatCompletionRunnerEvents`), `Completion`
 * what `finalChatCompletion()` gives. Each says how it is over, what its last completion is, and
 * what its conversation holds (the hooks below).
 */
export abstract class Evented<
  EventMap,
  Completion extends { choices: { message: { content: string | null } }[] },
> {
  /** Its listeners and outcome. @internal */
  protected abstract get surface(): EventSurface<Events>;
  /** Read to the end if nobody reads it (a stream), then settled once it is over: rejects with its error. @internal */
  protected abstract over(): Promise<void>;
  /** Its last completion, once it is over. @internal */
  protected abstract last(): Completion;
  /** Its conversation, once it is over: the request's messages, then what it added. @internal */
  protected abstract conversation(): readonly unknown[];

  /**
   * Call `listener` on every `event` (the official client's event names and arguments). Returns
   * this, so calls chain. Events come as it goes: a stream's as it is read (by a `for await` loop,
   * or by `done()` / `final…()`, which read the rest; a `stream()` nobody reads reads itself). A
   * listener that throws ends it with a `ListenerError`: the request in flight is aborted (a run
   * runs no further tool), `error` and `end` are told; `abort()` called in a run's listener stops
   * the run there (in `functionToolCall`: before the tool runs).
   *
   * @example
   * ```ts
   * const stream = client.chat.completions.stream({ model: 'acme/chat-1', messages });
   * stream.on('content.delta', ({ delta }) => process.stdout.write(delta));
   * await stream.done();
   * ```
   */
  on<E extends keyof EventMap>(event: E, listener: EventMap[E]): this {
    this.surface.listeners.on(event as keyof Events, listener as never);
    return this;
  }

  /**
   * Call `listener` on the next `event` only.
   *
   * @example
   * ```ts
   * stream.once('finalChatCompletion', (completion) => console.log(completion.usage));
   * ```
   */
  once<E extends keyof EventMap>(event: E, listener: EventMap[E]): this {
    this.surface.listeners.on(event as keyof Events, listener as never, true);
    return this;
  }

  /**
   * Stop calling `listener` on `event`.
   *
   * @example
   * ```ts
   * runner.off('message', onMessage);
   * ```
   */
  off<E extends keyof EventMap>(event: E, listener: EventMap[E]): this {
    this.surface.listeners.off(event as keyof Events, listener as never);
    return this;
  }

  /**
   * A promise of the next `event`'s first argument. Rejects when it ends without it: with its
   * error if it failed, else with `EventNotEmittedError` (also when it had already ended), so that
   * `await runner.emitted('totalUsage')` settles even when the server reports no usage. A stream's
   * events come as it is read (`for await`, `done()`, `final…()`; a `stream()` nobody reads reads
   * itself).
   *
   * @example
   * ```ts
   * const call = await runner.emitted('functionToolCall');
   * console.log('the model called', call.name);
   * ```
   */
  emitted<E extends keyof EventMap>(event: E): Promise<FirstArg<EventMap[E]>> {
    return this.surface.emitted(event as keyof Events) as Promise<FirstArg<EventMap[E]>>;
  }

  /**
   * True once it is over, however it ended (also while its last events are told).
   *
   * @example
   * ```ts
   * if (!stream.ended) stream.abort();
   * ```
   */
  get ended(): boolean {
    return this.surface.outcome !== undefined;
  }

  /**
   * True when it ended with an error (other than an abort): the server's, a tool's, a listener's.
   *
   * @example
   * ```ts
   * await stream.done().catch(() => {});
   * if (stream.errored) console.log('the stream failed');
   * ```
   */
  get errored(): boolean {
    return this.surface.outcome === 'error';
  }

  /**
   * True when it was aborted (`abort()`, the request's `signal`) or, a stream, left early (`break`).
   *
   * @example
   * ```ts
   * if (runner.aborted) console.log('stopped before the end');
   * ```
   */
  get aborted(): boolean {
    return this.surface.outcome === 'aborted';
  }

  /**
   * Resolves when it is over (a stream nobody reads is read to its end, with its events); rejects
   * with its error.
   *
   * @example
   * ```ts
   * stream.on('content', (delta) => process.stdout.write(delta));
   * await stream.done();
   * ```
   */
  done(): Promise<void> {
    return this.over();
  }

  /**
   * The whole completion: a stream's, as a non-streaming request would have returned it (read to
   * the end if nobody is iterating it; else once that loop ends, rejecting if it was left early);
   * a run's last: the model's answer, or the last request's completion if `maxRounds` or a forced
   * `tool_choice` ended the run. Rejects with its error.
   *
   * @example
   * ```ts
   * const completion = await stream.finalChatCompletion();
   * console.log(completion.choices[0]?.message.content, completion.usage);
   * ```
   */
  async finalChatCompletion(): Promise<Completion> {
    await this.over();
    return this.last();
  }

  /**
   * The assistant message of the first choice of `finalChatCompletion()`.
   *
   * @example
   * ```ts
   * const message = await stream.finalMessage();
   * for (const call of message.tool_calls ?? []) console.log(call.function.name, call.function.arguments);
   * ```
   */
  async finalMessage(): Promise<Completion['choices'][number]['message']> {
    return firstMessage(await this.finalChatCompletion());
  }

  /**
   * The text of `finalMessage()`: `null` when the model only called tools or refused.
   *
   * @example
   * ```ts
   * console.log(await stream.finalContent());
   * ```
   */
  async finalContent(): Promise<string | null> {
    return (await this.finalMessage()).content;
  }

  /**
   * Once it is over, the last function tool call (`{ name, arguments }`) of the conversation's
   * assistant messages, as the official client defines it; `undefined` if there is none. The
   * conversation is the request's messages (a `create({ stream: true })` stream does not have
   * them), then the messages it added: a run's, a stream's message (of each request, for a run's
   * body read back). Rejects as `done()` does.
   *
   * @example
   * ```ts
   * const call = await runner.finalFunctionToolCall();
   * if (call) console.log('last called', call.name, JSON.parse(call.arguments));
   * ```
   */
  async finalFunctionToolCall(): Promise<FunctionToolCall | undefined> {
    await this.over();
    return (await import('./final-call')).finalFunctionToolCall(this.conversation() as never);
  }

  /**
   * Once it is over, the content of the last tool message of the conversation (see
   * `finalFunctionToolCall()`) that answers a function tool call there (the last tool result sent
   * back to the model), or `undefined`; as the official client defines it. A stream runs no tools:
   * only the request's messages can hold one. Rejects as `done()` does.
   *
   * @example
   * ```ts
   * console.log(await runner.finalFunctionToolCallResult()); // '{"city":"Paris","celsius":21}'
   * ```
   */
  async finalFunctionToolCallResult(): Promise<string | undefined> {
    await this.over();
    return (await import('./final-call')).finalFunctionToolCallResult(this.conversation() as never);
  }
}

/**
 * `Evented`'s methods on `Target`'s prototype, for a class that extends another (the stream
 * extends `Stream`); its type merges an interface that extends `Evented`.
 */
export function evented(target: { prototype: object }): void {
  const { constructor: _, ...methods } = Object.getOwnPropertyDescriptors(Evented.prototype);
  Object.defineProperties(target.prototype, methods);
}

/** The first choice's message of a completion (`finalMessage()`), or an empty assistant message. */
export function firstMessage<M>(completion: { choices: { message: unknown }[] }): M {
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
