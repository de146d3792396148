/**
 * The assistant message of a completion → the message to send back in the next request of a
 * tool loop. What must travel back, and what must not, differs by server (QUIRKS.md):
 * - tool calls go back as received, vendor extras included (Gemini needs
 *   `extra_content.google.thought_signature` back); only the SDK's own `parsed_arguments` is left out;
 * - `reasoning_content` goes back when the server sent it (DeepSeek requires it on assistant
 *   messages inside a tool-call loop); the SDK's normalised `reasoning` does not (no server asks
 *   for it, and strict servers reject unknown fields), unless the server sent a `reasoning` of its
 *   own beside a different `reasoning_content` (`reasoning_raw`): then both go back;
 * - Mistral's `thinking` parts are reasoning, not text: only the text parts are sent back.
 */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
} from '../generated/types.gen';
import { extras } from '../util/extras';

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
export function toAssistantMessage(
  message: ChatCompletionMessage,
): ChatCompletionAssistantMessageParam {
  const out: ChatCompletionAssistantMessageParam = { role: 'assistant', content: message.content };
  if (message.refusal !== null) out.refusal = message.refusal;
  if (message.tool_calls) out.tool_calls = message.tool_calls.map(toolCallParam);
  // DeepSeek: the raw field, when the server used it (`reasoning` is the SDK's, and not sent).
  const sent = extras(message)['reasoning_content'];
  if (typeof sent === 'string') out.reasoning_content = sent;
  // A server that sent both fields, with different texts, gets both back as it sent them (its own
  // `reasoning` was kept in `reasoning_raw`), as a message pushed back into `messages` does
  // (resources/sent-messages.ts). Not a field of the param type: an extra, as the server's own.
  if (typeof message.reasoning_raw === 'string')
    Object.assign(out, { reasoning: message.reasoning_raw });
  return out;
}

function toolCallParam(call: ChatCompletionMessageToolCall): ChatCompletionMessageToolCall {
  const { parsed_arguments: _parsed, ...fn } =
    call.function as ChatCompletionMessageToolCall['function'] & { parsed_arguments?: unknown };
  return { ...call, function: fn };
}
