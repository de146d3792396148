// The `model-inference-sdk` command, piped, against a loopback server that lies: docs/cli.md
// ("The key is never printed", "A server cannot drive your terminal", exit codes). The command
// runs as a user runs it, in a child process: from source through tsx, or the built bin when
// CLI_BIN is set (CLI_BIN=dist/cli.js), with no INFERENCE_* variable of the developer's.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunk, completion, event, json, KEY, serve, sse, sseHead, textChunks, type Handler, type TestServer } from './support';

const bin = process.env['CLI_BIN'];
const CLI = bin === undefined ? ['--import', 'tsx', 'src/cli/index.ts'] : [bin];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(INFERENCE_|NO_COLOR$|FORCE_COLOR$|CLI_BIN$)/.test(k)) env[k] = v;
  return { ...env, TERM: 'xterm-256color', ...extra };
}

/** Runs the command with pipes (stdin closed at once); kills it after a generous bound. */
function cli(args: string[], extraEnv: Record<string, string> = {}, onStdout?: (child: ReturnType<typeof spawn>, text: string) => void): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI, ...args], { stdio: 'pipe', env: cleanEnv({ INFERENCE_BASE_URL: server.baseURL, INFERENCE_API_KEY: KEY, ...extraEnv }) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(child, stdout);
    });
    child.stdout.on('error', () => {});
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

let server: TestServer;
beforeAll(async () => {
  server = await serve((_req, res) => json(res, { object: 'list', data: [] }));
});
afterAll(() => server.close());

const model = (id: string, extra: Record<string, unknown> = {}) => ({ id, object: 'model', created: 1735689600, owned_by: 'acme', name: id, is_ready: true, ...extra });

/** Answers GET /models (and /models/{id}) with `models`, and a chat with `onChat`. */
function serverWith(onChat: Handler, models = [model('acme/chat-1')]): void {
  server.handle((req, res, seen) => {
    if (req.method === 'GET' && req.url === '/v1/models') return json(res, { object: 'list', data: models });
    if (req.method === 'GET' && req.url?.startsWith('/v1/models/')) return json(res, models[0]);
    return onChat(req, res, seen);
  });
}

// Control characters a server could use to drive a terminal, and what docs/cli.md says they print as.
const HOSTILE = 'A\u001b[2J\u001b]0;pwned\u0007\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\\rB\u009b31mC';
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/; // everything but \t and \n

