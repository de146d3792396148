/**
 * Exact cost sums: `sumCosts()` adds decimal strings, `CostTracker` adds calls up (tokens and
 * cost, in total and per model), and `streamUsage()` gives what a stream used even when it was
 * aborted or cut off. Every amount is an exact decimal on bigint (decimal.ts): no float anywhere
 * in a sum, so a million calls of `0.0000001` add up to exactly `0.1`.
 */
import type { ChatCompletion, CompletionUsage, Model } from '../generated/types.gen';
import { estimatePromptTokens, estimateTextTokens } from './tokens';
import { estimateCost, type CostEstimate } from './estimate';
import { add, formatDecimal, readDecimal, type Decimal } from './decimal';
import { InferenceError } from '../errors/api';
import { CostEstimateError, preview } from '../errors/output';

const ZERO: Decimal = { units: 0n, scale: 0 };

/**
 * Add decimal amounts exactly: `sumCosts('0.0000825', '0.00001')` is `'0.0000925'` (where `+`
 * on the strings gives `'0.00008250.00001'`, and on numbers `0.00009250000000000001`).
 * Takes the strings `estimateCost()` and {@link CostTracker} give, or any decimal string or
 * number (`'1.5e-7'`).
 *
 * @throws InferenceError when an amount is not a decimal (`'NaN'`, `''`, an object), or is beyond
 * 400 digits or an exponent of ±400.
 * @example
 * ```ts
 * import { estimateCost, sumCosts } from 'model-inference-sdk';
 *
 * const total = sumCosts(estimateCost(first.usage!, model).total, estimateCost(second.usage!, model).total);
 * ```
 */
export function sumCosts(...amounts: Array<string | number>): string {
  let sum = ZERO;
  for (const [i, amount] of amounts.entries()) sum = add(sum, amountOf(amount, `amount ${i}`));
  return formatDecimal(sum);
}

function amountOf(value: unknown, where: string): Decimal {
  const read =
    typeof value === 'string' || typeof value === 'number' ? readDecimal(value) : 'not a number';
  if (typeof read === 'string')
    throw new InferenceError(`sumCosts: ${where} is ${read}: ${preview(value)}.`);
  return read;
}

/**
 * Tokens and cost of some calls, each amount an exact decimal string.
 *
 * @example
 * ```ts
 * const totals: CostTotals = tracker.report();
 * console.log(`${totals.calls} calls, ${totals.tokens.total} tokens, ${totals.cost.total}`);
 * ```
 */
export interface CostTotals {
  /** Calls added. */
  calls: number;
  /** Of those, the calls whose usage is an estimate (a stream cut off before the server's usage). */
  estimatedCalls: number;
  /** Of those, the calls whose model had no usable price: their tokens are counted, their cost is not. */
  unpricedCalls: number;
  tokens: {
    prompt: number;
    completion: number;
    /** Prompt tokens read from the server's cache (part of `prompt`). */
    cached: number;
    total: number;
  };
  /** In the models' prices' unit (per token, in the service's currency; see `estimateCost()`). */
  cost: Omit<CostEstimate, 'currency'>;
  /** The currency the server named for these models' prices, if any (all the same; see {@link CostTracker.add}). */
  currency: string | undefined;
}

/**
 * {@link CostTotals} in all, and per model id.
 *
 * @example
 * ```ts
 * const report: CostReport = tracker.report();
 * for (const [model, totals] of Object.entries(report.models)) console.log(model, totals.cost.total);
 * ```
 */
export interface CostReport extends CostTotals {
  /** The same totals for each model id, in the order they were first added. */
  models: Record<string, CostTotals>;
}

/**
 * The usage of a stream, and whether it is the server's or an estimate.
 *
 * @example
 * ```ts
 * const { usage, estimated }: StreamUsage = streamUsage(stream, body);
 * if (estimated) console.log(`about ${usage.total_tokens} tokens (the server sent no usage)`);
 * ```
 */
export interface StreamUsage {
  usage: CompletionUsage;
  /** `true` when the server sent no usage and the counts are estimated from the prompt and the streamed text. */
  estimated: boolean;
}

