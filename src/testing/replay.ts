/**
 * Replaying (`startMockServer({ replay })`): every request the mock does not answer itself is
 * answered from a cassette, matched by method, path (with the query) and body. A request that was
 * never recorded gets an error that names the cassette and what differs, never a made-up reply.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { requestBody } from './cassette-body';
import { parseCassette } from './cassette-check';
import type { Cassette, CassetteRequest } from './cassette';
import type { Exchange, Outcome } from './engine';
import { jsonResponse, respondWith } from './engine/outcome';
import { playback } from './playback';
import type { CassetteMode } from './playback';
import { maskCredentialQuery } from './redact';

/**
 * What to replay: a cassette file, and whether to keep its recorded pace.
 *
 * @example
 * ```ts
 * import { startMockServer, type ReplayOptions } from 'model-inference-sdk/testing';
 *
 * const replay: ReplayOptions = { cassette: 'test/cassettes/summarize.json', timing: true };
 * const server = await startMockServer({ replay }); // or { replay: 'test/cassettes/summarize.json' }
 * ```
 */
export interface ReplayOptions {
  /** The cassette file, as `startMockServer({ record })` wrote it. */
  cassette: string;
  /**
   * Send each stream event after its recorded pause (a cassette recorded with `timing: true`);
   * default false: a stream arrives at once (or `chunkDelayMs` apart).
   */
  timing?: boolean;
}

/** The replayer of one server. Checks the options now; reads the file in `open()`. */
export function createReplayer(replay: string | ReplayOptions, chunkDelayMs: number): CassetteMode {
  const options = typeof replay === 'string' ? { cassette: replay } : replay;
  if (
    typeof options !== 'object' ||
    options === null ||
    typeof options.cassette !== 'string' ||
    options.cassette === ''
  ) {
    throw new TypeError(
      "model-inference-sdk/testing: replay must be the cassette's path, or { cassette, timing }.",
    );
  }
  const file = options.cassette;
  const timing = options.timing === true;
  let cassette: Cassette = { version: 1, upstream: '', interactions: [] };
  const used = new Set<number>();

  function answer({ request, signal, path, search, body }: Exchange): Promise<Outcome> {
    // Credential-looking query values are `***` in a cassette (record.ts): compared that way.
    const sent = {
      method: request.method,
      path: maskCredentialQuery(`${path}${search}`),
      headers: {},
      ...requestBody(body.text),
    };
    const same = cassette.interactions.flatMap((interaction, index) =>
      sameRequest(interaction.request, sent) ? [index] : [],
    );
    // In the recorded order; a request repeated more often than recorded gets the last answer again.
    const index = same.find((i) => !used.has(i)) ?? same.at(-1);
    if (index === undefined) return Promise.resolve(notRecorded(cassette, file, sent));
    used.add(index);
    try {
      return Promise.resolve(
        playback(cassette.interactions[index]!.response, signal, { timing, chunkDelayMs }),
      );
    } catch (error) {
      // The entries are checked when the cassette is read; should one still not play, say which.
      const message = `The cassette ${file} has an entry that cannot be replayed, interactions[${index}] (${sent.method} ${sent.path}): ${(error as Error).message}. Fix the entry, or record the cassette again.`;
      const response = jsonResponse(500, {
        error: { message, type: 'server_error', code: 'broken_cassette' },
      });
      response.headers.set('x-should-retry', 'false');
      return Promise.resolve(respondWith(response));
    }
  }

  return {
    backend: answer,
    async open() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        const why =
          (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? 'there is no such file'
            : (error as Error).message;
        throw new Error(
          `model-inference-sdk/testing: cannot replay the cassette ${file}: ${why}. Record it first with startMockServer({ record: { upstream, apiKey, cassette: '${file}' } }) (or model-inference-sdk mock-server --record <url> --cassette ${file}).`,
          { cause: error },
        );
      }
      cassette = parseCassette(text, file);
      const streams = cassette.interactions.filter((i) => i.response.events !== undefined);
      if (timing && streams.length > 0 && streams.every((i) => i.response.delays === undefined)) {
        throw new TypeError(
          `model-inference-sdk/testing: the cassette ${file} was recorded without timing, so it cannot be replayed with timing: true. Record it again with record: { …, timing: true }.`,
        );
      }
    },
    async close() {},
  };
}

