// The CLI under a pseudo-terminal, as a person at a terminal uses it. `script -qfec "<cmd>" /dev/null`
// (util-linux) runs the command on a new pty and copies our pipe to it, so what the test writes is
// typed: "\r" is Enter, "\u0003" Ctrl-C, "\u0004" Ctrl-D; the terminal's line discipline turns
// Ctrl-C into SIGINT when the program is not in raw mode, exactly as for a user. `-e` returns the
// command's exit code. Output is what the terminal shows: echo, prompts, escapes, \r\n.
import { execFileSync } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ANSI, CLI, SECRET_KEY, cleanEnv, killLeftovers, shellQuote, start, type Running } from './cli-support';
import { useMockServer } from './support/mock-server';

vi.setConfig({ testTimeout: 60_000 });

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

// Paced: each word of a reply is one event, 40 ms apart, so a long reply can be interrupted.
const { server } = useMockServer({ apiKeys: { [SECRET_KEY]: 'all' }, chunkDelayMs: 40 });
let env: Record<string, string>;

/** Runs the CLI on a fresh 120×40 pseudo-terminal. */
function pty(args: readonly string[], extraEnv: Record<string, string> = {}): Running {
  const command = [process.execPath, ...CLI, ...args].map(shellQuote).join(' ');
  return start('script', ['-qfec', `stty cols 120 rows 40; exec ${command}`, '/dev/null'], cleanEnv({ ...env, ...extraEnv }));
}

/** What the terminal shows, escapes stripped and line ends normalised. */
const screen = (run: Running): string => stripVTControlCharacters(run.output()).replace(/\r+\n/g, '\n');

const chats = (): unknown[] => server.requests.filter((r) => r.path === '/chat/completions').map((r) => (r.body as { messages: unknown[] }).messages);

beforeAll(() => {
  env = { INFERENCE_API_KEY: SECRET_KEY, INFERENCE_BASE_URL: server.url };
});
afterEach(() => {
  killLeftovers();
  server.clear();
});

const LONG = Array.from({ length: 150 }, (_, i) => `word${i}`).join(' ');

