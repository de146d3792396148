/**
 * The socket transport of the mock: a real HTTP server (node:http) that
 * carries the core's outcomes (`engine/`) over TCP.
 *
 * It is a real socket server rather than a fetch interceptor so that the
 * whole client stack (fetch, keep-alive, aborts, resets, partial streams) is
 * exercised exactly as against the hosted service, and so that any client,
 * in any language, can be pointed at it.
 *
 * Everything lives in the object returned by {@link startMockServer}: no
 * module state, so parallel tests can each run their own server.
 *
 * @module
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createEngine } from './engine';
import type { Outcome } from './engine';
import type { CassetteMode } from './playback';
import { createRecorder } from './record';
import type { RecordOptions } from './record-options';
import { createReplayer } from './replay';
import type { ReplayOptions } from './replay';
import type { MockControls, MockServiceOptions } from './scripted';

/**
 * Options of {@link startMockServer}: those of every transport, plus where
 * to listen. Every field is optional.
 *
 * @example
 * ```ts
 * import { startMockServer } from 'model-inference-sdk/testing';
 *
 * const server = await startMockServer({
 *   apiKeys: { 'key-a': 'all', 'key-b': ['mock/echo'] },
 *   chunkDelayMs: 20,
 * });
 * await server.close();
 * ```
 */
export interface MockServerOptions extends MockServiceOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /**
   * Record: every request is sent on to a real server and its answer written to a cassette file
   * (the upstream key and credential headers never are). Scripted replies, auth with the mock's
   * own keys and the base path apply as usual; scripted replies are not recorded.
   */
  record?: RecordOptions;
  /**
   * Replay a cassette (its path, or `{ cassette, timing }`): requests are answered from it,
   * matched by method, path and body; one it does not hold gets a 404 naming the cassette.
   * Scripted replies, auth with the mock's own keys and the base path apply as usual.
   */
  replay?: string | ReplayOptions;
}

/**
 * A running mock server. Close it when done.
 *
 * @example
 * ```ts
 * import { startMockServer } from 'model-inference-sdk/testing';
 *
 * const server = await startMockServer();
 * const res = await fetch(`${server.url}/chat/completions`, {
 *   method: 'POST',
 *   headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] }),
 * });
 * console.log((await res.json()).choices[0].message.content); // 'You said: hi'
 * await server.close();
 * ```
 */
