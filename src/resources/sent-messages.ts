/**
 * A reply's message sent back as the server would take it. The habit of every openai user,
 * `messages.push(completion.choices[0]!.message)`, sends the normalized message; the fields the
 * SDK adds when it reads a reply (docs/normalization.md) are not the server's, and strict servers
 * reject what they do not know (Mistral answers 422 `extra_forbidden` for any extra message
 * field, Groq 400 "property 'reasoning' is unsupported"). So, on assistant messages only, these
 * stay home:
 * - `reasoning` when the SDK derived it from the server's own field, which still goes back
 *   (`reasoning_content`, as DeepSeek requires in tool loops; `reasoning_details`; thinking parts).
 *   A `reasoning` the server sent itself (Groq, vLLM, Ollama) goes back as it came, as with openai,
 *   and so does one sent beside `reasoning_content` (kept in `reasoning_raw`, which stays home);
 * - `content_parts` (the parts as received; `content` carries their text);
 * - `refusal: null`, which says nothing (a refusal that is text goes back);
 * - `parsed` and the tool calls' `parsed_arguments`, which `parse()` adds.
 * The caller's objects are never changed: a message that needs it is copied.
 */

type Message = Record<string, unknown>;

/**
 * The messages to send: `messages` itself when no assistant message carries a field the SDK added
 * (the common case costs one pass and no copy), else a copy with those messages cleaned.
 *
 * @example
 * ```ts
 * const sent = sentMessages([{ role: 'assistant', content: 'Hi', refusal: null }]);
 * // [{ role: 'assistant', content: 'Hi' }]
 * ```
 */
export function sentMessages(messages: readonly unknown[]): readonly unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!isObject(message) || message['role'] !== 'assistant' || !added(message)) continue;
    out ??= messages.slice();
    out[i] = cleaned(message);
  }
  return out ?? messages;
}

function added(m: Message): boolean {
  return (
    m['refusal'] === null ||
    'content_parts' in m ||
    'parsed' in m ||
    'reasoning_raw' in m ||
    (m['reasoning'] !== undefined && derivedReasoning(m)) ||
    (Array.isArray(m['tool_calls']) && m['tool_calls'].some(hasParsedArguments))
  );
}

/** The server sent reasoning in a field of its own: `reasoning` is the SDK's copy of it. */
function derivedReasoning(m: Message): boolean {
  return (
    typeof m['reasoning_content'] === 'string' ||
    Array.isArray(m['content_parts']) ||
    Array.isArray(m['reasoning_details'])
  );
}

function cleaned(m: Message): Message {
  const { content_parts: _parts, parsed: _parsed, reasoning_raw: raw, ...out } = m;
  if (out['refusal'] === null) delete out['refusal'];
  // The server sent both `reasoning` and `reasoning_content`: each goes back with its own text.
  if (typeof raw === 'string') out['reasoning'] = raw;
  else if (out['reasoning'] !== undefined && derivedReasoning(m)) delete out['reasoning'];
  const calls = out['tool_calls'];
  if (Array.isArray(calls) && calls.some(hasParsedArguments)) {
    out['tool_calls'] = calls.map((call: unknown) => {
      if (!hasParsedArguments(call)) return call;
      const { parsed_arguments: _args, ...fn } = call['function'] as Message;
      return { ...call, function: fn };
    });
  }
  return out;
}

function hasParsedArguments(call: unknown): call is Message {
  return isObject(call) && isObject(call['function']) && 'parsed_arguments' in call['function'];
}

function isObject(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
