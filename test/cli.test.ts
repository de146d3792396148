// `model-inference-sdk models | chat | complete` with pipes (no terminal), against the local mock server:
// output, requests sent, exit codes, no colours, and the key never shown. Most cases run in this
// process through the bin's own entry (cli-support.ts); a signal, the version and piped input also
// run as a child process. The pseudo-terminal side (spinner, colours, the interactive session,
// Ctrl-C) is in test/cli-pty.test.ts.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMockServer } from '../src/testing/index';
import { ANSI, CLI, SECRET_KEY, cleanEnv, killLeftovers, runCli, spawnCli, start, type Result } from './cli-support';
import { useMockServer } from './support/mock-server';

vi.setConfig({ testTimeout: 60_000 });

const { server } = useMockServer({
  apiKeys: { [SECRET_KEY]: 'all' },
  models: [
    { id: 'acme/loading', is_ready: false },
    { id: 'acme/chat-1', name: 'Chat One', context_length: 131072, max_output_length: 8192, supported_features: ['tools', 'reasoning'], pricing: [{ prompt: '0.0000003', completion: '0.0000015', input_cache_read: '0.00000007500' }] },
    { id: 'acme/base-1' },
  ],
});
let env: Record<string, string>;
/** Every run's output, and whether FORCE_COLOR asked for colours. */
const outputs: (Result & { forced: boolean })[] = [];

