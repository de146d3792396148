// What the CLI prints of a server's text, and what it never prints (issue 22, items 3, 4 and 6):
// driven in process through runCli(), the dispatcher the bin runs, against a loopback mock
// server. Piped (no TTY) and as on a terminal (stdout and stderr TTYs, colours on).
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandIO } from '../src/cli/command';
import { runCli } from '../src/cli/run';
import { startMockServer, type MockServer, type ScriptedReply } from '../src/testing';

const KEY = 'sk-live-4f9a2c7e1b3d8a6f-never-print';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one command line in process, as the bin does, collecting what it writes. */
async function cli(args: readonly string[], options: { env?: Record<string, string>; tty?: boolean } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    signal: new AbortController().signal,
    env: options.env ?? {},
    stdoutIsTTY: options.tty === true,
    stderrIsTTY: options.tty === true,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A mock server that takes KEY, and the environment that points the CLI at it. */
async function serve(...replies: ScriptedReply[]): Promise<{ server: MockServer; env: Record<string, string> }> {
  const server = await startMockServer({ apiKeys: { [KEY]: 'all' } });
  servers.push(server);
  server.enqueue(...replies);
  return { server, env: { INFERENCE_BASE_URL: server.url, INFERENCE_API_KEY: KEY } };
}

const chunk = (content: string) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'mock/echo',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});
/** A chat stream whose text comes in exactly these deltas. */
const streamOf = (...deltas: string[]): ScriptedReply => ({ path: '/chat/completions', events: [...deltas.map(chunk), '[DONE]'] });
const completionStreamOf = (...deltas: string[]): ScriptedReply => ({
  path: '/completions',
  events: [...deltas.map((text) => ({ id: 'c1', object: 'text_completion', created: 1, model: 'mock/echo', choices: [{ index: 0, text, finish_reason: null }] })), '[DONE]'],
});

// Everything a server could use to drive a terminal: erase the screen, retitle the window (OSC 0
// ended by BEL), a hyperlink (OSC 8 ended by ST), a C1 CSI (U+009B), and a bare CR to overwrite.
const HOSTILE = 'A\u001b[2J\u001b]0;pwned\u0007\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\\u009b31m\rZ';
const ESCAPED = 'A\\x1b[2J\\x1b]0;pwned\\x07\\x1b]8;;https://evil.example/\\x1b\\click\\x1b]8;;\\x1b\\\\x9b31m\\rZ';

/** The CLI's own colours, the only escape sequences it may write. */
// eslint-disable-next-line no-control-regex
const OWN_SGR = /\u001b\[(?:1|2|22|31|32|33|36|39)m/g;
/** No control character of the server's: none but line feeds (and CRLF), once the CLI's colours are taken out. */
function expectInert(text: string, options: { spinner?: boolean } = {}): void {
  let rest = text.replace(OWN_SGR, '');
  // The spinner's frames: a CR, a frame, its label; erased with spaces between CRs.
  if (options.spinner === true) rest = rest.replace(/\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏][^\r]*/g, '').replace(/\r +\r/g, '');
  // eslint-disable-next-line no-control-regex
  expect(rest).not.toMatch(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/);
}

