/**
 * The tool loop itself, for the runners (their run, tools/run.ts, imports it when a run starts): an
 * app that never calls `runTools()` does not ship it when its bundler splits code. It reports to the
 * runner through `RunSink` (tools/params.ts) and imports nothing of the runners' files.
 */
import {
  ToolTimeoutError,
  APIUserAbortError,
  InferenceError,
  type RequestTarget,
} from '../errors/api';
import type {
  ChatCompletion,
  ChatCompletionCreateParams,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from '../generated/types.gen';
import type { RequestOptions } from '../options/types';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionsResource as ChatCompletions,
} from '../resources/chat';
import {
  parseChatCompletion,
  settleParsing,
  type ParsedChatCompletion,
  type ParsedChatCompletionMessage,
} from '../parse/completion';
import type { RunSink, RunToolsParams } from './params';
import type { ToolEntry } from './table';
import { toAssistantMessage } from './messages';
import { bounded } from '../util/wait';
import { follow } from '../util/signals';

// The runner's events are worked out here, in the lazily loaded part of runTools(), too; a
// streaming run's events carry parsed values (stream-parser.ts).
export { RunnerEvents } from './events';
export { StreamParsing } from '../parse/stream-parser';

/** What a run's errors name: its requests, all to the one endpoint. */
const TARGET: RequestTarget = { method: 'POST', path: '/chat/completions (runTools)' };

/** One run of the loop. Kept apart from the runner so the runner's public surface stays small. */
export class Loop<ParsedT> {
  /**
   * The assistant messages this run added to `runner.messages`: the completion's message itself,
   * as the official runner keeps it (`parsed`, `refusal: null`, `parsed_arguments`, and the SDK's
   * `reasoning` …), sent back as `toAssistantMessage()` makes it, without what the server would
   * not take (strict servers reject unknown fields).
   */
  readonly #replies = new WeakSet<object>();

  readonly #runner: RunSink<ParsedT>;
  readonly #completions: ChatCompletions;
  readonly #body: RunToolsParams;
  readonly #tools: Map<string, ToolEntry>;
  readonly #options: RequestOptions & { signal: AbortSignal };
  readonly #maxRounds: number;
  /** Longest one tool may take to settle (ms). */
  readonly #toolTimeout: number;

  // Private fields rather than parameter properties: a bundler shortens `#names`, not public ones.
  constructor(
    runner: RunSink<ParsedT>,
    completions: ChatCompletions,
    body: RunToolsParams,
    tools: Map<string, ToolEntry>,
    options: RequestOptions & { signal: AbortSignal },
    maxRounds: number,
    toolTimeout: number,
  ) {
    this.#runner = runner;
    this.#completions = completions;
    this.#body = body;
    this.#tools = tools;
    this.#options = options;
    this.#maxRounds = maxRounds;
    this.#toolTimeout = toolTimeout;
  }

