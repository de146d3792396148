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
 * Here: the proxy, a stream passed on as it comes, and the file written. The options checked:
 * `record-options.ts`; the headers sent upstream and kept: `record-headers.ts`; the masking:
 * `redact.ts`.
 *
 * @module
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { maskText } from '../util/mask';
import { cassetteText } from './cassette';
import { requestBody, responseBody } from './cassette-body';
import type { CassetteInteraction, CassetteResponse } from './cassette';
import type { Exchange, Outcome } from './engine';
import { errorResponse, respondWith } from './engine/outcome';
import { playback } from './playback';
import type { CassetteMode } from './playback';
import {
  bytePatterns,
  createByteMasker,
  escapedSecret,
  maskBytes,
  maskCredentialQuery,
  maskSplitSecrets,
  scrub,
  secretForms,
} from './redact';
import { credentialValues, forwarded, kept } from './record-headers';
import { checkOptions, type RecordOptions } from './record-options';

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
