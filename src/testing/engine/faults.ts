/**
 * Faults injected into a generated response (`fault` of a scripted reply): the JSON form and the
 * stream form of each kind (see `MockFault`).
 *
 * @module
 */
import type { MockFault } from '../scripted';
import { jsonResponse, respondWith, textResponse } from './outcome';
import type { Outcome } from './outcome';
import { sse, sseEvent } from './sse';

/** A JSON completion, or the non-streaming form of a fault (see MockFault). */
export function jsonFault(fault: MockFault | undefined, value: Record<string, unknown>): Outcome {
  switch (fault?.kind) {
    case undefined:
      return respondWith(jsonResponse(200, value));
    case 'reset':
      return { kind: 'reset' };
    case 'stall':
      return { kind: 'stall' };
    case 'malformed': {
      const text = JSON.stringify(value);
      return respondWith(
        textResponse(200, text.slice(0, Math.floor(text.length / 2)), 'application/json'),
      );
    }
    case 'error':
      return respondWith(jsonResponse(200, { error: inBandError(fault) }));
  }
}

/** Frames events as SSE, applying a fault after `fault.after` events. */
export function streamWithFault(
  events: unknown[],
  fault: MockFault | undefined,
  signal: AbortSignal,
  chunkDelayMs: number,
): Outcome {
  const options = { chunkDelayMs };
  if (fault === undefined)
    return sse([...events.map(sseEvent), sseEvent('[DONE]')], 'end', signal, options);
  const after = Math.max(0, Math.min(fault.after ?? 1, events.length));
  const before = events.slice(0, after).map(sseEvent);
  switch (fault.kind) {
    case 'reset':
    case 'stall':
      return sse(before, fault.kind, signal, options);
    case 'malformed': {
      const next = events[after];
      // The next event's JSON cut in half; a bare `{` when there is none left.
      const json = next === undefined ? '{' : JSON.stringify(next);
      const broken = `data: ${json.slice(0, Math.max(1, Math.floor(json.length / 2)))}\n\n`;
      return sse(
        [...before, broken, ...events.slice(after + 1).map(sseEvent), sseEvent('[DONE]')],
        'end',
        signal,
        options,
      );
    }
    case 'error':
      return sse(
        [...before, sseEvent({ error: inBandError(fault) }), sseEvent('[DONE]')],
        'end',
        signal,
        options,
      );
  }
}

function inBandError(fault: MockFault): Record<string, unknown> {
  return (
    fault.error ?? {
      message: 'The model failed while generating.',
      type: 'server_error',
      code: 'server_error',
    }
  );
}
