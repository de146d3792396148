/**
 * `inference-sdk mock-server`: runs the mock service (inference-sdk/testing)
 * on a local port, so that any client (curl, Python, the openai package) can
 * be pointed at it. Runs until SIGINT or SIGTERM, then closes every socket.
 *
 * @module
 */
import { DEFAULT_MOCK_MODELS, startMockServer, type MockServer, type MockServerOptions } from '../testing';
import type { Command } from './command';
import { CommandError } from './command';
import { defineCommand, integerFlag } from './parse-command';

const help = `Usage: inference-sdk mock-server [options]

Runs a local mock of the Model Inference Service (the same one as
startMockServer() in inference-sdk/testing) until Ctrl+C.

Options:
  --port <n>          port to listen on (default 8787; 0 picks a free one)
  --host <addr>       address to listen on (default 127.0.0.1)
  --api-key <key>     the accepted API key (default mock-key); repeat for several
  --model <slug>      serve this model instead of the defaults; repeat for several
  --chunk-delay <ms>  pause between streamed events (default 0)
  -h, --help          show this help

Point a client at it:
  INFERENCE_BASE_URL=http://127.0.0.1:8787/v1 INFERENCE_API_KEY=mock-key
`;

/**
 * `inference-sdk mock-server [--port n] [--host addr] [--api-key k]… [--model slug]… [--chunk-delay ms]`.
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
  },
  async run({ values }, io) {
    const options: MockServerOptions & { port: number; host: string } = {
      port: integerFlag('--port', values.port, 0, 65_535) ?? 8787,
      host: values.host,
      chunkDelayMs: integerFlag('--chunk-delay', values['chunk-delay'], 0, 60_000) ?? 0,
    };
    const keys = values['api-key'];
    if (keys !== undefined) options.apiKeys = Object.fromEntries(keys.map((key) => [key, 'all' as const]));
    const models = values.model;
    if (models !== undefined) options.models = models.map((id) => ({ id }));

    const server = await listen(options);
    const served = (models ?? DEFAULT_MOCK_MODELS.map((m) => m.id)).join(', ');
    io.stdout(
      [
        `Mock Model Inference Service listening on ${server.url}`,
        `  API key: ${server.apiKey}`,
        `  models:  ${served}`,
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
    io.stdout(`Stopped (${server.requests.length} requests served).\n`);
    return 0;
  },
});

/** Starts the server; a port or address it cannot have is said in the CLI's words, with what to do. */
async function listen(options: MockServerOptions & { port: number; host: string }): Promise<MockServer> {
  try {
    return await startMockServer(options);
  } catch (error) {
    const { port, host } = options;
    const code = (error as { code?: unknown }).code;
    const at = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    if (code === 'EADDRINUSE') {
      throw new CommandError(`${at} is already in use. Stop what listens there, pick another port with --port <n>, or let the system pick a free one with --port 0.`, { cause: error });
    }
    if (code === 'EACCES') {
      throw new CommandError(`no permission to listen on ${at} (ports below 1024 usually need it). Use --port 8787, or --port 0 for a free one.`, { cause: error });
    }
    if (code === 'EADDRNOTAVAIL') {
      throw new CommandError(`cannot listen on ${host}: no such address on this machine. Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).`, { cause: error });
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      throw new CommandError(`cannot listen on ${host}: no such host. Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).`, { cause: error });
    }
    throw error;
  }
}
