/**
 * `model-inference-sdk chat`: one prompt (an argument, or piped standard input) streamed to the
 * terminal, or, with no prompt on a terminal, an interactive session that keeps the conversation.
 *
 * In a session the prompt is read with node:readline in raw mode, so Ctrl-C and Ctrl-D arrive as
 * keys. While a reply streams, readline is closed and the terminal is back in its normal mode:
 * Ctrl-C is then a SIGINT, which the dispatcher hands to `io.trapInterrupt`, and it cancels that
 * request only.
 *
 * @module
 */
import { createInterface } from 'node:readline';
import type { ChatCompletionChunk, ChatCompletionCreateParams, Client } from '../index';
import type { Command, CommandIO } from './command';
import { interruptedExitCode, UsageError } from './command';
import {
  chooseModel,
  CONNECTION_HELP,
  CONNECTION_OPTIONS,
  connect,
  outputFor,
  type ChosenModel,
  type Output,
} from './connection';
import { explain, inCLIWords, type Endpoint } from './explain';
import { defineCommand, integerFlag, numberFlag, paramFlags } from './parse-command';
import { colourEnabled, createStyle } from './style';
import { printable } from './safe-text';
import {
  chunkFinishReason,
  chunkReasoning,
  chunkText,
  readAll,
  streamReply,
  type StreamedReply,
} from './stream-reply';
import { noteUsage } from './usage';

type Message = ChatCompletionCreateParams['messages'][number];

const help = `Usage: model-inference-sdk chat [options] [prompt...]

Streams a chat model's reply to a prompt. With no prompt: reads it from
standard input when that is piped (echo hi | model-inference-sdk chat), or starts an
interactive session on a terminal, which keeps the conversation (each request
sends every earlier turn).

Options:
  -m, --model <slug>    the model (default: INFERENCE_MODEL, else the first
                        ready model of the list)
  -s, --system <text>   a system message to start the conversation with
  --max-tokens <n>      limit the reply's length in tokens
  --temperature <x>     sampling temperature, 0 to 2
  --param <name=value>  a server's own parameter, sent in the body as given
                        (repeatable; JSON values are read as JSON):
                        --param top_k=40 --param 'provider={"sort":"price"}'
  --json                print each raw chunk as one JSON line (NDJSON)
  --raw                 print the reply's control characters as they come (by
                        default they show as escapes such as \\x1b, so a reply
                        cannot drive the terminal); the key is masked anyway

${CONNECTION_HELP}
In a session: Enter sends. Ctrl-C while a reply streams cancels it (the session
goes on); at the prompt, Ctrl-C clears the line, and twice on an empty line
exits, as does Ctrl-D.
`;

interface ChatSettings {
  client: Client;
  endpoint: Endpoint;
  chosen: ChosenModel;
  output: Output;
  json: boolean;
  /** `--raw`: the reply's control characters printed as they come. */
  raw: boolean;
  maxTokens: number | undefined;
  temperature: number | undefined;
  /** `--param` flags: the request's `extraBody`. */
  params: Record<string, unknown> | undefined;
}

/** Streams one reply to `messages`; cancelled by `signal`. */
function reply(
  io: CommandIO,
  settings: ChatSettings,
  messages: Message[],
  signal: AbortSignal,
): Promise<StreamedReply> {
  const { client, chosen, output } = settings;
  const body = {
    model: chosen.slug,
    messages,
    stream: true as const,
    ...(settings.maxTokens === undefined ? {} : { max_tokens: settings.maxTokens }),
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(output.verbose ? { stream_options: { include_usage: true } } : {}),
  };
  return streamReply<ChatCompletionChunk>(io, output, {
    open: (s) => client.chat.completions.create(body, { signal: s, extraBody: settings.params }),
    text: chunkText,
    reasoning: chunkReasoning,
    finishReason: chunkFinishReason,
    usage: (chunk) => chunk.usage,
    signal,
    json: settings.json,
    raw: settings.raw,
    label: chosen.slug,
  });
}

