/**
 * `inference-sdk complete`: a text completion from the legacy `/completions` endpoint, streamed.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import type { Completion } from '../generated/types.gen';
import type { Command } from './command';
import { interruptedExitCode, UsageError } from './command';
import { chooseModel, CONNECTION_HELP, CONNECTION_OPTIONS, connect, integerFlag, numberFlag, outputFor } from './connection';
import { readAll, streamReply } from './stream-reply';
import { noteUsage } from './usage';

const help = `Usage: inference-sdk complete [options] [prompt...]

Streams a text completion of the prompt from the legacy /completions endpoint.
With no prompt, reads it from standard input (echo 'Once upon' | inference-sdk complete).

Options:
  -m, --model <slug>    the model (default: INFERENCE_MODEL, else the first
                        ready model of the list)
  --max-tokens <n>      limit the completion's length in tokens
  --temperature <x>     sampling temperature, 0 to 2
  --json                print each raw chunk as one JSON line (NDJSON)

${CONNECTION_HELP}`;

/**
 * `inference-sdk complete [-m slug] [--max-tokens n] [--temperature x] [--json] [prompt...]`.
 *
 * @example
 * ```ts
 * const code = await completeCommand.run(['--mock', 'Once upon a time'], { stdout: (t) => process.stdout.write(t), stderr: console.error, signal: new AbortController().signal });
 * ```
 */
export const completeCommand: Command = {
  name: 'complete',
  summary: 'complete a text prompt with the legacy /completions endpoint',
  help,
  usesCredentials: true,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        ...CONNECTION_OPTIONS,
        model: { type: 'string', short: 'm' },
        'max-tokens': { type: 'string' },
        temperature: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
    if (values.help) {
      io.stdout(help);
      return 0;
    }
    const maxTokens = integerFlag('--max-tokens', values['max-tokens'], 1, 10_000_000);
    const temperature = numberFlag('--temperature', values.temperature, 0, 2);
    let prompt = positionals.join(' ').trim();
    if (prompt === '') {
      if (io.stdin === undefined || io.stdin.isTTY === true) throw new UsageError('no prompt: pass one as an argument or pipe it on standard input.');
      prompt = (await readAll(io.stdin)).trim();
      if (io.signal.aborted) return interruptedExitCode(io.signal);
      if (prompt === '') throw new UsageError('no prompt: standard input was empty.');
    }

    const output = outputFor(io, values.verbose);
    const { client, close } = await connect(values, io, output);
    try {
      const chosen = await chooseModel(client, values.model, io, output, io.signal);
      const body = {
        model: chosen.slug,
        prompt,
        stream: true as const,
        ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
        ...(temperature === undefined ? {} : { temperature }),
        ...(output.verbose ? { stream_options: { include_usage: true } } : {}),
      };
      const result = await streamReply<Completion>(io, output, {
        open: (signal) => client.completions.create(body, { signal }),
        text: (chunk) => chunk.choices?.[0]?.text ?? '',
        usage: (chunk) => chunk.usage,
        signal: io.signal,
        json: values.json,
        label: chosen.slug,
      });
      if (result.cancelled) {
        io.stderr(`${output.err.dim('(interrupted)')}\n`);
        return interruptedExitCode(io.signal);
      }
      await noteUsage(client, chosen, result.usage, output, io.signal);
      return 0;
    } finally {
      await close();
    }
  },
};
