/**
 * Loading ../shared/corpus and ../shared/corpus2 (real captures from 39 servers; see their
 * READMEs) for the corpus suites; the SDK's reading of each capture's `expect`; and the
 * byte-level cutting the streaming suite replays them with.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The corpus folders, each with a trailing slash. */
export const CORPORA = ['corpus', 'corpus2'].map((name) => ({
  name,
  dir: fileURLToPath(new URL(`../../../shared/${name}/`, import.meta.url)),
}));
/** The first corpus folder (kept for the suites that name it in messages). */
export const CORPUS = CORPORA[0]!.dir;
/** False when a corpus is not checked out next to the project: the suites skip (test/support/global-setup.ts says so, once). */
export const corpusPresent = CORPORA.every((c) => existsSync(`${c.dir}MANIFEST.json`));

export interface ExpectedError {
  type: string | null;
  code: string | number | null;
  message_substring: string;
}

/** One MANIFEST.json entry (the fields the tests read), with the corpus it came from. */
export interface CorpusEntry {
  /** `corpus/openai/x.json`: the corpus folder and the file, unique across both corpora. */
  id: string;
  /** The file inside its corpus. */
  file: string;
  /** The absolute path of the capture. */
  path: string;
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

/** Every entry of both manifests, or none when a corpus is absent. */
export function loadManifest(): CorpusEntry[] {
  if (!corpusPresent) return [];
  return CORPORA.flatMap(({ name, dir }) =>
    (JSON.parse(readFileSync(`${dir}MANIFEST.json`, 'utf8')) as Omit<CorpusEntry, 'id' | 'path'>[]).map((entry) => ({
      ...entry,
      id: `${name}/${entry.file}`,
      path: dir + entry.file,
    })),
  );
}

/** A capture's exact bytes (CRLF and all: never read as text). */
export function readCapture(entry: CorpusEntry): Uint8Array {
  return new Uint8Array(readFileSync(entry.path));
}

/** The path of the request the capture answered, without the query. */
export function endpointPath(entry: CorpusEntry): string {
  return (entry.endpoint.split(' ')[1] ?? '').split('?')[0]!;
}

/** True for captures of the legacy `/completions` endpoint. */
export function isLegacy(entry: CorpusEntry): boolean {
  const path = endpointPath(entry);
  return /(^|\/)completions$/.test(path) && !/chat\/completions$/.test(path);
}

// ---------------------------------------------------------------------------------------------
// The SDK's reading of `expect`
//
// `expect` is one reasonable reading of each capture (corpus/README.md), made before the SDK
// normalized responses. Where the SDK's documented reading (docs/normalization.md) differs, the
// functions below turn `expect` into it, each rule saying why; the suites then assert the SDK's
// reading exactly.

/** `FinishReason`'s synonyms (spec/openapi.yaml): `""` says nothing, `eos` is `stop`, … */
const FINISH_SYNONYMS: Record<string, string | null> = {
  '': null,
  eos: 'stop',
  eos_token: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  model_length: 'length',
  max_tokens: 'length',
  tool_use: 'tool_calls',
};

/** The finish reason the SDK returns for the one a capture sent. */
export function finishReason(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  return Object.hasOwn(FINISH_SYNONYMS, value) ? FINISH_SYNONYMS[value]! : value;
}

/** The documented counts of each usage breakdown (spec/openapi.yaml). */
const DETAILS: Record<string, string[]> = {
  prompt_tokens_details: ['cached_tokens', 'audio_tokens'],
  completion_tokens_details: ['reasoning_tokens', 'audio_tokens', 'accepted_prediction_tokens', 'rejected_prediction_tokens'],
};

/**
 * Usage as the SDK returns it: the capture's object whole, extras kept, but a `null`
 * `prompt_tokens_details` / `completion_tokens_details` (and a `null` documented count inside one)
 * read as absent.
 */
export function usage(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const out = { ...(value as Record<string, unknown>) };
  for (const [key, counts] of Object.entries(DETAILS)) {
    const details = out[key];
    if (details === null) delete out[key];
    else if (typeof details === 'object') {
      out[key] = Object.fromEntries(Object.entries(details as Record<string, unknown>).filter(([k, v]) => v !== null || !counts.includes(k)));
    }
  }
  return out;
}

/**
 * Tool calls as the SDK returns them: arguments a server left out (or sent as `""`) are `"{}"`,
 * which is what a call without arguments means (the MANIFEST writes the missing key as `""`).
 */
export function toolCalls(calls: { name: string; arguments: string }[] | undefined): { name: string; arguments: string }[] | undefined {
  return calls?.map((c) => ({ name: c.name, arguments: c.arguments === '' ? '{}' : c.arguments }));
}

/**
 * Reasoning as the SDK returns it: one field for every server. Where the server sent only
 * OpenRouter's `reasoning_details`, their text is the reasoning (the MANIFEST keeps it apart as
 * `reasoning_details_text`).
 */
export function reasoning(want: CorpusEntry['expect']): string | undefined {
  return want.reasoning ?? want.reasoning_details_text;
}

/** A refusal as the SDK returns it: `""` is no refusal. */
export function refusal(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

// ---------------------------------------------------------------------------------------------
// Cutting bytes

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
