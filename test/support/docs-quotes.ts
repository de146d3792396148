/**
 * The quoted CLI sessions of the docs, read for test/docs-truth.test.ts.
 *
 * A quote is a ```console block right after an HTML comment that says how to produce it:
 *
 *   <!-- cli-output -->                      each `$` command runs in process (runCli, pipes)
 *   <!-- cli-output: port 8799 free -->      the same, with 8799 replaced by a port nobody listens on
 *   <!-- cli-output: port 8799 busy -->      … by a port something listens on
 *   <!-- cli-output: pty -->                 on a pseudo-terminal (`script`), typing what the quote shows
 *   <!-- cli-output: pty, mock-server 8799 --chunk-delay 150 -->
 *                                            … with a paced mock server on that port first
 *
 * In a quote, `$ …` lines are commands (`export A=b`, `A=b model-inference-sdk …`,
 * `echo "text" | model-inference-sdk …`, `…; echo "exit $?"`, `echo "exit $?"`, a trailing
 * `# comment`); the lines after one, up to the next, are what it prints (stdout and stderr as
 * written; blank lines at the end set commands apart). A line that is only `…` stands for any lines; a `…` in a line for any text. What
 * differs from run to run (ports, times, ids, dates) is read alike on both sides (`normalize`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One quote: where it is, how to run it, its lines. */
export interface Quote {
  file: string;
  /** 1-based line of the first line inside the block. */
  line: number;
  /** The marker's words after `cli-output:` ('' for none). */
  how: string;
  lines: string[];
}

/** Every ```console block of `file`, with the marker before it ('' when it has none: `marked` false). */
export function consoleBlocks(root: string, file: string): (Quote & { marked: boolean })[] {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const out: (Quote & { marked: boolean })[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```console\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const indent = fence[1]!.length;
    const marker = /^\s*<!--\s*cli-output(?::\s*(.*?))?\s*-->\s*$/.exec(lines[i - 1] ?? '');
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    out.push({ file, line: start + 1, how: marker?.[1] ?? '', marked: marker !== null, lines: lines.slice(start, end).map((l) => l.slice(indent)) });
    i = end;
  }
  return out;
}

/** One `$` command of a quote and what it prints. */
export interface Step {
  /** `export`: only sets variables; `exit`: `echo "exit $?"` of the command before. */
  kind: 'run' | 'export' | 'exit';
  env: Record<string, string>;
  args: string[];
  stdin?: string;
  /** `…; echo "exit $?"`: the command prints its exit code after its output. */
  echoExit: boolean;
  expected: string[];
  /** The command as quoted, for messages. */
  text: string;
}

/** Shell words: spaces split, '…' and "…" quote (no escapes inside '…'; \" inside "…"). */
export function words(text: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      if (close < 0) throw new Error(`unclosed ${c} in: ${text}`);
      word = (word ?? '') + text.slice(i + 1, close).replace(/\\"/g, '"');
      i = close;
    } else if (/\s/.test(c)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) out.push(word);
  return out;
}

/** The steps of a quote. */
export function steps(quote: Quote): Step[] {
  const out: Step[] = [];
  for (const line of quote.lines) {
    if (!line.startsWith('$ ')) {
      const last = out.at(-1);
      if (last === undefined) throw new Error(`${quote.file}:${quote.line}: a quote starts with a $ command`);
      last.expected.push(line);
      continue;
    }
    let text = line.slice(2).replace(/\s+#\s.*$/, '').trim();
    const step: Step = { kind: 'run', env: {}, args: [], echoExit: false, expected: [], text };
    if (text === 'echo "exit $?"') {
      out.push({ ...step, kind: 'exit' });
      continue;
    }
    if (text.endsWith('; echo "exit $?"')) {
      step.echoExit = true;
      text = text.slice(0, -'; echo "exit $?"'.length);
    }
    const pipe = /^echo ("[^"]*"|'[^']*') \| (.*)$/.exec(text);
    if (pipe) {
      step.stdin = `${words(pipe[1]!)[0]}\n`;
      text = pipe[2]!;
    }
    const all = words(text);
    if (all[0] === 'export') {
      for (const assignment of all.slice(1)) assign(step.env, assignment);
      out.push({ ...step, kind: 'export' });
      continue;
    }
    while (all[0] !== undefined && /^[A-Z_]+=/.test(all[0])) assign(step.env, all.shift()!);
    if (all.shift() !== 'model-inference-sdk') throw new Error(`${quote.file}:${quote.line}: not a model-inference-sdk command: ${line}`);
    step.args = all;
    out.push(step);
  }
  // A blank line before the next `$` sets the commands apart; it is not output.
  for (const step of out) while (step.expected.at(-1) === '') step.expected.pop();
  return out;
}

function assign(env: Record<string, string>, assignment: string): void {
  const at = assignment.indexOf('=');
  env[assignment.slice(0, at)] = assignment.slice(at + 1);
}

/** What differs from run to run, written alike: ports, times, ids, dates. */
export function normalize(text: string): string {
  return text
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/"created":\d+/g, '"created":N')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/\b\d+ ms\b/g, 'N ms')
    .replace(/date: '[^']*'/g, "date: 'DATE'")
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
}

/**
 * Whether `actual` is what `expected` quotes: line by line, a `…` line for any lines, `…` in a
 * line for any text, a line with `^C` for what streamed before the Ctrl-C (a prefix of it:
 * how far a reply got when the key was pressed is a matter of timing).
 */
export function matches(expected: readonly string[], actual: string): boolean {
  if (expected.length === 0) return normalize(actual).trim() === '';
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = normalize(expected.join('\n'))
    .split('\n')
    .map((line) => {
      if (line === '…') return '(?:[^\\n]*\\n)*?';
      const interrupted = /^(.*?) ?\^C$/.exec(line);
      if (interrupted) return `${escape(interrupted[1]!)}[^\\n]*\\^C\\n`;
      return `${line.split('…').map(escape).join('[^\\n]*?')}\\n`;
    })
    .join('');
  const text = normalize(actual.endsWith('\n') || actual === '' ? actual : `${actual}\n`);
  return new RegExp(`^${pattern}$`).test(text);
}

/**
 * What a terminal shows for `raw` output: carriage returns go back to the start of the line
 * (the spinner draws so), the cursor moves and erases of node:readline (`ESC [ n G`, `ESC [ 0 J`,
 * `ESC [ 0 K`) are applied, other escapes dropped; trailing spaces trimmed.
 */
export function screen(raw: string): string {
  const lines: string[] = [];
  let line: string[] = [];
  let col = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\u001b') {
      // eslint-disable-next-line no-control-regex
      const csi = /^\u001b\[(\d*)([A-Za-z])/.exec(raw.slice(i, i + 12));
      if (csi) {
        const n = csi[1] === '' ? 1 : Number(csi[1]);
        if (csi[2] === 'G') col = n - 1;
        else if (csi[2] === 'J' || csi[2] === 'K') line = line.slice(0, col);
        i += csi[0].length - 1;
      }
      continue;
    }
    if (c === '\r') col = 0;
    else if (c === '\n') {
      lines.push(line.join('').trimEnd());
      line = [];
      col = 0;
    } else {
      while (line.length < col) line.push(' ');
      line[col++] = c;
    }
  }
  if (line.length > 0) lines.push(line.join('').trimEnd());
  return lines.join('\n') + (raw.endsWith('\n') ? '\n' : '');
}