  async run(): Promise<void> {
    // `toolContext` is for the tools (runOne), not the server: strict servers reject unknown fields.
    const { tools: _tools, stream, toolContext: _context, ...rest } = this.#body;
    const definitions = [...this.#tools.values()].map((t) => t.definition);
    // With a forced choice the model would call tools forever: the run ends after that round's tools.
    // A `null` choice is no choice (`typeof null` is 'object').
    const choice = rest.tool_choice;
    const forced = choice === 'required' || (typeof choice === 'object' && choice !== null);
    // The models in turn (`fallbacks`): once one answers, the next rounds start at it, not at a
    // model that failed (one failed request more per round).
    let models = [rest.model, ...this.#completions.fallbacksOf(this.#options)];
    for (let round = 1; round <= this.#maxRounds; round++) {
      this.#throwIfAborted();
      const params: ChatCompletionCreateParams = {
        ...rest,
        model: models[0]!,
        tools: definitions,
        messages: this.#runner.messages.map((m) =>
          this.#replies.has(m) ? toAssistantMessage(m as ChatCompletionMessage) : m,
        ),
      };
      // The first is the model asked for: `fallbacks` skip it.
      const options = { ...this.#optionsFor(round), fallbacks: models };
      const raw =
        stream === true
          ? await this.#streamed(params, round, options)
          : await this.#completions.create(
              params as ChatCompletionCreateParamsNonStreaming,
              options,
            );
      // Arguments that fail their schema are answered below, not thrown; a schema that validates
      // asynchronously has the tool's `toolTimeout`, as when the tool runs (runOne).
      let completion: ParsedChatCompletion<ParsedT>;
      try {
        const parsing = parseChatCompletion(
          raw,
          { ...params, tools: this.#body.tools as ChatCompletionTool[] },
          { badArguments: 'skip', boundArguments: (p, name) => this.#bounded(p, name) },
        );
        completion = (await settleParsing(
          parsing,
          this.#completions.waitOf(this.#options),
          TARGET,
        )) as unknown as ParsedChatCompletion<ParsedT>;
      } catch (error) {
        // The reply arrived, and the run was aborted while a schema validated it: it is kept (in
        // `allChatCompletions()` and `messages`, as the official runner keeps a reply that came
        // before the abort), its parsing left undone; no tool runs.
        if (error instanceof APIUserAbortError && this.#options.signal.aborted) {
          const unparsed = unparsedCompletion(raw) as ParsedChatCompletion<ParsedT>;
          this.#received(unparsed, round);
          throw error;
        }
        // OutputParseError quotes the reply, which may repeat the key.
        throw this.#completions.masked(error);
      }
      models = models.slice(Math.max(models.indexOf(completion.model), 0));
      // No message (no choice): an empty one, so that the run's messages still show the round.
      const message = this.#received(completion, round, {
        role: 'assistant',
        content: null,
        refusal: null,
        parsed: null,
      })!; // never undefined: there is a fallback
      // A listener of those events (`functionToolCall` …) may have called abort(): no tool runs then.
      this.#throwIfAborted();
      const calls = message.tool_calls ?? [];
      // The last round's tools run too (as the official client's runner does): `maxRounds` caps
      // the requests, and the run ends after that round's results are in `messages`.
      if (calls.length === 0) return;
      const results = await this.#runTools(calls);
      for (const [i, call] of calls.entries()) {
        this.#runner.emit({
          type: 'message',
          round,
          message: { role: 'tool', tool_call_id: call.id, content: results[i]! },
        });
      }
      this.#throwIfAborted();
      if (forced) return;
    }
  }

  /**
   * A round's reply is in: its calls named, then the completion and its message (`fallback` when it
   * has none) emitted, the message kept as a reply. Returns the message.
   */
  #received(
    completion: ParsedChatCompletion<ParsedT>,
    round: number,
    fallback?: ParsedChatCompletionMessage<ParsedT>,
  ) {
    namedCalls(completion, round);
    this.#runner.emit({ type: 'completion', round, completion });
    const message = completion.choices[0]?.message ?? fallback;
    if (message) {
      this.#replies.add(message);
      this.#runner.emit({ type: 'message', round, message: message as ChatCompletionMessageParam });
    }
    return message;
  }

  /**
   * The request options of one round. A caller's `idempotencyKey` names the whole run, but each
   * round is a new generation: sent unchanged, a gateway that honours it would replay round 1's
   * answer to every round. Round 1 sends the key as given, round n `<key>-round-<n>`, so a run
   * retried with the same key is recognised round by round.
   */
  #optionsFor(round: number): RequestOptions & { signal: AbortSignal } {
    const key = this.#options.idempotencyKey;
    if (typeof key !== 'string' || round === 1) return this.#options;
    return { ...this.#options, idempotencyKey: `${key}-round-${round}` };
  }

  async #streamed(
    params: ChatCompletionCreateParams,
    round: number,
    options: RequestOptions & { signal: AbortSignal },
  ) {
    const stream = await this.#completions.create({ ...params, stream: true }, options);
    const snapshot = () => stream.currentChatCompletionSnapshot!;
    for await (const chunk of stream) {
      this.#runner.emit({ type: 'chunk', round, chunk }, snapshot);
      // A body that is read slowly holds the request back, as a plain stream's body does: the
      // upstream waits in the connection, not in memory.
      const paced = this.#runner.paced();
      if (paced) await paced;
    }
    return stream.finalChatCompletion();
  }

  /**
   * Run one round's calls: at once, or one after another when the body says
   * `parallel_tool_calls: false` (as the official client's runner does: a caller who asked the
   * model for one call at a time may rely on the tools not overlapping). The first tool that
   * throws stops the others (their signal aborts) and the run.
   */
  async #runTools(calls: ChatCompletionMessageToolCall[]): Promise<string[]> {
    // The run has not aborted (run() has just checked): every tool may start.
    const signal = this.#options.signal;
    // The round's signal: it aborts with the run's, or when one of its tools fails.
    const round = new AbortController();
    const unlink = follow(signal, round);
    const one = (call: ChatCompletionMessageToolCall) =>
      this.#runOne(call, round.signal).catch((error: unknown) => {
        round.abort(error);
        throw error;
      });
    const all =
      this.#body.parallel_tool_calls === false
        ? (async () => {
            const results: string[] = [];
            for (const call of calls) {
              results.push(await one(call));
              if (round.signal.aborted) throw this.#abortError();
            }
            return results;
          })()
        : Promise.all(calls.map(one));
    try {
      // An abort ends the run at once, even while a tool that ignores its signal is still busy.
      return (await bounded(all, [signal], undefined, () => this.#abortError()))!.value;
    } finally {
      unlink();
    }
  }

  /**
   * One call: its arguments checked by the tool's schema, then its function run, the two together
   * within `toolTimeout` (a schema may validate asynchronously too). No timer outlives the call, or
   * the round: its signal aborts when another tool fails or the run is aborted.
   */
  async #runOne(call: ChatCompletionMessageToolCall, signal: AbortSignal): Promise<string> {
    const name = call.function.name;
    const tool = this.#tools.get(name);
    if (!tool) {
      // Word for word the official client's answer: prompts and evals written for it carry over.
      const names = [...this.#tools.keys()].map((n) => JSON.stringify(n)).join(', ');
      return `Invalid tool_call: ${JSON.stringify(name)}. Available options are: ${names}. Please try again`;
    }
    const answer = async (): Promise<string> => {
      const args = await tool.parse(call.function.arguments ?? '');
      if (!args.ok)
        return `Error: invalid arguments for ${name}: ${args.message}. Call it again with arguments that match its parameters.`;
      if (signal.aborted) throw this.#abortError(); // stopped while the arguments were checked
      const result = await tool.run(
        args.value,
        {
          signal,
          toolCall: { id: call.id, function: { name, arguments: call.function.arguments ?? '' } },
        },
        this.#body.toolContext,
      );
      return toolContent(name, result);
    };
    return this.#bounded(answer(), name, signal);
  }

  /**
   * Tool `name`'s work (its asynchronous argument validation, or a call), within its
   * `toolTimeout`; rejects with the signal's reason once it aborts.
   */
  async #bounded<T>(work: Promise<T>, name: string, signal?: AbortSignal): Promise<T> {
    const settled = await bounded(
      work,
      [signal],
      this.#toolTimeout,
      undefined,
      () => new ToolTimeoutError(TARGET, this.#toolTimeout, name),
    );
    return settled!.value; // never undefined: the timeout rejects
  }

  #throwIfAborted(): void {
    if (this.#options.signal.aborted) throw this.#abortError();
  }

  #abortError(): APIUserAbortError {
    return new APIUserAbortError(TARGET, this.#options.signal.reason);
  }
}