describe.skipIf(!hasScript)('under a pseudo-terminal', () => {
  it('an interactive chat keeps history, survives Ctrl-C during a reply, and exits 0 on Ctrl-D', async () => {
    const run = pty(['chat']);
    await run.waitFor(/Chatting with mock\/echo\..*\n> $/s);

    // Turn 1, streamed with a spinner on stderr until the first token.
    run.child.stdin.write('hello there\r');
    await run.waitFor(/You said: hello there\n> $/);
    expect(run.output()).toContain('⠋ ');
    expect(run.output()).toContain('waiting for mock/echo');

    // Turn 2 is sent with turn 1: user, assistant, user.
    run.child.stdin.write('and again\r');
    await run.waitFor(/You said: and again\n> $/);
    const turn1 = [
      { role: 'user', content: 'hello there' },
      { role: 'assistant', content: 'You said: hello there' },
    ];
    const turn2 = [
      { role: 'user', content: 'and again' },
      { role: 'assistant', content: 'You said: and again' },
    ];
    expect(chats()[1]).toEqual([...turn1, { role: 'user', content: 'and again' }]);

    // Turn 3: a long, slow reply; Ctrl-C cancels it and the session goes on.
    run.child.stdin.write(`${LONG}\r`);
    await run.waitFor(/You said: word0 word1 /);
    run.child.stdin.write('\u0003');
    await run.waitFor(/\(cancelled\)\n> $/);
    // The reply stopped early (the prompt's own echo holds every word, so look after it).
    expect(screen(run).split('You said: word0').at(-1)).not.toContain('word149');
    expect(run.child.exitCode).toBe(null);

    // Turn 4: the cancelled turn is not in the history.
    run.child.stdin.write('still here\r');
    await run.waitFor(/You said: still here\n> $/);
    expect(chats()).toHaveLength(4);
    expect(chats()[3]).toEqual([...turn1, ...turn2, { role: 'user', content: 'still here' }]);

    // Ctrl-C at the prompt: a hint, not an exit. Then Ctrl-D ends the session.
    run.child.stdin.write('\u0003');
    await run.waitFor(/To exit, press Ctrl-C again or Ctrl-D\.\)\n> $/);
    run.child.stdin.write('\u0004');
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(run.output()).not.toContain(SECRET_KEY);
  });

  it('Ctrl-C on a typed line clears it; Ctrl-C twice at an empty prompt exits 0', async () => {
    const run = pty(['chat', '-m', 'mock/echo']);
    await run.waitFor(/\n> $/);
    run.child.stdin.write('never sent');
    await run.waitFor(/> never sent$/);
    run.child.stdin.write('\u0003');
    await run.waitFor(/> $/);
    run.child.stdin.write('\u0003');
    await run.waitFor(/To exit, press Ctrl-C again/);
    run.child.stdin.write('\u0003');
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(chats()).toHaveLength(0);
  });

  it('a one-shot chat exits 130 on Ctrl-C, keeping what streamed', async () => {
    const run = pty(['chat', '-m', 'mock/echo', LONG]);
    await run.waitFor(/You said: word0 /);
    run.child.stdin.write('\u0003');
    expect(await run.exit).toEqual({ code: 130, signal: null });
    expect(screen(run)).toMatch(/You said: word0 .*\n\(interrupted\)\n$/s);
    expect(screen(run)).not.toContain('word149');
  });

  it('a one-shot complete exits 130 on Ctrl-C', async () => {
    const run = pty(['complete', '-m', 'mock/echo', LONG]);
    await run.waitFor(/You said: word0 /);
    run.child.stdin.write('\u0003');
    expect(await run.exit).toEqual({ code: 130, signal: null });
    expect(screen(run)).toContain('(interrupted)');
  });

  it('colours the models table on a terminal; with NO_COLOR, no escape at all', async () => {
    const coloured = pty(['models']);
    expect((await coloured.exit).code).toBe(0);
    expect(coloured.output()).toContain('\u001b[1mSLUG');
    expect(coloured.output()).toContain('\u001b[32myes');

    const plain = pty(['models'], { NO_COLOR: '1' });
    expect((await plain.exit).code).toBe(0);
    expect(plain.output()).not.toMatch(ANSI);
    expect(screen(plain)).toMatch(/^mock\/echo\s+Mock Echo\s+8192\s+4096\s+tools\s+yes\s+0\.1 \/ 0\.4 \/ 0\.025$/m);
  });

  it('one-shot chat and complete with NO_COLOR: a spinner drawn without escapes, then the text', async () => {
    for (const command of ['chat', 'complete']) {
      const run = pty([command, 'colourless please'], { NO_COLOR: '1' });
      expect((await run.exit).code).toBe(0);
      expect(run.output()).not.toMatch(ANSI);
      expect(run.output()).toContain('⠋ waiting for mock/echo');
      expect(screen(run)).toMatch(/You said: colourless please\n$/);
    }
  });

  it("a model's reasoning on a terminal: dim and labelled before the answer; with NO_COLOR, marked in plain text", async () => {
    const dim = pty(['chat', '-m', 'mock/reasoner', 'think first']);
    expect((await dim.exit).code).toBe(0);
    expect(dim.output()).toContain('\u001b[2mReasoning: \u001b[22m');
    expect(dim.output()).toContain('\u001b[2mI \u001b[22m');
    expect(screen(dim)).toMatch(/Reasoning: The user said "think first"\. I will repeat it\.\nYou said: think first\n$/);

    const plain = pty(['chat', '-m', 'mock/reasoner', 'think first'], { NO_COLOR: '1' });
    expect((await plain.exit).code).toBe(0);
    expect(plain.output()).not.toMatch(ANSI);
    expect(screen(plain)).toMatch(/\[reasoning\]\nThe user said "think first"\. I will repeat it\.\n\[\/reasoning\]\nYou said: think first\n$/);
  });

  it('an API error exits 1 with the class name; the key is never shown', async () => {
    const run = pty(['models', 'get', 'mock/none', '--verbose']);
    expect((await run.exit).code).toBe(1);
    expect(screen(run)).toContain('model-inference-sdk models: NotFoundError: 404 GET /v1/models/mock/none:');
    expect(screen(run)).toContain("authorization: '***'");
    expect(run.output()).not.toContain(SECRET_KEY);
  });

  it('usage errors exit 2', async () => {
    const run = pty(['chat', '--no-such-flag']);
    expect((await run.exit).code).toBe(2);
    expect(screen(run)).toContain("model-inference-sdk chat: unknown option '--no-such-flag'.");
  });
});
