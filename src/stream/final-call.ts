/**
 * `finalFunctionToolCall()` and `finalFunctionToolCallResult()` of runners and chat streams, as the
 * official `openai` client defines them: read from the conversation (the request's messages, then
 * what the run or stream added), not from what was told as it went. Loaded with `import()` by the
 * first call of either, so that code that never asks does not carry it.
 */
import type { FunctionToolCall } from './chat-event-types';

/**
 * A message of a conversation, as far as these read it (a request's or a reply's; `undefined`, a
 * completion without a choice, is skipped).
 */
interface Message {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?:
    | readonly { id?: string; type?: string; function?: { name: string; arguments: string } }[]
    | null;
}

/**
 * The last function tool call of the last assistant message that has one (`{ name, arguments }`),
 * or `undefined`.
 */
export function finalFunctionToolCall(
  messages: readonly (Message | undefined)[],
): FunctionToolCall | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'assistant') continue;
    const calls = message.tool_calls ?? [];
    for (let j = calls.length - 1; j >= 0; j--) {
      const call = calls[j]!;
      if (call.type === 'function' && call.function)
        return { name: call.function.name, arguments: call.function.arguments };
    }
  }
  return undefined;
}

/**
 * The text of the last tool message that answers a function tool call of an assistant message of
 * the conversation (a tool message whose content is an array of parts is skipped), or `undefined`.
 */
export function finalFunctionToolCallResult(
  messages: readonly (Message | undefined)[],
): string | undefined {
  const ids = new Set<string | undefined>();
  for (const message of messages)
    if (message?.role === 'assistant')
      for (const call of message.tool_calls ?? []) if (call.type === 'function') ids.add(call.id);
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (
      message?.role === 'tool' &&
      typeof message.content === 'string' &&
      ids.has(message.tool_call_id)
    )
      return message.content;
  }
  return undefined;
}
