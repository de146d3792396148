/**
 * A cassette's bodies: a request's or a response's bytes as a cassette keeps them (JSON when a
 * layout reproduces the bytes exactly, else text or base64; an event stream event by event, with
 * its delays), and the bytes a stored response stands for, to send back.
 *
 * Web-standard only (TextEncoder/TextDecoder, btoa/atob).
 *
 * @module
 */
import { parseJSON } from '../util/json';
import type { CassetteRequest, CassetteResponse } from './cassette';

type Layout = NonNullable<CassetteResponse['layout']>;

/** The JSON layouts tried, compact first: one of them reproduces most servers' bodies exactly. */
export const LAYOUTS: readonly [Layout | undefined, (value: unknown) => string][] = [
  [undefined, (v) => JSON.stringify(v)],
  ['newline', (v) => `${JSON.stringify(v)}\n`],
  ['indent', (v) => JSON.stringify(v, null, 2)],
  ['indent+newline', (v) => `${JSON.stringify(v, null, 2)}\n`],
];

const LF = 10;
const CR = 13;

/** A request body as a cassette keeps it. */
export function requestBody(text: string): Pick<CassetteRequest, 'body' | 'text'> {
  if (text === '') return {};
  const parsed = parseJSON(text);
  return parsed ? { body: parsed.value } : { text };
}

/**
 * A response body as a cassette keeps it, from its bytes: an event stream split into events
 * (with their delays when `arrivals` are given), JSON when a layout reproduces it, else text or
 * base64.
 *
 * @param arrivals For timing: per network chunk, its end offset in `bytes` and when it came (ms after the headers).
 */
export function responseBody(
  bytes: Uint8Array,
  eventStream: boolean,
  arrivals?: readonly { end: number; at: number }[],
): Pick<CassetteResponse, 'body' | 'layout' | 'text' | 'base64' | 'events' | 'delays'> {
  if (bytes.byteLength === 0) return eventStream ? { events: [] } : {};
  const text = utf8(bytes);
  if (text === undefined) return { base64: toBase64(bytes) };
  if (eventStream) {
    const ends = eventEnds(bytes);
    const decoder = new TextDecoder();
    const events = ends.map((end, i) => decoder.decode(bytes.subarray(ends[i - 1] ?? 0, end)));
    if (arrivals === undefined) return { events };
    const times = ends.map(
      (end) => arrivals.find((a) => a.end >= end)?.at ?? arrivals.at(-1)?.at ?? 0,
    );
    return {
      events,
      delays: times.map((t, i) => Math.max(0, Math.round(t - (times[i - 1] ?? 0)))),
    };
  }
  const parsed = parseJSON(text);
  if (!parsed) return { text };
  const value = parsed.value;
  for (const [layout, render] of LAYOUTS) {
    if (render(value) === text)
      return layout === undefined ? { body: value } : { body: value, layout };
  }
  return { text };
}

/** The bytes a recorded response's body stands for, split as it was recorded (one piece per event). */
export function bodyPieces(response: CassetteResponse): Uint8Array[] {
  const encoder = new TextEncoder();
  if (response.events !== undefined) return response.events.map((e) => encoder.encode(e));
  if (response.base64 !== undefined) return [fromBase64(response.base64)];
  if (response.text !== undefined) return [encoder.encode(response.text)];
  if ('body' in response) {
    const render = LAYOUTS.find(([layout]) => layout === response.layout)?.[1] ?? LAYOUTS[0]![1];
    return [encoder.encode(render(response.body))];
  }
  return [];
}

/**
 * Where each event of a stream ends: after a blank line, whichever of CRLF, LF or CR ends the
 * lines (the SSE rules). A last event without its blank line ends where the bytes end.
 */
function eventEnds(bytes: Uint8Array): number[] {
  const ends: number[] = [];
  let lineStart = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte !== LF && byte !== CR) continue;
    const contentEnd = i;
    if (byte === CR && bytes[i + 1] === LF) i++;
    if (contentEnd === lineStart) ends.push(i + 1); // an empty line: the event is complete
    lineStart = i + 1;
  }
  if ((ends.at(-1) ?? 0) < bytes.length) ends.push(bytes.length);
  return ends;
}

/** The text of UTF-8 bytes, or `undefined` when they are not UTF-8. */
function utf8(bytes: Uint8Array): string | undefined {
  try {
    // ignoreBOM: a byte-order mark is kept as a character, so encoding the text gives the bytes back.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
