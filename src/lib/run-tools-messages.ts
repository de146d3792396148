/**
 * The assistant message of a completion → the message to send back in the next request of a
 * tool loop. What must travel back, and what must not, differs by server (QUIRKS.md):
 * - tool calls go back as received, vendor extras included (Gemini needs
 *   `extra_content.google.thought_signature` back); only the SDK's own `parsed_arguments` is left out;
 * - `reasoning_content` goes back when the server sent it (DeepSeek requires it on assistant
 *   messages inside a tool-call loop); the SDK's normalised `reasoning` does not (no server asks
 *   for it, and strict servers reject unknown fields);
 * - Mistral's `thinking` parts are reasoning, not text: only the text parts are sent back.
 */
import type { ChatCompletionAssistantMessageParam, ChatCompletionMessage, ChatCompletionMessageToolCall } from '../generated/types.gen';
import { contentText } from './parse';

/**
 * The assistant message to append to `messages` for the next request, from a completion's
 * message (parsed or not).
 *
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({ model, messages, tools });
 * const message = completion.choices[0]!.message!;
 * messages.push(toAssistantMessage(message)); // tool calls and DeepSeek's reasoning_content kept
 * for (const call of message.tool_calls ?? []) {
 *   messages.push({ role: 'tool', tool_call_id: call.id, content: await run(call) });
 * }
 * ```
 */
export function toAssistantMessage(message: ChatCompletionMessage): ChatCompletionAssistantMessageParam {
  const out: ChatCompletionAssistantMessageParam = { role: 'assistant', content: contentText(message.content) ?? null };
  if (typeof message.refusal === 'string' && message.refusal !== '') out.refusal = message.refusal;
  if (message.tool_calls && message.tool_calls.length > 0) out.tool_calls = message.tool_calls.map(toolCallParam);
  if (typeof message.reasoning_content === 'string') out.reasoning_content = message.reasoning_content;
  return out;
}

function toolCallParam(call: ChatCompletionMessageToolCall): ChatCompletionMessageToolCall {
  const { parsed_arguments: _parsed, ...fn } = call.function;
  // The request side requires `type` and `arguments`; some servers leave them out of responses.
  return { ...call, type: call.type ?? 'function', function: { ...fn, arguments: fn.arguments ?? '{}' } };
}