/** Runs the CLI against the test server (key and URL in the environment), keeping every output for the key check. */
async function cli(args: readonly string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<Result> {
  const result = await runCli(args, { ...options, env: { ...env, ...options.env } });
  outputs.push({ ...result, forced: options.env?.['FORCE_COLOR'] !== undefined && options.env['NO_COLOR'] === undefined });
  return result;
}

beforeAll(() => {
  env = { INFERENCE_API_KEY: SECRET_KEY, INFERENCE_BASE_URL: server.url };
});
afterEach(() => {
  killLeftovers();
  server.clear();
});

describe('model-inference-sdk models', () => {
  it('prints a table with limits, features, readiness and exact per-token prices', async () => {
    const { code, stdout, stderr } = await cli(['models']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^SLUG\s+NAME\s+CONTEXT\s+MAX OUTPUT\s+FEATURES\s+READY\s+PRICES \(PROMPT \/ COMPLETION \/ CACHE READ\)$/);
    expect(lines[1]).toMatch(/^acme\/loading\s+loading\s+8192\s+4096\s+-\s+no\s+0 \/ 0 \/ 0$/);
    expect(lines[2]).toMatch(/^acme\/chat-1\s+Chat One\s+131072\s+8192\s+tools,reasoning\s+yes\s+0\.0000003 \/ 0\.0000015 \/ 0\.000000075$/);
    expect(stdout).toContain("Prices are per token, in the service's currency.");
    expect(stdout).not.toMatch(ANSI);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /models']);
    // `models list` is the same
    expect((await cli(['models', 'list'])).stdout).toBe(stdout);
  });

  it('--json prints the response body', async () => {
    const { code, stdout } = await cli(['models', '--json']);
    expect(code).toBe(0);
    const body = JSON.parse(stdout) as { object: string; data: { id: string }[] };
    expect(body.data.map((m) => m.id)).toEqual(['acme/loading', 'acme/chat-1', 'acme/base-1']);
  });

  it('models get <slug> prints every field; --json the body', async () => {
    const { code, stdout } = await cli(['models', 'get', 'acme/chat-1']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^slug\s+acme\/chat-1$/m);
    expect(stdout).toMatch(/^context\s+131072 tokens$/m);
    expect(stdout).toMatch(/^max output\s+8192 tokens$/m);
    expect(stdout).toMatch(/^features\s+tools, reasoning$/m);
    expect(stdout).toMatch(/^ready\s+yes$/m);
    expect(stdout).toMatch(/^prices\s+prompt 0\.0000003, completion 0\.0000015, cache read 0\.000000075 per token/m);
    expect(stdout).not.toMatch(ANSI);
    const json = await cli(['models', 'get', 'acme/chat-1', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 'acme/chat-1', context_length: 131072, pricing: [{ input_cache_read: '0.00000007500' }] });
  });

  it("an unknown model exits 1 with the error class and message, and points to 'model-inference-sdk models'", async () => {
    const { code, stdout, stderr } = await cli(['models', 'get', 'acme/nope']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'model-inference-sdk models: NotFoundError: 404 GET /v1/models/acme/nope: The model `acme/nope` is not available on this API.\n' +
        "Run 'model-inference-sdk models' to see the models you can use.\n",
    );
  });
});

describe('model-inference-sdk chat', () => {
  it('streams the reply to a prompt given as arguments, with the first ready model', async () => {
    const { code, stdout, stderr } = await cli(['chat', 'Hello', 'there']);
    // acme/chat-1 supports reasoning, so the mock reasons: on stderr, marked, apart from the answer.
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'You said: Hello there\n', stderr: '[reasoning]\nThe user said "Hello there". I will repeat it.\n[/reasoning]\n' });
    const chat = server.requests.find((r) => r.path === '/chat/completions');
    expect(chat?.body).toEqual({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hello there' }], stream: true });
    expect(chat?.headers['authorization']).toBe(`Bearer ${SECRET_KEY}`);
  });

  it('reads the prompt from piped stdin; -m, -s, --max-tokens and --temperature go into the request', async () => {
    const { code, stdout } = await cli(['chat', '-m', 'acme/base-1', '-s', 'Be terse.', '--max-tokens', '3', '--temperature', '0.5'], { stdin: 'one two three four\n' });
    expect(code).toBe(0);
    expect(stdout).toBe('You said: one\n'); // 3 tokens
    expect(server.requests).toHaveLength(1); // -m: no model lookup
    expect(server.requests[0]?.body).toEqual({
      model: 'acme/base-1',
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'one two three four' },
      ],
      stream: true,
      max_tokens: 3,
      temperature: 0.5,
    });
  });

  it('--param sends a server\'s own parameters in the body: JSON values as JSON, others as text', async () => {
    const chat = await cli(['chat', '-m', 'acme/chat-1', '--param', 'top_k=40', '--param', 'provider={"sort":"price"}', '--param', 'grammar=root ::= "a"', 'hi']);
    expect(chat.code).toBe(0);
    expect(server.requests[0]?.body).toEqual({
      model: 'acme/chat-1',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      top_k: 40,
      provider: { sort: 'price' },
      grammar: 'root ::= "a"',
    });
    const complete = await cli(['complete', '-m', 'acme/base-1', '--param', 'min_p=0.1', 'Once']);
    expect(complete.code).toBe(0);
    expect(server.requests[1]?.body).toMatchObject({ prompt: 'Once', min_p: 0.1 });
  });

  it('takes the model from INFERENCE_MODEL when -m is not given', async () => {
    expect((await cli(['chat', 'hi'], { env: { INFERENCE_MODEL: 'acme/base-1' } })).code).toBe(0);
    expect(server.requests.map((r) => (r.body as { model?: string } | undefined)?.model)).toEqual(['acme/base-1']);
  });

  it('--json prints each raw chunk as one JSON line', async () => {
    const { code, stdout } = await cli(['chat', '--json', 'a b']);
    expect(code).toBe(0);
    const chunks = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { object: string; choices: { delta: { content?: string }; finish_reason: string | null }[] });
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('You said: a b');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('--verbose logs the requests, the model and the usage on stderr, with the key redacted', async () => {
    const { code, stdout, stderr } = await cli(['chat', '-v', '--api-key', SECRET_KEY, 'count me']);
    expect(code).toBe(0);
    expect(stdout).toBe('You said: count me\n');
    expect(stderr).toContain(`GET ${server.url}/models`);
    expect(stderr).toContain("authorization: '***'");
    expect(stderr).toContain('model: acme/chat-1 (the first ready model)');
    // 4 tokens of answer and 9 of reasoning: 2 × 0.0000003 + 13 × 0.0000015.
    expect(stderr).toContain('usage: 2 prompt + 13 completion tokens; cost 0.0000201');
  });

  it('an empty stdin is a usage error (2); a piped one is the prompt (a real pipe, in a child process)', async () => {
    const { code, stderr } = await cli(['chat'], { stdin: '' });
    expect(code).toBe(2);
    expect(stderr).toContain('model-inference-sdk chat: no prompt');
    const piped = await spawnCli(['chat', '-m', 'acme/chat-1'], { env, stdin: 'through a pipe\n' });
    expect(piped).toMatchObject({ code: 0, stdout: 'You said: through a pipe\n', stderr: '[reasoning]\nThe user said "through a pipe". I will repeat it.\n[/reasoning]\n' });
  });

  it("a model's reasoning: on stderr between marker lines, apart from the answer; harmless; not with --json", async () => {
    // A server's reasoning with a screen-clearing escape, a window title and the key in it.
    const hostile = `Think \u001b[2J\u001b]0;pwned\u0007 about ${SECRET_KEY} now`;
    server.enqueue({ reply: { reasoning: hostile, content: 'Answer.' } });
    const piped = await cli(['chat', '-m', 'acme/chat-1', 'hi']);
    expect(piped).toMatchObject({ code: 0, stdout: 'Answer.\n' });
    expect(piped.stderr).toBe('[reasoning]\nThink \\x1b[2J\\x1b]0;pwned\\x07 about *** now\n[/reasoning]\n');
    // NO_COLOR and FORCE_COLOR: colours follow the usual rules; with them on, dim and labelled.
    server.enqueue({ reply: { reasoning: 'Hmm.', content: 'Yes.' } });
    const coloured = await cli(['chat', '-m', 'acme/chat-1', 'hi'], { env: { FORCE_COLOR: '1' } });
    expect(coloured.stderr).toBe('\u001b[2mReasoning: \u001b[22m\u001b[2mHmm.\u001b[22m\n');
    expect(coloured.stdout).toBe('Yes.\n');
    server.enqueue({ reply: { reasoning: 'Hmm.', content: 'Yes.' } });
    const noColour = await cli(['chat', '-m', 'acme/chat-1', 'hi'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(noColour.stderr).toBe('[reasoning]\nHmm.\n[/reasoning]\n');
    // --json: the chunks as they are (the reasoning is in them), nothing on stderr.
    const json = await cli(['chat', '-m', 'acme/chat-1', '--json', 'hi']);
    expect(json.stderr).toBe('');
    const deltas = json.stdout.trimEnd().split('\n').map((line) => (JSON.parse(line) as { choices: { delta: { reasoning?: string } }[] }).choices[0]?.delta.reasoning ?? '');
    expect(deltas.join('')).toBe('The user said "hi". I will repeat it.');
    // A model without reasoning prints no marker.
    expect((await cli(['chat', '-m', 'acme/base-1', 'hi'])).stderr).toBe('');
  });

  it('exits 130 on SIGINT during a stream, and prints what came before', async () => {
    const slow = await startMockServer({ apiKeys: { [SECRET_KEY]: 'all' }, chunkDelayMs: 100 });
    try {
      const run = start(process.execPath, [...CLI, 'chat', '-m', 'mock/echo', 'one two three four five six seven eight nine ten eleven twelve'], cleanEnv({ ...env, INFERENCE_BASE_URL: slow.url }));
      run.child.stdin.end();
      await run.waitFor(/You said: /);
      run.child.kill('SIGINT');
      expect(await run.exit).toEqual({ code: 130, signal: null });
      expect(run.stdout()).toMatch(/^You said: [^\n]*\n$/);
      expect(run.stdout()).not.toContain('twelve');
      expect(run.stderr()).toBe('(interrupted)\n');
    } finally {
      await slow.close();
    }
  });
});

describe('model-inference-sdk complete', () => {
  it('a reply cut at the token limit, or stopped by a content filter, says so on stderr (stdout keeps the text alone)', async () => {
    const cut = await cli(['chat', '-m', 'acme/base-1', '--max-tokens', '1', 'hello world']);
    expect({ code: cut.code, stdout: cut.stdout, stderr: cut.stderr }).toEqual({
      code: 0,
      stdout: 'You\n',
      stderr: '(cut at the token limit: finish_reason length; raise --max-tokens, or ask for less)\n',
    });
    const legacy = await cli(['complete', '-m', 'acme/base-1', '--max-tokens', '2', 'hello world']);
    expect(legacy.stderr).toBe('(cut at the token limit: finish_reason length; raise --max-tokens, or ask for less)\n');
    server.enqueue({ reply: { content: 'Some', finish_reason: 'content_filter' } });
    const filtered = await cli(['chat', '-m', 'acme/base-1', 'hi']);
    expect({ stdout: filtered.stdout, stderr: filtered.stderr }).toEqual({ stdout: 'Some\n', stderr: "(stopped by the server's content filter: finish_reason content_filter)\n" });
    const whole = await cli(['chat', '-m', 'acme/base-1', 'hi']);
    expect({ stdout: whole.stdout, stderr: whole.stderr }).toEqual({ stdout: 'You said: hi\n', stderr: '' });
    const json = await cli(['chat', '--json', '-m', 'acme/base-1', '--max-tokens', '1', 'hello world']);
    expect(json.stderr).toBe('');
  });

  it('streams a completion from the legacy endpoint, from arguments or piped stdin', async () => {
    const byArgs = await cli(['complete', '-m', 'acme/base-1', 'Once upon a time']);
    expect({ code: byArgs.code, stdout: byArgs.stdout }).toEqual({ code: 0, stdout: 'You said: Once upon a time\n' });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/completions', body: { model: 'acme/base-1', prompt: 'Once upon a time', stream: true } });

    const piped = await cli(['complete', '--max-tokens', '2'], { stdin: 'in a land far away' });
    expect(piped.stdout).toBe('You said:\n');
    expect(server.requests.at(-1)?.body).toMatchObject({ model: 'acme/chat-1', prompt: 'in a land far away', max_tokens: 2 });

    const json = await cli(['complete', '--json', '-m', 'acme/base-1', 'x']);
    const chunks = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { object: string; choices: { text: string }[] });
    expect(chunks.every((c) => c.object === 'text_completion')).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.text).join('')).toBe('You said: x');
  });
});

