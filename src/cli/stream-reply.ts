/**
 * Streams one reply to the terminal: a spinner on stderr until the first token, the text on
 * stdout as it arrives (or each raw chunk as a JSON line with `--json`), and cancellation by an
 * AbortSignal. Shared by `chat` and `complete`.
 *
 * @module
 */
import { APIUserAbortError, type ChatCompletionChunk, type Completion, type CompletionUsage } from '../index';
import type { CommandIO } from './command';
import type { Output } from './connection';
import { startSpinner } from './style';

/** What a streamed reply came to. */
export interface StreamedReply {
  /** The text received (all of it, or what came before a cancel). */
  text: string;
  /** The usage chunk's figures, when the server sent one. */
  usage: CompletionUsage | undefined;
  /** True when `signal` cancelled the request. */
  cancelled: boolean;
}

/** How to stream one reply. */
export interface StreamReplyOptions<T> {
  /** Starts the request with this signal; resolves to the stream of chunks. */
  open: (signal: AbortSignal) => PromiseLike<AsyncIterable<T>>;
  /** The text of one chunk ('' when none). */
  text: (chunk: T) => string;
  /** The usage of one chunk, if it has any. */
  usage: (chunk: T) => CompletionUsage | null | undefined;
  /** Cancels the request (Ctrl-C). */
  signal: AbortSignal;
  /** Print each chunk as a JSON line instead of the text. */
  json: boolean;
  /** The spinner's label, e.g. `mock/echo`. */
  label: string;
}

/**
 * Streams one reply to `io.stdout`, ending the text with a newline.
 *
 * @throws the request's errors (APIError, APIConnectionError …), except a cancel by `signal`,
 * which resolves with `cancelled: true`.
 * @example
 * ```ts
 * const reply = await streamReply(io, output, {
 *   open: (signal) => client.chat.completions.create({ model, messages, stream: true }, { signal }),
 *   text: (chunk) => chunk.choices[0]?.delta.content ?? '',
 *   usage: (chunk) => chunk.usage,
 *   signal, json: false, label: model,
 * });
 * ```
 */
export async function streamReply<T>(io: CommandIO, output: Output, options: StreamReplyOptions<T>): Promise<StreamedReply> {
  const spinner = startSpinner(io.stderr, output.spinner, output.err.dim(`waiting for ${options.label}… (Ctrl-C cancels)`));
  let text = '';
  let usage: CompletionUsage | undefined;
  let cancelled = false;
  try {
    const stream = await options.open(options.signal);
    for await (const chunk of stream) {
      const delta = options.text(chunk);
      if (options.json) {
        spinner.stop();
        io.stdout(`${JSON.stringify(chunk)}\n`);
      } else if (delta !== '') {
        spinner.stop();
        io.stdout(delta);
      }
      text += delta;
      usage = options.usage(chunk) ?? usage;
    }
  } catch (error) {
    if (!(error instanceof APIUserAbortError) || !options.signal.aborted) throw error;
    cancelled = true;
  } finally {
    spinner.stop();
    if (!options.json && text !== '' && !text.endsWith('\n')) io.stdout('\n');
  }
  return { text, usage, cancelled };
}

// The CLI's only reading of reply text: the two functions below.

/**
 * The text a chat chunk adds: its first choice's `delta.content` (always text: the SDK reads
 * Mistral's typed parts into it).
 *
 * @example
 * ```ts
 * chunkText({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] }); // 'Hi'
 * ```
 */
export function chunkText(chunk: ChatCompletionChunk): string {
  return chunk.choices[0]?.delta.content ?? '';
}

/**
 * The text a legacy completion chunk adds: its first choice's `text`.
 *
 * @example
 * ```ts
 * completionText({ id: 'c', object: 'text_completion', created: 0, model: 'm', choices: [{ index: 0, text: 'upon', finish_reason: null }] }); // 'upon'
 * ```
 */
export function completionText(chunk: Completion): string {
  return chunk.choices[0]?.text ?? '';
}

/**
 * Reads all of a piped standard input as text.
 *
 * @example
 * ```ts
 * const prompt = (await readAll(process.stdin)).trimEnd();
 * ```
 */
export async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of stdin) text += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
  return text + decoder.decode();
}
