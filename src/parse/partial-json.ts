/**
 * Incremental partial JSON: the structured output of a stream as it grows, in time linear in its
 * length. Each delta is parsed once (re-parsing the whole text per chunk is quadratic: a 100 KB
 * output in 20-byte deltas would parse 250 MB), and a snapshot copies only the containers still
 * open, so values that are complete keep their identity from one snapshot to the next (cheap to
 * compare, and React's memo sees them unchanged).
 *
 * What a snapshot holds (the rules `partial-json` follows): a string being written is cut where it
 * stops (an unfinished escape left out), a number is its longest valid prefix (`12` of `12.`), a
 * literal being written is its value (`t` → `true`), an open object or array holds what it has so
 * far, and a key appears once its value has started.
 *
 * Before the JSON, what `jsonText()` in completion.ts skips is skipped here too: leading whitespace, one
 * `<think>…</think>` block and a Markdown code fence.
 */

import { JSONLead } from './json-lead';

type Frame =
  | { kind: 'object'; value: Record<string, unknown>; key: string | undefined; size: number }
  | { kind: 'array'; value: unknown[]; size: number };

const enum State {
  Value,
  String,
  Number,
  Literal,
  AfterValue,
  Key,
  Colon,
  Done,
  Failed,
}

/** Snapshots that copy at most this many entries are always taken; larger ones are throttled. */
const FREE_COPY = 1024;
/** A throttled snapshot waits until the text grew by at least 1/RATIO of what it would copy. */
const RATIO = 16;

const LITERALS: Record<string, unknown> = { true: true, false: false, null: null };
const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** A JSON number's longest valid prefix (each part starts with its own character: no ambiguity). */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;

/** Absent: no value to show yet. */
const NONE: unique symbol = Symbol('none');

/**
 * Feed it text with `push()`; ask for `snapshot()` when you want the value so far. Snapshots are
 * new objects along the open path only; nothing a snapshot returned is ever changed afterwards.
 *
 * Throttling keeps the total work linear even for pathological outputs (an array of 100 000
 * items): a snapshot that would copy more than 1 024 entries is taken only once the text has
 * grown by 1/16 of that since the last one. Ordinary outputs get a snapshot for every change.
 */
export class PartialJSON {
  /** Skips what comes before the JSON; gone once the JSON has started. */
  #lead: JSONLead | undefined = new JSONLead();

  #state = State.Value;
  readonly #stack: Frame[] = [];
  #root: unknown = NONE;
  /** The string being read (a value, or a key when `#isKey`), decoded. */
  #string = '';
  #isKey = false;
  /** An escape cut off by the end of a delta (`\`, `\u00`). */
  #escape = '';
  /** The number or literal being read, as text. */
  #token = '';
  /** The number or literal's value as last shown, to tell whether a digit changed anything. */
  #shown: unknown = NONE;

  #dirty = false;
  #grown = 0;
  #cost = 0;

  /** Whether the text so far cannot be JSON (then no further snapshot changes). */
  get failed(): boolean {
    return this.#state === State.Failed;
  }

  /** Add the next piece of the model's output. */
  push(text: string): void {
    if (this.#lead) {
      const json = this.#lead.push(text);
      if (json === undefined) return;
      this.#lead = undefined;
      text = json;
    }
    this.#grown += text.length;
    this.#feed(text);
  }

