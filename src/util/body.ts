/**
 * Reading a body: its next read as text, and its cancellation when a signal aborts.
 */

/**
 * The next read of a body as text, `undefined` at its end (`stream: true` keeps a UTF-8 sequence
 * split across reads whole; the caller flushes the decoder at the end).
 *
 * A function of its own, so that a read's bytes are garbage as soon as they are decoded. The body
 * readers are async generators, and a local of one lives in its frame while it waits at a `yield`
 * for the consumer (V8 keeps a suspended generator's registers): a stream whose consumer was
 * working through a large read kept that read twice, as its bytes and as its text.
 */
export async function nextText(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  decoder: TextDecoder,
): Promise<string | undefined> {
  const { done, value } = await reader.read();
  return done ? undefined : decoder.decode(value, { stream: true });
}

/**
 * Cancels the body `reader` reads when `signal` aborts (at once if it has), so that a pending read ends (as done) even
 * for a body that does not listen to the signal (one a `fetch` option made). The caller checks the
 * signal after each read; the returned function removes the listener.
 */
export function cancelOnAbort(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  signal: AbortSignal | undefined,
): () => void {
  if (!signal) return () => {};
  const onAbort = () => void reader.cancel(signal.reason).catch(() => {});
  // Aborted already: no event will come, and a read would wait on a body that may never answer.
  if (signal.aborted) {
    onAbort();
    return () => {};
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
