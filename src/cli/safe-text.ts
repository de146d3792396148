/**
 * What the CLI prints of text a server controls (model ids, owners, error messages, a streamed
 * reply) is made harmless to the terminal: control characters are shown as escapes, so that a
 * server cannot move the cursor, retitle the window (OSC 0), plant a hyperlink (OSC 8), ring the
 * bell or overwrite a line with a bare carriage return. On a terminal and in a pipe alike: a
 * pipe often ends in `less -R` or a log viewer that interprets them too.
 *
 * A streamed reply also goes through {@link createStreamGuard}, which masks the key when a model
 * streams it back in pieces: the dispatcher masks every write, but a key split across two deltas
 * is whole in neither.
 *
 * @module
 */

/**
 * C0 controls but tab and line feed, a carriage return not followed by a line feed, DEL, and C1
 * controls (U+0080–U+009F: U+009B is a one-character CSI, U+009D an OSC on many terminals).
 */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;
/** The same, with tab, line feed and every carriage return too: for one-line values (ids, table cells). */
// eslint-disable-next-line no-control-regex
const CONTROLS_ONE_LINE = /[\u0000-\u001f\u007f-\u009f]/g;

const escapeOne = (c: string): string =>
  c === '\r'
    ? '\\r'
    : c === '\n'
      ? '\\n'
      : c === '\t'
        ? '\\t'
        : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * `text` with its control characters shown as escapes (`\x1b`, `\x07`, `\r`, `\x9b`); line feeds,
 * tabs and CRLF line ends are kept. With `oneLine`, line feeds, tabs and every CR are escaped too.
 *
 * @example
 * ```ts
 * printable('\u001b]0;pwned\u0007hi'); // '\\x1b]0;pwned\\x07hi'
 * printable('a\nb', { oneLine: true }); // 'a\\nb'
 * ```
 */
export function printable(text: string, options: { oneLine?: boolean } = {}): string {
  const pattern = options.oneLine === true ? CONTROLS_ONE_LINE : CONTROLS;
  pattern.lastIndex = 0;
  return pattern.test(text) ? text.replace(pattern, escapeOne) : text;
}

/**
 * A value as one JSON text, as `JSON.stringify` writes it but with DEL and the C1 controls
 * escaped too (`\u009b`): JSON.stringify escapes only C0 controls, and the result is still the
 * same JSON.
 *
 * @example
 * ```ts
 * jsonText({ id: 'a\u009bb' }); // '{"id":"a\\u009bb"}'
 * ```
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Turns the deltas of a streamed reply into what may be printed; see {@link createStreamGuard}. */
export interface StreamGuard {
  /** What may be printed of the text so far, given the next delta ('' while it is held back). */
  push(delta: string): string;
  /** Whether text is held back now (for a caller that prints whole chunks: keep the last one open). */
  readonly holding: boolean;
  /** What was held back, at the end of the stream: a piece of a secret (4 characters or more) as `***`. */
  end(): string;
}

/**
 * A guard for one streamed reply: every secret (of 4 characters or more) is replaced by `***`
 * even when it arrives split across deltas, and control characters are escaped unless `raw`.
 *
 * To mask across deltas it holds back just enough: the longest end of the text that could be
 * the start of a secret (usually nothing), and a final CR until the next delta says whether a
 * line feed follows it. So the text flows as it comes, and a key never shows, not even in part.
 *
 * @example
 * ```ts
 * const guard = createStreamGuard(['sk-live-1234'], { raw: false });
 * guard.push('your key is sk-li'); // 'your key is '
 * guard.push('ve-1234.');          // '***.'
 * guard.end();                      // ''
 * ```
 */
export function createStreamGuard(
  secrets: readonly string[],
  options: { raw: boolean },
): StreamGuard {
  const keys = secrets.filter((s) => s.length >= 4);
  const clean = (text: string): string => (options.raw ? text : printable(text));
  let held = '';
  return {
    push(delta) {
      if (keys.length === 0 && options.raw) return delta;
      let text = held + delta;
      for (const key of keys) if (text.includes(key)) text = text.split(key).join('***');
      let keep = 0;
      for (const key of keys) keep = Math.max(keep, startOf(text, key));
      if (!options.raw && keep === 0 && text.endsWith('\r')) keep = 1;
      held = text.slice(text.length - keep);
      return clean(text.slice(0, text.length - keep));
    },
    get holding() {
      return held !== '';
    },
    end() {
      const rest = held;
      held = '';
      // The stream stopped inside what may be a secret: its first characters say too much already.
      return rest.length >= 4 && keys.some((key) => key.startsWith(rest)) ? '***' : clean(rest);
    },
  };
}

/** The length of the longest end of `text` that is the start of `key` (shorter than the key). */
function startOf(text: string, key: string): number {
  for (let i = Math.max(0, text.length - key.length + 1); i < text.length; i++) {
    if (text.charCodeAt(i) === key.charCodeAt(0) && key.startsWith(text.slice(i)))
      return text.length - i;
  }
  return 0;
}
