/**
 * The types of an iterator that tells an observer what it hands over: what a stream's source is
 * (stream/events.ts), what `ChatCompletionStream` accumulates from, and what the hooks follow.
 * Types only, on the lowest floor (outside stream/), so that options/hooks.ts can name them without depending on the stream.
 */

/**
 * Told of every item a stream hands over and of how it ended (`ChatCompletionStream`'s
 * accumulation and listeners use one). `item()` and `end()` throw when a listener threw: the
 * stream then ends with that error (the request aborted), which `end()` is told of in turn.
 * @internal
 */
export interface StreamObserver<T> {
  item(value: T): void;
  /** The stream ended: normally, or with `error`. Throws the error the stream ends with instead, if a listener threw. */
  end(error?: unknown): void;
  /** The caller left before the end (`break`, `return()`, `cancel()`). */
  closed(): void;
}

/** An iterator that reports to an observer itself, without a wrapper around it. @internal */
export interface ObservableIterator<T> extends AsyncIterator<T> {
  observe?(observer: StreamObserver<T>): void;
}