describe('--mock', () => {
  it('runs models, chat and complete against an in-process mock, with no key or URL', async () => {
    const bare = { INFERENCE_API_KEY: '', INFERENCE_BASE_URL: '' };
    const models = await cli(['models', '--mock'], { env: bare });
    expect(models.code).toBe(0);
    expect(models.stdout).toMatch(/^mock\/echo\s+Mock Echo\s+8192\s+4096\s+tools\s+yes\s+0\.1 \/ 0\.4 \/ 0\.025$/m);
    expect(models.stdout).toMatch(/^mock\/sleeping\s.*\sno\s+0 \/ 0 \/ 0$/m);
    expect(await cli(['chat', '--mock', 'hi'], { env: bare })).toMatchObject({ code: 0, stdout: 'You said: hi\n' });
    expect(await cli(['complete', '--mock', '-m', 'mock/reasoner'], { env: bare, stdin: 'go' })).toMatchObject({ code: 0, stdout: 'You said: go\n' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('errors and exit codes', () => {
  it("usage errors exit 2 in the CLI's words, with a suggestion, the synopsis, and no request sent", async () => {
    const cases: [string[], string, Record<string, string>?][] = [
      [['models', '--bogus'], "unknown option '--bogus'.\n"],
      [['models', '--jsn'], "unknown option '--jsn'. Did you mean '--json'?"],
      [['chat', '--modle', 'acme/chat-1', 'hi'], "unknown option '--modle'. Did you mean '--model'?"],
      [['chat', '--temp', '1', 'hi'], "unknown option '--temp'. Did you mean '--temperature'?"],
      [['chat', '--max_tokens', '5', 'hi'], "unknown option '--max_tokens'. Did you mean '--max-tokens'?"],
      [['chat', '-json', 'hi'], "unknown option '-json'. Did you mean '--json'?"],
      [['chat', '-M', 'acme/chat-1', 'hi'], "unknown option '-M'. Did you mean '-m'?"],
      [['models', '--json=yes'], "'--json' takes no value, got '--json=yes'."],
      [['models', 'get'], 'missing <slug>'],
      [['models', 'lst'], "unknown action 'lst'. Did you mean 'list'?"],
      [['models', 'delete', 'x'], "unknown action 'delete'. Use 'models', 'models list' or 'models get <slug>'."],
      [['models', 'get', '../etc'], "'../etc' is not a model slug: a slug looks like vendor/model (or a server's file path), with no '..' part."],
      [['models', 'get', ''], "missing <slug>: 'models get <vendor/model>'."],
      [['chat', '-m', 'acme/../chat-1', 'hi'], "'acme/../chat-1' is not a model slug (-m)"],
      [['chat', '-m', '', 'hi'], '-m needs a model slug like acme/chat-1, got an empty one.'],
      [['chat', 'hi'], "'acme\\..\\x' is not a model slug (INFERENCE_MODEL)", { INFERENCE_MODEL: 'acme\\..\\x' }],
      [['chat', '--max-tokens', 'lots', 'hi'], "--max-tokens must be an integer from 1 to 10000000, got 'lots'"],
      [['chat', '--temperature', '3', 'hi'], '--temperature must be a number from 0 to 2'],
      // Digits as written: Number() would read these (1e3 as 1000, 0x10 as 16, ' 5' as 5).
      ...['1e3', '0x10', ' 5', '+5', '5.0', ''].map((raw): [string[], string] => [['chat', '--max-tokens', raw, 'hi'], `--max-tokens must be an integer from 1 to 10000000, got '${raw}'`]),
      ...['1e0', '0x1', ' 1', 'Infinity', '1,5', '.'].map((raw): [string[], string] => [['chat', '--temperature', raw, 'hi'], `--temperature must be a number from 0 to 2, got '${raw}'`]),
      [['mock-server', '--port', '8e3'], "--port must be an integer from 0 to 65535, got '8e3'"],
      [['chat', '--param', 'top_k', 'hi'], "--param must be name=value (e.g. --param top_k=40), got 'top_k'."],
      [['complete', '--param', '=1', 'hi'], "--param must be name=value (e.g. --param top_k=40), got '=1'."],
      [['chat', '--param', 'a=1', '--param', 'a=2', 'hi'], '--param a is given twice.'],
      [['chat', '--param', 'temperature=1', 'hi'], '--param temperature: use --temperature.'],
      [['complete', '--param', 'stream=false', 'hi'], '--param stream: complete always streams.'],
      [['chat', '-m'], "'-m, --model <slug>' needs a value."],
      [['chat', '-m', '--json', 'hi'], "'-m, --model <slug>' needs a value, got the option '--json'. To pass a value that starts with '-', write --model=--json."],
      [['models', '--base-url', 'notaurl'], "--base-url is not a URL: 'notaurl'. It looks like https://host/v1."],
      [['models'], "INFERENCE_BASE_URL must be an http:// or https:// URL, got 'ftp:'.", { INFERENCE_BASE_URL: 'ftp://example.com/v1' }],
      [['complete', '--mock', '--base-url', 'http://x/v1', 'hi'], '--mock runs its own server'],
      [['models', '--base-url', 'http://user:pw-secret@127.0.0.1/v1'], '--base-url must not hold a user name or password: give the key with INFERENCE_API_KEY or --api-key.'],
    ];
    const results = await Promise.all(cases.map(([args, , extra]) => cli(args, extra === undefined ? {} : { env: extra })));
    for (const [i, [args, message]] of cases.entries()) {
      const { code, stdout, stderr } = results[i] as Result;
      expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(stderr).toContain(`model-inference-sdk ${args[0] ?? ''}: ${message}`);
      expect(stderr).toContain(`Usage: model-inference-sdk ${args[0] ?? ''}`);
      expect(stderr).toContain(`Run 'model-inference-sdk ${args[0] ?? ''} --help' for every option.`);
      // Neither parseArgs' texts nor the SDK's method and option names.
      expect(stderr).not.toMatch(/Unknown option|argument missing|To specify a positional|models\.retrieve|baseURL|pw-secret/);
    }
    expect(server.requests).toEqual([]);
  });

  it('an unknown command or a misplaced option exits 2 with a suggestion', async () => {
    const unknown = await cli(['chats']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^model-inference-sdk: unknown command 'chats'\. Did you mean 'chat'\?\n\nUsage: model-inference-sdk <command>/);
    const misplaced = await cli(['--mock', 'models']);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toContain("model-inference-sdk: unknown option '--mock': options go after the command (model-inference-sdk <command> [options]). Did you mean 'model-inference-sdk models --mock'?");
    const version = await cli(['-v']);
    expect(version.code).toBe(2);
    expect(version.stderr).toContain("Did you mean '--version'?");
  });

  it('a missing key or base URL is a usage error that says how to give one', async () => {
    const noKey = await cli(['models'], { env: { INFERENCE_API_KEY: '' } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('no API key: set INFERENCE_API_KEY or pass --api-key (or try --mock).');
    const noURL = await cli(['models'], { env: { INFERENCE_BASE_URL: '' } });
    expect(noURL.code).toBe(2);
    expect(noURL.stderr).toContain('no base URL: set INFERENCE_BASE_URL or pass --base-url');
  });

  it('API errors exit 1 with the class name and message, and a hint', async () => {
    const wrongKey = await cli(['models'], { env: { INFERENCE_API_KEY: 'sk-wrong-but-long-enough' } });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/^model-inference-sdk models: AuthenticationError: 401 GET \/v1\/models: .*\nCheck the API key \(INFERENCE_API_KEY or --api-key\) for 127\.0\.0\.1:\d+\.\n$/);

    // A 404 that is not about a model: the URL is wrong.
    const wrongPath = await cli(['models'], { env: { INFERENCE_BASE_URL: server.url.replace(/\/v1$/, '/v2') } });
    expect(wrongPath.code).toBe(1);
    expect(wrongPath.stderr).toContain(`NotFoundError: 404 GET /v2/models: `);
    expect(wrongPath.stderr).toContain(`The base URL is ${server.url.replace(/\/v1$/, '/v2')} (from INFERENCE_BASE_URL).`);
  });

  it('the missing-/v1 hint is said once, and "Does it end in /v1?" only where the version can be the cause', async () => {
    const hints = (text: string): number => (text.match(/Does it end in \/v1\?|did you mean http\S*\/v1\?|served under \/v1/g) ?? []).length;
    // No /v1 at all: the mock says where the API is; the SDK and the CLI do not say it again.
    const origin = server.url.replace(/\/v1$/, '');
    const bare = await cli(['models'], { env: { INFERENCE_BASE_URL: origin } });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toBe(
      `model-inference-sdk models: NotFoundError: 404 GET /models: Unknown request URL: GET /models. The API is served under /v1: use ${server.url} as the base URL.\n` +
        `The base URL is ${origin}/ (from INFERENCE_BASE_URL).\n`,
    );
    expect(hints(bare.stderr)).toBe(1);
    // A version segment, but not a final /v1: the question is the hint, unless the server gave one.
    const extra = await cli(['models'], { env: { INFERENCE_BASE_URL: `${server.url}/extra` } });
    expect(extra.stderr).toBe(
      'model-inference-sdk models: NotFoundError: 404 GET /v1/extra/models: Unknown request URL: GET /v1/extra/models.\n' +
        `The base URL is ${server.url}/extra (from INFERENCE_BASE_URL). Does it end in /v1?\n`,
    );
    const v2 = await cli(['models'], { env: { INFERENCE_BASE_URL: `${origin}/v2` } });
    expect(v2.stderr).toContain(`The API is served under /v1: use ${server.url} as the base URL.\nThe base URL is ${origin}/v2 (from INFERENCE_BASE_URL).\n`);
    expect(hints(v2.stderr)).toBe(1);
    // The URL is right and a cassette lacks the request: no word about /v1.
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-replay-'));
    const file = path.join(dir, 'empty.json');
    writeFileSync(file, JSON.stringify({ version: 1, upstream: 'https://example.test/v1', interactions: [] }));
    const replay = await startMockServer({ replay: file });
    try {
      const miss = await cli(['chat', '-m', 'acme/chat-1', 'hi'], { env: { INFERENCE_BASE_URL: replay.url, INFERENCE_API_KEY: replay.apiKey } });
      expect(miss.code).toBe(1);
      expect(miss.stderr).toContain('No recorded interaction in the cassette');
      expect(miss.stderr).toContain(`The base URL is ${replay.url} (from INFERENCE_BASE_URL).\n`);
      expect(hints(miss.stderr)).toBe(0);
    } finally {
      await replay.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an unknown model in chat and complete points to 'model-inference-sdk models', with the same connection flags", async () => {
    const chat = await cli(['chat', '-m', 'acme/nope', 'hi']);
    expect(chat.code).toBe(1);
    expect(chat.stderr).toBe(
      'model-inference-sdk chat: NotFoundError: 404 POST /v1/chat/completions: The model `acme/nope` is not available on this API.\n' +
        "Run 'model-inference-sdk models' to see the models you can use.\n",
    );
    const complete = await cli(['complete', '-m', 'acme/nope', '--base-url', server.url, 'hi'], { env: { INFERENCE_BASE_URL: '' } });
    expect(complete.code).toBe(1);
    expect(complete.stderr).toContain(`Run 'model-inference-sdk models --base-url ${server.url}' to see the models you can use.`);
    const mock = await runCli(['chat', '--mock', '-m', 'acme/nope', 'hi']);
    expect(mock.code).toBe(1);
    expect(mock.stderr).toContain("Run 'model-inference-sdk models --mock' to see the models you can use.");
  });

  it('connection errors name the host and port, and where the URL came from', async () => {
    const dead = await startMockServer();
    const url = dead.url;
    const port = new URL(url).port;
    await dead.close();
    const refused = await cli(['chat', '-m', 'mock/echo', 'hi'], { env: { INFERENCE_BASE_URL: url } });
    expect(refused.code).toBe(1);
    // The middle line is the SDK's own error, as it words it.
    const [first, sdk, hint, end] = refused.stderr.split('\n');
    expect(first).toBe(`model-inference-sdk chat: cannot connect to 127.0.0.1:${port}: connection refused.`);
    expect(sdk).toMatch(/^ {2}APIConnectionError: .*POST \/v1\/chat\/completions/);
    expect(hint).toBe(`  The base URL is ${url} (from INFERENCE_BASE_URL). Check that a server is running there and that the URL is right.`);
    expect(end).toBe('');
    const flag = await cli(['models', '--base-url', url]);
    expect(flag.stderr).toMatch(new RegExp(`^model-inference-sdk models: cannot connect to 127\\.0\\.0\\.1:${port}: connection refused\\.\\n`));
    expect(flag.stderr).toContain('(from --base-url)');
  });

  it('no ready model: exit 1 with a hint', async () => {
    const sleepy = await startMockServer({ apiKeys: { [SECRET_KEY]: 'all' }, models: [{ id: 'acme/zzz', is_ready: false }] });
    try {
      const { code, stderr } = await cli(['chat', 'hi'], { env: { INFERENCE_BASE_URL: sleepy.url } });
      expect(code).toBe(1);
      expect(stderr).toBe('model-inference-sdk chat: no model is ready (acme/zzz); pass -m <slug> or set INFERENCE_MODEL.\n');
    } finally {
      await sleepy.close();
    }
  });
});

describe('output hygiene', () => {
  it('colours only on request: none in a pipe, FORCE_COLOR adds them, NO_COLOR wins', async () => {
    const forced = await cli(['models'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(ANSI);
    const both = await cli(['models'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(both.stdout).not.toMatch(ANSI);
    expect(both.stdout).toBe((await cli(['models'])).stdout);
  });

  it('no output of any run holds an ANSI escape (without FORCE_COLOR) or the API key', async () => {
    // Help and usage errors with the key on the command line, too.
    await cli(['chat', '--help', '--api-key', SECRET_KEY]);
    await cli(['models', `--api-key=${SECRET_KEY}`, '--nope']);
    await cli(['models', 'get', SECRET_KEY, '--api-key', SECRET_KEY]);
    expect(outputs.length).toBeGreaterThanOrEqual(3);
    for (const { stdout, stderr } of outputs) {
      expect(stdout + stderr).not.toContain(SECRET_KEY);
      expect(stdout + stderr).not.toContain(SECRET_KEY.slice(3, 20));
    }
    for (const { stdout, stderr } of outputs.filter((o) => !o.forced)) expect(stdout + stderr).not.toMatch(ANSI);
  });
});

describe('model-inference-sdk --version', () => {
  it("prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    // As a process: the bin reads the version from the package.json above it.
    const result = await spawnCli(['--version']);
    expect(result).toEqual({ code: 0, signal: null, stdout: `model-inference-sdk ${version}\n`, stderr: '' });
    expect(await runCli(['--version'])).toEqual(result);
    const misplaced = await runCli(['chat', '--version']);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toContain("unknown option '--version': the version is 'model-inference-sdk --version'.");
  });
});

describe('model-inference-sdk --help', () => {
  it('lists the commands and the global options; each command documents its flags', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    for (const name of ['models', 'chat', 'complete', 'mock-server', '-h, --help', '--version']) expect(top.stdout).toContain(`  ${name}`);
    for (const [name, flags] of [
      ['models', ['--json', '--api-key <key>', '--base-url <url>', '--mock', '--verbose']],
      ['chat', ['--model <slug>', '--system <text>', '--max-tokens <n>', '--temperature <x>', '--param <name=value>', '--json', '--mock']],
      ['complete', ['--model <slug>', '--max-tokens <n>', '--param <name=value>', '--json', '--mock']],
    ] as const) {
      const help = await runCli([name, '--help']);
      expect(help.code).toBe(0);
      for (const flag of flags) expect(help.stdout).toContain(flag);
    }
  });
});

describe('the CLI is a user of the package', () => {
  it('imports only the public entries (../index, ../testing, ../batch/index), the one did-you-mean (../util/suggest), the forms of the key (../util/mask), its own files and node: modules', () => {
    const dir = new URL('../src/cli/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm), ...source.matchAll(/import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]);
      for (const specifier of specifiers) expect({ file, specifier }).toEqual({ file, specifier: expect.stringMatching(/^(\.\/[\w-]+|\.\.\/index|\.\.\/testing|\.\.\/batch\/index|\.\.\/util\/suggest|\.\.\/util\/mask|node:[\w/]+)$/) });
    }
  });
});