function sameRequest(recorded: CassetteRequest, sent: CassetteRequest): boolean {
  if (recorded.method !== sent.method || maskCredentialQuery(recorded.path) !== sent.path)
    return false;
  if ('body' in recorded || 'body' in sent)
    return (
      'body' in recorded && 'body' in sent && difference(recorded.body, sent.body) === undefined
    );
  return (recorded.text ?? '') === (sent.text ?? '');
}

/** The 404 for a request the cassette does not hold: which cassette, what it holds, what differs. */
function notRecorded(cassette: Cassette, file: string, sent: CassetteRequest): Outcome {
  const near = cassette.interactions.filter(
    (i) => i.request.method === sent.method && maskCredentialQuery(i.request.path) === sent.path,
  );
  let why: string;
  if (near.length > 0) {
    const first = near[0]!.request;
    const where =
      'body' in first && 'body' in sent
        ? difference(first.body, sent.body, 'body')
        : `the body: recorded ${describe(first.body ?? first.text ?? '')}, sent ${describe(sent.body ?? sent.text ?? '')}`;
    why = `${near.length} recorded with another body; the first differs at ${where}`;
  } else {
    const held = new Map<string, number>();
    for (const { request } of cassette.interactions) {
      const key = `${request.method} /v1${request.path}`;
      held.set(key, (held.get(key) ?? 0) + 1);
    }
    const list = [...held].slice(0, 8).map(([key, n]) => (n > 1 ? `${key} (×${n})` : key));
    why =
      list.length === 0
        ? 'the cassette holds no interaction'
        : `it holds ${list.join(', ')}${held.size > 8 ? ', …' : ''}`;
  }
  const message = `No recorded interaction in the cassette ${file} matches ${sent.method} /v1${sent.path}: ${why}. If the request changed on purpose, record the cassette again.`;
  const response = jsonResponse(404, {
    error: { message, type: 'invalid_request_error', code: 'not_recorded' },
  });
  response.headers.set('x-should-retry', 'false'); // no client should try again: the answer cannot change
  return respondWith(response);
}

/**
 * Where two JSON values first differ (`body.messages[0].content: recorded "Hi", sent "Hello"`),
 * or `undefined` when they are equal. Object keys compare as sets: their order does not matter.
 */
function difference(recorded: unknown, sent: unknown, at = ''): string | undefined {
  const differs = (): string =>
    `${at || 'the value'}: recorded ${describe(recorded)}, sent ${describe(sent)}`;
  if (Array.isArray(recorded) || Array.isArray(sent)) {
    if (!Array.isArray(recorded) || !Array.isArray(sent)) return differs();
    for (let i = 0; i < Math.max(recorded.length, sent.length); i++) {
      if (i >= recorded.length || i >= sent.length)
        return `${at}[${i}]: recorded ${i < recorded.length ? describe(recorded[i]) : 'nothing'}, sent ${i < sent.length ? describe(sent[i]) : 'nothing'}`;
      const inner = difference(recorded[i], sent[i], `${at}[${i}]`);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  if (isObject(recorded) && isObject(sent)) {
    for (const key of new Set([...Object.keys(recorded), ...Object.keys(sent)])) {
      const path = `${at}.${key}`;
      if (!(key in recorded) || !(key in sent))
        return `${path}: recorded ${key in recorded ? describe(recorded[key]) : 'nothing'}, sent ${key in sent ? describe(sent[key]) : 'nothing'}`;
      const inner = difference(recorded[key], sent[key], path);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  return Object.is(recorded, sent) ? undefined : differs();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value in a message: its JSON, shortened. */
function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
