/**
 * Chunks → the final ChatCompletion. Pure and incremental: `add()` each chunk as it passes,
 * `result()` at the end. The chunks it gets are already read into one shape (see
 * docs/normalization.md): content and reasoning are strings, every tool-call fragment has the
 * `index` of its call, finish reasons are the API's values. What is left here is joining:
 * - text, reasoning and refusal fragments, per choice (`n > 1` choices each on their own);
 * - tool-call fragments, by `index`: the first id, type and name, the arguments joined, vendor
 *   extras kept (Gemini's `extra_content` must be sent back as it came);
 * - the deprecated `function_call` (a request with `functions`): its first name, its arguments
 *   joined, as the official client joins it;
 * - token logprobs of the content and of a refusal, each list joined;
 * - the last finish reason a choice was given, and the last usage (a trailing usage-only chunk
 *   with `choices: []` included), except that a usage of zeros never replaces a real one;
 * - the raw reasoning field when the server used `reasoning_content` (DeepSeek wants it back),
 *   and the server's own `reasoning` when it sent both (`reasoning_raw`, joined the same way).
 * The result goes through the same normalizer as a non-streamed completion.
 */
import { normalizeChatCompletion } from '../generated/normalize.gen';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionChunkToolCall,
  CompletionUsage,
} from '../generated/types.gen';

interface ToolCallState {
  id: string;
  name: string;
  arguments: Fragments;
  extra: Record<string, unknown> | undefined;
}

/**
 * Text that arrives in fragments, kept compact: every `BLOCK` fragments are joined into one
 * string, so that a long answer is held as a few flat strings rather than thousands of small
 * ones (a difference of megabytes across a few hundred concurrent streams). Each character is
 * copied once more than a plain array would, so it stays linear. `text()` keeps what it joined
 * and joins only what came since: a snapshot on every chunk (the `chunk` event's, or
 * `currentChatCompletionSnapshot`) does not copy the whole text each time.
 */
class Fragments {
  static readonly BLOCK = 64;
  readonly #parts: string[] = [];
  /** Parts before this index are joined blocks; from it on, single fragments. */
  #blocks = 0;
  /** The fragments `text()` already joined, which come before `#parts`. */
  #joined = '';

  push(fragment: string): void {
    const parts = this.#parts;
    parts.push(fragment);
    if (parts.length - this.#blocks === Fragments.BLOCK) {
      const block = parts.splice(this.#blocks, Fragments.BLOCK).join('');
      parts.push(block);
      this.#blocks++;
    }
  }

  text(): string {
    if (this.#parts.length > 0) {
      this.#joined += this.#parts.join('');
      this.#parts.length = 0;
      this.#blocks = 0;
    }
    return this.#joined;
  }
}

interface ChoiceState {
  index: number;
  content: Fragments | undefined;
  reasoning: Fragments | undefined;
  /** True when the server sent `reasoning_content` (kept under that name too). */
  reasoningContent: boolean;
  /** The server's own `reasoning` fragments when it sent `reasoning_content` too. */
  reasoningRaw: Fragments | undefined;
  refusal: Fragments | undefined;
  toolCalls: ToolCallState[];
  /** The deprecated `function_call`, once a fragment of it came. */
  functionCall: { name: string; arguments: Fragments } | undefined;
  finishReason: string | null;
  logprobs: unknown[] | undefined;
  refusalLogprobs: unknown[] | undefined;
}

/**
 * Accumulates chat completion chunks into the completion a non-streaming request would have
 * returned. `ChatCompletionStream` uses one; use your own when you hold chunks from elsewhere
 * (e.g. `Stream.fromReadableStream` in a browser).
 *
 * @example
 * ```ts
 * const accumulator = new ChatCompletionAccumulator();
 * for await (const chunk of Stream.fromReadableStream<ChatCompletionChunk>(response.body!)) accumulator.add(chunk);
 * const completion = accumulator.result();
 * ```
 */
export class ChatCompletionAccumulator {
  #choices = new Map<number, ChoiceState>();
  #usage: CompletionUsage | null = null;
  #id = '';
  #created = 0;
  #model = '';
  #systemFingerprint: string | null | undefined;
  #serviceTier: string | null | undefined;
  #chunks = 0;

  /** How many chunks were added. */
  get chunks(): number {
    return this.#chunks;
  }

