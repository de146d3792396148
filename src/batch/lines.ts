/**
 * Text lines of a byte or text stream, read as they come: JSONL of any length in memory bounded by
 * its longest line. Linear: each chunk is scanned once for line ends, and only the unfinished tail
 * is kept between chunks (in pieces, joined once when its line ends).
 */
import { InferenceError } from 'model-inference-sdk';

/**
 * One line: its text without the line end (`\n` or `\r\n`) or, on the first line, a UTF-8 BOM; its 1-based number; and whether a line end closed it.
 *
 * @example
 * ```ts
 * const line: TextLine = { text: '{"custom_id":"q-1"}', number: 1, ended: true, crlf: false };
 * ```
 */
export interface TextLine {
  text: string;
  number: number;
  /** `false` for a last line with no line end after it (a file cut off, or one without a final newline). */
  ended: boolean;
  /** Whether its line end was `\r\n`. */
  crlf: boolean;
}

/**
 * Where lines come from: a web `ReadableStream` of bytes or text, or any (async) iterable of them (a Node stream).
 *
 * @example
 * ```ts
 * const source: LineSource = (await fetch('https://files.example.com/requests.jsonl')).body!;
 * ```
 */
export type LineSource =
  | ReadableStream<Uint8Array | string>
  | AsyncIterable<Uint8Array | string>
  | Iterable<Uint8Array | string>;

/**
 * The lines of `source`, read as they come. A line longer than `maxLineSize` characters throws an
 * `InferenceError` naming it.
 *
 * @example
 * ```ts
 * import { readLines } from 'model-inference-sdk/batch';
 *
 * for await (const { text, number } of readLines(['a\nb', 'c\n'])) console.log(number, text); // 1 a, 2 bc
 * ```
 */
export async function* readLines(
  source: LineSource,
  maxLineSize = 64 * 1024 * 1024,
): AsyncGenerator<TextLine> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let pieces: string[] = [];
  let pending = 0;
  let number = 0;
  const finish = (last: string, ended: boolean): TextLine => {
    pieces.push(last);
    let text = pieces.length === 1 ? last : pieces.join('');
    pieces = [];
    pending = 0;
    // A UTF-8 BOM opening the text (a file saved on Windows): the decoder drops it from bytes,
    // and this from text chunks.
    if (number === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const crlf = ended && text.endsWith('\r');
    if (crlf) text = text.slice(0, -1);
    return { text, number: ++number, ended, crlf };
  };
  for await (const chunk of iterate(source)) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      if (pending + end - start > maxLineSize) throw tooLong(number + 1, maxLineSize);
      yield finish(text.slice(start, end), true);
      start = end + 1;
    }
    if (start < text.length) {
      pending += text.length - start;
      if (pending > maxLineSize) throw tooLong(number + 1, maxLineSize);
      pieces.push(text.slice(start));
    }
  }
  const rest = decoder.decode();
  if (rest !== '') pieces.push(rest);
  if (pieces.length > 0) yield finish('', false);
}

function tooLong(line: number, max: number): InferenceError {
  return new InferenceError(`line ${line} is longer than ${max} characters.`);
}

async function* iterate(source: LineSource): AsyncGenerator<Uint8Array | string> {
  if (typeof (source as ReadableStream).getReader === 'function') {
    const reader = (source as ReadableStream<Uint8Array | string>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      // A consumer that stops early (an error, a break) cancels the source.
      await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }
  yield* source as AsyncIterable<Uint8Array | string>;
}