describe('the terminal is safe: a server’s text cannot drive it (item 4)', () => {
  const model = (id: string, extra: Record<string, unknown> = {}) => ({ id, object: 'model', created: 1, owned_by: `owner ${HOSTILE}`, name: `name ${HOSTILE}`, ...extra });

  for (const tty of [false, true]) {
    const where = tty ? 'on a terminal' : 'in a pipe';

    it(`models: ids, names and owners are escaped, in the table and in 'models get' (${where})`, async () => {
      const list = { object: 'list', data: [model(`acme/${HOSTILE}`), model('acme/plain')] };
      const { env } = await serve({ path: '/models', body: list }, { path: '/models/acme/evil', body: model(`acme/${HOSTILE}`, { [`x-${HOSTILE}`]: HOSTILE }) });
      const table = await cli(['models'], { env, tty });
      expect(table).toMatchObject({ code: 0, stderr: '' });
      expectInert(table.stdout);
      expect(table.stdout).toContain(`acme/${ESCAPED}`);
      expect(table.stdout).toContain(`name ${ESCAPED}`);
      // Still a table: one line per model under the header.
      expect(table.stdout.replace(OWN_SGR, '').split('\n').filter((l) => l.startsWith('acme/'))).toHaveLength(2);

      const one = await cli(['models', 'get', 'acme/evil'], { env, tty });
      expect(one).toMatchObject({ code: 0, stderr: '' });
      expectInert(one.stdout);
      expect(one.stdout).toContain(`owner ${ESCAPED}`);
      expect(one.stdout).toContain(`x-${ESCAPED}`);
    });

    it(`an error message from the server is escaped (${where})`, async () => {
      const { env } = await serve({ error: { status: 400, message: `bad request ${HOSTILE}` } }, { error: { status: 403, message: `denied ${HOSTILE}` } });
      const chat = await cli(['chat', '-m', 'mock/echo', 'hi'], { env, tty });
      expect(chat.code).toBe(1);
      expectInert(chat.stderr, { spinner: tty });
      expect(chat.stderr).toContain(`bad request ${ESCAPED}`);
      const models = await cli(['models'], { env, tty });
      expect(models.code).toBe(1);
      expectInert(models.stderr);
      expect(models.stderr).toContain(`denied ${ESCAPED}`);
    });

    it(`streamed text is escaped in chat and complete; --raw prints it as it came (${where})`, async () => {
      const { env } = await serve(streamOf('one ', HOSTILE, ' two'), completionStreamOf(HOSTILE), streamOf(HOSTILE));
      const chat = await cli(['chat', '-m', 'mock/echo', 'hi'], { env, tty });
      expect(chat.code).toBe(0);
      expectInert(chat.stdout);
      expect(chat.stdout.replace(OWN_SGR, '')).toBe(`one ${ESCAPED} two\n`);
      const complete = await cli(['complete', '-m', 'mock/echo', 'hi'], { env, tty });
      expect(complete.code).toBe(0);
      expect(complete.stdout.replace(OWN_SGR, '')).toBe(`${ESCAPED}\n`);
      const raw = await cli(['chat', '--raw', '-m', 'mock/echo', 'hi'], { env, tty });
      expect(raw).toMatchObject({ code: 0, stdout: `${HOSTILE}\n` });
    });
  }

  it('the first ready model’s id, used when no -m is given, is escaped in the spinner and the notes', async () => {
    const { env } = await serve({ path: '/models', body: { object: 'list', data: [model(`acme/${HOSTILE}`)] } }, streamOf('ok'));
    const chat = await cli(['chat', '-v', 'hi'], { env, tty: true });
    expect(chat.code).toBe(0);
    expectInert(chat.stderr, { spinner: true });
    expect(chat.stderr).toContain(`model: acme/${ESCAPED}`);
  });

  it('line ends are kept: LF, tabs and CRLF, also a CRLF split across two deltas; a CR alone is escaped', async () => {
    const { env } = await serve(streamOf('a\r\nb\tc\n', 'd\r', '\ne\r', 'f'), completionStreamOf('x\r'));
    expect(await cli(['chat', '-m', 'mock/echo', 'hi'], { env })).toMatchObject({ code: 0, stdout: 'a\r\nb\tc\nd\r\ne\\rf\n' });
    // A CR that ends the stream is bare too.
    expect(await cli(['complete', '-m', 'mock/echo', 'hi'], { env })).toMatchObject({ code: 0, stdout: 'x\\r\n' });
  });

  it('--json keeps every chunk and escapes C1 controls (JSON.stringify leaves them raw); the JSON reads back the same', async () => {
    const { env } = await serve(streamOf(HOSTILE), { path: '/models', body: { object: 'list', data: [model(`acme/${HOSTILE}`)] } });
    const chat = await cli(['chat', '--json', '-m', 'mock/echo', 'hi'], { env });
    expect(chat.code).toBe(0);
    expectInert(chat.stdout);
    const lines = chat.stdout.trim().split('\n').map((line) => JSON.parse(line) as ReturnType<typeof chunk>);
    expect(lines.map((l) => l.choices[0]?.delta.content).join('')).toBe(HOSTILE);
    const models = await cli(['models', '--json'], { env });
    expect(models.code).toBe(0);
    expectInert(models.stdout);
    expect((JSON.parse(models.stdout) as { data: { id: string }[] }).data[0]?.id).toBe(`acme/${HOSTILE}`);
  });

  it('--raw is for the text output: with --json it is a usage error, and the help of chat and complete explains it', async () => {
    for (const command of ['chat', 'complete']) {
      const both = await cli([command, '--raw', '--json', '--mock', 'hi']);
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('--raw goes with the text output, not --json');
      expect(both.stderr).toContain(`Usage: model-inference-sdk ${command}`);
      const help = await cli([command, '--help']);
      expect(help.stdout).toMatch(/--raw\s+print the reply's control characters as they come/);
    }
  });
});

describe('the CLI never prints the key (item 3)', () => {
  it('not when a model streams it back split across deltas (chat, complete, --raw)', async () => {
    const pieces = [`your key is ${KEY.slice(0, 5)}`, KEY.slice(5, 17), KEY.slice(17), ' ok'];
    const { env } = await serve(streamOf(...pieces), completionStreamOf(...pieces), streamOf(...pieces));
    for (const args of [['chat'], ['complete'], ['chat', '--raw']]) {
      const run = await cli([...args, '-m', 'mock/echo', 'hi'], { env });
      expect(run).toMatchObject({ code: 0, stdout: 'your key is *** ok\n' });
    }
  });

  it('not one character at a time, nor cut off mid-key at the end of the stream', async () => {
    const { env } = await serve(streamOf(...[...`k=${KEY}.`]), streamOf('k=', KEY.slice(0, 12)));
    expect(await cli(['chat', '-m', 'mock/echo', 'hi'], { env })).toMatchObject({ code: 0, stdout: 'k=***.\n' });
    const cut = await cli(['chat', '-m', 'mock/echo', 'hi'], { env });
    expect(cut.stdout).toBe('k=***\n');
  });

  it('not in --json chunks: a chunk that may end in the start of the key waits for the next one', async () => {
    const { env } = await serve(streamOf('a ', `${KEY.slice(0, 9)}`, `${KEY.slice(9)} b`, ' c'), streamOf('x ', KEY.slice(0, 10)));
    const run = await cli(['chat', '--json', '-m', 'mock/echo', 'hi'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(KEY.slice(0, 9));
    const contents = run.stdout.trim().split('\n').map((line) => (JSON.parse(line) as ReturnType<typeof chunk>).choices[0]?.delta.content);
    expect(contents).toEqual(['a ', '', '*** b', ' c']);
    // The stream ends inside the key: what was held is masked, in the last chunk.
    const cut = await cli(['chat', '--json', '-m', 'mock/echo', 'hi'], { env });
    expect(cut.stdout.trim().split('\n').map((line) => (JSON.parse(line) as ReturnType<typeof chunk>).choices[0]?.delta.content)).toEqual(['x ', '***']);
  });

  it('text that only looks like the start of the key flows on unchanged', async () => {
    const { env } = await serve(streamOf('the s', 'ky is s', 'k', '-blue'));
    expect(await cli(['chat', '-m', 'mock/echo', 'hi'], { env })).toMatchObject({ code: 0, stdout: 'the sky is sk-blue\n' });
  });

  it('not the password of a --base-url that does not parse, nor of INFERENCE_BASE_URL or mock-server --record', async () => {
    const password = 'hunter2-pa/ss#word';
    const bad = `https://me:${password}@[::1/v1`;
    for (const [args, env] of [
      [['models', '--base-url', bad], { INFERENCE_API_KEY: KEY }],
      [['chat', `--base-url=${bad}`, 'hi'], { INFERENCE_API_KEY: KEY }],
      [['models'], { INFERENCE_API_KEY: KEY, INFERENCE_BASE_URL: bad }],
      [['mock-server', '--record', bad, '--cassette', 'never-written.json'], {}],
    ] as const) {
      const run = await cli(args, { env });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('Usage: model-inference-sdk');
      expect(run.stderr).toContain('https://***@[::1/v1');
      for (const part of ['hunter2', 'pa/ss', 'ss#word', KEY]) expect(run.stderr + run.stdout).not.toContain(part);
    }
    // A token as the user name (no password) is a secret too; a user name beside a password is not.
    const token = await cli(['models', '--base-url', 'https://ghp_t0ken-5e3f9a@[::1/v1'], { env: { INFERENCE_API_KEY: KEY } });
    expect(token.code).toBe(2);
    expect(token.stderr).not.toContain('t0ken');
    const named = await cli(['models', '--base-url', `https://alice:${password}@[::1/v1`], { env: { INFERENCE_API_KEY: KEY } });
    expect(named.stderr).not.toContain('hunter2');
    expect(named.stderr).toContain('--base-url is not a URL');
  });
});

describe('--param cannot replace the body or pass the stream guard (item 6, CLI)', () => {
  const cases = [
    ['__proto__={"stream":false}', "--param __proto__: '__proto__' would set the body's prototype"],
    ['constructor={"prototype":{"stream":false}}', "--param constructor: 'constructor' names an object's class"],
    ['toJSON={"model":"other","stream":false}', "--param toJSON: 'toJSON' would replace the body"],
    ['provider={"order":[{"__proto__":{"stream":false}}]}', "--param provider: its value has the key '__proto__' (at provider.order[0].__proto__)"],
    ['provider={"toJSON":1}', "--param provider: its value has the key 'toJSON' (at provider.toJSON)"],
  ] as const;
  for (const [param, message] of cases) {
    it(`--param ${param} is a usage error (exit 2), and nothing is sent`, async () => {
      const { server, env } = await serve();
      for (const command of ['chat', 'complete']) {
        const run = await cli([command, '-m', 'mock/echo', '--param', param, 'hi'], { env });
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(message);
        expect(run.stderr).toContain(`Usage: model-inference-sdk ${command}`);
      }
      expect(server.requests).toHaveLength(0);
    });
  }

  it('ordinary parameters still go into the body, and stream stays guarded', async () => {
    const { server, env } = await serve();
    const run = await cli(['chat', '-m', 'mock/echo', '--param', 'top_k=40', '--param', 'provider={"sort":"price"}', 'hi'], { env });
    expect(run.code).toBe(0);
    expect(server.requests[0]?.body).toMatchObject({ top_k: 40, provider: { sort: 'price' }, stream: true });
    const stream = await cli(['chat', '-m', 'mock/echo', '--param', 'stream=false', 'hi'], { env });
    expect(stream).toMatchObject({ code: 2 });
    expect(stream.stderr).toContain('--param stream: chat always streams');
  });
});

describe('model ids that are file paths (llama.cpp, vLLM)', () => {
  it('models get and -m take /models/qwen.gguf, sent as one encoded segment; a .. segment stays refused', async () => {
    const paths: string[] = [];
    const http = await import('node:http');
    const model = { id: '/models/qwen.gguf', object: 'model', created: 1, owned_by: 'llamacpp' };
    const server = http.createServer((req, res) => {
      paths.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(req.url?.endsWith('/models') ? { object: 'list', data: [model] } : model));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const env = { INFERENCE_BASE_URL: `http://127.0.0.1:${port}/v1`, INFERENCE_API_KEY: KEY };
      const got = await cli(['models', 'get', '/models/qwen.gguf'], { env });
      expect(got.code).toBe(0);
      expect(got.stdout).toContain('/models/qwen.gguf');
      expect(paths).toEqual(['/v1/models/%2Fmodels%2Fqwen.gguf']);
      const refused = await cli(['models', 'get', '/models/../etc'], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("'/models/../etc' is not a model slug");
      expect(paths).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
