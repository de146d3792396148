/**
 * `model-inference-sdk mock-server`: runs the mock service (model-inference-sdk/testing)
 * on a local port, so that any client (curl, Python, the openai package) can
 * be pointed at it. Runs until SIGINT or SIGTERM, then closes every socket.
 *
 * @module
 */
import {
  DEFAULT_MOCK_MODELS,
  startMockServer,
  type MockServer,
  type MockServerOptions,
  type RecordOptions,
  type ReplayOptions,
} from '../testing';
import type { Command } from './command';
import { CommandError, UsageError } from './command';
import { withoutUserInfo } from './explain';
import { defineCommand, integerFlag } from './parse-command';

const help = `Usage: model-inference-sdk mock-server [options]
       model-inference-sdk mock-server --record <url> --cassette <file> [options]
       model-inference-sdk mock-server --replay <file> [options]

Runs a local mock of the Model Inference Service (the same one as
startMockServer() in model-inference-sdk/testing) until Ctrl+C. With --record it
passes every request on to a real server and writes the answers to a
cassette file; with --replay it answers from that file.

Options:
  --port <n>          port to listen on (default 8787; 0 picks a free one)
  --host <addr>       address to listen on (default 127.0.0.1)
  --api-key <key>     the accepted API key (default mock-key); repeat for several
  --model <slug>      serve this model instead of the defaults; repeat for several
  --chunk-delay <ms>  pause between streamed events (default 0)
  -h, --help          show this help

Record and replay:
  --record <url>      pass requests on to the server at <url> (its base URL,
                      ending in /v1), with the key in INFERENCE_API_KEY
  --cassette <file>   where --record writes (created or replaced); the key and
                      credential headers are never written
  --replay <file>     answer from a cassette; a request it does not hold gets
                      a 404 naming the cassette
  --timing            keep the pace of streams: record when each event came,
                      or replay them at that pace

Point a client at it:
  INFERENCE_BASE_URL=http://127.0.0.1:8787/v1 INFERENCE_API_KEY=mock-key
`;

/**
 * `model-inference-sdk mock-server [--port n] [--host addr] [--api-key k]… [--model slug]… [--chunk-delay ms]
 * [--record url --cassette file | --replay file] [--timing]`.
 *
 * @example
 * ```ts
 * const stop = new AbortController();
 * const code = mockServerCommand.run(['--port', '0'], { stdout: console.log, stderr: console.error, signal: stop.signal });
 * stop.abort(); // closes the server; `code` resolves to 0
 * ```
 */
