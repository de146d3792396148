/**
 * A recorded response sent again: the bytes as recorded, the headers as recorded, a stream event
 * by event (at the recorded pace when asked), a cut where the upstream cut. The replayer serves
 * cassettes with it, and the recorder answers its client with it, so that what a test sees while
 * recording is what it sees in replay.
 *
 * @module
 */
import { bodyPieces } from './cassette-body';
import type { CassetteResponse } from './cassette';
import { concat, sse } from './engine/sse';
import type { Backend, Outcome } from './engine';

/** Record or replay, as the server runs it: a backend, opened before the first request and closed after the last. */
export interface CassetteMode {
  backend: Backend;
  /** Reads the cassette (replay) or writes its first, empty version (record). */
  open(): Promise<void>;
  /** Writes the cassette's last version (record). */
  close(): Promise<void>;
}

/** How a recorded response is sent. */
export interface PlaybackOptions {
  /** Pause before each event as recorded (`delays`); else `chunkDelayMs` apart. */
  timing: boolean;
  chunkDelayMs: number;
}

/** The outcome that sends `response` again, byte for byte. */
export function playback(
  response: CassetteResponse,
  signal: AbortSignal,
  options: PlaybackOptions,
): Outcome {
  const pieces = bodyPieces(response);
  const headers = new Headers(response.headers);
  if (response.events === undefined && response.cut !== true) {
    const body = pieces.length === 0 ? null : (concat(pieces) as Uint8Array<ArrayBuffer>);
    return {
      kind: 'response',
      response: new Response(body, { status: response.status, headers }),
      streamed: false,
    };
  }
  const delays = options.timing ? response.delays : undefined;
  const outcome = sse(pieces, response.cut === true ? 'reset' : 'end', signal, {
    status: response.status,
    chunkDelayMs: options.chunkDelayMs,
    ...(delays === undefined ? {} : { delays }),
  });
  if (outcome.kind === 'response') {
    // Exactly the recorded headers: none of a generated stream's defaults.
    for (const name of [...outcome.response.headers.keys()])
      if (!headers.has(name)) outcome.response.headers.delete(name);
    headers.forEach((value, name) => outcome.response.headers.set(name, value));
  }
  return outcome;
}
