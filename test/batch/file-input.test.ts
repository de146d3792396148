// model-inference-sdk/batch from code, against a loopback server: runBatch() and readBatchInput(),
// options checked before any file is touched, files saved on Windows and a last line without its
// line end, and the API key kept from the output, stdout and stderr.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, InferenceError } from '../../src/index';
import { checkBatchInput, inShard, readBatchInput, runBatch, runBatchFile, type BatchOutputLine } from '../../src/batch/index';
import { inputLine, KEY, MODEL } from './server';
import { startFaultServer } from '../support/fault-server';
import { spawnCli } from '../cli-support';
import { useBatchServer, server, dir, client, files, outputLines, prompts } from '../support/batch-file';

useBatchServer();

describe('runBatch and readBatchInput', () => {
  it('results as they complete, each line with its own key derived from its text, the same on every run', async () => {
    const lines = prompts(6);
    const keys = async () => {
      server.calls.length = 0;
      const run = runBatch(client, readBatchInput(client, lines.map((l) => `${l}\n`)), { concurrency: 3 });
      const ids: string[] = [];
      for await (const { output } of run) ids.push(output.custom_id);
      expect(ids.sort()).toEqual(['q-0', 'q-1', 'q-2', 'q-3', 'q-4', 'q-5']);
      return new Map(server.calls.map((c) => [c.prompt, c.key]));
    };
    const first = await keys();
    expect(new Set(first.values()).size).toBe(6);
    for (const key of first.values()) expect(key).toMatch(/^batch-[0-9a-f]{32}$/);
    expect(await keys()).toEqual(first);
  });

  it('summary() runs it when nobody iterates; at most concurrency lines are in flight', async () => {
    let inFlight = 0;
    let most = 0;
    server.delay = () => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => inFlight--, 20);
      return 20;
    };
    const summary = await runBatch(client, readBatchInput(client, [prompts(12).join('\n')]), { concurrency: 3 }).summary();
    expect(summary).toMatchObject({ done: 12, failed: 0 });
    expect(most).toBeLessThanOrEqual(3);
  });

  it('checkBatchInput counts requests and names every bad line, sending nothing', async () => {
    const result = await checkBatchInput(client, [[inputLine('a', 'x'), '{', inputLine('a', 'y'), ''].join('\n')]);
    expect(result).toEqual({ requests: 1, invalid: 2, problems: [{ line: 2, message: expect.stringMatching(/not JSON/) }, { line: 3, message: expect.stringMatching(/duplicate/) }] });
    expect(server.calls).toHaveLength(0);
  });

  it('a line longer than maxLineSize is refused with its number, not read into memory whole', async () => {
    const huge = ['{"custom_id":"a"', 'x'.repeat(1000)];
    await expect(checkBatchInput(client, huge, { maxLineSize: 500 })).rejects.toThrow(/line 1 is longer than 500 characters/);
  });

  it('a source that throws ends the run with its error', async () => {
    async function* broken() {
      yield `${inputLine('a', 'x')}\n`;
      throw new Error('disk gone');
    }
    const run = runBatch(client, readBatchInput(client, broken()));
    await expect(run.summary()).rejects.toThrow('disk gone');
  });
});

describe('options checked before any file is touched', () => {
  it.each([
    [{ shard: { index: 0, count: 3 } }, /`shard` must be \{ index, count \}.*1-based.*"index":0/],
    [{ shard: { index: 4, count: 3 } }, /`shard` must be/],
    [{ shard: { index: 1.5, count: 3 } }, /`shard` must be/],
    [{ shard: { index: 1, count: 0 } }, /`shard` must be/],
    [{ shard: { index: Number.NaN, count: 2 } }, /`shard` must be/],
    [{ concurrency: 0 }, /`concurrency` must be a whole number from 1; got 0/],
    [{ concurrency: 1.5 }, /`concurrency` must be a whole number/],
    [{ maxCost: -1 }, /`maxCost` must be a decimal amount of 0 or more; got -1/],
    [{ maxCost: '1,5' }, /`maxCost` must be/],
  ])('runBatchFile(%j): an InferenceError; nothing sent, the output (with a torn last line) left as it was', async (options, message) => {
    const { input, output } = files([inputLine('a', 'x'), inputLine('b', 'y')]);
    writeFileSync(output, '{"id":"batch_req_0');
    server.calls.length = 0;
    const error = await runBatchFile(client, { input, output, ...options } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InferenceError);
    expect((error as Error).message).toMatch(message);
    expect(readFileSync(output, 'utf8')).toBe('{"id":"batch_req_0');
    expect(server.calls).toHaveLength(0);
  });

  it('readBatchInput() and inShard() refuse a shard that holds no line, rather than yielding nothing', async () => {
    const read = readBatchInput(client, [inputLine('a', 'x') + '\n'], { shard: { index: 0, count: 2 } });
    await expect(read.next()).rejects.toThrow(/readBatchInput: `shard` must be/);
    expect(() => inShard('a', { index: 3, count: 2 })).toThrow(/inShard: `shard` must be/);
    expect([1, 2].map((index) => inShard('a', { index, count: 2 })).filter(Boolean)).toHaveLength(1);
  });
});

