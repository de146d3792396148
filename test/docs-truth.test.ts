/**
 * The docs say what is true (issue 28, item 1). test/docs-snippets.test.ts compiles their ```ts
 * blocks; this file checks the rest of what they claim:
 *
 * - every quoted CLI session (a ```console block of docs/cli.md and the README, marked with the
 *   command that produces it: test/support/docs-quotes.ts) is what the CLI prints, run in process
 *   through the bin's own dispatcher, or on a pseudo-terminal for the interactive ones;
 * - the error class tree of docs/errors-and-retries.md is the package's exported classes;
 * - the README's words on slugs, and its "each example runs the same way" as the demo: with a key
 *   and a base URL set, every example picks a model the server has;
 * - every `--mock` command a newcomer is told to paste (```sh blocks and inline code of the README,
 *   getting-started.md and cli.md) runs as written: exit 0, what the mock says, no escape codes
 *   in a pipe; the version the prose quotes, and the mock server's banner that testing.md quotes.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as sdk from '../src/index';
import { runCli } from '../src/cli/run';
import { startMockServer, type MockServer } from '../src/testing/index';
import { CLI, cleanEnv, killLeftovers, shellQuote, start } from './cli-support';
import { consoleBlocks, matches, screen, steps, words, type Quote, type Step } from './support/docs-quotes';

vi.setConfig({ testTimeout: 120_000 });

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUOTED = ['README.md', 'docs/cli.md'];
const quotes = QUOTED.flatMap((file) => consoleBlocks(root, file));

afterEach(() => killLeftovers());

/** The environment of a quoted session: no INFERENCE_* of the developer's, no colours (NO_COLOR=1). */
const BASE_ENV = { NO_COLOR: '1', TERM: 'xterm-256color' };

/** Runs one command in process, as the bin does with pipes; stdout and stderr in the order written. */
async function inProcess(step: Step, env: Record<string, string>): Promise<{ code: number; output: string }> {
  let output = '';
  const code = await runCli(step.args, {
    stdout: (text) => void (output += text),
    stderr: (text) => void (output += text),
    signal: new AbortController().signal,
    env: { ...BASE_ENV, ...env, ...step.env },
    stdin: Object.assign(Readable.from(step.stdin === undefined ? [] : [step.stdin]), { isTTY: false }),
    stdoutIsTTY: false,
    stderrIsTTY: false,
  });
  return { code, output };
}

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Runs one command on a pseudo-terminal, typing what the quote shows typed; returns its screen. */
async function onTerminal(step: Step, env: Record<string, string>): Promise<{ code: number; output: string }> {
  const command = [process.execPath, ...CLI, ...step.args].map(shellQuote).join(' ');
  const run = start('script', ['-qfec', `stty cols 200 rows 50; exec ${command}`, '/dev/null'], cleanEnv({ ...BASE_ENV, ...env, ...step.env }));
  const shown = () => screen(run.output());
  const waitFor = async (done: (text: string) => boolean, what: string) => {
    const deadline = Date.now() + 30_000;
    while (!done(shown())) {
      if (Date.now() > deadline || run.child.exitCode !== null) throw new Error(`${step.text}: no ${what} on the screen: ${JSON.stringify(shown())}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  // The prompt is up when the screen's last line is a bare `>`, one more than were answered.
  const atPrompt = async (answered: number) =>
    waitFor((text) => {
      const lines = text.split('\n');
      return lines.at(-1) === '>' && lines.filter((l) => l.startsWith('>')).length >= answered + 1;
    }, 'prompt');
  let prompts = 0;
  for (const [i, line] of step.expected.entries()) {
    if (line.startsWith('> ')) {
      await atPrompt(prompts++);
      run.child.stdin.write(`${line.slice(2)}\r`);
    } else if (line === '>') {
      await atPrompt(prompts++);
      // A bare prompt: Ctrl-C when the quote shows its hint next, else Ctrl-D (the session's end).
      run.child.stdin.write(step.expected[i + 1]?.startsWith('(To exit') === true ? '\u0003' : '\u0004');
    } else if (line.endsWith('^C')) {
      const before = line.slice(0, -2).trimEnd();
      await waitFor((text) => text.includes(before), JSON.stringify(before));
      run.child.stdin.write('\u0003');
    }
  }
  const { code } = await run.exit;
  return { code: code ?? -1, output: stripVTControlCharacters(shown()) };
}

/** Listens on a free port of 127.0.0.1 (`busy`), or finds one nobody listens on. */
async function port(busy: boolean): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: p } = server.address() as { port: number };
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  if (!busy) await close();
  return { port: p, close: busy ? close : async () => {} };
}

/** Runs every step of a quote; a list of what differs (empty when the quote is true). */
async function check(quote: Quote): Promise<string[]> {
  const how = quote.how;
  const pty = /\bpty\b/.test(how);
  let replace: [string, string] | undefined;
  const cleanup: (() => Promise<void>)[] = [];
  const portRule = /\bport (\d+) (free|busy)\b/.exec(how);
  if (portRule) {
    const p = await port(portRule[2] === 'busy');
    cleanup.push(p.close);
    replace = [portRule[1]!, String(p.port)];
  }
  const serverRule = /\bmock-server (\d+) --chunk-delay (\d+)\b/.exec(how);
  let server: MockServer | undefined;
  if (serverRule) {
    server = await startMockServer({ chunkDelayMs: Number(serverRule[2]) });
    cleanup.push(() => server!.close());
    replace = [serverRule[1]!, new URL(server.url).port];
  }
  const lines = replace === undefined ? quote.lines : quote.lines.map((l) => (l.startsWith('$ ') ? l.split(replace![0]).join(replace![1]) : l));
  const problems: string[] = [];
  try {
    const env: Record<string, string> = {};
    let last = 0;
    for (const step of steps({ ...quote, lines })) {
      if (step.kind === 'export') Object.assign(env, step.env);
      const { code, output } =
        step.kind === 'run' ? await (pty ? onTerminal(step, env) : inProcess(step, env)) : { code: last, output: step.kind === 'exit' ? `exit ${last}\n` : '' };
      last = code;
      const printed = step.echoExit ? `${output}${output === '' || output.endsWith('\n') ? '' : '\n'}exit ${code}\n` : output;
      if (!matches(step.expected, printed)) {
        problems.push(`${quote.file}:${quote.line}: \`${step.text}\` prints:\n${printed}\nbut the docs quote:\n${step.expected.join('\n')}\n`);
      }
    }
  } finally {
    for (const close of cleanup) await close();
  }
  return problems;
}