/**
 * `model-inference-sdk chat [-m slug] [-s text] [--max-tokens n] [--temperature x] [--param name=value] [--json | --raw] [prompt...]`.
 *
 * @example
 * ```ts
 * const code = await chatCommand.run(['--mock', 'Hello'], { stdout: (t) => process.stdout.write(t), stderr: console.error, signal: new AbortController().signal });
 * ```
 */
export const chatCommand: Command = defineCommand({
  name: 'chat',
  summary: 'chat with a model: one prompt, piped input, or an interactive session',
  help,
  usesCredentials: true,
  options: {
    ...CONNECTION_OPTIONS,
    model: { type: 'string', short: 'm', valueName: 'slug' },
    system: { type: 'string', short: 's', valueName: 'text' },
    'max-tokens': { type: 'string', valueName: 'n' },
    temperature: { type: 'string', valueName: 'x' },
    param: { type: 'string', valueName: 'name=value', multiple: true },
    json: { type: 'boolean', default: false },
    raw: { type: 'boolean', default: false },
  },
  positionals: true,
  async run({ values, positionals }, io) {
    const maxTokens = integerFlag('--max-tokens', values['max-tokens'], 1, 10_000_000);
    const temperature = numberFlag('--temperature', values.temperature, 0, 2);
    if (values.raw && values.json)
      throw new UsageError(
        '--raw goes with the text output, not --json (JSON shows control characters as escapes).',
      );
    const params = paramFlags(values.param, {
      model: 'use -m',
      messages: 'the prompt and -s make them',
      max_tokens: 'use --max-tokens',
      temperature: 'use --temperature',
      stream: 'chat always streams',
      stream_options: 'set by --verbose',
    });
    let prompt: string | undefined = positionals.join(' ').trim() || undefined;
    const stdin = io.stdin;
    const interactive = prompt === undefined && stdin?.isTTY === true;
    if (prompt === undefined && !interactive) {
      prompt = stdin === undefined ? '' : (await readAll(stdin)).trim();
      if (io.signal.aborted) return interruptedExitCode(io.signal);
      if (prompt === '')
        throw new UsageError(
          'no prompt: pass one as an argument, pipe it on standard input, or run on a terminal for a session.',
        );
    }

    const output = outputFor(io, values.verbose);
    const { client, endpoint, close } = await connect(values, io, output);
    let chosen: ChosenModel | undefined;
    try {
      chosen = await chooseModel(client, values.model, io, output, io.signal);
      const settings: ChatSettings = {
        client,
        endpoint,
        chosen,
        output,
        json: values.json,
        raw: values.raw,
        maxTokens,
        temperature,
        params,
      };
      const messages: Message[] =
        values.system === undefined ? [] : [{ role: 'system', content: values.system }];
      if (interactive || prompt === undefined) return await session(io, settings, messages);

      messages.push({ role: 'user', content: prompt });
      const result = await reply(io, settings, messages, io.signal);
      if (result.cancelled) {
        io.stderr(`${output.err.dim('(interrupted)')}\n`);
        return interruptedExitCode(io.signal);
      }
      await noteUsage(client, chosen, result.usage, output, io.signal);
      return 0;
    } catch (error) {
      throw inCLIWords(error, io.signal, endpoint, chosen?.slug);
    } finally {
      await close();
    }
  },
});