/** A reply whose parsing was given up on: `parsed` and every `parsed_arguments` `null`. */
function unparsedCompletion(raw: ChatCompletion): ParsedChatCompletion<unknown> {
  return {
    ...raw,
    choices: raw.choices.map((choice) => {
      const { tool_calls: calls, ...message } = choice.message;
      return {
        ...choice,
        message: {
          ...message,
          refusal: message.refusal ?? null,
          parsed: null,
          ...(calls && {
            tool_calls: calls.map((call) => ({
              ...call,
              function: { ...call.function, parsed_arguments: null },
            })),
          }),
        },
      };
    }),
  } as ParsedChatCompletion<unknown>;
}

/**
 * Tool calls without an id (llama.cpp and others send `''`; some leave it out) get one of their
 * own, `call_<round>_<index>`, before anyone sees the completion: each tool message must name the
 * call it answers, and calls that share `''` could not be told apart (the official client's runner
 * names them too). Only the first choice: the run follows it alone. Its calls' `parsed_arguments`
 * are `null`, not `undefined`, when they could not be parsed.
 */
function namedCalls(completion: ParsedChatCompletion<unknown>, round: number): void {
  const calls = completion.choices[0]?.message.tool_calls ?? [];
  for (const [index, call] of calls.entries()) {
    if (typeof call.id !== 'string' || call.id === '') call.id = `call_${round}_${index}`;
    // Arguments that could not be parsed: `null`, as the official runner's messages have it.
    const fn = call.function as { parsed_arguments?: unknown };
    if (fn.parsed_arguments === undefined) fn.parsed_arguments = null;
  }
}

/**
 * What goes back to the model as a tool's result: a string as it is, `undefined` as empty content
 * (a message without `content` is refused by strict servers), anything else as JSON. A value JSON
 * cannot hold (a `BigInt`, a cycle, a function, a `Symbol`) is a fault of the tool, named, not a
 * raw `TypeError` or a message without content.
 */
function toolContent(name: string, result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined) return '';
  let cause: unknown;
  try {
    const text = JSON.stringify(result);
    if (text !== undefined) return text;
  } catch (error) {
    cause = error;
  }
  throw new InferenceError(
    `chat.completions.runTools: tool ${JSON.stringify(name)} returned ${cause instanceof Error ? `a value JSON cannot hold (${cause.message})` : `a ${typeof result}, which JSON cannot hold`}; return a string, or a value JSON can hold.`,
    { cause },
  );
}
