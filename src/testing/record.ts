/**
 * Recording (`startMockServer({ record })`): every request the mock does not answer itself goes to
 * a real server, and what it answers is written to a cassette file and sent back to the client.
 *
 * What never reaches the file: the upstream key and every credential header, as the SDK's masking
 * rule (`isCredentialName` in src/mask.ts) decides; any other occurrence of a credential (a server
 * echoing the key in an error, in any encoding; a model streaming it back in pieces; a key in the
 * upstream URL's query) is replaced by `***` (`redact.ts`). The recording client gets the answer
 * masked the same way, a stream as it comes.
 *
 * @module
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseJSON } from '../util/json';
import { isCredentialName, isCredentialParam, maskText, MASK } from '../util/mask';
import { cassetteText, requestBody, responseBody } from './cassette';
import type { CassetteInteraction, CassetteResponse } from './cassette';
import type { Exchange, Outcome } from './engine';
import { errorResponse, respondWith } from './engine/outcome';
import { playback } from './playback';
import type { CassetteMode } from './playback';
import {
  bytePatterns,
  createByteMasker,
  maskBytes,
  maskCredentialQuery,
  maskSplitSecrets,
  secretForms,
} from './redact';

/**
 * What to record: the real server, its key, and the file to write.
 *
 * @example
 * ```ts
 * import { startMockServer, type RecordOptions } from 'model-inference-sdk/testing';
 *
 * const record: RecordOptions = {
 *   upstream: 'https://api.example.com/v1',
 *   apiKey: process.env['INFERENCE_API_KEY'] ?? '',
 *   cassette: 'test/cassettes/summarize.json',
 * };
 * const server = await startMockServer({ record });
 * ```
 */
export interface RecordOptions {
  /** The real server's base URL, as a client's `baseURL` (ending in `/v1`). */
  upstream: string;
  /** Sent to the upstream as `Authorization: Bearer <apiKey>` (the client's own key is for the mock). Never written. Leave it out for a server without auth. */
  apiKey?: string;
  /** The cassette file to write (created, or replaced), with its folders. Written after every answer, and when the server closes. */
  cassette: string;
  /** Also keep when each stream event came (`delays`), so that a replay with `timing: true` keeps the pace; default false. */
  timing?: boolean;
}

/** Per-connection headers, and what the proxy's own fetch sets again. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'content-encoding',
]);
/** How long `close()` lets answers still coming (a stream the client left early) finish. */
const CLOSE_GRACE_MS = 5_000;

