/**
 * Event-stream responses: SSE framing, and a body that sends its pieces paced, then ends, stalls
 * or is cut, and that stops the moment the client leaves.
 *
 * @module
 */
import { encoder } from './outcome';
import type { Outcome } from './outcome';

/** How a stream body is sent. */
export interface SseOptions {
  status?: number;
  /** Keep the given pieces apart (a scripted `raw` array, a replayed recording). */
  split?: boolean;
  /** Pause between pieces, ms; default 0. */
  chunkDelayMs?: number;
  /** Per piece, the pause before it, ms (a replayed recording's timing); overrides `chunkDelayMs`. */
  delays?: readonly number[];
}

/** One server-sent event: objects JSON-stringified, strings as is. */
export function sseEvent(item: unknown): string {
  return `data: ${typeof item === 'string' ? item : JSON.stringify(item)}\n\n`;
}

/**
 * An event-stream response whose body yields `pieces`, `chunkDelayMs` apart,
 * then ends, stalls, or errors (= the connection is cut). The body errors
 * with the client's abort reason when the request's signal aborts, so no
 * timer outlives the client on any transport.
 */
export function sse(
  given: readonly (string | Uint8Array)[],
  after: 'end' | 'stall' | 'reset',
  signal: AbortSignal,
  { status = 200, split = false, chunkDelayMs = 0, delays }: SseOptions = {},
): Outcome {
  // Without pacing, the events go out as one piece, as a fast server's would arrive. It also
  // matters under msw, which tees every mocked body: a tee branch's cancel() settles only once
  // the source has ended, so a client that stops reading early must find the source already
  // read to its end. `split` keeps the pieces of a scripted `raw` array apart.
  const paced = chunkDelayMs > 0 || delays !== undefined;
  const pieces = paced || split || given.length < 2 ? given : [concat(given)];
  const pauseBefore = (index: number): number =>
    delays !== undefined
      ? (delays[index] ?? 0)
      : index > 0 && index < pieces.length
        ? chunkDelayMs
        : 0;
  let next = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  let onAbort: (() => void) | undefined;
  const stop = (): void => {
    clearTimeout(timer);
    wake?.();
    // A client's signal may serve many requests: leave no listener behind on it.
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onAbort = () => {
          stop();
          try {
            controller.error(signal.reason);
          } catch {
            // already closed or errored
          }
        };
        signal.addEventListener('abort', onAbort, { once: true });
      },
      async pull(controller) {
        const wait = pauseBefore(next);
        if (wait > 0) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, wait);
          });
          if (signal.aborted) return;
        }
        const piece = pieces[next++];
        if (piece !== undefined) {
          controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
          return;
        }
        if (after === 'end') {
          controller.close();
          stop();
        } else if (after === 'reset') {
          // A moment first: erroring a stream drops chunks still queued, and a tee (msw tees mocked
          // bodies) may pull the source on behalf of the other branch before the client has read.
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, 5);
          });
          // undici's own message for a body cut by the peer: clients see what a real cut gives.
          if (!signal.aborted) controller.error(new TypeError('terminated'));
          stop();
        }
        // 'stall': enqueue nothing, ever; the client's abort or idle timeout ends it.
      },
      cancel: stop,
    },
    // Pull only when a reader asks: a cut ('reset') must not come before the reader has taken
    // the pieces sent ahead of it, since erroring a stream drops what is still queued.
    { highWaterMark: 0 },
  );
  return {
    kind: 'response',
    response: new Response(body, {
      status,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    }),
    streamed: true,
  };
}

/** Joins pieces into one byte array. */
export function concat(pieces: readonly (string | Uint8Array)[]): Uint8Array {
  const parts = pieces.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
