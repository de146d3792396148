// model-inference-sdk/batch from code: runBatchFile() against a loopback server. The output is the
// OpenAI Batch output format, one whole line per input line; a run resumes from what the output
// holds; bad input is refused with line numbers before anything is sent.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client, InferenceError, sumCosts } from '../../src/index';
import { BatchInputError, inShard, runBatchFile, type BatchOutputLine } from '../../src/batch/index';
import { inputLine, KEY, MODEL } from './server';
import { useBatchServer, server, dir, client, files, outputLines, prompts } from '../support/batch-file';

useBatchServer();

describe('runBatchFile', () => {
  it('writes one OpenAI Batch output line per input line: id, custom_id, response { status_code, request_id, body }, error', async () => {
    const { input, output } = files(prompts(20));
    const summary = await runBatchFile(client, { input, output, concurrency: 4 });
    const lines = outputLines(output);
    expect(lines.map((l) => l.custom_id).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `q-${i}`).sort());
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(['id', 'custom_id', 'response', 'error']);
      expect(line.id).toMatch(/^batch_req_[0-9a-f]{24}$/);
      expect(line.error).toBeNull();
      expect(line.response!.status_code).toBe(200);
      expect(line.response!.request_id).toMatch(/^req_\d+$/);
      const body = line.response!.body as { choices: { message?: { content: string }; text?: string }[] };
      const n = line.custom_id.slice(2);
      expect(body.choices[0]!.message?.content ?? body.choices[0]!.text).toBe(`echo: prompt ${n}`);
    }
    expect(summary).toMatchObject({ done: 20, failed: 0, total: 20, resumed: 0, toRun: 20, stopped: undefined });
    // Exact: 20 × (10 × 0.0000001 + 5 × 0.0000003), where floats give 0.000049999999999999996.
    expect(summary.costs.cost.total).toBe('0.00005');
    expect(summary.costs.tokens.total).toBe(300);
  });

  it('a line that fails after its retries has error set, with the response the server gave', async () => {
    const { input, output } = files([inputLine('ok', 'hello'), inputLine('bad', 'fail')]);
    const summary = await runBatchFile(client, { input, output });
    const bad = outputLines(output).find((l) => l.custom_id === 'bad')!;
    expect(bad.error).toEqual({ code: 'refused', message: expect.stringMatching(/this prompt is refused/) });
    expect(bad.response).toMatchObject({ status_code: 400, body: { error: { code: 'refused' } } });
    expect(summary).toMatchObject({ done: 1, failed: 1, failedBefore: 0 });
    const again = await runBatchFile(client, { input, output });
    expect(again).toMatchObject({ done: 0, failed: 0, resumed: 2, failedBefore: 1 });
  });

  it('a connection that fails: error set, response null', async () => {
    const { input, output } = files([inputLine('x', 'hello')]);
    const dead = new Client({ apiKey: KEY, baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0 });
    const summary = await runBatchFile(dead, { input, output });
    const [line] = outputLines(output);
    expect(line).toMatchObject({ custom_id: 'x', response: null, error: { code: 'connection_error' } });
    expect(summary.failed).toBe(1);
  });

  it('the key, echoed by the server as an id and in the text, never reaches the output file', async () => {
    const { input, output } = files([inputLine('k', 'echo-key'), inputLine('f', 'fail')]);
    await runBatchFile(client, { input, output });
    const text = readFileSync(output, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).toContain('***');
  });

  it('run again, it sends nothing: every line has a result', async () => {
    const { input, output } = files(prompts(10));
    await runBatchFile(client, { input, output });
    const before = server.calls.length;
    const again = await runBatchFile(client, { input, output });
    expect(server.calls.length).toBe(before);
    expect(again).toMatchObject({ done: 0, resumed: 10, toRun: 0, stopped: undefined });
    expect(again.costs.cost.total).toBe('0.000025'); // the lines done before, priced again
    expect(outputLines(output)).toHaveLength(10);
  });

  it('a torn last line (a writer killed mid-line) is cut off and its line sent again, with the same key', async () => {
    const { input, output } = files(prompts(5));
    await runBatchFile(client, { input, output });
    const whole = readFileSync(output, 'utf8').split('\n').filter(Boolean);
    const torn = whole.pop()!;
    const tornId = (JSON.parse(torn) as BatchOutputLine).custom_id;
    writeFileSync(output, `${whole.join('\n')}\n${torn.slice(0, 40)}`);
    const firstKey = server.calls.find((c) => c.prompt === `prompt ${tornId.slice(2)}`)!.key;
    server.calls.length = 0;
    const summary = await runBatchFile(client, { input, output });
    expect(summary).toMatchObject({ tornLine: true, resumed: 4, done: 1 });
    expect(server.calls).toEqual([{ prompt: `prompt ${tornId.slice(2)}`, key: firstKey, run: 0 }]);
    const lines = outputLines(output);
    expect(lines.map((l) => l.custom_id).sort()).toEqual(['q-0', 'q-1', 'q-2', 'q-3', 'q-4']);
  });

  it('an output file with a line that is not an output line before its end is refused, not overwritten', async () => {
    const { input, output } = files(prompts(2));
    writeFileSync(output, 'not json\n{"custom_id":"q-0"}\n');
    await expect(runBatchFile(client, { input, output })).rejects.toThrow(/line 1 of .* is not a batch output line/);
    expect(readFileSync(output, 'utf8')).toBe('not json\n{"custom_id":"q-0"}\n');
    expect(server.calls).toHaveLength(0);
  });

  it.each([
    ['a line of notes', 'my notes\n'],
    ['a line of notes without a final newline', 'my notes'],
    ['a JSON line with a custom_id', '{"custom_id":"q-0","note":1}\n'],
  ])('an output file that is not an output (%s) is refused and left whole, nothing sent', async (_what, text) => {
    const { input, output } = files(prompts(2));
    writeFileSync(output, text);
    await expect(runBatchFile(client, { input, output })).rejects.toThrow(/line 1 of .* is not a batch output line/);
    expect(readFileSync(output, 'utf8')).toBe(text);
    expect(server.calls).toHaveLength(0);
  });

  it('the input given as the output (another spelling, a symlink) is refused, the input left whole', async () => {
    const { input } = files(prompts(2));
    const before = readFileSync(input, 'utf8');
    symlinkSync(input, path.join(dir, 'link.jsonl'));
    for (const output of [`${dir}/./in.jsonl`, path.join(dir, 'link.jsonl')])
      await expect(runBatchFile(client, { input, output })).rejects.toThrow(/is the input file/);
    expect(readFileSync(input, 'utf8')).toBe(before);
    expect(server.calls).toHaveLength(0);
  });

  it('an output of another input: a line whose custom_id now names another request is refused, nothing sent', async () => {
    const { input, output } = files(prompts(3));
    await runBatchFile(client, { input, output });
    const before = readFileSync(output, 'utf8');
    server.calls.length = 0;
    writeFileSync(input, [inputLine('q-0', 'prompt 0'), inputLine('q-1', 'a new prompt'), inputLine('q-2', 'prompt 2'), inputLine('q-3', 'x')].join('\n') + '\n');
    await expect(runBatchFile(client, { input, output })).rejects.toThrow(/is the result of another input line with custom_id "q-1" \(the input changed since\)/);
    expect(readFileSync(output, 'utf8')).toBe(before);
    expect(server.calls).toHaveLength(0);
  });

  it("resumed with the outputs of every shard concatenated, a shard counts only its own lines as done before", async () => {
    const { input } = files(prompts(12));
    const all = path.join(dir, 'all.jsonl');
    for (let index = 1; index <= 2; index++) {
      const output = path.join(dir, `out-${index}.jsonl`);
      await runBatchFile(client, { input, output, shard: { index, count: 2 } });
      appendFileSync(all, readFileSync(output));
    }
    const shard = await runBatchFile(client, { input, output: all, shard: { index: 1, count: 2 } });
    expect(shard.resumed).toBe(shard.total);
    expect(shard.resumed).toBeLessThan(12);
    expect(shard.costs.tokens.total).toBe(15 * shard.total);
    expect(await runBatchFile(client, { input, output: all })).toMatchObject({ total: 12, resumed: 12, done: 0 });
  });

  it('an input or output that is not a regular file (a pipe, a directory) is refused by name, nothing sent', async () => {
    const { input, output } = files(prompts(2));
    mkdirSync(path.join(dir, 'sub'));
    await expect(runBatchFile(client, { input: path.join(dir, 'sub'), output })).rejects.toThrow(/the input ".*sub" is not a regular file/);
    await expect(runBatchFile(client, { input, output: path.join(dir, 'sub') })).rejects.toThrow(/the output ".*sub" is not a regular file/);
    if (process.platform !== 'win32') {
      // A named pipe gives its lines once: the check would read them all, and the run have none to send.
      const fifo = path.join(dir, 'fifo');
      execFileSync('mkfifo', [fifo]);
      await expect(runBatchFile(client, { input: fifo, output })).rejects.toThrow(/the input ".*fifo" is not a regular file/);
    }
    expect(server.calls).toHaveLength(0);
    expect(existsSync(output)).toBe(false);
  });

  it('an output in a directory that does not exist: refused by name before anything is sent', async () => {
    const { input } = files(prompts(2));
    await expect(runBatchFile(client, { input, output: path.join(dir, 'no', 'such', 'out.jsonl') })).rejects.toThrow(/no directory ".*no.such" for the output/);
    expect(server.calls).toHaveLength(0);
  });

  it.each([
    ['not JSON', '{"custom_id": "a", ', /not JSON/],
    ['not an object', '[1, 2]', /not a JSON object/],
    ['no custom_id', JSON.stringify({ method: 'POST', url: '/v1/chat/completions', body: {} }), /no custom_id/],
    ['a custom_id that is not a string', JSON.stringify({ custom_id: 7, method: 'POST', url: '/v1/chat/completions', body: {} }), /no custom_id/],
    ['a duplicate custom_id', inputLine('q-0', 'again'), /duplicate custom_id "q-0" \(first on line 1\)/],
    ['a method other than POST', JSON.stringify({ custom_id: 'g', method: 'GET', url: '/v1/chat/completions', body: {} }), /method must be "POST"/],
    ['an unknown url', JSON.stringify({ custom_id: 'e', method: 'POST', url: '/v1/embeddings', body: {} }), /url must be/],
    ['a body that is not an object', JSON.stringify({ custom_id: 'b', method: 'POST', url: '/v1/chat/completions', body: 'hi' }), /body must be a JSON object/],
    ['a body without a model', JSON.stringify({ custom_id: 'm', method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: 'x' }] } }), /`model` must be/],
    ['a body whose messages are not an array', JSON.stringify({ custom_id: 'n', method: 'POST', url: '/v1/chat/completions', body: { model: MODEL, messages: 'x' } }), /`messages` must be an array/],
    ['a streaming body', JSON.stringify({ custom_id: 's', method: 'POST', url: '/v1/chat/completions', body: { model: MODEL, messages: [], stream: true } }), /leave stream out/],
  ])('bad input (%s): BatchInputError naming line 3, before anything is sent', async (_what, bad, message) => {
    const { input, output } = files([inputLine('q-0', 'a'), inputLine('q-1', 'b'), bad as string]);
    const err = await runBatchFile(client, { input, output }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BatchInputError);
    expect((err as BatchInputError).problems).toEqual([{ line: 3, message: expect.stringMatching(message as RegExp) }]);
    expect((err as Error).message).toMatch(/line 3: /);
    expect(server.calls).toHaveLength(0);
    expect(existsSync(output)).toBe(false);
  });

  it('skipInvalid: the bad lines are reported and left out, the others run', async () => {
    const { input, output } = files([inputLine('q-0', 'a'), 'nope', inputLine('q-0', 'dup'), inputLine('q-2', 'c')]);
    const skipped: unknown[] = [];
    const summary = await runBatchFile(client, { input, output, skipInvalid: true, onInvalid: (p) => skipped.push(p) });
    expect(skipped).toEqual([{ line: 2, message: expect.stringMatching(/not JSON/) }, { line: 3, message: expect.stringMatching(/duplicate/) }]);
    expect(outputLines(output).map((l) => l.custom_id).sort()).toEqual(['q-0', 'q-2']);
    expect(summary).toMatchObject({ invalid: 2, done: 2, total: 2 });
  });

  it('blank lines and CRLF line ends are read as the OpenAI format allows', async () => {
    const input = path.join(dir, 'crlf.jsonl');
    writeFileSync(input, `${inputLine('a', 'x')}\r\n\r\n${inputLine('b', 'y')}`);
    const summary = await runBatchFile(client, { input, output: path.join(dir, 'o.jsonl') });
    expect(summary).toMatchObject({ total: 2, done: 2 });
  });

  it('maxCost: stops starting lines once the cost so far reaches it; a later run goes on', async () => {
    const { input, output } = files(prompts(20));
    // Each line costs 0.0000025; one at a time, the run stops once 0.00001 is reached: 4 lines.
    const first = await runBatchFile(client, { input, output, concurrency: 1, maxCost: '0.00001' });
    expect(first).toMatchObject({ done: 4, stopped: 'max-cost' });
    expect(first.costs.cost.total).toBe('0.00001');
    expect(outputLines(output)).toHaveLength(4);
    const rest = await runBatchFile(client, { input, output, concurrency: 1, maxCost: 1 });
    expect(rest).toMatchObject({ resumed: 4, done: 16, stopped: undefined });
    expect(rest.costs.cost.total).toBe(sumCosts(...Array.from({ length: 20 }, () => '0.0000025')));
  });

  it('shards: every line in exactly one shard; the outputs of 3 shards concatenate to the whole', async () => {
    const { input } = files(prompts(30));
    const outputs: string[] = [];
    for (let index = 1; index <= 3; index++) {
      const output = path.join(dir, `out-${index}.jsonl`);
      outputs.push(output);
      const summary = await runBatchFile(client, { input, output, shard: { index, count: 3 } });
      expect(summary.total).toBeGreaterThan(0);
      for (const line of outputLines(output)) expect(inShard(line.custom_id, { index, count: 3 })).toBe(true);
    }
    const all = outputs.flatMap(outputLines).map((l) => l.custom_id).sort();
    expect(all).toEqual(Array.from({ length: 30 }, (_, i) => `q-${i}`).sort());
    expect(server.calls).toHaveLength(30);
  });

  it('a signal: in-flight lines are aborted and get no result; the next run sends them', async () => {
    const { input, output } = files(prompts(8));
    server.delay = (p) => (p === 'prompt 7' ? 60_000 : 0);
    const stop = new AbortController();
    const summary = await runBatchFile(client, {
      input,
      output,
      concurrency: 8,
      signal: stop.signal,
      onResult: () => {
        if (outputLines(output).length === 7) stop.abort();
      },
    });
    expect(summary.stopped).toBe('aborted');
    expect(outputLines(output).map((l) => l.custom_id)).not.toContain('q-7');
    server.delay = () => 0;
    const again = await runBatchFile(client, { input, output });
    expect(again).toMatchObject({ resumed: 7, done: 1 });
  });

  it('an onResult that throws ends the run with its error; nothing is left running', async () => {
    const { input, output } = files(prompts(6));
    const err = await runBatchFile(client, { input, output, concurrency: 2, onResult: () => { throw new Error('listener broke'); } }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('listener broke');
    expect(outputLines(output).length).toBeGreaterThanOrEqual(1);
    expect(server.calls.length).toBeLessThanOrEqual(3);
  });

  it('refuses bad options at the call site', async () => {
    const { input, output } = files(prompts(1));
    await expect(runBatchFile(client, { input: '', output })).rejects.toThrow(InferenceError);
    await expect(runBatchFile(client, { input: path.join(dir, 'missing.jsonl'), output })).rejects.toThrow(/no input file/);
    for (const concurrency of [0, -1, 1.5, NaN])
      await expect(runBatchFile(client, { input, output, concurrency })).rejects.toThrow(/concurrency/);
    for (const maxCost of ['-1', 'NaN', 'abc'])
      await expect(runBatchFile(client, { input, output, maxCost })).rejects.toThrow(/maxCost/);
    for (const maxCost of [NaN, Infinity, -Infinity])
      await expect(runBatchFile(client, { input, output, maxCost })).rejects.toThrow(`got ${String(maxCost)}.`);
    expect(server.calls).toHaveLength(0);
  });
});