describe('files saved on Windows, and a last line without its line end', () => {
  const three = [inputLine('a', 'x'), inputLine('b', 'y'), inputLine('c', 'z')];

  it('input with a BOM, CRLF line ends, blank lines and no final newline: every line runs, the first custom_id whole', async () => {
    const input = path.join(dir, 'in.jsonl');
    const output = path.join(dir, 'out.jsonl');
    writeFileSync(input, `\uFEFF${three[0]}\r\n\r\n${three[1]}\r\n\n   \r\n${three[2]}`);
    const summary = await runBatchFile(client, { input, output });
    expect(summary).toMatchObject({ total: 3, done: 3, invalid: 0 });
    expect(outputLines(output).map((l) => l.custom_id).sort()).toEqual(['a', 'b', 'c']);
    // The same lines, as text chunks (a BOM in a string is not dropped by any decoder).
    const chunks = [`\uFEFF${three[0]!.slice(0, 5)}`, `${three[0]!.slice(5)}\r\n${three[1]}`];
    const read: string[] = [];
    for await (const request of readBatchInput(client, chunks)) read.push(request.custom_id);
    expect(read).toEqual(['a', 'b']);
  });

  it.each([
    ['CRLF line ends', (lines: string[]) => lines.map((l) => `${l}\r\n`).join('')],
    ['a BOM', (lines: string[]) => `\uFEFF${lines.map((l) => `${l}\n`).join('')}`],
    ['a BOM and CRLF', (lines: string[]) => `\uFEFF${lines.map((l) => `${l}\r\n`).join('')}`],
  ])('an output edited on Windows (%s): its lines are recognised on resume', async (_, save) => {
    const { input, output } = files(three);
    await runBatchFile(client, { input, output, concurrency: 1 });
    const done = readFileSync(output, 'utf8').split('\n').filter(Boolean);
    writeFileSync(output, save(done.slice(0, 2)));
    server.calls.length = 0;
    const summary = await runBatchFile(client, { input, output });
    expect(summary).toMatchObject({ resumed: 2, done: 1, tornLine: false });
    expect(server.calls).toHaveLength(1);
    // And with a torn line after them: cut off where it starts, the whole lines kept.
    writeFileSync(output, save(done.slice(0, 2)) + done[2]!.slice(0, 40));
    server.calls.length = 0;
    const again = await runBatchFile(client, { input, output });
    expect(again).toMatchObject({ resumed: 2, done: 1, tornLine: true });
    expect(server.calls).toHaveLength(1);
    const text = readFileSync(output, 'utf8');
    expect(text.startsWith(save(done.slice(0, 2)))).toBe(true);
    expect(text.split('\n').filter((l) => l.trim() !== '').map((l) => (JSON.parse(l.replace(/^\uFEFF/, '')) as BatchOutputLine).custom_id).sort()).toEqual(['a', 'b', 'c']);
  });

  it.each([
    ['\n', ''],
    ['\r\n', ''],
    ['\r\n', '\r'],
  ])('a whole last output line without its line end (%j, then %j) is a result, not torn; the next line goes on a line of its own', async (end, tail) => {
    const { input, output } = files(three);
    await runBatchFile(client, { input, output, concurrency: 1 });
    const done = readFileSync(output, 'utf8').split('\n').filter(Boolean);
    writeFileSync(output, done.slice(0, 2).join(end) + tail);
    server.calls.length = 0;
    const summary = await runBatchFile(client, { input, output });
    expect(summary).toMatchObject({ resumed: 2, done: 1, tornLine: false });
    expect(server.calls.map((c) => c.prompt)).toEqual(['z']);
    const lines = readFileSync(output, 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '');
    expect(lines.map((l) => (JSON.parse(l) as BatchOutputLine).custom_id)).toEqual(['a', 'b', 'c']);
    // A third run finds every line done, none torn.
    server.calls.length = 0;
    expect(await runBatchFile(client, { input, output })).toMatchObject({ resumed: 3, toRun: 0, tornLine: false });
    expect(server.calls).toHaveLength(0);
  });
});