export interface MockServer extends MockControls {
  /** Closes the server AND destroys open sockets (keep-alive, stalled, streaming); resolves when done. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts a mock of the Model Inference Service on 127.0.0.1 (ephemeral port
 * by default).
 *
 * Built-in behaviour: bearer auth (401 otherwise), `GET /v1/models` (the
 * models of the caller's key), `GET /v1/models/{vendor}/{model}`,
 * `POST /v1/chat/completions` (JSON or SSE; tools and `response_format`),
 * `POST /v1/completions` (legacy), nothing outside `/v1` (a 404 that names
 * the right base URL), `context_length` and `max_output_length`
 * enforced, usage counted, 404 for unknown paths, 405 for wrong methods,
 * CORS. Replies come from the deterministic model in `model.ts`
 * (`You said: <last user text>`); see {@link ScriptedReply} for scripting
 * and faults.
 *
 * With `record`, requests go on to a real server and its answers are written
 * to a cassette file; with `replay`, they are answered from that file (see
 * docs/testing.md, "Record once, replay in CI").
 *
 * @throws TypeError (as a rejection) when `apiKeys` is empty or `record` / `replay` are wrong;
 * the listen error (e.g. EADDRINUSE); an Error naming the cassette when it cannot be read (replay)
 * or written (record).
 * @example
 * ```ts
 * import { startMockServer } from 'model-inference-sdk/testing';
 *
 * const server = await startMockServer();
 * const res = await fetch(`${server.url}/models`, { headers: { authorization: `Bearer ${server.apiKey}` } });
 * console.log((await res.json()).data.map((m: { id: string }) => m.id));
 * await server.close();
 * ```
 * @example Record once against the real service, then replay the cassette in CI
 * ```ts
 * import { startMockServer } from 'model-inference-sdk/testing';
 *
 * const cassette = 'test/cassettes/summarize.json';
 * const server = process.env['RECORD']
 *   ? await startMockServer({ record: { upstream: 'https://api.example.com/v1', apiKey: process.env['INFERENCE_API_KEY'] ?? '', cassette } })
 *   : await startMockServer({ replay: cassette });
 * // point the client at server.url with server.apiKey, in both modes
 * await server.close(); // a recording is complete once closed
 * ```
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const cassette = cassetteMode(options);
  const engine = createEngine(
    cassette === undefined ? options : { ...options, backend: cassette.backend },
  );
  const host = options.host ?? '127.0.0.1';
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  try {
    // Only once the port is ours: a server that cannot start leaves a recorded cassette alone.
    await cassette?.open();
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    serve(engine.respond, origin, req, res).catch(() => {
      // A transport bug must not crash the test process: answer 500 if we still can.
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end();
      } else res.destroy();
    });
  });

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/v1`,
    apiKey: engine.apiKey,
    requests: engine.requests,
    enqueue: engine.enqueue,
    setReady: engine.setReady,
    clear: engine.clear,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        // close() alone waits for keep-alive and stalled sockets; destroying them makes it prompt.
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => cassette?.close());
      return closing;
    },
  };
}

/** The recorder or the replayer the options ask for, checked; none for the built-in model. */
function cassetteMode(options: MockServerOptions): CassetteMode | undefined {
  const chunkDelayMs = Math.max(0, options.chunkDelayMs ?? 0);
  if (options.record !== undefined && options.replay !== undefined) {
    throw new TypeError(
      'model-inference-sdk/testing: give `record` or `replay`, not both: record once against the real server, then replay the cassette.',
    );
  }
  if (options.record !== undefined) return createRecorder(options.record, chunkDelayMs);
  if (options.replay !== undefined) return createReplayer(options.replay, chunkDelayMs);
  return undefined;
}

/** One exchange: IncomingMessage → web Request → the core → bytes on the socket. */
async function serve(
  respond: (request: Request, signal: AbortSignal) => Promise<Outcome>,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // Writes racing a client disconnect may error; the 'close' handler below already stops all work.
  res.on('error', () => {});
  const gone = new AbortController();
  res.once('close', () => gone.abort());

  let bytes: Buffer;
  try {
    bytes = await readBody(req);
  } catch {
    return; // the client went away while sending its body
  }
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  const init: RequestInit = { method, headers, signal: gone.signal };
  // The Request constructor refuses a body on GET and HEAD; such a body is dropped.
  if (bytes.length > 0 && method !== 'GET' && method !== 'HEAD') init.body = new Uint8Array(bytes);
  // Concatenated, not resolved: `new URL('//x', origin)` would read '//x' as a host.
  const request = new Request(`${origin}${req.url ?? '/'}`, init);

  const outcome = await respond(request, gone.signal);
  if (outcome.kind === 'reset') {
    resetSocket(req.socket);
    return;
  }
  // 'stall': leave the response open and silent until the client or close() ends it.
  if (outcome.kind === 'stall' || gone.signal.aborted) return;

  const { response } = outcome;
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.setHeader(name, value);
  if (response.body === null) {
    res.end();
    return;
  }
  if (!outcome.streamed) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  // Send the headers now so clients see the response start before the first event.
  res.flushHeaders();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      res.write(value);
    }
    res.end();
  } catch {
    // The body errored: the core asks for a cut. Let the written pieces leave first, so the
    // client sees them before the reset. (When the client itself left, there is nothing to do.)
    if (res.destroyed || gone.signal.aborted) return;
    await new Promise<void>((resolve) => res.write('', () => resolve()));
    resetSocket(res.socket ?? req.socket);
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', reject);
    // 'close' before 'end' means the client aborted mid-body.
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

function resetSocket(socket: Socket): void {
  // A TCP RST is what a crashed proxy looks like; fall back to a plain close where unsupported.
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}
