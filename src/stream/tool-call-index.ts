/**
 * The `index` of streamed tool-call fragments, read the same way for every server: the calls of
 * each choice are numbered 0, 1, 2 … in the order of their first fragment, so that `index` picks
 * out one call whatever the server sent. Servers disagree (QUIRKS.md):
 * - no `index` at all (Gemini compat, Mistral): a fragment with a new `id` starts a call, one
 *   without continues the last call;
 * - `index` starting at 1 (Anthropic compat, whose text took index 0);
 * - every parallel call at `index` 0 and no ids (Ollama-style gateways): a fragment naming another
 *   function, or naming one after the last call's arguments are complete JSON, starts a call;
 * - `id: ""` and `function.name: ""` or `null` on continuations (DashScope, Mistral, Fireworks):
 *   read as absent.
 *
 * It needs the whole stream, so it runs in the stream reader, on each chunk as parsed and before
 * the chunk is normalized (which then sees an `index` on every fragment). Linear in the stream:
 * calls are found through maps, and the "complete JSON" test follows the arguments as they arrive
 * instead of parsing them again.
 */

interface Call {
  /** The number this call gets. */
  index: number;
  id: string | undefined;
  name: string | undefined;
  json: JsonProgress;
}

interface ChoiceCalls {
  calls: Call[];
  byId: Map<string, Call>;
  /** The latest call the server gave each `index`. */
  byServerIndex: Map<number, Call>;
}

/** A reader of tool-call indexes for one stream: call it with each parsed chunk, in order. */
export function toolCallIndexer(): (chunk: unknown) => void {
  const choices = new Map<number, ChoiceCalls>();
  return (chunk) => {
    const list = isObj(chunk) ? chunk['choices'] : undefined;
    if (!Array.isArray(list)) return;
    for (let c = 0; c < list.length; c++) {
      const choice: unknown = list[c];
      if (!isObj(choice)) continue;
      const delta = choice['delta'];
      const fragments = isObj(delta) ? delta['tool_calls'] : undefined;
      if (!Array.isArray(fragments) || fragments.length === 0) continue;
      const at = Number.isSafeInteger(choice['index']) ? (choice['index'] as number) : c;
      let state = choices.get(at);
      if (!state)
        choices.set(at, (state = { calls: [], byId: new Map(), byServerIndex: new Map() }));
      for (const fragment of fragments) if (isObj(fragment)) place(state, fragment);
    }
  };
}

function place(state: ChoiceCalls, fragment: Record<string, unknown>): void {
  const fn = isObj(fragment['function']) ? fragment['function'] : undefined;
  const id = nonEmpty(fragment['id']);
  const name = nonEmpty(fn?.['name']);
  const serverIndex = Number.isSafeInteger(fragment['index'])
    ? (fragment['index'] as number)
    : undefined;

  let call = id === undefined ? undefined : state.byId.get(id);
  if (!call && serverIndex !== undefined) {
    const atIndex = state.byServerIndex.get(serverIndex);
    // A new id at a known index is a new call; so is a second named call at the same index.
    if (atIndex && (id === undefined || atIndex.id === undefined) && !startsAnother(atIndex, name))
      call = atIndex;
  }
  if (!call && id === undefined && serverIndex === undefined) {
    const last = state.calls.at(-1);
    if (last && !startsAnother(last, name)) call = last;
  }
  if (!call) {
    call = { index: state.calls.length, id: undefined, name: undefined, json: new JsonProgress() };
    state.calls.push(call);
  }
  if (id !== undefined && call.id === undefined) {
    call.id = id;
    state.byId.set(id, call);
  }
  if (name !== undefined && call.name === undefined) call.name = name;
  if (serverIndex !== undefined) state.byServerIndex.set(serverIndex, call);
  const args = fn?.['arguments'];
  if (typeof args === 'string') call.json.feed(args);
  fragment['index'] = call.index;
}

/** A fragment naming a different function, or naming one after a call's arguments are complete, starts another call. */
function startsAnother(call: Call, name: string | undefined): boolean {
  if (name === undefined || call.name === undefined) return false;
  return name !== call.name || call.json.complete;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isObj(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether JSON text fed piece by piece is one complete value (an object or array closed at the
 * top level, or a scalar followed by nothing open). Enough to tell "the arguments are done"
 * without parsing them; the text itself is not kept.
 */
class JsonProgress {
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** A value at the top level has ended (and no other begun): only ever true at depth 0. */
  #closed = false;

  get complete(): boolean {
    return this.#closed && !this.#inString;
  }

  feed(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (ch === 0x5c /* \ */) this.#escaped = true;
        else if (ch === 0x22 /* " */) {
          this.#inString = false;
          if (this.#depth === 0) this.#closed = true;
        }
        continue;
      }
      if (ch === 0x22) this.#inString = true;
      else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
        this.#depth++;
        this.#closed = false;
      } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) {
        // A stray close at the top level changes nothing.
        if (this.#depth > 0 && --this.#depth === 0) this.#closed = true;
      } else if (ch > 0x20 && this.#depth === 0) {
        // A bare scalar at the top level (`true`, `3`): complete once something follows it or not at all.
        this.#closed = true;
      }
    }
  }
}