describe('quoted CLI sessions are what the CLI prints', () => {
  it('every ```console block of docs/cli.md and the README says how it is produced', () => {
    expect(quotes.length).toBeGreaterThan(6);
    expect(quotes.filter((q) => !q.marked).map((q) => `${q.file}:${q.line}`)).toEqual([]);
  });

  for (const quote of quotes.filter((q) => q.marked && !/\bpty\b/.test(q.how))) {
    it(`${quote.file}:${quote.line} (${quote.lines[0] ?? ''})`, async () => {
      expect(await check(quote)).toEqual([]);
    });
  }

  for (const quote of quotes.filter((q) => /\bpty\b/.test(q.how))) {
    it.skipIf(!hasScript)(`${quote.file}:${quote.line}, on a terminal (${quote.lines[0] ?? ''})`, async () => {
      expect(await check(quote)).toEqual([]);
    });
  }

  it('fails when a quote drifts: a changed word, a missing line, a wrong exit code', async () => {
    const quote = quotes.find((q) => q.lines.some((l) => l.includes('--max-tokens lots')))!;
    expect(await check(quote)).toEqual([]);
    const drift = (from: string, to: string) => ({ ...quote, lines: quote.lines.map((l) => l.replace(from, to)) });
    expect(await check(drift('must be an integer', 'must be a number'))).toHaveLength(1);
    expect(await check(drift('exit 2', 'exit 1'))).not.toEqual([]);
    expect(await check({ ...quote, lines: quote.lines.filter((l) => !l.startsWith('Usage:')) })).not.toEqual([]);
  });

  it.skipIf(!hasScript)('fails when a quoted terminal session drifts', async () => {
    const session = quotes.find((q) => /\bpty\b/.test(q.how) && q.lines.some((l) => l.startsWith('> ')))!;
    const drifted = { ...session, lines: session.lines.map((l) => l.replace('Chatting with mock/echo.', 'Chatting with mock/echo!')) };
    expect(await check(drifted)).toHaveLength(1);
  });
});

