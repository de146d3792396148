/**
 * Chunks → the final ChatCompletion. Pure and incremental: `add()` each chunk as it passes,
 * `result()` at the end. Robust to what real servers send (see QUIRKS.md):
 * - content as strings, `null`, or typed parts (Mistral: `text` parts are content, `thinking`
 *   parts reasoning);
 * - reasoning as `reasoning_content` (DeepSeek, vLLM, xAI) or `reasoning` (Groq, Ollama, gpt-oss);
 * - tool calls whole in one chunk (xAI, Groq) or in fragments; keyed on a non-empty id, else the
 *   index, else the last call; empty-string ids and names count as absent (DashScope, Mistral);
 * - the last non-null, non-empty finish_reason per choice, and the last non-null usage, including a
 *   trailing usage-only chunk with `choices: []` (`stream_options.include_usage`);
 * - `n > 1` choices, each accumulated on its own.
 */
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionChunkToolCall, ChatCompletionMessageToolCall, CompletionUsage } from '../generated/types.gen';

interface ToolCallState {
  id: string;
  type: string;
  name: string;
  arguments: string;
  index: number | undefined;
  extra: Record<string, unknown>;
}

interface ChoiceState {
  index: number;
  role: string;
  content: string[];
  hasContent: boolean;
  reasoning: string[];
  reasoningField: 'reasoning' | 'reasoning_content' | undefined;
  refusal: string[];
  toolCalls: ToolCallState[];
  finishReason: string | null;
  logprobs: unknown[];
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
  #id: string | undefined;
  #created: number | undefined;
  #model: string | undefined;
  #systemFingerprint: string | null | undefined;
  #serviceTier: string | null | undefined;

