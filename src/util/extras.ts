/**
 * Response types name the documented fields only, so that a misspelt field does not compile;
 * the fields a server adds (OpenRouter's `provider`, Groq's `x_groq`, DeepSeek's
 * `reasoning_content`, vLLM's `stop_reason`, ...) are kept on the object. `extras()` is the one
 * typed way to read them.
 */

/**
 * The fields of a response object beyond its documented ones, as sent by the server. Returns the
 * object itself (nothing is copied), typed for reading undocumented fields: each is `unknown`
 * unless you say what you expect with the type parameter.
 *
 * @example
 * ```ts
 * import { extras } from 'model-inference-sdk';
 *
 * const completion = await client.chat.completions.create({ model: 'openrouter/auto', messages });
 * console.log(extras(completion).provider); // unknown: OpenRouter's chosen provider
 *
 * // Say what you expect, and check it: the server decides what it sends.
 * const groq = extras<{ x_groq?: { id?: string } }>(chunk).x_groq;
 * if (typeof groq?.id === 'string') console.log(groq.id);
 * ```
 */
export function extras<Fields extends object = Record<string, unknown>>(
  value: object,
): Readonly<Partial<Fields>> & Readonly<Record<string, unknown>> {
  return value as Readonly<Partial<Fields>> & Readonly<Record<string, unknown>>;
}