describe('docs/errors-and-retries.md: the class tree', () => {
  it('holds every error class the package exports, each under its parent', () => {
    const text = readFileSync(path.join(root, 'docs/errors-and-retries.md'), 'utf8');
    const block = /<!-- error-tree[^\n]*-->\n```\n([\s\S]*?)```/.exec(text)?.[1];
    expect(block).toBeDefined();
    // Each line: the tree drawing, then the class name; its depth is where the name starts.
    const documented = new Map<string, string | undefined>();
    const stack: { depth: number; name: string }[] = [];
    for (const line of block!.trimEnd().split('\n')) {
      const match = /^([│├└─\s]*)(\w+)/.exec(line)!;
      const depth = match[1]!.length;
      while (stack.length > 0 && stack.at(-1)!.depth >= depth) stack.pop();
      documented.set(match[2]!, stack.at(-1)?.name);
      stack.push({ depth, name: match[2]! });
    }
    const exported = new Map<string, string | undefined>();
    for (const [name, value] of Object.entries(sdk)) {
      if (typeof value !== 'function' || !(value.prototype instanceof Error)) continue;
      const parent = Object.getPrototypeOf(value) as { name: string };
      exported.set(name, parent === Error ? undefined : parent.name);
    }
    expect(Object.fromEntries([...documented].sort())).toEqual(Object.fromEntries([...exported].sort()));
  });
});