  /** Take in one chunk, in the order received. */
  add(chunk: ChatCompletionChunk): void {
    this.#chunks++;
    if (!this.#id && chunk.id) this.#id = chunk.id;
    if (!this.#created && chunk.created) this.#created = chunk.created;
    if (!this.#model && chunk.model) this.#model = chunk.model;
    if (chunk.system_fingerprint != null) this.#systemFingerprint = chunk.system_fingerprint;
    if (chunk.service_tier != null) this.#serviceTier = chunk.service_tier;
    // A gateway may send zero usage on every chunk, then a trailing chunk (no `id`) with zero
    // usage again, after the real one: an empty usage never replaces one already seen.
    if (chunk.usage != null && (this.#usage === null || !isEmptyUsage(chunk.usage)))
      this.#usage = chunk.usage;

    for (const choice of chunk.choices) {
      const state = this.#choice(choice.index);
      const delta = choice.delta;
      // Empty fragments (the role chunk's `content: ""` before tool calls) are not content: a
      // message that only calls tools has `content: null`, as the same reply unstreamed has.
      if (delta.content) (state.content ??= new Fragments()).push(delta.content);
      if (delta.reasoning !== undefined) {
        (state.reasoning ??= new Fragments()).push(delta.reasoning);
        if (typeof (delta as { reasoning_content?: unknown }).reasoning_content === 'string')
          state.reasoningContent = true;
      }
      if (delta.reasoning_raw !== undefined)
        (state.reasoningRaw ??= new Fragments()).push(delta.reasoning_raw);
      if (delta.refusal !== undefined) (state.refusal ??= new Fragments()).push(delta.refusal);
      if (delta.tool_calls) for (const call of delta.tool_calls) addToolCall(state, call);
      const fn = delta.function_call;
      if (fn) {
        const call = (state.functionCall ??= { name: '', arguments: new Fragments() });
        if (fn.name && !call.name) call.name = fn.name;
        if (fn.arguments) call.arguments.push(fn.arguments);
      }
      if (choice.finish_reason !== null) state.finishReason = choice.finish_reason;
      const logprobs = choice.logprobs;
      if (logprobs?.content) (state.logprobs ??= []).push(...logprobs.content);
      if (logprobs?.refusal) (state.refusalLogprobs ??= []).push(...logprobs.refusal);
    }
  }

  /** The completion as if it had been requested without streaming. */
  result(): ChatCompletion {
    const choices = [...this.#choices.values()].map((state) => {
      const message: Record<string, unknown> = {
        role: 'assistant',
        content: state.content ? state.content.text() : null,
        refusal: state.refusal ? state.refusal.text() : null,
      };
      if (state.reasoning) {
        message['reasoning'] = state.reasoning.text();
        if (state.reasoningContent) message['reasoning_content'] = message['reasoning'];
      }
      if (state.reasoningRaw) message['reasoning_raw'] = state.reasoningRaw.text();
      if (state.toolCalls.length > 0) message['tool_calls'] = state.toolCalls.map(finishToolCall);
      if (state.functionCall)
        message['function_call'] = {
          name: state.functionCall.name,
          arguments: state.functionCall.arguments.text(),
        };
      const { logprobs, refusalLogprobs } = state;
      return {
        index: state.index,
        message,
        finish_reason: state.finishReason,
        logprobs:
          logprobs || refusalLogprobs
            ? { content: logprobs ?? null, refusal: refusalLogprobs ?? null }
            : null,
      };
    });
    const completion: Record<string, unknown> = {
      id: this.#id,
      object: 'chat.completion',
      created: this.#created,
      model: this.#model,
      choices,
      usage: this.#usage,
    };
    if (this.#systemFingerprint !== undefined)
      completion['system_fingerprint'] = this.#systemFingerprint;
    if (this.#serviceTier !== undefined) completion['service_tier'] = this.#serviceTier;
    // The same reading as a JSON response (choice order, `""` refusals, arguments of calls without any).
    return normalizeChatCompletion(completion, { issues: [] });
  }

  #choice(index: number): ChoiceState {
    let state = this.#choices.get(index);
    if (!state) {
      state = {
        index,
        content: undefined,
        reasoning: undefined,
        reasoningContent: false,
        reasoningRaw: undefined,
        refusal: undefined,
        toolCalls: [],
        functionCall: undefined,
        finishReason: null,
        logprobs: undefined,
        refusalLogprobs: undefined,
      };
      this.#choices.set(index, state);
    }
    return state;
  }
}

/** Zero tokens all round: what a gateway sends when it has no usage to report. */
function isEmptyUsage(usage: CompletionUsage): boolean {
  return usage.prompt_tokens === 0 && usage.completion_tokens === 0 && usage.total_tokens === 0;
}

function addToolCall(state: ChoiceState, fragment: ChatCompletionChunkToolCall): void {
  let call = state.toolCalls[fragment.index];
  if (!call) {
    // Fill any gap (a server whose first fragment of a call was lost) so that indexes stay positions.
    while (state.toolCalls.length <= fragment.index)
      state.toolCalls.push({ id: '', name: '', arguments: new Fragments(), extra: undefined });
    call = state.toolCalls[fragment.index]!;
  }
  if (fragment.id !== undefined && call.id === '') call.id = fragment.id;
  const fn = fragment.function;
  if (fn?.name !== undefined && call.name === '') call.name = fn.name;
  if (fn?.arguments !== undefined) call.arguments.push(fn.arguments);
  for (const key in fragment) {
    if (key !== 'index' && key !== 'id' && key !== 'type' && key !== 'function')
      (call.extra ??= {})[key] = (fragment as unknown as Record<string, unknown>)[key];
  }
}

function finishToolCall(call: ToolCallState): Record<string, unknown> {
  return {
    ...call.extra,
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments.text() },
  };
}