  /**
   * The value so far, or `undefined` when nothing visible changed since the last snapshot (or
   * the snapshot is throttled; pass `force` at the end to get the last value regardless).
   */
  snapshot(force = false): { value: unknown } | undefined {
    if (!this.#dirty || this.#state === State.Failed) return undefined;
    if (!force && this.#cost > FREE_COPY && this.#grown * RATIO < this.#cost) return undefined;
    const value = this.#build();
    if (value === NONE) return undefined;
    this.#dirty = false;
    this.#grown = 0;
    return { value };
  }

  #feed(text: string): void {
    const length = text.length;
    let i = 0;
    while (i < length) {
      switch (this.#state) {
        case State.Done:
        case State.Failed:
          return; // after the value: a closing fence, or whatever else, is not the output's
        case State.String:
          i = this.#readString(text, i);
          continue;
        case State.Number:
        case State.Literal: {
          const code = text.charCodeAt(i);
          if (this.#state === State.Number ? isNumberChar(code) : code >= 0x61 && code <= 0x7a) {
            this.#token += text[i];
            i++;
            this.#tokenChanged();
            continue;
          }
          this.#endToken();
          continue; // the character that ended it is read in the next state
        }
        default:
          this.#structural(text.charCodeAt(i));
          i++;
      }
    }
  }

  /** A character outside strings, numbers and literals. */
  #structural(code: number): void {
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) return;
    const top = this.#stack[this.#stack.length - 1];
    switch (this.#state) {
      case State.Value:
        if (code === 0x7b)
          return this.#open({ kind: 'object', value: {}, key: undefined, size: 0 });
        if (code === 0x5b) return this.#open({ kind: 'array', value: [], size: 0 });
        if (code === 0x22) {
          this.#state = State.String;
          this.#isKey = false;
          this.#string = '';
          this.#dirty = true; // "" is a value already
          return;
        }
        // A number starts with `-` or a digit, a literal with the `t`, `f` or `n` of its word.
        if (
          code === 0x2d ||
          (code >= 0x30 && code <= 0x39) ||
          code === 0x74 ||
          code === 0x66 ||
          code === 0x6e
        ) {
          this.#state = code > 0x39 ? State.Literal : State.Number;
          this.#token = String.fromCharCode(code);
          this.#shown = NONE;
          this.#tokenChanged();
          return;
        }
        // `[]`: an array may close where a value could start.
        if (code === 0x5d && top?.kind === 'array' && top.size === 0) return this.#close();
        return this.#fail();
      case State.AfterValue:
        if (code === 0x2c && top !== undefined) {
          this.#state = top.kind === 'object' ? State.Key : State.Value;
          return;
        }
        if ((code === 0x7d && top?.kind === 'object') || (code === 0x5d && top?.kind === 'array'))
          return this.#close();
        return this.#fail();
      case State.Key:
        if (code === 0x22) {
          this.#state = State.String;
          this.#isKey = true;
          this.#string = '';
          return;
        }
        if (code === 0x7d && top?.kind === 'object' && top.size === 0) return this.#close();
        return this.#fail();
      case State.Colon:
        if (code === 0x3a) {
          this.#state = State.Value;
          return;
        }
        return this.#fail();
      default:
        return this.#fail();
    }
  }

  /**
   * Reads string characters from `i`, up to the end of the string or of an escape; returns where
   * it stopped (`#feed` calls it again while the string goes on).
   */
  #readString(text: string, i: number): number {
    if (this.#escape !== '') {
      // Complete the escape (`\`, `\u…`), which the end of a delta may have cut off.
      const more = text.slice(i, i + (this.#escape[1] === 'u' ? 6 : 2) - this.#escape.length);
      this.#escape += more;
      i += more.length;
      if (!this.#takeEscape()) return i;
    }
    const length = text.length;
    let stop = i;
    while (stop < length) {
      const code = text.charCodeAt(stop);
      if (code === 0x22 || code === 0x5c) break;
      stop++;
    }
    if (stop > i) this.#append(text.slice(i, stop));
    if (stop === length) return stop;
    if (text.charCodeAt(stop) === 0x22) this.#endString();
    else this.#escape = '\\'; // read from the next call
    return stop + 1;
  }

  /** Decode `#escape` if it is complete; false when it is not (or is invalid: then failed). */
  #takeEscape(): boolean {
    const escape = this.#escape;
    const unicode = escape[1] === 'u';
    if (escape.length < (unicode ? 6 : 2)) return false;
    this.#escape = '';
    const decoded = !unicode
      ? ESCAPES[escape[1]!]
      : /^\\u[0-9a-fA-F]{4}$/.test(escape)
        ? String.fromCharCode(parseInt(escape.slice(2), 16))
        : undefined;
    if (decoded === undefined) {
      this.#fail();
      return false;
    }
    this.#append(decoded);
    return true;
  }

  #append(text: string): void {
    this.#string += text;
    if (!this.#isKey) this.#dirty = true;
  }

  #endString(): void {
    const value = this.#string;
    this.#string = '';
    if (this.#isKey) {
      const top = this.#stack[this.#stack.length - 1] as Extract<Frame, { kind: 'object' }>;
      top.key = value;
      this.#state = State.Colon;
      return;
    }
    this.#commit(value);
  }

  /** Whether the number or literal being read shows a different value now. */
  #tokenChanged(): void {
    const value = this.#tokenValue();
    if (value === NONE && this.#state === State.Literal) return this.#fail();
    if (value !== this.#shown) {
      this.#shown = value;
      this.#dirty = true;
    }
  }

  #tokenValue(): unknown {
    if (this.#state === State.Literal) {
      for (const word in LITERALS) if (word.startsWith(this.#token)) return LITERALS[word];
      return NONE;
    }
    const match = NUMBER.exec(this.#token);
    return match ? Number(match[0]) : NONE;
  }

  #endToken(): void {
    const token = this.#token;
    this.#token = '';
    if (this.#state === State.Literal) {
      if (!(token in LITERALS)) return this.#fail();
      return this.#commit(LITERALS[token]);
    }
    // The longest valid prefix is the whole token only when the token is a valid number.
    if (NUMBER.exec(token)?.[0] !== token) return this.#fail();
    this.#commit(Number(token));
  }

  #open(frame: Frame): void {
    this.#stack.push(frame);
    this.#cost += 1;
    this.#state = frame.kind === 'object' ? State.Key : State.Value;
    this.#dirty = true;
  }

  #close(): void {
    const frame = this.#stack.pop()!;
    this.#cost -= frame.size + 1;
    // Nobody else holds `frame.value` (snapshots hold copies): it is the final value as it is.
    this.#commit(frame.value);
  }

  /**
   * A value is complete. Not a visible change by itself: a snapshot already showed it as it grew
   * (the string, the number, the open container), only the parser's bookkeeping moves on.
   */
  #commit(value: unknown): void {
    const top = this.#stack[this.#stack.length - 1];
    if (top === undefined) {
      this.#root = value;
      this.#state = State.Done;
      return;
    }
    if (top.kind === 'array') {
      top.value.push(value);
      top.size++;
      this.#cost++;
    } else {
      const key = top.key!;
      if (!Object.prototype.hasOwnProperty.call(top.value, key)) {
        top.size++;
        this.#cost++;
      }
      setOwn(top.value, key, value);
      top.key = undefined;
    }
    this.#state = State.AfterValue;
  }

  #fail(): void {
    this.#state = State.Failed;
  }

  /** The value so far: the open containers copied, the value being read put in its place. */
  #build(): unknown {
    if (this.#state === State.Done) return this.#root;
    let child: unknown = NONE;
    if (this.#state === State.String && !this.#isKey) child = this.#string;
    else if (this.#state === State.Number || this.#state === State.Literal)
      child = this.#tokenValue();
    for (let i = this.#stack.length - 1; i >= 0; i--) {
      const frame = this.#stack[i]!;
      if (frame.kind === 'array') {
        const copy = frame.value.slice();
        if (child !== NONE) copy.push(child);
        child = copy;
      } else {
        const copy = { ...frame.value };
        if (child !== NONE && frame.key !== undefined) setOwn(copy, frame.key, child);
        child = copy;
      }
    }
    return child;
  }
}

/** `object[key] = value`, as JSON.parse would: `__proto__` an own property, never the prototype. */
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  else object[key] = value;
}

function isNumberChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2e ||
    code === 0x2d ||
    code === 0x2b ||
    code === 0x65 ||
    code === 0x45
  );
}
