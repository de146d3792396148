// `model-inference-sdk batch` as a user runs it: a real process against a loopback server, killed
// with SIGKILL at random points and started again, 20 times; after which the output holds exactly
// one whole line per input line, and no line that had a result was ever sent again. Also: the
// progress line on a terminal, and Ctrl-C.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cleanEnv, runCli, start } from '../cli-support';
import { runCli as runInProcess } from '../../src/cli/run';
import { inputLine, KEY } from './server';
import { useBatchCliServer, server, dir, env, write, ids, wholeIds } from '../support/batch-cli';

useBatchCliServer();

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
});
