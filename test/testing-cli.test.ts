// `inference-sdk mock-server`, run as a user runs it: a child process, talked to over HTTP, stopped
// with a signal. From source through tsx by default; CI sets CLI_BIN=dist/cli.js after the build to
// run the same tests against the published bin.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, Client } from '../src/index';

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
  const child = spawn(process.execPath, [...command, ...args], { stdio: 'pipe', env: { ...process.env, NO_COLOR: '1' } });
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

describe('inference-sdk mock-server', () => {
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
    const help = cli('--help');
    expect((await help.exit).code).toBe(0);
    expect(help.stdout()).toContain('mock-server');

    const commandHelp = cli('mock-server', '--help');
    expect((await commandHelp.exit).code).toBe(0);
    expect(commandHelp.stdout()).toContain('--port <n>');

    const unknown = cli('serve');
    expect((await unknown.exit).code).toBe(2);
    expect(unknown.stderr()).toContain("unknown command 'serve'");

    const badPort = cli('mock-server', '--port', 'eighty');
    expect((await badPort.exit).code).toBe(2);
    expect(badPort.stderr()).toContain('--port must be an integer');

    const badFlag = cli('mock-server', '--prot', '1');
    expect((await badFlag.exit).code).toBe(2);
    expect(badFlag.stderr()).toContain("inference-sdk mock-server: unknown option '--prot'. Did you mean '--port'?");

    const extra = cli('mock-server', '8080');
    expect((await extra.exit).code).toBe(2);
    expect(extra.stderr()).toContain("unexpected argument '8080': 'mock-server' takes options only.");
  });

  it('a busy port exits 1, naming the address and suggesting --port 0', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const run = cli('mock-server', '--port', String(port));
      expect(await run.exit).toEqual({ code: 1, signal: null });
      expect(run.stdout()).toBe('');
      expect(run.stderr()).toBe(
        `inference-sdk mock-server: 127.0.0.1:${port} is already in use. Stop what listens there, pick another port with --port <n>, or let the system pick a free one with --port 0.\n`,
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
      'inference-sdk mock-server: cannot listen on 192.0.2.1: no such address on this machine. Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).\n',
    );
  });
});
