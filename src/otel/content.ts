/**
 * Message content as the GenAI semantic conventions record it, for `captureContent: true` only:
 * `gen_ai.input.messages` and `gen_ai.output.messages`, JSON arrays of `{ role, parts }` with
 * `text`, `reasoning`, `tool_call`, `tool_call_response` and `uri` parts. A stream's output is
 * collected from its chunks as they pass.
 */
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
  Completion,
  CompletionCreateParams,
} from 'model-inference-sdk';

/** One part of a message (the conventions' `MessagePart`). */
type Part = Record<string, unknown>;

/** A message as the conventions record it. */
export interface Message {
  role: string;
  parts: Part[];
  name?: string;
  finish_reason?: string;
}

/** The request's messages (chat) or prompts (legacy completions). */
export function inputMessages(
  body: Readonly<ChatCompletionCreateParams> | Readonly<CompletionCreateParams>,
): Message[] | undefined {
  if ('messages' in body && Array.isArray(body.messages)) return body.messages.map(inputMessage);
  if ('prompt' in body) {
    const prompt: unknown = body.prompt;
    // `null` is no prompt (the server starts from its own). Token ids are one prompt (`[1, 2]`) or
    // one per array (`[[1, 2], [3]]`), named but not copied, as other parts that are not text.
    if (prompt == null) return undefined;
    const prompts: unknown[] =
      Array.isArray(prompt) && !prompt.every((p) => typeof p === 'number') ? prompt : [prompt];
    return prompts.map((p) => ({
      role: 'user',
      parts: [typeof p === 'string' ? { type: 'text', content: p } : { type: 'tokens' }],
    }));
  }
  return undefined;
}

function inputMessage(message: ChatCompletionMessageParam): Message {
  const parts: Part[] = [];
  if (message.role === 'tool') {
    parts.push({
      type: 'tool_call_response',
      id: message.tool_call_id,
      response: textOf(message.content),
    });
  } else {
    if (message.role === 'assistant' && message.reasoning_content)
      parts.push({ type: 'reasoning', content: message.reasoning_content });
    contentParts(message.content, parts);
    if (message.role === 'assistant') {
      if (message.refusal) parts.push({ type: 'text', content: message.refusal });
      for (const call of message.tool_calls ?? [])
        parts.push(toolCall(call.id, call.function.name, call.function.arguments));
    }
  }
  return {
    role: message.role,
    parts,
    ...('name' in message && message.name ? { name: message.name } : {}),
  };
}

function contentParts(content: unknown, parts: Part[]): void {
  if (typeof content === 'string') parts.push({ type: 'text', content });
  else if (Array.isArray(content)) {
    for (const part of content as {
      type?: unknown;
      text?: unknown;
      image_url?: { url?: unknown };
    }[]) {
      if (part?.type === 'text') parts.push({ type: 'text', content: part.text });
      else if (part?.type === 'image_url')
        parts.push({ type: 'uri', modality: 'image', uri: part.image_url?.url });
      else parts.push({ type: String(part?.type) }); // another kind: named, not copied
    }
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : ''))
      .join('');
  return '';
}

/** A tool call: its arguments as the JSON they hold (or the text, when they are not JSON). */
function toolCall(id: unknown, name: unknown, args: unknown): Part {
  let value = args;
  if (typeof args === 'string') {
    try {
      value = JSON.parse(args);
    } catch {
      // left as the text the model wrote
    }
  }
  return { type: 'tool_call', id, name, arguments: value };
}

/** The output of a JSON call: one message per choice. */
export function outputMessages(data: unknown): Message[] | undefined {
  const choices = (data as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) return undefined;
  return choices.map((choice: Record<string, unknown>) => {
    const parts: Part[] = [];
    const message = choice['message'] as Record<string, unknown> | undefined;
    if (message) {
      if (typeof message['reasoning'] === 'string' && message['reasoning'])
        parts.push({ type: 'reasoning', content: message['reasoning'] });
      if (typeof message['content'] === 'string')
        parts.push({ type: 'text', content: message['content'] });
      if (typeof message['refusal'] === 'string')
        parts.push({ type: 'text', content: message['refusal'] });
      for (const call of (message['tool_calls'] as
        { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[] | undefined) ?? []) {
        parts.push(toolCall(call.id, call.function?.name, call.function?.arguments));
      }
    } else if (typeof choice['text'] === 'string')
      parts.push({ type: 'text', content: choice['text'] });
    return withFinish({ role: 'assistant', parts }, choice['finish_reason']);
  });
}

function withFinish(message: Message, reason: unknown): Message {
  if (typeof reason === 'string') message.finish_reason = reason;
  return message;
}

/** What one choice of a stream said so far. */
interface Choice {
  reasoning: string;
  text: string;
  refusal: string;
  calls: Map<number, { id: unknown; name: string; arguments: string }>;
  finish: unknown;
}

/** Collects a stream's output from its chunks (chat or legacy completions), as `outputMessages` reads a JSON one. */
export class OutputCollector {
  readonly #choices = new Map<number, Choice>();

  add(chunk: ChatCompletionChunk | Completion): void {
    for (const [i, raw] of (chunk.choices ?? []).entries()) {
      const choice = raw as unknown as Record<string, unknown>;
      const index = typeof choice['index'] === 'number' ? choice['index'] : i;
      let seen = this.#choices.get(index);
      if (!seen)
        this.#choices.set(
          index,
          (seen = { reasoning: '', text: '', refusal: '', calls: new Map(), finish: undefined }),
        );
      if (choice['finish_reason'] != null) seen.finish = choice['finish_reason'];
      if (typeof choice['text'] === 'string') seen.text += choice['text'];
      const delta = choice['delta'] as Record<string, unknown> | undefined;
      if (!delta) continue;
      if (typeof delta['reasoning'] === 'string') seen.reasoning += delta['reasoning'];
      if (typeof delta['content'] === 'string') seen.text += delta['content'];
      if (typeof delta['refusal'] === 'string') seen.refusal += delta['refusal'];
      for (const call of (delta['tool_calls'] as
        | { index: number; id?: string; function?: { name?: string; arguments?: string } }[]
        | undefined) ?? []) {
        let known = seen.calls.get(call.index);
        if (!known)
          seen.calls.set(call.index, (known = { id: undefined, name: '', arguments: '' }));
        if (call.id) known.id = call.id;
        known.name += call.function?.name ?? '';
        known.arguments += call.function?.arguments ?? '';
      }
    }
  }

  messages(): Message[] {
    return [...this.#choices]
      .sort(([a], [b]) => a - b)
      .map(([, choice]) => {
        const parts: Part[] = [];
        if (choice.reasoning) parts.push({ type: 'reasoning', content: choice.reasoning });
        if (choice.text) parts.push({ type: 'text', content: choice.text });
        if (choice.refusal) parts.push({ type: 'text', content: choice.refusal });
        for (const [, call] of [...choice.calls].sort(([a], [b]) => a - b))
          parts.push(toolCall(call.id, call.name, call.arguments));
        return withFinish({ role: 'assistant', parts }, choice.finish);
      });
  }
}
