/**
 * Listeners by event name, as the official client's `on` / `once` / `off` keep them, with Node's
 * EventEmitter bookkeeping: called in the order they were added, synchronously, with the event's
 * arguments; a listener added or removed during an event takes effect from the next one (each
 * event's list is replaced, never changed in place, so an emit goes through the list it started
 * with, and allocates nothing); `off(f)` and a `once(f)` that fired remove one registration of
 * `f`, not every one. Shared by the chat stream's events (chat-events.ts) and the tool runner's
 * (tools/run.ts).
 *
 * A listener that throws does not stop the others of that event; `emit` throws a `ListenerError`
 * naming the event after them, and the stream or run ends with it (see their callers).
 */
import { ListenerError } from '../errors/api';

type Listener = (...args: never[]) => void;
interface Entry {
  listener: Listener;
  once: boolean;
}

export class Listeners<Events extends { [K in keyof Events]: Listener }> {
  readonly #entries = new Map<keyof Events, readonly Entry[]>();

  /** True when any listener is registered (so that work done only for them can be skipped). */
  get any(): boolean {
    return this.#entries.size > 0;
  }

  /** True when `event` has a listener (so that an argument built only for it can be skipped). */
  has(event: keyof Events): boolean {
    return this.#entries.has(event);
  }

  on<E extends keyof Events>(event: E, listener: Events[E], once = false): void {
    this.#entries.set(event, [...(this.#entries.get(event) ?? []), { listener, once }]);
  }

  /** Remove the last registration of `listener` (as Node's `removeListener` does). */
  off<E extends keyof Events>(event: E, listener: Events[E]): void {
    const entries = this.#entries.get(event);
    if (!entries) return;
    for (let i = entries.length - 1; i >= 0; i--) {
      if (entries[i]!.listener === listener) return this.#remove(event, entries[i]!);
    }
  }

  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    const entries = this.#entries.get(event);
    if (!entries) return;
    let failed = false;
    let thrown: unknown;
    for (const entry of entries) {
      if (entry.once) this.#remove(event, entry);
      try {
        (entry.listener as (...a: unknown[]) => void)(...args);
      } catch (error) {
        if (!failed) [failed, thrown] = [true, error];
      }
    }
    if (failed) throw new ListenerError(String(event), thrown);
  }

  #remove(event: keyof Events, entry: Entry): void {
    const entries = this.#entries.get(event)?.filter((e) => e !== entry);
    if (entries?.length) this.#entries.set(event, entries);
    else this.#entries.delete(event);
  }
}
