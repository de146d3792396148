/**
 * Listeners by event name, as the official client's `on` / `once` / `off` keep them: called in
 * the order they were added, synchronously, with the event's arguments. Shared by the chat
 * stream's events (chat-events.ts) and the tool runner's (lib/run-tools.ts).
 */
type Listener = (...args: never[]) => void;

export class Listeners<Events extends { [K in keyof Events]: Listener }> {
  readonly #entries = new Map<keyof Events, { listener: Listener; once: boolean }[]>();

  /** True when any listener is registered (so that work done only for them can be skipped). */
  get any(): boolean {
    return this.#entries.size > 0;
  }

  on<E extends keyof Events>(event: E, listener: Events[E], once = false): void {
    const entries = this.#entries.get(event) ?? [];
    entries.push({ listener, once });
    this.#entries.set(event, entries);
  }

  off<E extends keyof Events>(event: E, listener: Events[E]): void {
    const entries = this.#entries.get(event)?.filter((e) => e.listener !== listener);
    if (entries?.length) this.#entries.set(event, entries);
    else this.#entries.delete(event);
  }

  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    const entries = this.#entries.get(event);
    if (!entries) return;
    for (const entry of entries) {
      if (entry.once) this.off(event, entry.listener as Events[E]);
      (entry.listener as (...a: unknown[]) => void)(...args);
    }
  }
}
