/**
 * What a helper's stream events carry parsed (`stream()`, `parse({ stream: true })`, the streaming
 * tool runner), from the request's `response_format` and `tools`: the structured output and the
 * tool arguments so far (partial JSON, parsed incrementally by partial-json.ts), their validated
 * values when they are complete, and the final completion parsed. Loaded with the request
 * (`import()`), so that an app that only calls `create()` does not ship it; the stream asks it only
 * for events that have listeners, and for the final completion once.
 */
import type {
  ChatCompletion,
  ChatCompletionCreateParams,
  ChatCompletionTool,
} from '../generated/types.gen';
import type { StreamParser } from '../stream/chat-event-types';
import type { RequestTarget } from '../errors/api';
import { DEFAULTS } from '../options/types';
import {
  andThen,
  parseChatCompletion,
  parseContent,
  settleParsing,
  type MaybePromise,
} from './completion';
import { PartialJSON } from './partial-json';
import { parserOf } from '../schema/parsers';

/** What an error of the final parse names. */
const TARGET: RequestTarget = { method: 'POST', path: '/chat/completions' };

/** One partial JSON value fed from a text that grows: only what was not fed yet goes in. */
class Growing {
  readonly #json = new PartialJSON();
  #fed = 0;
  #value: unknown = null;

  /** The value of `snapshot` so far (the last one, while the parser holds back a snapshot of a very large value). */
  read(snapshot: string): unknown {
    if (snapshot.length > this.#fed) {
      this.#json.push(snapshot.slice(this.#fed));
      this.#fed = snapshot.length;
      const next = this.#json.snapshot();
      if (next) this.#value = next.value;
    }
    return this.#value;
  }
}

/** What masks the key in an error: the client's chat completions (`masked()`). */
export interface Masker {
  masked(error: unknown): unknown;
}

/**
 * The parsing of one stream (or of one run's requests, `reset()` between them).
 *
 * `always`: `parse({ stream: true })`'s rules, the final completion always parsed (JSON formats
 * without a schema and tools without one JSON-parsed). Otherwise `stream()`'s, the official
 * client's: parsed only when the format or a tool carries a schema (or a tool is `strict`), else
 * every message gets `parsed: null`.
 */
export class StreamParsing implements StreamParser {
  readonly #params: ChatCompletionCreateParams;
  readonly #always: boolean;
  readonly #timeout: number;
  readonly #masker: Masker | undefined;
  #content: Growing | undefined;
  #calls = new Map<number, Growing>();

  /** `timeout`: how long the final parse may wait on a schema that validates asynchronously (ms). */
  constructor(
    params: ChatCompletionCreateParams,
    always = false,
    timeout: number = DEFAULTS.timeout,
    masker?: Masker,
  ) {
    this.#params = params;
    this.#always = always;
    this.#timeout = timeout;
    this.#masker = masker;
  }

  partialContent(snapshot: string): unknown {
    const format = this.#params.response_format;
    if (format?.type !== 'json_schema' && format?.type !== 'json_object') return null;
    if (!this.#always && !parserOf(format)) return null;
    return (this.#content ??= new Growing()).read(snapshot);
  }

  content(content: string): unknown {
    const format = this.#params.response_format;
    if (!this.#always && !parserOf(format)) return null;
    return settled(() => parseContent({ content, refusal: null }, format, EMPTY));
  }

  partialArguments(index: number, name: string, snapshot: string): unknown {
    if (!this.#parses(this.#tool(name))) return null;
    let call = this.#calls.get(index);
    if (!call) this.#calls.set(index, (call = new Growing()));
    return call.read(snapshot);
  }

  arguments(name: string, args: string): unknown {
    const tool = this.#tool(name);
    const parser = parserOf(tool);
    if (parser) return settled(() => andThen(parser(args), (o) => (o.ok ? o.value : null)));
    if (!this.#parses(tool)) return null;
    return settled(() => JSON.parse(args.trim() === '' ? '{}' : args));
  }

  /** The final completion parsed; its errors with the key masked (`OutputParseError` quotes the reply). */
  completion(
    completion: ChatCompletion,
    signal: AbortSignal,
  ): ChatCompletion | Promise<ChatCompletion> {
    const fail = (error: unknown): never => {
      throw this.#masker ? this.#masker.masked(error) : error;
    };
    try {
      const parsed = this.#completion(completion, signal);
      return parsed instanceof Promise ? parsed.catch(fail) : parsed;
    } catch (error) {
      return fail(error);
    }
  }

  #completion(
    completion: ChatCompletion,
    signal: AbortSignal,
  ): ChatCompletion | Promise<ChatCompletion> {
    const params = this.#params;
    let parsing: MaybePromise<unknown>;
    if (this.#always) parsing = parseChatCompletion(completion, params);
    else {
      const format = parserOf(params.response_format) ? params.response_format : undefined;
      const tools = params.tools?.filter((t) => this.#parses(t)) ?? [];
      // Only what carries a schema (or a strict tool) is parsed, and only then does a `length` finish throw.
      if (format || tools.length)
        parsing = parseChatCompletion(completion, {
          ...params,
          tools,
          response_format: format,
        } as ChatCompletionCreateParams);
    }
    // Bounded like parse(): the call's `timeout`, and the stream's signal (`stream.abort()`).
    if (parsing instanceof Promise)
      return settleParsing(
        parsing as Promise<ChatCompletion>,
        { timeout: this.#timeout, signal },
        TARGET,
      );
    if (parsing !== undefined) return parsing as ChatCompletion;
    // Nothing to parse: the messages say so, as the official client's stream() does.
    return {
      ...completion,
      choices: completion.choices.map((choice) => ({
        ...choice,
        message: { ...choice.message, parsed: null },
      })),
    };
  }

  reset(): void {
    this.#content = undefined;
    this.#calls = new Map();
  }

  #tool(name: string): ChatCompletionTool | undefined {
    // A runTools() plain tool without a name is named by its function (tools/table.ts).
    return this.#params.tools?.find(
      (t) =>
        (t.function.name || (t.function as { function?: { name?: string } }).function?.name) ===
        name,
    );
  }

  /** Whether a tool's arguments are parsed: it has a schema, or is `strict` (its arguments are then JSON), or `parse()` parses every tool's. */
  #parses(tool: ChatCompletionTool | undefined): boolean {
    return (
      tool !== undefined &&
      (this.#always || parserOf(tool) !== undefined || tool.function.strict === true)
    );
  }
}

/** No completion yet: the events parse a text before the completion exists (their errors are not thrown). */
const EMPTY: ChatCompletion = {
  id: '',
  object: 'chat.completion',
  created: 0,
  model: '',
  choices: [],
  usage: null,
};

/**
 * A parsed value for an event: at once, or `null` when it cannot be had at once (a schema that
 * validates asynchronously: `finalChatCompletion()` has it) or does not parse (the final
 * completion says why, with `OutputParseError`).
 */
function settled(parse: () => unknown): unknown {
  try {
    const value = parse();
    if (!(value instanceof Promise)) return value;
    value.catch(() => {});
  } catch {
    // not to be had: null
  }
  return null;
}
