/**
 * The errors of the helpers built on the client: output that cannot be used (cut off at the token
 * limit, filtered, or not what the schema says). `InferenceError`s, not `APIError`s: the request
 * succeeded. Never retried.
 */
import { InferenceError } from './api';
import type { ValidationIssue } from './validation';

/** The parts of a chat completion these errors carry (kept structural: errors/ imports no resource types). */
interface CompletionLike {
  choices: readonly { finish_reason: string | null }[];
}

/**
 * The model stopped at its token limit (`finish_reason: 'length'`), so its output is cut off and
 * cannot be parsed. Raise `max_tokens` / `max_completion_tokens`, or ask for less. `completion`
 * holds what arrived.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.completions.parse({ model, messages, response_format: zodResponseFormat(Schema, 'out'), max_tokens: 50 });
 * } catch (err) {
 *   if (err instanceof LengthFinishReasonError) console.error('cut off:', err.completion.usage);
 * }
 * ```
 */
export class LengthFinishReasonError extends InferenceError {
  override name = 'LengthFinishReasonError';
  /** The completion as received (its content is cut off). */
  declare readonly completion: CompletionLike;
  constructor(completion: CompletionLike) {
    super(
      "The model stopped at its token limit (finish_reason 'length'), so the output is incomplete. Raise max_tokens or max_completion_tokens, or ask for less.",
    );
    this.completion = completion;
  }
}

/**
 * The server's content filter stopped the reply (`finish_reason: 'content_filter'`); Azure then
 * sends no message at all. `completion` holds what arrived.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.completions.parse({ model, messages });
 * } catch (err) {
 *   if (err instanceof ContentFilterFinishReasonError) console.error('filtered:', err.completion.choices);
 * }
 * ```
 */
export class ContentFilterFinishReasonError extends InferenceError {
  override name = 'ContentFilterFinishReasonError';
  /** The completion as received. */
  declare readonly completion: CompletionLike;
  constructor(completion: CompletionLike) {
    super("The server's content filter stopped the reply (finish_reason 'content_filter').");
    this.completion = completion;
  }
}

/**
 * What the model wrote for a structured output or a tool's arguments is not valid JSON
 * (`reason: 'json'`) or does not match the schema (`reason: 'schema'`). `raw` is the text as the
 * model wrote it; `issues` say where and what, with the value found there.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.completions.parse({ model, messages, response_format: zodResponseFormat(Weather, 'weather') });
 * } catch (err) {
 *   if (err instanceof OutputParseError) {
 *     console.error(err.reason, err.raw);
 *     for (const issue of err.issues) console.error(issue.path, issue.message, issue.received);
 *   }
 * }
 * ```
 */
export class OutputParseError extends InferenceError {
  override name = 'OutputParseError';
  /** `'json'`: not valid JSON; `'schema'`: valid JSON that the schema rejects. */
  declare readonly reason: 'json' | 'schema';
  /** The text as the model wrote it (the message content, or the tool call's arguments). */
  declare readonly raw: string;
  declare readonly issues: readonly ValidationIssue[];
  /** The tool call whose arguments failed, when it was arguments rather than content. */
  declare readonly toolCall: { id: string; name: string } | undefined;
  /** The completion as received. */
  declare readonly completion: CompletionLike | undefined;

  constructor(init: {
    reason: 'json' | 'schema';
    raw: string;
    issues: ValidationIssue[];
    toolCall?: { id: string; name: string } | undefined;
    completion?: CompletionLike | undefined;
  }) {
    const what = init.toolCall
      ? `The arguments of tool call ${init.toolCall.name} (${init.toolCall.id || 'no id'})`
      : "The model's output";
    const problem = init.reason === 'json' ? 'is not valid JSON' : 'does not match the schema';
    const list = init.issues
      .slice(0, 5)
      .map((i) => `${i.path || '(root)'}: ${i.message}`)
      .join('; ');
    const more = init.issues.length > 5 ? ` (and ${init.issues.length - 5} more)` : '';
    super(`${what} ${problem}: ${list}${more}`);
    this.reason = init.reason;
    this.raw = init.raw;
    this.issues = init.issues;
    this.toolCall = init.toolCall;
    this.completion = init.completion;
  }
}

/**
 * `estimateCost()` could not price a request: the model has no prices, a price is not a
 * non-negative decimal it can read in bounded time (`"NaN"`, `"-1"`, `"1e-20000"`, thousands of
 * digits), its unit is unknown, or a token count of `usage` is not a whole number of 0 or more.
 * `field` says where (`'pricing[0].prompt'`, `'usage.completion_tokens'`), `raw` holds the value
 * as given (`undefined` when it was missing).
 *
 * @example
 * ```ts
 * try {
 *   estimateCost(completion.usage!, model);
 * } catch (err) {
 *   if (err instanceof CostEstimateError) console.error(err.model, err.field, err.raw);
 * }
 * ```
 */
export class CostEstimateError extends InferenceError {
  override name = 'CostEstimateError';
  /** The id of the model being priced. */
  declare readonly model: string;
  /** Where the unusable value is: `'pricing'`, `'pricing[0].prompt'`, `'usage.prompt_tokens'` … */
  declare readonly field: string;
  /** The value as given; `undefined` when it is missing. */
  declare readonly raw: unknown;

  /** `what` is the sentence (`the prompt price of "acme/chat" is negative`); the raw value is appended. */
  constructor(model: string, field: string, raw: unknown, what: string) {
    super(`estimateCost: ${what}${raw === undefined ? '' : `: ${preview(raw)}`}.`);
    this.model = model;
    this.field = field;
    this.raw = raw;
  }
}

/**
 * A value for a message: JSON (control characters escaped), cut short when long (`raw` keeps it
 * whole); a number as JavaScript writes it (JSON would write `NaN` and `Infinity` as `null`).
 */
export function preview(value: unknown): string {
  let text: string;
  try {
    text =
      typeof value === 'bigint'
        ? `${value}n`
        : typeof value === 'number'
          ? String(value)
          : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 60 ? `${text.slice(0, 40)}… (${text.length} characters)` : text;
}
