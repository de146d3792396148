/**
 * Terminal output of the CLI: colours (only on a terminal, never with NO_COLOR), a spinner and
 * plain-text tables. Nothing here writes an escape sequence unless colours are on: the spinner
 * draws with carriage returns and spaces only.
 *
 * @module
 */
import { stripVTControlCharacters } from 'node:util';
import { printable } from './safe-text';

/**
 * Whether to colour a stream: never when NO_COLOR is set to anything non-empty (it wins over
 * FORCE_COLOR) or TERM is `dumb`; always when FORCE_COLOR is set (and not `0` or `false`);
 * otherwise only when the stream is a terminal.
 *
 * @example
 * ```ts
 * colourEnabled(process.stdout.isTTY === true, process.env); // false in a pipe
 * ```
 */
export function colourEnabled(
  isTTY: boolean,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if ((env['NO_COLOR'] ?? '') !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env['TERM'] === 'dumb') return false;
  return isTTY;
}

/** Text styles; each is the identity when colours are off. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/**
 * The styles for one stream.
 *
 * @example
 * ```ts
 * const style = createStyle(colourEnabled(true, {}));
 * style.red('error'); // '\u001b[31merror\u001b[39m'
 * ```
 */
export function createStyle(enabled: boolean): Style {
  const sgr =
    (open: number, close: number) =>
    (text: string): string =>
      enabled && text !== '' ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
  };
}

/** A running spinner; `stop()` erases it and is safe to call twice. */
export interface Spinner {
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Draws `⠋ label` on one line of a terminal until stopped, then erases it. A no-op when `enabled`
 * is false (stderr is not a terminal).
 *
 * @example
 * ```ts
 * const spinner = startSpinner((t) => process.stderr.write(t), process.stderr.isTTY === true, 'waiting for mock/echo');
 * // … first token arrives …
 * spinner.stop();
 * ```
 */
export function startSpinner(
  write: (text: string) => void,
  enabled: boolean,
  label: string,
): Spinner {
  if (!enabled) return { stop: () => undefined };
  let frame = 0;
  const line = (): string => `${FRAMES[frame % FRAMES.length] ?? '-'} ${label}`;
  write(`\r${line()}`);
  const timer = setInterval(() => {
    frame += 1;
    write(`\r${line()}`);
  }, 80);
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      write(`\r${' '.repeat(stripVTControlCharacters(line()).length)}\r`);
    },
  };
}

/** Options of {@link formatTable}. */
export interface TableOptions {
  /** Columns to right-align (numbers). */
  right?: ReadonlySet<number>;
  /** Styles a cell after padding (so colours never upset the alignment). */
  paint?: (column: number, padded: string, cell: string) => string;
}

/**
 * Columns two spaces apart; headers upper-case, and bold when the style colours. Control
 * characters and line breaks in a cell show as escapes (`\x1b`, `\n`).
 *
 * @example
 * ```ts
 * formatTable(['slug', 'context'], [['mock/echo', '8192']], createStyle(false), { right: new Set([1]) });
 * // 'SLUG       CONTEXT\nmock/echo     8192\n'
 * ```
 */
export function formatTable(
  headers: readonly string[],
  rawRows: readonly (readonly string[])[],
  style: Style,
  options: TableOptions = {},
): string {
  // Cells are a server's text (model ids, names): control characters and line breaks escaped.
  const rows = rawRows.map((row) => row.map((cell) => printable(cell, { oneLine: true })));
  const right = options.right ?? new Set<number>();
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const render = (
    cells: readonly string[],
    paint: (column: number, padded: string, cell: string) => string,
  ): string =>
    cells
      .map((cell, i) => {
        const width = widths[i] ?? 0;
        const padded = right.has(i)
          ? cell.padStart(width)
          : i === cells.length - 1
            ? cell
            : cell.padEnd(width);
        return paint(i, padded, cell);
      })
      .join('  ');
  const header = render(
    headers.map((h) => h.toUpperCase()),
    (_i, padded) => style.bold(padded),
  );
  return (
    [header, ...rows.map((r) => render(r, options.paint ?? ((_i, padded) => padded)))].join('\n') +
    '\n'
  );
}
