/**
 * Reading a body as text: the one reader of the SDK's body loops (a JSON or error body, an event
 * stream, a stream read back). It cancels the body when a signal aborts, cuts it at a byte limit,
 * and cancels what is left unread when the reading stops early.
 */

/** A body read one read at a time (`bodyText()`). */
export interface BodyText {
  /**
   * The next read as text, `undefined` at the end (or after the byte limit was passed). Throws the
   * signal's reason once it aborted, even for a body that does not listen to it: an abort
   * cancels the body, whose pending read then ends as done, and that is no end.
   */
  next(): Promise<string | undefined>;
  /** What the decoder still holds at the end (the start of a UTF-8 sequence cut off). */
  flush(): string;
  /** Bytes read so far (all of the last read, past the limit too). */
  readonly bytes: number;
  /** Whether the byte limit was passed: the last text was cut at it. */
  readonly truncated: boolean;
  /** Unlinks the signal, cancels the body unless it was read to its end, releases the lock. */
  close(): void;
}

/**
 * `body` read as text, UTF-8 (a leading BOM stripped; `stream: true` keeps a sequence split
 * across reads whole), within `signal`, at most `maxBytes` (the text then ends at the limit).
 *
 * `next()` is a function of its own, so that a read's bytes are garbage as soon as they are
 * decoded. The body readers are async generators, and a local of one lives in its frame while it
 * waits at a `yield` for the consumer (V8 keeps a suspended generator's registers): a stream whose
 * consumer was working through a large read kept that read twice, as its bytes and as its text.
 */
export function bodyText(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
  maxBytes = Infinity,
): BodyText {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // Cancelled when the signal aborts (at once if it has), so that a pending read ends.
  const onAbort = () => void reader.cancel(signal!.reason).catch(() => {});
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  let ended = false;
  const state = {
    bytes: 0,
    truncated: false,
    async next(): Promise<string | undefined> {
      if (signal?.aborted) throw signal.reason;
      if (state.truncated) return undefined;
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (done) {
        ended = true;
        return undefined;
      }
      const bytes = (state.bytes += value.byteLength);
      if (bytes <= maxBytes) return decoder.decode(value, { stream: true });
      state.truncated = true;
      return decoder.decode(value.subarray(0, Math.max(0, value.byteLength - (bytes - maxBytes))));
    },
    flush: () => decoder.decode(),
    close() {
      signal?.removeEventListener('abort', onAbort);
      if (!ended) void reader.cancel().catch(() => {}); // not awaited: a body that was tee'd (msw, a cloning fetch) cancels only when every copy does
      reader.releaseLock();
    },
  };
  return state;
}
