/**
 * `inference-sdk mock-server`: runs the mock service (inference-sdk/testing)
 * on a local port, so that any client (curl, Python, the openai package) can
 * be pointed at it. Runs until SIGINT or SIGTERM, then closes every socket.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { startMockServer } from '../testing/mock-server';
import type { MockServerOptions } from '../testing/mock-server';
import { DEFAULT_MOCK_MODELS } from '../testing/fixtures';
import type { Command } from './command';
import { UsageError } from './command';

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
export const mockServerCommand: Command = {
  name: 'mock-server',
  summary: 'run a local mock of the service (for tests and demos)',
  help,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        'api-key': { type: 'string', multiple: true },
        model: { type: 'string', multiple: true },
        'chunk-delay': { type: 'string', default: '0' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      io.stdout(help);
      return 0;
    }
    const options: MockServerOptions = {
      port: integer('--port', values.port, 0, 65_535),
      host: values.host,
      chunkDelayMs: integer('--chunk-delay', values['chunk-delay'], 0, 60_000),
    };
    const keys = values['api-key'];
    if (keys !== undefined) options.apiKeys = Object.fromEntries(keys.map((key) => [key, 'all' as const]));
    const models = values.model;
    if (models !== undefined) options.models = models.map((id) => ({ id }));

    const server = await startMockServer(options);
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
};

function integer(flag: string, raw: string | undefined, min: number, max: number): number {
  const value = Number(raw);
  if (raw === undefined || raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got '${raw ?? ''}'.`);
  }
  return value;
}