describe('the API key never reaches the output, stdout or stderr', () => {
  // A server that echoes the key everywhere it can: the x-request-id header, the error body (the
  // Authorization header quoted, the headers whole), a text error body, the completion itself.
  let echo: Awaited<ReturnType<typeof startFaultServer>>;
  beforeAll(async () => {
    echo = await startFaultServer(async (req, res, body) => {
      const auth = String(req.headers.authorization ?? '');
      const key = auth.replace(/^Bearer /, '');
      if (req.url?.startsWith('/v1/models')) {
        res.writeHead(404, { 'content-type': 'application/json', 'x-request-id': key });
        return void res.end(JSON.stringify({ error: { message: `no model for ${auth}`, code: key } }));
      }
      const prompt = (JSON.parse(body) as { messages: { content: string }[] }).messages[0]!.content;
      if (prompt === 'text') {
        res.writeHead(403, { 'content-type': 'text/plain', 'x-request-id': key });
        return void res.end(`refused: Authorization: ${auth}`);
      }
      if (prompt !== 'ok') {
        res.writeHead(Number(prompt), { 'content-type': 'application/json', 'x-request-id': `req-${key}` });
        return void res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}; you sent Authorization: ${auth}`, type: 'auth', code: `k_${key}`, param: key, headers: req.headers } }));
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': key });
      res.end(JSON.stringify({ id: key, object: 'chat.completion', created: 1, model: key, choices: [{ index: 0, message: { role: 'assistant', content: `your key: ${key}` }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    });
  });
  afterAll(() => echo.close());
  const echoLines = ['ok', '400', '401', '422', 'text'].map((p) => JSON.stringify({ custom_id: `e-${p}`, method: 'POST', url: '/v1/chat/completions', body: { model: MODEL, messages: [{ role: 'user', content: p }] } }));

  it('runBatchFile(): neither in a result (its request_id included) nor in a failed line (its error and response)', async () => {
    const { input, output } = files(echoLines);
    const summary = await runBatchFile(new Client({ apiKey: KEY, baseURL: echo.url, maxRetries: 0 }), { input, output });
    expect(summary).toMatchObject({ done: 1, failed: 4 });
    const text = readFileSync(output, 'utf8');
    expect(text).not.toContain(KEY);
    const lines = outputLines(output);
    expect(lines.find((l) => l.custom_id === 'e-ok')!.response!.request_id).toBe('***');
    expect(lines.find((l) => l.custom_id === 'e-401')!.response!.request_id).toBe('req-***');
    expect(lines.find((l) => l.custom_id === 'e-401')!.error!.message).toContain('***');
  });

  it.each([[[] as string[], {}], [['-v'], {}], [['-v'], { INFERENCE_LOG: 'debug' }], [[], { INFERENCE_LOG: 'debug' }]])(
    'the CLI with %j %j: not in the output file, stdout or stderr',
    async (flags, extra) => {
      const { input, output } = files(echoLines);
      const result = await spawnCli(['batch', input, '-o', output, ...flags], { env: { INFERENCE_API_KEY: KEY, INFERENCE_BASE_URL: echo.url, INFERENCE_MAX_RETRIES: '0', ...extra } });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^1 done, 4 failed of 5\n/);
      if ('INFERENCE_LOG' in extra) expect(result.stderr).toContain('authorization');
      expect(result.stdout).not.toContain(KEY);
      expect(result.stderr).not.toContain(KEY);
      expect(readFileSync(output, 'utf8')).not.toContain(KEY);
    },
  );
});