/** The recorder of one server. Checks the options now; touches the file in `open()`. */
export function createRecorder(options: RecordOptions, chunkDelayMs: number): CassetteMode {
  const { upstream, file, secrets } = checkOptions(options);
  const stop = new AbortController();
  /** One per request in arrival order: the interaction, `undefined` while it runs, `null` when not recorded. */
  const slots: (CassetteInteraction | null | undefined)[] = [];
  const running = new Set<Promise<void>>();
  let writing: Promise<void> = Promise.resolve();
  let writeError: Error | undefined;

  const save = (): Promise<void> => {
    const text = cassetteText({
      version: 1,
      upstream: upstream.shown,
      interactions: slots.filter((s) => s != null),
    });
    writing = writing
      .then(async () => {
        await mkdir(dirname(file), { recursive: true });
        const temporary = `${file}.${process.pid}.tmp`;
        await writeFile(temporary, text);
        await rename(temporary, file); // never a half-written cassette
      })
      .catch((error: unknown) => {
        writeError ??= new Error(
          `model-inference-sdk/testing: cannot write the cassette ${file}: ${(error as Error).message}`,
          { cause: error },
        );
      });
    return writing;
  };

  async function proxy({ request, signal, path, search, body }: Exchange): Promise<Outcome> {
    const slot = slots.push(undefined) - 1;
    const sent = forwarded(request.headers, options.apiKey);
    const masking = [...secrets, ...credentialValues(sent)];
    // Every form of every secret: as text (headers, JSON) and as bytes (a body in any encoding).
    const forms = secretForms(masking);
    const patterns = bytePatterns(masking);
    const shownPath = maskCredentialQuery(`${path}${search}`);
    let response: Response;
    try {
      response = await fetch(upstream.target(path, search), {
        method: request.method,
        headers: sent,
        redirect: 'manual', // a redirect is the upstream's answer, recorded as it is
        signal: stop.signal,
        ...(body.text === '' ? {} : { body: body.text }),
      });
    } catch (error) {
      slots[slot] = null;
      const why = maskText(String((error as Error).cause ?? error), forms);
      const message = `Recording: the upstream ${upstream.shown} did not answer ${request.method} ${shownPath} (${why}); nothing was recorded for this request.`;
      return respondWith(errorResponse(502, message, 'upstream_error'));
    }

    const headers = kept(response.headers);
    const eventStream = /^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
    const finish = (
      bytes: Uint8Array,
      arrivals: Arrival[],
      cut: boolean,
    ): CassetteInteraction | null => {
      // A cut of our own making (close() gave up waiting) is no answer of the upstream's.
      if (cut && stop.signal.aborted) return (slots[slot] = null);
      const stored: CassetteResponse = {
        status: response.status,
        headers,
        ...responseBody(
          maskBytes(bytes, patterns),
          eventStream,
          options.timing === true ? arrivals : undefined,
        ),
      };
      if (stored.events !== undefined) stored.events = maskSplitSecrets(stored.events, masking);
      const unmasked = stored.text === undefined ? undefined : escapedSecret(stored.text, forms);
      if (unmasked !== undefined) {
        delete stored.text;
        stored.body = unmasked.body;
      }
      if (cut) stored.cut = true;
      const interaction = scrub<CassetteInteraction>(
        {
          request: {
            method: request.method,
            path: shownPath,
            headers: kept(request.headers),
            ...requestBody(body.text),
          },
          response: stored,
        },
        forms,
      );
      slots[slot] = interaction;
      void save();
      return interaction;
    };
    const track = (work: Promise<unknown>): void => {
      const settled = work.then(
        () => {},
        () => {},
      ); // its failure is the request's, answered there
      running.add(settled);
      void settled.then(() => running.delete(settled));
    };

    if (!eventStream || response.body === null) {
      // Read whole, then answered from what was recorded: the client sees what a replay will show.
      const reading = readAll(response.body, () => {}).then(({ bytes, arrivals, cut }) =>
        finish(bytes, arrivals, cut),
      );
      track(reading);
      const interaction = await reading;
      if (interaction === null) return { kind: 'reset' };
      return playback(interaction.response, signal, { timing: false, chunkDelayMs });
    }

    // A stream goes to the client as it comes (a key in it masked, holding back only what could be
    // its start). If the client leaves early, the rest is still read and recorded: a replay of the
    // same test leaves at the same point.
    const masker = createByteMasker(patterns);
    let client: ReadableStreamDefaultController<Uint8Array> | undefined;
    let clientGone = false;
    const leave = (): void => {
      clientGone = true;
      try {
        client?.error(signal.reason);
      } catch {
        // already closed
      }
    };
    const live = new ReadableStream<Uint8Array>({
      start: (controller) => void (client = controller),
      cancel: () => void (clientGone = true),
    });
    if (signal.aborted)
      clientGone = true; // gone before the upstream answered
    else signal.addEventListener('abort', leave, { once: true });
    track(
      readAll(response.body, (chunk) => {
        const shown = masker.push(chunk);
        if (!clientGone && shown.length > 0) client?.enqueue(shown);
      }).then(({ bytes, arrivals, cut }) => {
        signal.removeEventListener('abort', leave);
        const rest = masker.end();
        if (!clientGone && rest.length > 0) client?.enqueue(rest);
        if (!clientGone) {
          // undici's own message for a body cut by the peer: the transport cuts the connection.
          if (cut) client?.error(new TypeError('terminated'));
          else client?.close();
        }
        finish(bytes, arrivals, cut);
      }),
    );
    return {
      kind: 'response',
      response: new Response(live, { status: response.status, headers }),
      streamed: true,
    };
  }

  return {
    backend: proxy,
    async open() {
      await save();
      if (writeError !== undefined) throw writeError;
    },
    async close() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)));
      await Promise.race([Promise.all(running), grace]);
      clearTimeout(timer);
      stop.abort();
      await Promise.all(running);
      await save();
      if (writeError !== undefined) throw writeError;
    },
  };
}

interface Arrival {
  /** Where the chunk ends in the body. */
  end: number;
  /** When it came, ms after the headers. */
  at: number;
}