/** The interactive session: prompt, stream, repeat, until Ctrl-D or Ctrl-C twice. */
async function session(
  io: CommandIO,
  settings: ChatSettings,
  messages: Message[],
): Promise<number> {
  const { output } = settings;
  const terminal = io.terminal;
  // The terminal is a TTY: colours unless NO_COLOR (or TERM=dumb) says otherwise.
  const style =
    terminal === undefined ? output.err : createStyle(colourEnabled(true, io.env ?? {}));
  const say = (text: string): void => {
    if (terminal !== undefined) terminal.write(text);
    else io.stderr(text);
  };
  say(
    `${style.dim(`Chatting with ${printable(settings.chosen.slug, { oneLine: true })}. Enter sends; Ctrl-C cancels a reply; Ctrl-D (or Ctrl-C twice) exits.`)}\n`,
  );
  let history: string[] = [];
  for (;;) {
    const line = await ask(io, style.bold(style.cyan('> ')), history, (h) => (history = h), say);
    if (line === undefined) break;
    const text = line.trim();
    if (text === '') continue;
    messages.push({ role: 'user', content: text });
    const cancel = new AbortController();
    const untrap = io.trapInterrupt?.(() => cancel.abort());
    const onStop = (): void => cancel.abort();
    io.signal.addEventListener('abort', onStop, { once: true });
    try {
      const result = await reply(io, settings, messages, cancel.signal);
      if (result.cancelled) {
        // An unfinished turn is forgotten: the next request does not send it.
        messages.pop();
        say(`${style.dim('(cancelled)')}\n`);
      } else {
        messages.push({ role: 'assistant', content: result.text });
        await noteUsage(settings.client, settings.chosen, result.usage, output, cancel.signal);
      }
    } catch (error) {
      messages.pop();
      io.stderr(
        `${output.err.red(printable(explain(error, settings.endpoint, settings.chosen.slug)))}\n`,
      );
    } finally {
      untrap?.();
      io.signal.removeEventListener('abort', onStop);
    }
    if (io.signal.aborted) return interruptedExitCode(io.signal);
  }
  return io.signal.aborted ? interruptedExitCode(io.signal) : 0;
}

/**
 * Reads one line with readline in raw mode; `undefined` on Ctrl-D, on Ctrl-C twice at an empty
 * prompt, or when the process is asked to stop. The interface is closed before returning, which
 * gives the terminal back its normal mode (so Ctrl-C is a SIGINT while a reply streams).
 */
function ask(
  io: CommandIO,
  prompt: string,
  history: string[],
  onHistory: (history: string[]) => void,
  say: (text: string) => void,
): Promise<string | undefined> {
  const input = io.stdin as NodeJS.ReadStream;
  const output = io.terminal;
  return new Promise((resolve) => {
    const rl = createInterface({
      input,
      ...(output === undefined ? {} : { output }),
      terminal: true,
      history: [...history],
      historySize: 200,
      removeHistoryDuplicates: true,
      prompt,
    });
    let settled = false;
    let armed = false;
    const finish = (value: string | undefined): void => {
      if (settled) return;
      settled = true;
      input.off('keypress', onKey);
      io.signal.removeEventListener('abort', onStop);
      rl.close();
      resolve(value);
    };
    const onKey = (
      _text: string | undefined,
      key: { ctrl?: boolean; name?: string } | undefined,
    ): void => {
      if (!(key?.ctrl === true && key.name === 'c')) armed = false;
    };
    const onStop = (): void => finish(undefined);
    rl.on('history', (h: string[]) => onHistory(h));
    rl.on('line', (line) => finish(line));
    rl.on('close', () => {
      if (!settled) say('\n');
      finish(undefined);
    });
    rl.on('SIGINT', () => {
      if (rl.line !== '') {
        // Like a shell: Ctrl-C drops what was typed.
        rl.write(null, { ctrl: true, name: 'u' });
        rl.write(null, { ctrl: true, name: 'k' });
        armed = false;
      } else if (armed) {
        say('\n');
        finish(undefined);
      } else {
        armed = true;
        say('\n(To exit, press Ctrl-C again or Ctrl-D.)\n');
        rl.prompt();
      }
    });
    input.on('keypress', onKey);
    io.signal.addEventListener('abort', onStop, { once: true });
    rl.prompt();
  });
}
