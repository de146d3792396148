// `model-inference-sdk batch` as a user runs it: a real process against a loopback server, killed
// with SIGKILL at random points and started again, 20 times; after which the output holds exactly
// one whole line per input line, and no line that had a result was ever sent again.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI, cleanEnv, killLeftovers, runCli, start } from '../cli-support';
import { runCli as runInProcess } from '../../src/cli/run';
import { inputLine, KEY, startBatchServer, type BatchServer } from './server';
import { consoleBlocks, matches, steps } from '../support/docs-quotes';

let server: BatchServer;
let dir: string;
beforeAll(async () => {
  server = await startBatchServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'batch-cli-'));
  server.calls.length = 0;
  server.delay = () => 0;
  server.run = 0;
});
afterEach(() => {
  killLeftovers();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ INFERENCE_API_KEY: KEY, INFERENCE_BASE_URL: server.url });
const write = (name: string, lines: string[]) => {
  const file = path.join(dir, name);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
};
const ids = (file: string): string[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { custom_id: string }).custom_id)
    : [];
/** The custom_ids of the whole lines of an output file (a torn last line left out, as the next run reads it). */
const wholeIds = (file: string): string[] => {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => {
      try {
        return [(JSON.parse(l) as { custom_id: string }).custom_id];
      } catch {
        return [];
      }
    });
};

describe('model-inference-sdk batch', () => {
  it(
    'killed with SIGKILL at random points and resumed, 20 times: exactly one line per input line, nothing sent twice that had a result',
    { timeout: 180_000 },
    async () => {
      // Enough lines that no run can finish before its kill: each run is killed after a random number
      // (1–12) of its requests reached the server, plus up to 40 ms, so about 15–25 lines get a
      // result per run and 20 runs leave work for the last one.
      const n = 400;
      const input = write(
        'in.jsonl',
        Array.from({ length: n }, (_, i) => inputLine(`line-${i}`, `p${i}`)),
      );
      const output = path.join(dir, 'out.jsonl');
      server.delay = () => 10 + Math.floor(Math.random() * 30);
      let kills = 0;
      for (let round = 1; round <= 20; round++) {
        const before = new Set(wholeIds(output));
        server.run = round;
        const run = start(
          process.execPath,
          [...CLI, 'batch', input, '--output', output, '--concurrency', '6', '--quiet'],
          cleanEnv(env()),
        );
        run.child.stdin.end();
        const sent = () => server.calls.filter((c) => c.run === round).length;
        const at = 1 + Math.floor(Math.random() * 12);
        for (let i = 0; i < 3000 && sent() < at && run.child.exitCode === null; i++)
          await new Promise((r) => setTimeout(r, 5));
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 40)));
        if (run.child.exitCode === null) {
          run.child.kill('SIGKILL');
          kills++;
        }
        await run.exit;
        // No line that already had a whole result line was sent in this run.
        const resent = server.calls.filter(
          (c) => c.run === round && before.has(`line-${c.prompt.slice(1)}`),
        );
        expect(resent).toEqual([]);
      }
      expect(kills).toBeGreaterThan(10);
      server.run = 21;
      const last = await runCli(['batch', input, '--output', output], { env: env() });
      expect(last.stderr).toMatch(/^resuming: \d+ of 400 lines already have a result\n/);
      expect(last.code).toBe(0);
      const final = ids(output); // every line parses: nothing torn is left
      expect(final).toHaveLength(n);
      expect(new Set(final).size).toBe(n);
      // Every request of a line carried the same idempotency key, whichever run sent it.
      const keys = new Map<string, Set<string | undefined>>();
      for (const call of server.calls)
        keys.set(call.prompt, (keys.get(call.prompt) ?? new Set()).add(call.key));
      expect(keys.size).toBe(n);
      for (const set of keys.values()) expect(set.size).toBe(1);
      expect(readFileSync(output, 'utf8')).not.toContain(KEY);
    },
  );

  it('on a terminal: one progress line redrawn in place, with done/total, rate, ETA, tokens and cost; --quiet: none', async () => {
    const input = write(
      'in.jsonl',
      Array.from({ length: 12 }, (_, i) => inputLine(`t${i}`, `p${i}`)),
    );
    server.delay = () => 60;
    const run = async (extra: string[]) => {
      let stderr = '';
      let stdout = '';
      const code = await runInProcess(
        [
          'batch',
          input,
          '-o',
          path.join(dir, `o${extra.length}.jsonl`),
          '--concurrency',
          '2',
          ...extra,
        ],
        {
          stdout: (t) => void (stdout += t),
          stderr: (t) => void (stderr += t),
          signal: new AbortController().signal,
          env: env(),
          stderrIsTTY: true,
        },
      );
      return { code, stderr, stdout };
    };
    const shown = await run([]);
    expect(shown.code).toBe(0);
    const frames = shown.stderr.split('\r\u001b[2K').filter(Boolean);
    expect(frames.length).toBeGreaterThan(2);
    expect(frames.at(-2)).toMatch(
      /^\d+\/12 lines · \d+\.\d\/s · ETA (\d+s|-) · \d+ tokens · cost [\d.]+$/,
    );
    expect(shown.stderr.endsWith('\r\u001b[2K')).toBe(true); // the line is cleared before the summary
    expect(shown.stdout).toMatch(/^12 done, 0 failed of 12\n/);
    const quiet = await run(['--quiet']);
    expect(quiet.stderr).toBe('');
  });

  it('Ctrl-C (SIGINT): the lines in flight are aborted, the summary says how to go on, exit 130; the same command finishes', async () => {
    const input = write(
      'in.jsonl',
      Array.from({ length: 30 }, (_, i) => inputLine(`i${i}`, `p${i}`)),
    );
    const output = path.join(dir, 'o.jsonl');
    server.delay = () => 100;
    const run = start(
      process.execPath,
      [...CLI, 'batch', input, '--output', output, '--concurrency', '2', '--quiet'],
      cleanEnv(env()),
    );
    run.child.stdin.end();
    for (let i = 0; i < 1500 && server.calls.length < 3 && run.child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 10));
    run.child.kill('SIGINT');
    const { code } = await run.exit;
    expect(code).toBe(130);
    expect(run.stdout()).toMatch(
      /interrupted: \d+ lines not done \(run the same command again to go on\)/,
    );
    const before = ids(output);
    expect(before.length).toBeLessThan(30);
    server.delay = () => 0;
    const rest = await runCli(['batch', input, '--output', output, '--quiet'], { env: env() });
    expect(rest.code).toBe(0);
    expect(ids(output).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `i${i}`).sort());
  });

  it(
    'elsewhere (not a terminal): a plain progress line every 5 s, never redrawn',
    { timeout: 30_000 },
    async () => {
      const input = write(
        'in.jsonl',
        Array.from({ length: 12 }, (_, i) => inputLine(`n${i}`, `p${i}`)),
      );
      server.delay = () => 550;
      let stderr = '';
      const code = await runInProcess(
        ['batch', input, '-o', path.join(dir, 'o.jsonl'), '--concurrency', '1'],
        {
          stdout: () => {},
          stderr: (t) => void (stderr += t),
          signal: new AbortController().signal,
          env: env(),
          stderrIsTTY: false,
        },
      );
      expect(code).toBe(0);
      expect(stderr).not.toContain('\r');
      expect(stderr).toMatch(
        /^\d+\/12 lines · \d+\.\d\/s · ETA (\d+s|-) · \d+ tokens · cost [\d.]+\n/m,
      );
    },
  );

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
