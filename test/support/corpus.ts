/**
 * Loading ../shared/corpus (real captures from 29 servers; see its README) for the corpus
 * suites, and the byte-level cutting the streaming suite replays them with.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The corpus folder, with a trailing slash. */
export const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
/** False when the corpus is not checked out next to the project: the suites skip. */
export const corpusPresent = existsSync(`${CORPUS}MANIFEST.json`);

export interface ExpectedError {
  type: string | null;
  code: string | number | null;
  message_substring: string;
}

/** One MANIFEST.json entry (the fields the tests read). */
export interface CorpusEntry {
  file: string;
  provider: string;
  kind: 'json' | 'error' | 'stream';
  endpoint: string;
  capture: string;
  http_status?: number;
  content_type?: string;
  stream_stats?: {
    events: number;
    json_chunks: number;
    done: boolean;
    crlf: boolean;
    event_types: string[];
    empty_finish_reason: boolean;
  };
  expect: {
    text?: string | null;
    reasoning?: string;
    reasoning_details_text?: string;
    refusal?: string;
    finish_reason?: string | null;
    usage?: unknown;
    tool_calls?: { name: string; arguments: string }[];
    choices?: { index: number; text: string; finish_reason: string | null }[];
    models?: string[];
    model?: string;
    error?: ExpectedError;
  };
}

/** The manifest's entries, or none when the corpus is absent. */
export function loadManifest(): CorpusEntry[] {
  if (!corpusPresent) return [];
  return JSON.parse(readFileSync(`${CORPUS}MANIFEST.json`, 'utf8')) as CorpusEntry[];
}

/** A capture's exact bytes (CRLF and all: never read as text). */
export function readCapture(entry: CorpusEntry): Uint8Array {
  return new Uint8Array(readFileSync(CORPUS + entry.file));
}

/** The path of the request the capture answered, without the query. */
export function endpointPath(entry: CorpusEntry): string {
  return (entry.endpoint.split(' ')[1] ?? '').split('?')[0]!;
}

/**
 * Offsets where a cut is most likely to break a decoder that assumes whole units: between
 * `\r` and `\n`, and inside a UTF-8 multibyte sequence (after its lead byte or a continuation
 * byte, before another continuation byte).
 */
export function trickyOffsets(bytes: Uint8Array): number[] {
  const offsets: number[] = [];
  for (let i = 1; i < bytes.length; i++) {
    const crlf = bytes[i - 1] === 0x0d && bytes[i] === 0x0a;
    const insideChar = (bytes[i]! & 0xc0) === 0x80; // a continuation byte never starts a character
    if (crlf || insideChar) offsets.push(i);
  }
  return offsets;
}

/** `bytes` cut at `offsets` (any order, duplicates and out-of-range values ignored). */
export function cutAt(bytes: Uint8Array, offsets: Iterable<number>): Uint8Array[] {
  const points = [...new Set(offsets)].filter((o) => o > 0 && o < bytes.length).sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

/** One piece per byte. */
export function bytewise(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
}

/** A body that hands the reader exactly these pieces, one per read. */
export function bodyOf(pieces: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[i++];
      if (piece === undefined) controller.close();
      else controller.enqueue(piece.slice()); // a copy: a consumer may transfer or detach it
    },
  });
}
