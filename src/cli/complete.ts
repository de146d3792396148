/**
 * `model-inference-sdk complete`: a text completion from the legacy `/completions` endpoint, streamed.
 *
 * @module
 */
import type { Completion } from '../index';
import type { Command } from './command';
import { interruptedExitCode, UsageError } from './command';
import {
  chooseModel,
  CONNECTION_HELP,
  CONNECTION_OPTIONS,
  connect,
  outputFor,
  type ChosenModel,
} from './connection';
import { inCLIWords } from './explain';
import { defineCommand, integerFlag, numberFlag, paramFlags } from './parse-command';
import { chunkFinishReason, completionText, readAll, streamReply } from './stream-reply';
import { noteUsage } from './usage';

const help = `Usage: model-inference-sdk complete [options] [prompt...]

Streams a text completion of the prompt from the legacy /completions endpoint.
With no prompt, reads it from standard input (echo 'Once upon' | model-inference-sdk complete).

Options:
  -m, --model <slug>    the model (default: INFERENCE_MODEL, else the first
                        ready model of the list)
  --max-tokens <n>      limit the completion's length in tokens
  --temperature <x>     sampling temperature, 0 to 2
  --param <name=value>  a server's own parameter, sent in the body as given
                        (repeatable; JSON values are read as JSON):
                        --param top_k=40 --param 'provider={"sort":"price"}'
  --json                print each raw chunk as one JSON line (NDJSON)
  --raw                 print the reply's control characters as they come (by
                        default they show as escapes such as \\x1b, so a reply
                        cannot drive the terminal); the key is masked anyway

${CONNECTION_HELP}`;

/**
 * `model-inference-sdk complete [-m slug] [--max-tokens n] [--temperature x] [--param name=value] [--json | --raw] [prompt...]`.
 *
 * @example
 * ```ts
 * const code = await completeCommand.run(['--mock', 'Once upon a time'], { stdout: (t) => process.stdout.write(t), stderr: console.error, signal: new AbortController().signal });
 * ```
 */
export const completeCommand: Command = defineCommand({
  name: 'complete',
  summary: 'complete a text prompt with the legacy /completions endpoint',
  help,
  usesCredentials: true,
  options: {
    ...CONNECTION_OPTIONS,
    model: { type: 'string', short: 'm', valueName: 'slug' },
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
      prompt: 'pass the prompt as arguments or on standard input',
      max_tokens: 'use --max-tokens',
      temperature: 'use --temperature',
      stream: 'complete always streams',
      stream_options: 'set by --verbose',
    });
    let prompt = positionals.join(' ').trim();
    if (prompt === '') {
      if (io.stdin === undefined || io.stdin.isTTY === true)
        throw new UsageError('no prompt: pass one as an argument or pipe it on standard input.');
      prompt = (await readAll(io.stdin)).trim();
      if (io.signal.aborted) return interruptedExitCode(io.signal);
      if (prompt === '') throw new UsageError('no prompt: standard input was empty.');
    }

    const output = outputFor(io, values.verbose);
    const { client, endpoint, close } = await connect(values, io, output);
    let chosen: ChosenModel | undefined;
    try {
      chosen = await chooseModel(client, values.model, io, output, io.signal);
      const body = {
        model: chosen.slug,
        prompt,
        stream: true as const,
        ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
        ...(temperature === undefined ? {} : { temperature }),
        ...(output.verbose ? { stream_options: { include_usage: true } } : {}),
      };
      const result = await streamReply<Completion>(io, output, {
        open: (signal) => client.completions.create(body, { signal, extraBody: params }),
        text: completionText,
        finishReason: chunkFinishReason,
        usage: (chunk) => chunk.usage,
        signal: io.signal,
        json: values.json,
        raw: values.raw,
        label: chosen.slug,
      });
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