class Sum {
  calls = 0;
  estimatedCalls = 0;
  unpricedCalls = 0;
  prompt = 0;
  completion = 0;
  cached = 0;
  costPrompt = ZERO;
  costCompletion = ZERO;
  costCacheRead = ZERO;
  currency: string | undefined = undefined;

  add(usage: CompletionUsage, cost: CostEstimate | undefined, estimated: boolean): void {
    this.calls++;
    if (estimated) this.estimatedCalls++;
    this.prompt += usage.prompt_tokens;
    this.completion += usage.completion_tokens;
    this.cached += Math.min(cachedOf(usage)[0] as number, usage.prompt_tokens);
    if (!cost) {
      this.unpricedCalls++;
      return;
    }
    this.costPrompt = add(this.costPrompt, readDecimal(cost.prompt) as Decimal);
    this.costCompletion = add(this.costCompletion, readDecimal(cost.completion) as Decimal);
    this.costCacheRead = add(this.costCacheRead, readDecimal(cost.cacheRead) as Decimal);
    this.currency ??= cost.currency;
  }

  totals(): CostTotals {
    return {
      calls: this.calls,
      estimatedCalls: this.estimatedCalls,
      unpricedCalls: this.unpricedCalls,
      tokens: {
        prompt: this.prompt,
        completion: this.completion,
        cached: this.cached,
        total: this.prompt + this.completion,
      },
      cost: {
        prompt: formatDecimal(this.costPrompt),
        completion: formatDecimal(this.costCompletion),
        cacheRead: formatDecimal(this.costCacheRead),
        total: formatDecimal(add(add(this.costPrompt, this.costCompletion), this.costCacheRead)),
      },
      currency: this.currency,
    };
  }
}

/**
 * Cached prompt tokens as `estimateCost()` reads them: the standard field, else DeepSeek's; absent
 * is 0. With the field it was read from, for the error that names it.
 */
function cachedOf(usage: CompletionUsage): [unknown, string] {
  const standard = usage.prompt_tokens_details?.cached_tokens;
  if (standard !== undefined && standard !== null && standard !== 0)
    return [standard, 'prompt_tokens_details.cached_tokens'];
  const deepseek = (usage as unknown as Record<string, unknown>)['prompt_cache_hit_tokens'];
  return deepseek === undefined || deepseek === null
    ? [standard ?? 0, 'prompt_tokens_details.cached_tokens']
    : [deepseek, 'prompt_cache_hit_tokens'];
}

/**
 * Adds up what calls used and cost, exactly, across calls and models: tokens as integers, every
 * amount as a decimal on bigint, never a float. The batch runner keeps its totals with one.
 *
 * A model without usable prices (another server's, or one whose price is `"NaN"`) still has its
 * tokens counted; the call is counted in `unpricedCalls` instead of the cost. A call whose usage
 * was estimated (see {@link streamUsage}) is counted in `estimatedCalls`.
 *
 * @example
 * ```ts
 * import { CostTracker } from 'model-inference-sdk';
 *
 * const tracker = new CostTracker();
 * const model = await client.models.retrieve('acme/chat-1');
 * for (const question of questions) {
 *   const completion = await client.chat.completions.create({ model: model.id, messages: [{ role: 'user', content: question }] });
 *   tracker.add(completion.usage!, model);
 * }
 * const { cost, tokens } = tracker.report();
 * console.log(`${tokens.total} tokens, ${cost.total}`);
 * ```
 */
export class CostTracker {
  readonly #all = new Sum();
  readonly #models = new Map<string, Sum>();