export const mockServerCommand: Command = defineCommand({
  name: 'mock-server',
  summary: 'run a local mock of the service (for tests and demos)',
  help,
  options: {
    port: { type: 'string', default: '8787', valueName: 'n' },
    host: { type: 'string', default: '127.0.0.1', valueName: 'addr' },
    'api-key': { type: 'string', multiple: true, valueName: 'key' },
    model: { type: 'string', multiple: true, valueName: 'slug' },
    'chunk-delay': { type: 'string', default: '0', valueName: 'ms' },
    record: { type: 'string', valueName: 'url' },
    cassette: { type: 'string', valueName: 'file' },
    replay: { type: 'string', valueName: 'file' },
    timing: { type: 'boolean', default: false },
  },
  async run({ values }, io) {
    const options: MockServerOptions & { port: number; host: string } = {
      port: integerFlag('--port', values.port, 0, 65_535) ?? 8787,
      host: values.host,
      chunkDelayMs: integerFlag('--chunk-delay', values['chunk-delay'], 0, 60_000) ?? 0,
    };
    const keys = values['api-key'];
    if (keys !== undefined)
      options.apiKeys = Object.fromEntries(keys.map((key) => [key, 'all' as const]));
    const models = values.model;
    if (models !== undefined) options.models = models.map((id) => ({ id }));
    const cassette = cassetteFlags(values, io.env?.['INFERENCE_API_KEY']);
    if (cassette !== undefined && models !== undefined) {
      throw new UsageError(
        `--model does not go with --${cassette.mode}: the models are the ${cassette.mode === 'record' ? "upstream's" : "cassette's"}.`,
      );
    }
    if (cassette?.mode === 'record') options.record = cassette.record;
    if (cassette?.mode === 'replay') options.replay = cassette.replay;
    if (cassette?.mode === 'record' && cassette.record.apiKey === undefined) {
      io.stderr('note: INFERENCE_API_KEY is not set: the upstream is called without a key.\n');
    }

    const server = await listen(options);
    const served = (models ?? DEFAULT_MOCK_MODELS.map((m) => m.id)).join(', ');
    io.stdout(
      [
        `Mock Model Inference Service listening on ${server.url}`,
        `  API key: ${server.apiKey}`,
        cassette === undefined ? `  models:  ${served}` : cassette.line,
        '',
        `  export INFERENCE_BASE_URL=${server.url}`,
        `  export INFERENCE_API_KEY=${server.apiKey}`,
        '',
        'Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );

    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await server.close();
    const written =
      cassette?.mode === 'record' ? ` Cassette written: ${cassette.record.cassette}` : '';
    io.stdout(`Stopped (${server.requests.length} requests served).${written}\n`);
    return 0;
  },
});

type CassetteFlags =
  | { mode: 'record'; record: RecordOptions; line: string }
  | { mode: 'replay'; replay: ReplayOptions; line: string };

/** `--record url --cassette file` or `--replay file`, with `--timing`, checked together. */
function cassetteFlags(
  values: {
    record?: string | undefined;
    cassette?: string | undefined;
    replay?: string | undefined;
    timing: boolean;
  },
  upstreamKey: string | undefined,
): CassetteFlags | undefined {
  const { record, cassette, replay, timing } = values;
  if (record !== undefined && replay !== undefined) {
    throw new UsageError(
      '--record and --replay do not go together: record once (--record <url> --cassette <file>), then replay (--replay <file>).',
    );
  }
  if (record === undefined && cassette !== undefined) {
    throw new UsageError(
      `--cassette goes with --record <url>; to answer from a cassette, use --replay ${cassette}.`,
    );
  }
  if (replay !== undefined) {
    return {
      mode: 'replay',
      replay: { cassette: replay, timing },
      line: `  replaying: ${replay}${timing ? ' (at the recorded pace)' : ''}`,
    };
  }
  if (record === undefined) {
    if (timing) throw new UsageError('--timing goes with --record or --replay.');
    return undefined;
  }
  if (cassette === undefined)
    throw new UsageError('--record needs --cassette <file>: where to write what is recorded.');
  let url: URL | undefined;
  try {
    url = new URL(record);
  } catch {
    // said below
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(
      `--record needs the upstream's base URL, such as https://api.example.com/v1; got '${withoutUserInfo(record)}'.`,
    );
  }
  const key = upstreamKey?.trim();
  return {
    mode: 'record',
    record: { upstream: record, cassette, timing, ...(key ? { apiKey: key } : {}) },
    // Origin and path only: a query or user info may carry credentials.
    line: `  recording: ${url.origin}${url.pathname.replace(/\/+$/, '')} -> ${cassette}${timing ? ' (with timing)' : ''}`,
  };
}

/** Starts the server; a port or address it cannot have is said in the CLI's words, with what to do. */
async function listen(
  options: MockServerOptions & { port: number; host: string },
): Promise<MockServer> {
  try {
    return await startMockServer(options);
  } catch (error) {
    const { port, host } = options;
    const code = (error as { code?: unknown }).code;
    const at = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    if (code === 'EADDRINUSE') {
      throw new CommandError(
        `${at} is already in use. Stop what listens there, pick another port with --port <n>, or let the system pick a free one with --port 0.`,
        { cause: error },
      );
    }
    if (code === 'EACCES') {
      throw new CommandError(
        `no permission to listen on ${at} (ports below 1024 usually need it). Use --port 8787, or --port 0 for a free one.`,
        { cause: error },
      );
    }
    if (code === 'EADDRNOTAVAIL') {
      throw new CommandError(
        `cannot listen on ${host}: no such address on this machine. Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).`,
        { cause: error },
      );
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      throw new CommandError(
        `cannot listen on ${host}: no such host. Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).`,
        { cause: error },
      );
    }
    // A cassette that cannot be read or written says so itself, naming the file.
    const message = error instanceof Error ? error.message : '';
    if (message.startsWith('model-inference-sdk/testing: '))
      throw new CommandError(message.slice('model-inference-sdk/testing: '.length), {
        cause: error,
      });
    throw error;
  }
}