describe('the README', () => {
  it("on slugs: `/` separates, a file path or an empty segment goes as one segment, `.` and `..` are refused", async () => {
    const sent: string[] = [];
    const client = new sdk.Client({
      apiKey: 'k',
      baseURL: 'http://api.test/v1',
      maxRetries: 0,
      fetch: async (url) => {
        sent.push(new URL(String(url)).pathname);
        return Response.json({ id: 'x', object: 'model' });
      },
    });
    for (const slug of ['acme/base 1', 'a//b', './x', '/models/qwen.gguf']) await client.models.retrieve(slug);
    expect(sent).toEqual(['/v1/models/acme/base%201', '/v1/models/a%2F%2Fb', '/v1/models/.%2Fx', '/v1/models/%2Fmodels%2Fqwen.gguf']);
    for (const slug of ['', '.', '../x', 'a/../b']) await expect(client.models.retrieve(slug)).rejects.toThrow(sdk.InferenceError);
    expect(sent).toHaveLength(4);
  });

  it('"each file in examples/ runs the same way" as the demo: with a key set, each picks a model the server has', async () => {
    // A server with none of the mock's or the docs' model names: an example that falls back to a
    // name of its own gets a 404.
    const server = await startMockServer({ apiKeys: { 'live-key': 'all' }, models: [{ id: 'vendor/warming', is_ready: false }, { id: 'vendor/alpha', supported_features: ['tools'] }] });
    try {
      const examples = readdirSync(path.join(root, 'examples')).filter((f) => f.endsWith('.ts') && f !== 'setup.ts');
      expect(examples.length).toBeGreaterThan(8);
      const env = { ...cleanEnv(), INFERENCE_API_KEY: 'live-key', INFERENCE_BASE_URL: server.url };
      const failed: string[] = [];
      // Two at a time: each is a tsx process.
      for (let i = 0; i < examples.length; i += 2) {
        await Promise.all(
          examples.slice(i, i + 2).map(async (file) => {
            const child = spawn(process.execPath, ['--import', 'tsx', `examples/${file}`], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
            let output = '';
            child.stdout.on('data', (d: Buffer) => (output += d.toString()));
            child.stderr.on('data', (d: Buffer) => (output += d.toString()));
            const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
            if (code !== 0) failed.push(`examples/${file} exited ${code}: ${output.slice(-600)}`);
          }),
        );
      }
      expect(failed).toEqual([]);
      const models = new Set(server.requests.map((r) => (r.body as { model?: unknown } | undefined)?.model).filter((m) => m !== undefined));
      expect([...models]).toEqual(['vendor/alpha']);
    } finally {
      await server.close();
    }
  });
});

/** Every `npx model-inference-sdk … --mock …` command of a page: in ```sh blocks or inline code. */
function mockCommands(file: string): { line: number; text: string; stdin?: string; args: string[] }[] {
  const out: { line: number; text: string; stdin?: string; args: string[] }[] = [];
  readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const spans = raw.startsWith('npx ') || raw.startsWith('echo ') ? [raw.replace(/\s+#.*$/, '')] : [...raw.matchAll(/`(npx model-inference-sdk [^`]*)`/g)].map((m) => m[1]!);
      for (const text of spans) {
        const command = /^(?:echo ("[^"]*") \| )?npx model-inference-sdk (.*)$/.exec(text.trim());
        if (!command || !/(^| )--mock( |$)/.test(command[2]!)) continue;
        out.push({ line: i + 1, text, args: words(command[2]!), ...(command[1] === undefined ? {} : { stdin: `${words(command[1])[0]!}\n` }) });
      }
    });
  return out;
}

describe('the commands a newcomer pastes run as written', () => {
  const pages = ['README.md', 'docs/getting-started.md', 'docs/cli.md'];
  const commands = pages.flatMap((file) => mockCommands(file).map((c) => ({ file, ...c })));

  it('finds the --mock commands of the README, getting-started.md and cli.md', () => {
    expect(commands.map((c) => c.file)).toEqual(expect.arrayContaining(pages));
    expect(commands.length).toBeGreaterThanOrEqual(6);
  });

  for (const command of commands) {
    it(`${command.file}:${command.line}: ${command.text}`, async () => {
      // As in a pipe, colours not turned off: nothing may be an escape code there anyway.
      const { code, output } = await inProcess(
        { kind: 'run', args: command.args, env: {}, expected: [], text: command.text, echoExit: false, ...(command.stdin === undefined ? {} : { stdin: command.stdin }) },
        { NO_COLOR: '' },
      );
      expect({ code, escapes: output.includes('\u001b') }).toEqual({ code: 0, escapes: false });
      const prompt = command.args.filter((a) => !a.startsWith('-') && !['chat', 'complete', 'mock/echo'].includes(a)).join(' ');
      if (command.args[0] === 'chat') expect(output).toBe(`You said: ${prompt}\n`);
      if (command.args[0] === 'complete') expect(output).toBe(`You said: ${command.stdin!.trim()}\n`);
      if (command.args[0] === 'models') expect(output).toMatch(/^SLUG +NAME[^\n]*\nmock\/echo /);
    });
  }

  it('cli.md: `--version` prints the version it quotes, which is the package\'s', async () => {
    const quoted = /prints the version \(`([^`]+)`\)/.exec(readFileSync(path.join(root, 'docs/cli.md'), 'utf8'))?.[1];
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    expect(quoted).toBe(`model-inference-sdk ${version}`);
    const { code, output } = await inProcess({ kind: 'run', args: ['--version'], env: {}, expected: [], text: '--version', echoExit: false }, {});
    expect({ code, output }).toEqual({ code: 0, output: `${quoted}\n` });
  });

  it('testing.md: `mock-server --port 8787` prints the banner it quotes', async () => {
    const text = readFileSync(path.join(root, 'docs/testing.md'), 'utf8');
    const block = /```sh\nnpx model-inference-sdk mock-server --port 8787\n((?:# .*\n)+)```/.exec(text)?.[1];
    expect(block).toBeDefined();
    const quoted = block!.trimEnd().split('\n').map((l) => l.slice(2));
    const free = await port(false);
    const controller = new AbortController();
    let output = '';
    const run = runCli(['mock-server', '--port', String(free.port)], {
      stdout: (t) => void (output += t),
      stderr: (t) => void (output += t),
      signal: controller.signal,
      env: { ...BASE_ENV },
      stdin: Object.assign(Readable.from([]), { isTTY: false }),
      stdoutIsTTY: false,
      stderrIsTTY: false,
    });
    const deadline = Date.now() + 10_000;
    while (!output.includes('Press Ctrl+C') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect(await run).toBe(0);
    const printed = output.split(String(free.port)).join('8787').split('\n');
    expect(printed.slice(0, quoted.length)).toEqual(quoted);
  });
});
