/**
 * Streams one reply to the terminal: a spinner on stderr until the first token, the model's
 * reasoning (if any) on stderr, set apart from the answer, the text on stdout as it arrives (or
 * each raw chunk as a JSON line with `--json`), and cancellation by an AbortSignal. Shared by
 * `chat` and `complete`.
 *
 * The reasoning goes to stderr, as the spinner and the notes do, so that stdout holds the answer
 * alone (`answer=$(model-inference-sdk chat …)` gets no reasoning). On a terminal with colours it
 * is dim, after a `Reasoning: ` label; otherwise (a pipe, `NO_COLOR`) it is marked in plain text,
 * between a `[reasoning]` and a `[/reasoning]` line, so that a log of both streams tells them apart.
 *
 * @module
 */
import {
  APIUserAbortError,
  type ChatCompletionChunk,
  type Completion,
  type CompletionUsage,
} from '../index';
import type { CommandIO } from './command';
import type { Output } from './connection';
import { createChunkGuard } from './chunk-guard';
import { createStreamGuard, jsonText, printable } from './safe-text';
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
  /** The reasoning text of one chunk ('' when none); shown on stderr, not with `--json`. */
  reasoning?: (chunk: T) => string;
  /** The usage of one chunk, if it has any. */
  usage: (chunk: T) => CompletionUsage | null | undefined;
  /** The chunk's `finish_reason`, `null` while the text goes on: its line is ended then, before
   * the SDK's `--verbose` line about the end of the stream, and a reply cut at the token limit or
   * stopped by a content filter gets a note on stderr, so that it does not pass for a whole one. */
  finishReason?: (chunk: T) => string | null;
  /** Cancels the request (Ctrl-C). */
  signal: AbortSignal;
  /** Print each chunk as a JSON line instead of the text. */
  json: boolean;
  /** `--raw`: print the text's control characters as they come instead of escaped (the key is still masked). */
  raw: boolean;
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
 *   text: chunkText,
 *   usage: (chunk) => chunk.usage,
 *   signal, json: false, raw: false, label: model,
 * });
 * ```
 */
export async function streamReply<T>(
  io: CommandIO,
  output: Output,
  options: StreamReplyOptions<T>,
): Promise<StreamedReply> {
  const spinner = startSpinner(
    io.stderr,
    output.spinner,
    output.err.dim(`waiting for ${printable(options.label, { oneLine: true })}… (Ctrl-C cancels)`),
  );
  // The key masked even when it comes split across chunks, control characters escaped (JSON
  // escapes its own); the dispatcher masks each write, which cannot see across two.
  const guard = createStreamGuard(io.secrets ?? [], { raw: options.raw });
  // `--json`: every streamed text of a chunk guarded so (reasoning, tool-call arguments …).
  const chunks = createChunkGuard(io.secrets ?? []);
  const print = (lines: unknown[]) => {
    for (const line of lines) io.stdout(`${jsonText(line)}\n`);
  };
  const thoughts = reasoningWriter(io, output);
  let text = '';
  let usage: CompletionUsage | undefined;
  let cancelled = false;
  let ended = false;
  let reason: string | null = null;
  /** The rest of the text (held back in case it was the start of the key), and a final newline. */
  const endText = (): void => {
    if (ended) return;
    ended = true;
    const rest = guard.end();
    if (rest !== '') io.stdout(rest);
    if (text !== '' && !text.endsWith('\n')) io.stdout('\n');
  };
  try {
    const stream = await options.open(options.signal);
    for await (const chunk of stream) {
      const delta = options.text(chunk);
      const thought = options.json ? '' : (options.reasoning?.(chunk) ?? '');
      if (thought !== '') {
        spinner.stop();
        thoughts.push(thought);
      }
      if (delta !== '') thoughts.end();
      if (options.json) {
        spinner.stop();
        print(chunks.push(chunk));
      } else if (delta !== '') {
        spinner.stop();
        const shown = guard.push(delta);
        if (shown !== '') io.stdout(shown);
      }
      text += delta;
      usage = options.usage(chunk) ?? usage;
      reason ??= options.finishReason?.(chunk) ?? null;
      if (!options.json && reason !== null) endText();
    }
  } catch (error) {
    if (!(error instanceof APIUserAbortError) || !options.signal.aborted) throw error;
    cancelled = true;
  } finally {
    spinner.stop();
    thoughts.end();
    if (options.json) print(chunks.end());
    else endText();
  }
  const note = options.json || cancelled ? undefined : FINISH_NOTES[reason ?? ''];
  if (note !== undefined) io.stderr(`${output.err.dim(note)}\n`);
  return { text, usage, cancelled };
}

/** The note on stderr after a reply that ended for another reason than its end. */
const FINISH_NOTES: Record<string, string | undefined> = {
  length: '(cut at the token limit: finish_reason length; raise --max-tokens, or ask for less)',
  content_filter: "(stopped by the server's content filter: finish_reason content_filter)",
};

/** The reasoning of one reply on stderr: `push` each delta, `end` once the answer starts (or the stream ends). */
interface ReasoningWriter {
  push(delta: string): void;
  end(): void;
}

function reasoningWriter(io: CommandIO, output: Output): ReasoningWriter {
  // Its own guard: the key masked across deltas, a server's control characters escaped (always:
  // `--raw` is for the answer).
  const guard = createStreamGuard(io.secrets ?? [], { raw: false });
  // Colours on stderr mean a terminal the user looks at: dim is enough to set it apart.
  const styled = output.err.dim('x') !== 'x';
  let state: 'none' | 'open' | 'closed' = 'none';
  let last = '';
  const write = (text: string): void => {
    if (text === '') return;
    io.stderr(styled ? output.err.dim(text) : text);
    last = text;
  };
  return {
    push(delta) {
      if (state === 'closed') return;
      if (state === 'none') {
        io.stderr(styled ? output.err.dim('Reasoning: ') : '[reasoning]\n');
        state = 'open';
      }
      write(guard.push(delta));
    },
    end() {
      if (state !== 'open') return;
      state = 'closed';
      write(guard.end());
      io.stderr(`${last.endsWith('\n') ? '' : '\n'}${styled ? '' : '[/reasoning]\n'}`);
    },
  };
}

// The CLI's only reading of reply text: the functions below.

/**
 * The reasoning a chat chunk adds: its first choice's `delta.reasoning` (the SDK reads every
 * server's field for it: `reasoning_content`, `reasoning`, `thinking` …).
 *
 * @example
 * ```ts
 * chunkReasoning({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { reasoning: 'Hmm' }, finish_reason: null }] }); // 'Hmm'
 * ```
 */
export function chunkReasoning(chunk: ChatCompletionChunk): string {
  return chunk.choices[0]?.delta.reasoning ?? '';
}

/**
 * The `finish_reason` of a chat or legacy completion chunk's first choice: `null` while its text
 * goes on.
 *
 * @example
 * ```ts
 * chunkFinishReason({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'length' }] }); // 'length'
 * ```
 */
export function chunkFinishReason(chunk: ChatCompletionChunk | Completion): string | null {
  return chunk.choices[0]?.finish_reason ?? null;
}

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
  for await (const chunk of stdin)
    text +=
      typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
  return text + decoder.decode();
}