/** Reads a body to its end, handing on each chunk; `cut` when it broke off. */
async function readAll(
  body: ReadableStream<Uint8Array> | null,
  onChunk: (chunk: Uint8Array) => void,
): Promise<{ bytes: Uint8Array; arrivals: Arrival[]; cut: boolean }> {
  const chunks: Uint8Array[] = [];
  const arrivals: Arrival[] = [];
  const started = performance.now();
  let size = 0;
  let cut = false;
  if (body !== null) {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        size += value.byteLength;
        arrivals.push({ end: size, at: performance.now() - started });
        onChunk(value);
      }
    } catch {
      cut = true;
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, arrivals, cut };
}

/** The options checked, the upstream as it is called and as it is shown, and the secrets to mask. */
function checkOptions(options: RecordOptions) {
  const fail = (why: string): never => {
    throw new TypeError(`model-inference-sdk/testing: record.${why}`);
  };
  if (typeof options !== 'object' || options === null)
    fail('options must be an object: { upstream, apiKey, cassette }.');
  if (typeof options.cassette !== 'string' || options.cassette === '')
    fail('cassette must be the path of the file to write.');
  if (options.apiKey !== undefined && typeof options.apiKey !== 'string')
    fail('apiKey must be a string.');
  let url: URL | undefined;
  try {
    url = new URL(options.upstream);
  } catch {
    // reported below
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return fail(
      `upstream must be an absolute http(s) URL such as https://api.example.com/v1, got ${JSON.stringify(options.upstream)}.`,
    );

  const secrets = [options.apiKey ?? ''];
  const shown = new URL(url.href);
  if (url.username !== '' || url.password !== '')
    secrets.push(decodeURIComponent(url.username), decodeURIComponent(url.password));
  shown.username = '';
  shown.password = '';
  for (const [name, value] of url.searchParams) {
    if (!isCredentialParam(name)) continue;
    secrets.push(value);
    shown.searchParams.set(name, MASK);
  }
  const base = url.pathname.replace(/\/+$/, '');
  return {
    file: options.cassette,
    secrets: secrets.filter((s) => s !== ''),
    upstream: {
      // A gateway that takes its key in the path (`https://gateway.example/<key>/v1`): masked too.
      shown: maskText(shown.href, secretForms(secrets)).replace(/\/+$/, ''),
      /** The upstream URL of a request: its path under the upstream's, the upstream's query and then the request's. */
      target(path: string, search: string): string {
        const target = new URL(url.href);
        target.pathname = `${base}${path}`;
        for (const [name, value] of new URLSearchParams(search))
          target.searchParams.append(name, value);
        return target.href;
      },
    },
  };
}

/** The client's headers as sent upstream: per-connection ones dropped, the upstream key instead of the mock's. */
function forwarded(headers: Headers, apiKey: string | undefined): Headers {
  const out = new Headers();
  headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && name !== 'authorization') out.set(name, value);
  });
  if (apiKey !== undefined && apiKey !== '') out.set('authorization', `Bearer ${apiKey}`);
  return out;
}

/** Headers as a cassette keeps them: no credential, nothing per-connection, no credential in a URL's query (a redirect's `location`). */
function kept(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && !isCredentialName(name))
      out[name] =
        name === 'location' || name === 'content-location' ? maskCredentialQuery(value) : value;
  });
  return out;
}

/**
 * A JSON text that holds a secret only in JSON's own escapes (`sk\u002d…`, which every reader
 * turns back into the key, while the bytes hold no copy of it): its value masked, to be stored as
 * the `body`; `undefined` for any other text, stored as it is.
 */
function escapedSecret(text: string, forms: readonly string[]): { body: unknown } | undefined {
  const parsed = parseJSON(text);
  if (!parsed) return undefined;
  const body = scrub(parsed.value, forms);
  return JSON.stringify(body) === JSON.stringify(parsed.value) ? undefined : { body };
}

/**
 * Every string of a JSON value (keys too) with the secrets replaced by `***`, by the SDK's own
 * `maskText`. Unlike `mask()`, which leaves identifier fields (`code`, `type`, …) alone in errors,
 * nothing here is exempt: a file may hold no secret anywhere.
 */
function scrub<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return maskText(value, secrets) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrub(item, secrets)) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [maskText(key, secrets), scrub(item, secrets)]),
  ) as T;
}

/** The values of the credential headers sent upstream (and the token of `Bearer <token>`), to mask wherever they occur. */
function credentialValues(headers: Headers): string[] {
  const values: string[] = [];
  headers.forEach((value, name) => {
    if (!isCredentialName(name)) return;
    values.push(value);
    const token = /^\w+\s+(\S+)$/.exec(value)?.[1];
    if (token !== undefined) values.push(token);
  });
  return values;
}
