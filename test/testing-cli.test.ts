// `model-inference-sdk mock-server`, run as a user runs it: a child process, talked to over HTTP, stopped
// with a signal. From source through tsx by default; CI sets CLI_BIN=dist/cli.js after the build to
// run the same tests against the published bin. What needs no signal and no second process (help,
// usage errors, a busy port) runs in this process through the bin's own entry (cli-support.ts).
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, Client, NotFoundError } from '../src/index';
import { startMockServer, type Cassette } from '../src/testing';
import { runCli } from './cli-support';

const bin = process.env['CLI_BIN'];
const command = bin === undefined ? ['--import', 'tsx', 'src/cli/index.ts'] : [bin];

interface Run {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: Run[] = [];
afterEach(() => {
  // A failed test must not leave its server running.
  for (const run of started.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
});

function cli(...args: string[]): Run {
  return cliWith({}, ...args);
}

/** The CLI with these environment variables added (`undefined` removes one). */
function cliWith(env: Record<string, string | undefined>, ...args: string[]): Run {
  const child = spawn(process.execPath, [...command, ...args], { stdio: 'pipe', env: { ...process.env, INFERENCE_API_KEY: undefined, NO_COLOR: '1', ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const run = { child, stdout: () => out, stderr: () => err, exit };
  started.push(run);
  return run;
}

/** Waits until the server printed its URL. */
async function listening(run: Run): Promise<{ url: string; key: string }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const url = /listening on (http:\/\/\S+\/v1)/.exec(run.stdout())?.[1];
    const key = /API key: (\S+)/.exec(run.stdout())?.[1];
    if (url !== undefined && key !== undefined) return { url, key };
    if (run.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the CLI did not start: ${run.stdout()} ${run.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('model-inference-sdk mock-server', () => {
  it('serves the mock, prints the URL and key, and stops cleanly on SIGTERM', async () => {
    const run = cli('mock-server', '--port', '0', '--api-key', 'cli-key', '--model', 'acme/chat-1');
    const { url, key } = await listening(run);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(key).toBe('cli-key');
    expect(run.stdout()).toContain(`export INFERENCE_BASE_URL=${url}`);

    const client = new Client({ apiKey: key, baseURL: url, maxRetries: 0, logLevel: 'off' });
    expect((await client.models.list()).data.map((m) => m.id)).toEqual(['acme/chat-1']);
    const stream = await client.chat.completions.create({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'from the CLI' }], stream: true });
    expect((await stream.finalChatCompletion()).choices[0]?.message?.content).toBe('You said: from the CLI');
    await expect(new Client({ apiKey: 'mock-key', baseURL: url, maxRetries: 0, logLevel: 'off' }).models.list()).rejects.toBeInstanceOf(AuthenticationError);

    run.child.kill('SIGTERM');
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toContain('Stopped (3 requests served).');
    // The port is closed.
    await expect(fetch(`${url}/models`)).rejects.toThrow();
  });

  it('stops on SIGINT (Ctrl+C) with open streams', async () => {
    const run = cli('mock-server', '--port', '0', '--chunk-delay', '1000');
    const { url, key } = await listening(run);
    const client = new Client({ apiKey: key, baseURL: url, maxRetries: 0, logLevel: 'off' });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'a b c d e' }], stream: true });
    const reading = stream.finalChatCompletion().catch((error: unknown) => error);
    run.child.kill('SIGINT');
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(await reading).toBeInstanceOf(Error);
  });

  it('prints help, and refuses unknown commands and bad options with exit code 2', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('mock-server');

    const commandHelp = await runCli(['mock-server', '--help']);
    expect(commandHelp.code).toBe(0);
    expect(commandHelp.stdout).toContain('--port <n>');

    const unknown = await runCli(['serve']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'serve'");

    const badPort = await runCli(['mock-server', '--port', 'eighty']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port must be an integer');

    const badFlag = await runCli(['mock-server', '--prot', '1']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("model-inference-sdk mock-server: unknown option '--prot'. Did you mean '--port'?");

    const extra = await runCli(['mock-server', '8080']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain("unexpected argument '8080': 'mock-server' takes options only.");
  });

  it('a busy port exits 1, naming the address and suggesting --port 0', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const run = await runCli(['mock-server', '--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `model-inference-sdk mock-server: 127.0.0.1:${port} is already in use. Stop what listens there, pick another port with --port <n>, or let the system pick a free one with --port 0.\n`,
      );
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('an address that is not on this machine exits 1 and says which to use', async () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of a real machine.
    const run = cli('mock-server', '--port', '0', '--host', '192.0.2.1');
    expect(await run.exit).toEqual({ code: 1, signal: null });
    expect(run.stderr()).toBe(
      'model-inference-sdk mock-server: cannot listen on 192.0.2.1: no such address on this machine. Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).\n',
    );
  });
});

describe('model-inference-sdk mock-server --record / --replay', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-inference-sdk-cli-cassettes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const UPSTREAM_KEY = 'sk-upstream-cli-3e5d7f9a1b';

  it('records against a real server with the key from INFERENCE_API_KEY, then replays with it stopped', async () => {
    const upstream = await startMockServer({ apiKeys: { [UPSTREAM_KEY]: 'all' } });
    const cassette = path.join(dir, 'cli.json');
    let recorded: string | null | undefined;
    try {
      const run = cliWith({ INFERENCE_API_KEY: UPSTREAM_KEY }, 'mock-server', '--port', '0', '--record', upstream.url, '--cassette', cassette);
      const { url, key } = await listening(run);
      expect(key).toBe('mock-key');
      expect(run.stdout()).toContain(`recording: ${upstream.url} -> ${cassette}`);
      const client = new Client({ apiKey: key, baseURL: url, maxRetries: 0, logLevel: 'off' });
      const stream = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'record me' }], stream: true });
      recorded = (await stream.finalChatCompletion()).choices[0]?.message.content;
      expect(recorded).toBe('You said: record me');
      expect(upstream.requests[0]?.headers['authorization']).toBe(`Bearer ${UPSTREAM_KEY}`);
      run.child.kill('SIGTERM');
      expect(await run.exit).toEqual({ code: 0, signal: null });
      expect(run.stdout()).toContain(`Stopped (1 requests served). Cassette written: ${cassette}`);
      expect(run.stdout() + run.stderr()).not.toContain(UPSTREAM_KEY);
    } finally {
      await upstream.close();
    }
    const text = readFileSync(cassette, 'utf8');
    expect(text).not.toContain(UPSTREAM_KEY);
    expect(text).not.toContain('"authorization"');
    expect((JSON.parse(text) as Cassette).interactions.map((i) => i.request.path)).toEqual(['/chat/completions']);

    const replay = cli('mock-server', '--port', '0', '--replay', cassette);
    const { url, key } = await listening(replay);
    expect(replay.stdout()).toContain(`replaying: ${cassette}`);
    const client = new Client({ apiKey: key, baseURL: url, maxRetries: 0, logLevel: 'off' });
    const stream = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'record me' }], stream: true });
    expect((await stream.finalChatCompletion()).choices[0]?.message.content).toBe(recorded);
    const missing = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'never recorded' }] }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as Error).message).toContain(`No recorded interaction in the cassette ${cassette} matches POST /v1/chat/completions`);
    replay.child.kill('SIGTERM');
    expect(await replay.exit).toEqual({ code: 0, signal: null });
  });

  it('without INFERENCE_API_KEY, records with no key and says so', async () => {
    const upstream = await startMockServer();
    const cassette = path.join(dir, 'keyless.json');
    try {
      const run = cli('mock-server', '--port', '0', '--record', upstream.url, '--cassette', cassette, '--timing');
      await listening(run);
      expect(run.stderr()).toContain('note: INFERENCE_API_KEY is not set: the upstream is called without a key.');
      expect(run.stdout()).toContain('(with timing)');
      run.child.kill('SIGINT');
      expect(await run.exit).toEqual({ code: 0, signal: null });
    } finally {
      await upstream.close();
    }
    expect((JSON.parse(readFileSync(cassette, 'utf8')) as Cassette).interactions).toEqual([]);
  });

  it('refuses flags that do not go together with exit code 2, and a missing cassette with exit code 1', async () => {
    const cases: [string[], string][] = [
      [['--record', 'http://127.0.0.1:9/v1'], '--record needs --cassette <file>: where to write what is recorded.'],
      [['--cassette', 'x.json'], '--cassette goes with --record <url>; to answer from a cassette, use --replay x.json.'],
      [['--record', 'http://127.0.0.1:9/v1', '--cassette', 'x.json', '--replay', 'x.json'], '--record and --replay do not go together'],
      [['--timing'], '--timing goes with --record or --replay.'],
      [['--record', 'api.example.com', '--cassette', 'x.json'], "--record needs the upstream's base URL, such as https://api.example.com/v1; got 'api.example.com'."],
      [['--replay', 'x.json', '--model', 'acme/chat-1'], "--model does not go with --replay: the models are the cassette's."],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(['mock-server', '--port', '0', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(`model-inference-sdk mock-server: ${message}`);
    }
    const missing = path.join(dir, 'missing.json');
    const run = await runCli(['mock-server', '--port', '0', '--replay', missing]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`model-inference-sdk mock-server: cannot replay the cassette ${missing}: there is no such file. Record it first`);
  });
});