  /** Take in one chunk, in the order received. */
  add(chunk: ChatCompletionChunk): void {
    if (!this.#id && chunk.id) this.#id = chunk.id;
    if (this.#created === undefined && typeof chunk.created === 'number') this.#created = chunk.created;
    if (!this.#model && chunk.model) this.#model = chunk.model;
    if (chunk.system_fingerprint != null) this.#systemFingerprint = chunk.system_fingerprint;
    if (chunk.service_tier != null) this.#serviceTier = chunk.service_tier;
    if (chunk.usage != null) this.#usage = chunk.usage;

    for (const choice of chunk.choices ?? []) {
      const state = this.#choice(choice.index ?? 0);
      const delta = choice.delta ?? {};
      if (delta.role) state.role = delta.role;
      addContent(state, delta.content);
      // One field per delta: a server sending both (during vLLM's rename) sends the same text twice.
      const field = typeof delta.reasoning_content === 'string' ? 'reasoning_content' : typeof delta.reasoning === 'string' ? 'reasoning' : undefined;
      if (field) {
        state.reasoning.push(delta[field] as string);
        state.reasoningField ??= field;
      }
      if (typeof delta.refusal === 'string') state.refusal.push(delta.refusal);
      for (const call of delta.tool_calls ?? []) addToolCall(state, call);
      // A later `""` (Ollama 2024, TGI send it on every chunk) does not erase a real reason;
      // `""` stays only when the server sent nothing else.
      if (choice.finish_reason != null && (choice.finish_reason !== '' || !state.finishReason)) state.finishReason = choice.finish_reason;
      const logprobs = choice.logprobs?.content;
      if (Array.isArray(logprobs)) state.logprobs.push(...logprobs);
    }
  }

  /** The completion as if it had been requested without streaming. */
  result(): ChatCompletion {
    const choices = [...this.#choices.values()]
      .sort((a, b) => a.index - b.index)
      .map((state) => {
        const reasoning = state.reasoning.join('');
        const message: NonNullable<ChatCompletion['choices'][number]['message']> = {
          role: state.role || 'assistant',
          content: state.hasContent ? state.content.join('') : null,
        };
        // Snowflake sends `refusal: ""` on every delta of an ordinary answer: no text, no refusal.
        const refusal = state.refusal.join('');
        if (refusal !== '') message.refusal = refusal;
        if (state.reasoningField) {
          // One typed field for every server, and the field the server used, kept as it sent it.
          message.reasoning = reasoning;
          message[state.reasoningField] = reasoning;
        } else if (state.reasoning.length) {
          message.reasoning = reasoning; // Mistral thinking parts
        }
        if (state.toolCalls.length) message.tool_calls = state.toolCalls.map(finishToolCall);
        const choice: ChatCompletion['choices'][number] = { index: state.index, message, finish_reason: state.finishReason };
        if (state.logprobs.length) choice.logprobs = { content: state.logprobs as never };
        return choice;
      });
    const completion: ChatCompletion = { object: 'chat.completion', choices, usage: this.#usage };
    if (this.#id) completion.id = this.#id;
    if (this.#created !== undefined) completion.created = this.#created;
    if (this.#model) completion.model = this.#model;
    if (this.#systemFingerprint !== undefined) completion.system_fingerprint = this.#systemFingerprint;
    if (this.#serviceTier !== undefined) completion.service_tier = this.#serviceTier;
    return completion;
  }

  #choice(index: number): ChoiceState {
    let state = this.#choices.get(index);
    if (!state) {
      state = { index, role: '', content: [], hasContent: false, reasoning: [], reasoningField: undefined, refusal: [], toolCalls: [], finishReason: null, logprobs: [] };
      this.#choices.set(index, state);
    }
    return state;
  }
}

/** The text of a delta's content (string or typed parts), for text-only consumers. */
export function deltaText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content as { type?: unknown; text?: unknown }[]) {
    if (part?.type === 'text' && typeof part.text === 'string') text += part.text;
  }
  return text;
}

function addContent(state: ChoiceState, content: unknown): void {
  if (typeof content === 'string') {
    state.content.push(content);
    state.hasContent = true;
    return;
  }
  if (!Array.isArray(content)) return;
  for (const part of content as { type?: unknown; text?: unknown; thinking?: unknown }[]) {
    if (part?.type === 'text' && typeof part.text === 'string') {
      state.content.push(part.text);
      state.hasContent = true;
    } else if (part?.type === 'thinking' && Array.isArray(part.thinking)) {
      // Mistral Magistral: { type: 'thinking', thinking: [{ type: 'text', text }] }
      state.reasoning.push(deltaText(part.thinking));
    }
  }
}

function addToolCall(state: ChoiceState, delta: ChatCompletionChunkToolCall): void {
  const id = delta.id || undefined;
  const name = delta.function?.name || undefined;
  const fragment = delta.function?.arguments ?? '';
  const index = typeof delta.index === 'number' ? delta.index : undefined;
  const calls = state.toolCalls;

  let call = id === undefined ? undefined : calls.find((c) => c.id === id);
  if (!call && index !== undefined) {
    const atIndex = findLast(calls, (c) => c.index === index);
    // A new id at a known index is a new call; so is a second named call at the same index
    // (gateways that send every parallel call as index 0 without ids).
    if (atIndex && (id === undefined || atIndex.id === '') && !startsAnother(atIndex, name)) call = atIndex;
  }
  if (!call && id === undefined && index === undefined) {
    const previous = calls.at(-1);
    if (previous && !startsAnother(previous, name)) call = previous;
  }
  if (!call) {
    call = { id: '', type: 'function', name: '', arguments: '', index, extra: {} };
    calls.push(call);
  }
  if (id !== undefined && call.id === '') call.id = id;
  if (name !== undefined && call.name === '') call.name = name;
  if (delta.type) call.type = delta.type;
  call.arguments += fragment;
  // Vendor extras on the call (Gemini's extra_content.thought_signature) must be sent back as they came.
  for (const key in delta) {
    if (key !== 'index' && key !== 'id' && key !== 'type' && key !== 'function') call.extra[key] = delta[key];
  }
}

/** A delta naming a different function, or naming one after a call's arguments are complete, starts another call. */
function startsAnother(call: ToolCallState, name: string | undefined): boolean {
  if (name === undefined || call.name === '') return false;
  return name !== call.name || isCompleteJSON(call.arguments);
}

function isCompleteJSON(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function finishToolCall(call: ToolCallState): ChatCompletionMessageToolCall {
  return { ...call.extra, id: call.id, type: call.type, function: { name: call.name, arguments: call.arguments } };
}

function findLast<T>(items: T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return items[i];
  return undefined;
}