  /**
   * Add one call's usage, priced with `model` (its id and `pricing`, as `models.retrieve()` gives
   * it; or just `{ id }` to count tokens only). Gives the call's own cost, or `undefined` when the
   * model has no usable prices.
   *
   * @param options.estimated the usage is an estimate ({@link streamUsage}'s `estimated`).
   * @throws CostEstimateError when a token count is not a whole number of 0 or more (nothing is
   * added then), or when the model's prices are in another currency than those added before.
   * @example
   * ```ts
   * const cost = tracker.add(completion.usage!, model); // { prompt: '0.00006', …, total: '0.000664' }
   * ```
   */
  add(
    usage: CompletionUsage,
    model: Pick<Model, 'id'> & Partial<Pick<Model, 'pricing'>>,
    options: { estimated?: boolean } = {},
  ): CostEstimate | undefined {
    // Token counts checked first, whatever the prices: nothing unusable is ever added.
    if (typeof usage !== 'object' || usage === null)
      throw new CostEstimateError(model.id, 'usage', usage, 'usage is not a usage object');
    const counts: [unknown, string][] = [
      [usage.prompt_tokens, 'prompt_tokens'],
      [usage.completion_tokens, 'completion_tokens'],
      cachedOf(usage),
    ];
    for (const [value, field] of counts) {
      if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0))
        throw new CostEstimateError(
          model.id,
          `usage.${field}`,
          value,
          `usage.${field} is not a whole number of tokens (0 or more)`,
        );
    }
    const all = this.#all;
    if (
      !Number.isSafeInteger(
        all.prompt + all.completion + usage.prompt_tokens + usage.completion_tokens,
      )
    )
      throw new CostEstimateError(
        model.id,
        'usage',
        usage,
        'the token totals would pass 2^53 and no longer be exact',
      );
    let cost: CostEstimate | undefined;
    try {
      cost = estimateCost(usage, { id: model.id, pricing: model.pricing ?? [] });
    } catch (error) {
      // Unusable prices count the call as unpriced; unusable token counts are the caller's error.
      if (!(error instanceof CostEstimateError) || error.field.startsWith('usage')) throw error;
      cost = undefined;
    }
    const currency = this.#all.currency;
    if (cost && this.#all.calls > this.#all.unpricedCalls && cost.currency !== currency) {
      throw new CostEstimateError(
        model.id,
        'pricing[0].unit',
        cost.currency,
        `the prices of ${JSON.stringify(model.id)} are in ${cost.currency ?? "the service's currency"}, the totals in ${currency ?? "the service's currency"}: they cannot be added`,
      );
    }
    const estimated = options.estimated === true;
    this.#all.add(usage, cost, estimated);
    let sum = this.#models.get(model.id);
    if (!sum) this.#models.set(model.id, (sum = new Sum()));
    sum.add(usage, cost, estimated);
    return cost;
  }

  /**
   * The totals so far, in all and per model. A new object each time.
   *
   * @example
   * ```ts
   * const report = tracker.report();
   * console.log(report.cost.total, report.models['acme/chat-1']?.tokens.total);
   * ```
   */
  report(): CostReport {
    const models: Record<string, CostTotals> = {};
    // Defined, not assigned: a server's model id may be `__proto__`, whose setter would swallow it.
    for (const [id, sum] of this.#models)
      Object.defineProperty(models, id, {
        value: sum.totals(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return { ...this.#all.totals(), models };
  }
}

/**
 * What a stream used, whether it finished, was aborted or was cut off: the server's usage when it
 * sent one (a request with `stream_options: { include_usage: true }`, or a server that always
 * does), else an estimate from the request's prompt and the text streamed so far (content,
 * reasoning, refusal and tool-call arguments), marked `estimated: true`. The estimate errs high
 * (about 4 ASCII characters a token, other characters a token each).
 *
 * @param request the body the stream was created with (its `messages`, or a legacy `prompt`).
 * @example
 * ```ts
 * const stream = await client.chat.completions.create({ ...body, stream: true });
 * try {
 *   for await (const chunk of stream) render(chunk);
 * } finally {
 *   const { usage, estimated } = streamUsage(stream, body);
 *   tracker.add(usage, model, { estimated });
 * }
 * ```
 */
export function streamUsage(
  stream: { readonly currentChatCompletionSnapshot: ChatCompletion | undefined },
  request: unknown,
): StreamUsage {
  const snapshot = stream.currentChatCompletionSnapshot;
  const sent = snapshot?.usage;
  if (sent) return { usage: sent, estimated: false };
  const prompt = estimatePromptTokens(request);
  let completion = 0;
  for (const choice of snapshot?.choices ?? []) {
    const { content, reasoning, refusal, tool_calls } = choice.message;
    for (const text of [content, reasoning, refusal]) {
      if (typeof text === 'string') completion += estimateTextTokens(text);
    }
    for (const call of tool_calls ?? []) {
      if (call.type === 'function')
        completion += estimateTextTokens(call.function.name + call.function.arguments);
    }
  }
  return {
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    },
    estimated: true,
  };
}
