// `model-inference-sdk batch` as a user runs it, a real process against a loopback server: the
// summary and exit codes, a run again after a failure, bad input, --output, --max-cost, --shard,
// bad option values, --mock, escaped control characters, and docs/batch.md's quoted sessions.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli-support';
import { runCli as runInProcess } from '../../src/cli/run';
import { inputLine } from './server';
import { consoleBlocks, matches, steps } from '../support/docs-quotes';
import { useBatchCliServer, server, dir, env, write, ids } from '../support/batch-cli';

useBatchCliServer();

describe('model-inference-sdk batch', () => {
  it('prints a summary; exit 0 when every line is done, 1 when some failed', async () => {
    const input = write('in.jsonl', [inputLine('a', 'x'), inputLine('b', 'y', '/v1/completions')]);
    const ok = await runCli(['batch', input, '-o', path.join(dir, 'o1.jsonl')], { env: env() });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      /^2 done, 0 failed of 2\n30 tokens \(20 prompt, 10 completion\), cost 0\.000005\n\d+\.\d s\n$/,
    );
    const failing = write('f.jsonl', [inputLine('a', 'x'), inputLine('b', 'fail')]);
    const some = await runCli(['batch', failing, '-o', path.join(dir, 'o2.jsonl')], { env: env() });
    expect(some.code).toBe(1);
    expect(some.stdout).toMatch(/^1 done, 1 failed of 2\n/);
  });

  it('run again after a line failed: nothing sent, the failure counted as before, still exit 1', async () => {
    const input = write('f.jsonl', [inputLine('a', 'x'), inputLine('b', 'fail'), inputLine('c', 'y')]);
    const output = path.join(dir, 'o.jsonl');
    expect((await runCli(['batch', input, '-o', output, '-q'], { env: env() })).code).toBe(1);
    server.calls.length = 0;
    const again = await runCli(['batch', input, '-o', output, '-q'], { env: env() });
    expect(again.stdout).toMatch(/^0 done, 0 failed, 2 done and 1 failed before of 3\n/);
    expect(again.code).toBe(1);
    expect(server.calls).toHaveLength(0);
  });

  it('bad input: each bad line named with its number on stderr, exit 2, nothing sent, no output file', async () => {
    const input = write('in.jsonl', [
      inputLine('a', 'x'),
      '{oops',
      inputLine('a', 'again'),
      JSON.stringify({ custom_id: 'u', method: 'POST', url: '/v1/embeddings', body: {} }),
    ]);
    const output = path.join(dir, 'o.jsonl');
    const result = await runCli(['batch', input, '-o', output], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${input}:2: not JSON`);
    expect(result.stderr).toContain(`${input}:3: duplicate custom_id "a" (first on line 1)`);
    expect(result.stderr).toContain(
      `${input}:4: url must be "/v1/chat/completions" or "/v1/completions"`,
    );
    expect(result.stderr).toMatch(/3 input lines cannot be run; nothing was sent/);
    expect(server.calls).toHaveLength(0);
    expect(existsSync(output)).toBe(false);
    const skipping = await runCli(['batch', input, '-o', output, '--skip-invalid'], { env: env() });
    expect(skipping.code).toBe(1);
    expect(skipping.stderr).toContain(`${input}:2: skipped: not JSON`);
    expect(ids(output)).toEqual(['a']);
  });

  it('--output naming the input by another spelling: a usage error (exit 2), the input left whole', async () => {
    const input = write('in.jsonl', [inputLine('a', 'x')]);
    const before = readFileSync(input, 'utf8');
    const result = await runCli(['batch', input, '-o', `${dir}/./in.jsonl`], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--output must be another file than the input.');
    expect(readFileSync(input, 'utf8')).toBe(before);
    expect(server.calls).toHaveLength(0);
  });

  it('--max-cost stops starting lines and says so; the same command with a higher one goes on', async () => {
    const input = write(
      'in.jsonl',
      Array.from({ length: 10 }, (_, i) => inputLine(`c${i}`, `p${i}`)),
    );
    const output = path.join(dir, 'o.jsonl');
    const first = await runCli(
      ['batch', input, '-o', output, '--concurrency', '1', '--max-cost', '0.0000075'],
      { env: env() },
    );
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/^3 done, 0 failed of 10\n45 tokens .*cost 0\.0000075\n/);
    expect(first.stdout).toMatch(/stopped at --max-cost: 7 lines not started/);
    const rest = await runCli(['batch', input, '-o', output, '--max-cost', '1'], { env: env() });
    expect(rest.code).toBe(0);
    expect(rest.stdout).toMatch(
      /^7 done, 0 failed, 3 done before of 10\n150 tokens .*cost 0\.000025\n/,
    );
  });

  it('--shard i/n: n runs split the file, their outputs concatenate to one line per input line', async () => {
    const input = write(
      'in.jsonl',
      Array.from({ length: 40 }, (_, i) => inputLine(`s${i}`, `p${i}`)),
    );
    const all: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const output = path.join(dir, `o${i}.jsonl`);
      const result = await runCli(['batch', input, '-o', output, '--shard', `${i}/4`], {
        env: env(),
      });
      expect(result.code).toBe(0);
      all.push(...ids(output));
    }
    expect(all.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `s${i}`).sort());
    expect(server.calls).toHaveLength(40);
  });

  it.each([
    [['batch'], /give one input file/],
    [['batch', 'in.jsonl'], /--output is required/],
    [['batch', 'in.jsonl', '-o', 'in.jsonl'], /another file than the input/],
    [
      ['batch', 'in.jsonl', '-o', 'o', '--concurrency', '0'],
      /--concurrency must be an integer from 1/,
    ],
    [['batch', 'in.jsonl', '-o', 'o', '--max-cost', '-1'], /--max-cost must be an amount/],
    [['batch', 'in.jsonl', '-o', 'o', '--max-cost', 'NaN'], /--max-cost must be an amount/],
    [['batch', 'in.jsonl', '-o', 'o', '--shard', '0/4'], /--shard must be i\/n/],
    [['batch', 'in.jsonl', '-o', 'o', '--shard', '5/4'], /--shard must be i\/n/],
  ])('usage error %j: exit 2', async (args, message) => {
    const result = await runCli(args as string[], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(server.calls).toHaveLength(0);
  });

  // Each bad value: one line naming the option and the value, the synopsis, exit 2; nothing sent,
  // no output file. `Number()` alone would take ' 4', '1e3' and '0x10'.
  it.each([
    ...['0', '-1', '1.5', 'abc', '1e3', '0x10', ' 4', '4 ', '+4', '', '99999999999999999999'].map(
      (v) => ['--concurrency', v, `--concurrency must be an integer from 1 to 10000, got '${v}'.`],
    ),
    ...['0/0', '3/2', '1/', 'a/b', '1.5/3', '-1/3', '0/3', ' 1/3', '1 / 3', '1/99999999999999999999'].map(
      (v) => ['--shard', v, `--shard must be i/n with 1 <= i <= n (1/4 … 4/4), got '${v}'.`],
    ),
    ...['-1', 'NaN', 'abc', '1,5', '0', '0.00', '1e-3', ' 1', '', '9'.repeat(500)].map((v) => [
      '--max-cost',
      v,
      `--max-cost must be an amount above 0 such as 2.50, got '${v}'.`,
    ]),
  ])('%s %j: exit 2, one line naming it and the synopsis; nothing sent, no output', async (flag, value, message) => {
    const input = write('in.jsonl', [inputLine('a', 'x')]);
    const output = path.join(dir, 'o.jsonl');
    const result = await runCli(['batch', input, '-o', output, flag!, value!], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `model-inference-sdk batch: ${message}\n\nUsage: model-inference-sdk batch INPUT.jsonl --output OUTPUT.jsonl [options]\nRun 'model-inference-sdk batch --help' for every option.\n`,
    );
    expect(result.stdout).toBe('');
    expect(server.calls).toHaveLength(0);
    expect(existsSync(output)).toBe(false);
  });

  it.each([
    ['--concurrency', '1'],
    ['--concurrency', '10000'],
    ['--shard', '1/1'],
    ['--max-cost', '0.001'],
    ['--max-cost', '5'],
  ])('%s %s is taken', async (flag, value) => {
    const input = write('in.jsonl', [inputLine('a', 'x')]);
    const result = await runCli(['batch', input, '-o', path.join(dir, 'o.jsonl'), flag, value], {
      env: env(),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^1 done, 0 failed of 1\n/);
  });

  it('--mock runs it against the bundled local server', async () => {
    const input = write('in.jsonl', [
      JSON.stringify({
        custom_id: 'm',
        method: 'POST',
        url: '/v1/chat/completions',
        body: { model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] },
      }),
    ]);
    const result = await runCli(['batch', '--mock', input, '-o', path.join(dir, 'o.jsonl')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^1 done, 0 failed of 1\n/);
  });

  it('a custom_id or message with control characters is printed escaped', async () => {
    const input = write('in.jsonl', [inputLine('a', 'x'), '{"bad\u001b[31m": 1']);
    const result = await runCli(['batch', input, '-o', path.join(dir, 'o.jsonl')], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('\u001b[31m');
  });

  it('docs/batch.md: its quoted sessions are what the command prints (against --mock)', async () => {
    const mockLine = (id: string, body: Record<string, unknown>, url = '/v1/chat/completions') =>
      JSON.stringify({ custom_id: id, method: 'POST', url, body: { model: 'mock/echo', ...body } });
    const good = [
      mockLine('q-1', { messages: [{ role: 'user', content: 'Hello' }] }),
      mockLine('q-2', { messages: [{ role: 'user', content: 'How are you?' }] }),
      mockLine('q-3', { prompt: 'Once upon a time', max_tokens: 16 }, '/v1/completions'),
    ];
    const bad = [
      JSON.stringify({ custom_id: 'q-4', method: 'GET', url: '/v1/chat/completions', body: {} }),
      '{"custom_id": "q-1"',
    ];
    const quotes = consoleBlocks(path.resolve(import.meta.dirname, '../..'), 'docs/batch.md');
    expect(quotes).toHaveLength(2);
    for (const quote of quotes) {
      const [step] = steps(quote);
      const input = write(
        'requests.jsonl',
        step!.args.includes('--mock') ? good : [...good, ...bad],
      );
      const output = path.join(dir, `${quote.line}.jsonl`);
      const args = step!.args.map((a) =>
        a === 'requests.jsonl' ? input : a === 'results.jsonl' ? output : a,
      );
      if (!args.includes('--mock')) args.splice(1, 0, '--mock');
      let printed = '';
      await runInProcess(args, {
        stdout: (t) => void (printed += t),
        stderr: (t) => void (printed += t),
        signal: new AbortController().signal,
        env: {},
      });
      printed = printed
        .split(input)
        .join('requests.jsonl')
        .replace(/^\d+\.\d s$/m, '0.6 s');
      expect(matches(step!.expected, printed), `${quote.line}: ${printed}`).toBe(true);
    }
  });
});