describe('a server cannot drive your terminal', () => {
  it('streamed text: ESC, OSC, BEL, a bare CR and C1 print as escapes; line feeds and tabs stay', async () => {
    serverWith((_req, res) => sse(res, textChunks([HOSTILE, '\nline\ttwo'])));
    const r = await cli(['chat', '-m', 'acme/chat-1', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain('\\x1b[2J');
    expect(r.stdout).toContain('\\x07');
    expect(r.stdout).toContain('\\r');
    expect(r.stdout).toContain('\\x9b');
    expect(r.stdout).toContain('\nline\ttwo');
  });

  it('the models table: ids, names and owners with control characters and line breaks are escaped', async () => {
    serverWith(() => {}, [model(`acme/x\u001b[31m`, { name: 'two\nlines\u009b', owned_by: 'o\u0007wner' })]);
    const r = await cli(['models']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain('\\x1b[31m');
    expect(r.stdout.split('\n').filter((l) => l.includes('acme/x')).length).toBe(1);
  });

  it('--json: C1 controls as \\u009b, ESC as \\u001b, and every line is the same JSON', async () => {
    serverWith((_req, res) => sse(res, textChunks([HOSTILE])));
    const r = await cli(['chat', '-m', 'acme/chat-1', '--json', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain('\\u009b');
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { choices: { delta: { content?: string } }[] });
    expect(lines.map((l) => l.choices[0]?.delta.content ?? '').join('')).toBe(HOSTILE);
  });

  it('an error message from the server with control characters: escaped on stderr, exit 1, the class named', async () => {
    serverWith((_req, res) => json(res, { error: { message: `bad \u001b]0;pwned\u0007 request\u009b2J`, type: 'invalid_request_error' } }, 400));
    const r = await cli(['chat', '-m', 'acme/chat-1', 'hi']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('BadRequestError');
    expect(r.stderr).not.toMatch(RAW_CONTROL);
  });

  it('a 200 HTML page whose title holds escapes: exit 1, escaped', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>Sign in\u001b[2J\u0007</title></head></html>');
    });
    const r = await cli(['models']);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
  });
});

describe('the key is never printed', () => {
  const pieces = [KEY.slice(0, 7), KEY.slice(7, 15), KEY.slice(15)];
  const shows = (r: Result) => `${r.stdout}\n${r.stderr}`.includes(KEY) || `${r.stdout}\n${r.stderr}`.includes(pieces[1]!);

  it('split across three content deltas: printed as ***', async () => {
    serverWith((_req, res) => sse(res, textChunks(['Your key is ', ...pieces, '.'])));
    const r = await cli(['chat', '-m', 'acme/chat-1', 'hi']);
    expect(r.code).toBe(0);
    expect(shows(r)).toBe(false);
    expect(r.stdout).toContain('Your key is ***.');
  });

  it('a stream that stops inside the key ends with ***', async () => {
    serverWith((_req, res) => sse(res, textChunks(['Key: ', pieces[0]!, pieces[1]!])));
    const r = await cli(['chat', '-m', 'acme/chat-1', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(pieces[1]);
    expect(r.stdout.trimEnd().endsWith('***')).toBe(true);
  });

  // Issue 29 §1: `chat --json` guards every streamed text of a chunk, reasoning_content deltas too.
  it('--json, split across reasoning_content deltas', async () => {
    serverWith((_req, res) => sse(res, [chunk({ role: 'assistant', content: '' }), ...pieces.map((p) => chunk({ reasoning_content: p })), chunk({ content: 'ok' }), chunk({}, 'stop')]));
    const r = await cli(['chat', '-m', 'acme/chat-1', '--json', 'hi']);
    expect(r.code).toBe(0);
    expect(shows(r)).toBe(false);
  });

  // And tool-call argument fragments.
  it('--json, split across tool-call argument fragments', async () => {
    serverWith((_req, res) =>
      sse(res, [
        chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: `{"k":"${pieces[0]}` } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: pieces[1] } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: `${pieces[2]}"}` } }] }),
        chunk({}, 'tool_calls'),
      ]),
    );
    const r = await cli(['chat', '-m', 'acme/chat-1', '--json', 'hi']);
    expect(shows(r)).toBe(false);
  });

  // Reasoning printed as text (not --json) crosses writes too: "every line ... has the key replaced".
  it('split across reasoning deltas, as text', async () => {
    serverWith((_req, res) => sse(res, [chunk({ role: 'assistant', content: '' }), ...pieces.map((p) => chunk({ reasoning_content: p })), chunk({ content: 'answer' }), chunk({}, 'stop')]));
    const r = await cli(['chat', '-m', 'acme/chat-1', 'hi']);
    expect(r.code).toBe(0);
    expect(shows(r)).toBe(false);
  });

  // The forms the SDK's errors and logs mask (util/mask.ts secretForms), split across deltas too.
  it('inside base64 (a Basic credential), split across deltas: printed as ***', async () => {
    const basic = btoa(`user:${KEY}`);
    serverWith((_req, res) => sse(res, textChunks(['Basic ', basic.slice(0, 12), basic.slice(12), '.'])));
    for (const args of [['chat', '-m', 'acme/chat-1', 'hi'], ['chat', '-m', 'acme/chat-1', '--raw', 'hi'], ['chat', '-m', 'acme/chat-1', '--json', 'hi']]) {
      const r = await cli(args);
      expect(r.code).toBe(0);
      const all = `${r.stdout}\n${r.stderr}`;
      expect(all).not.toContain(basic.slice(8, 30));
      expect(all).not.toContain(KEY);
      expect(all).toContain('***');
    }
  });

  it('echoed by a 401 body and header: masked on stderr, exit 1, "Check the API key"', async () => {
    serverWith((_req, res) => json(res, { error: { message: `Incorrect API key provided: ${KEY}` } }, 401, { 'www-authenticate': `Bearer realm="${KEY}"`, 'x-request-id': KEY }));
    const r = await cli(['chat', '-m', 'acme/chat-1', '-v', 'hi']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Check the API key/);
    expect(shows(r)).toBe(false);
  });

  it('as a model id and name in the models table, and with --verbose', async () => {
    serverWith(() => {}, [model(KEY, { name: `name ${KEY}` })]);
    const r = await cli(['models', '-v']);
    expect(r.code).toBe(0);
    expect(shows(r)).toBe(false);
  });

  it('given with --api-key, in a usage error of the same command line', async () => {
    const r = await cli(['chat', '--api-key', KEY, '--base-url', server.baseURL, '--modle', 'x', 'hi'], { INFERENCE_API_KEY: '' });
    expect(r.code).toBe(2);
    expect(shows(r)).toBe(false);
  });
});

describe('a server that lies about sizes and lines', () => {
  it('a single event of 17 M characters (over the 16 MiB default): exit 1 with a message, no crash', async () => {
    serverWith((_req, res) => {
      sseHead(res);
      event(res, chunk({ role: 'assistant', content: '' }));
      res.write(`data: ${JSON.stringify(chunk({ content: 'x'.repeat(17 * 1024 * 1024) }))}\n\n`);
      res.end();
    });
    const r = await cli(['chat', '-m', 'acme/chat-1', 'hi']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/maxEventSize|too large|larger/i);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  }, 120_000);

  it('a chat reply that is not a stream (JSON where SSE was asked): printed, or exit 1 with a message', async () => {
    serverWith((_req, res) => json(res, completion({ content: 'plain JSON' })));
    const r = await cli(['chat', '-m', 'acme/chat-1', 'hi']);
    expect([0, 1]).toContain(r.code);
    if (r.code === 1) expect(r.stderr).toMatch(/^model-inference-sdk chat: /);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('`models | head -1`: the pipe closed early ends the command quietly', async () => {
    serverWith(() => {}, Array.from({ length: 20_000 }, (_, i) => model(`acme/model-${i}`, { name: `Model number ${i} `.repeat(4) })));
    const r = await cli(['models'], {}, (child, text) => {
      if (text.includes('\n')) child.stdout?.destroy();
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  }, 120_000);
});

describe('--param', () => {
  it.each(['__proto__={"stream":true}', 'x={"a":{"constructor":{"prototype":1}}}', 'toJSON=1'])('%s is a usage error, nothing sent', async (param) => {
    serverWith((_req, res) => sse(res, textChunks(['sent'])));
    const before = server.requests.filter((r) => r.method === 'POST').length;
    const r = await cli(['chat', '-m', 'acme/chat-1', '--param', param, 'hi']);
    expect(r.code).toBe(2);
    expect(server.requests.filter((q) => q.method === 'POST').length).toBe(before);
  });
});
