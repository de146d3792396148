/**
 * `estimateCost(usage, model)`: what a request cost, from the model's prices and the usage the
 * server reported, in exact decimals. Whatever the prices and counts are, the work is bounded
 * (decimal.ts limits digits and exponents) and anything unusable is a `CostEstimateError`.
 */
import type { CompletionUsage, Model, ModelPricing } from '../generated/types.gen';
import { extras } from '../util/extras';
import {
  add,
  formatDecimal,
  MAX_DIGITS,
  MAX_EXPONENT,
  multiply,
  readDecimal,
  shift,
  type Decimal,
} from './decimal';
import { CostEstimateError, preview } from '../errors/output';

/**
 * An estimated cost, each amount an exact decimal string (`"0.000315"`). The service states no
 * currency or unit: its prices are read as **per token, in the service's currency**, and so are
 * these amounts. `currency` is set only when the server says (Perplexity: `"usd"`).
 *
 * @example
 * ```ts
 * const cost: CostEstimate = estimateCost(completion.usage!, model);
 * // { prompt: '0.00006', completion: '0.0006', cacheRead: '0.000004', total: '0.000664', currency: undefined }
 * ```
 */
export interface CostEstimate {
  /** Prompt tokens not read from cache × the prompt price. */
  prompt: string;
  /** Completion tokens × the completion price. */
  completion: string;
  /** Prompt tokens read from cache × the `input_cache_read` price (the prompt price if none is given). */
  cacheRead: string;
  /** The sum of the three. */
  total: string;
  /** Lower-case currency code when the server names one; otherwise `undefined` (the service's currency). */
  currency: string | undefined;
}

/**
 * Estimate what a request cost.
 *
 * Uses the first entry of `model.pricing` (the service sends an array; the spec does not say
 * what further entries mean). Cached prompt tokens come from `usage.prompt_tokens_details.cached_tokens`
 * (or DeepSeek's `prompt_cache_hit_tokens`) and are priced at `input_cache_read`.
 *
 * A price is read when it is a decimal of 0 or more (`"0.15"`, `"1.5e-7"`) with at most 400 digits
 * and an exponent from −400 to 400; token counts must be whole numbers of 0 or more.
 *
 * @throws CostEstimateError (an `InferenceError`) when the model carries no usable prices (none,
 * negative, `"NaN"`, beyond those limits) or a token count is fractional, negative, `NaN` or infinite.
 * @example
 * ```ts
 * const model = await client.models.retrieve('acme/chat-1');
 * const completion = await client.chat.completions.create({ model: model.id, messages });
 * const cost = estimateCost(completion.usage!, model);
 * console.log(`${cost.total} (per-token prices, in the service's currency)`);
 * ```
 */
export function estimateCost(
  usage: CompletionUsage,
  model: Pick<Model, 'id' | 'pricing'>,
): CostEstimate {
  const id = model.id;
  const quoted = preview(id);
  const entry: ModelPricing | undefined = Array.isArray(model.pricing)
    ? model.pricing[0]
    : undefined;
  if (typeof entry !== 'object' || entry === null)
    throw new CostEstimateError(id, 'pricing', model.pricing, `model ${quoted} has no pricing`);

  // Perplexity states its unit: `usd_per_1m_tokens` (its prices were read under the service's names).
  // A unit it cannot apply is an error, never read as "per token".
  const unit =
    entry.unit === undefined || entry.unit === null
      ? null
      : /^([a-z]{3})_per_(\d{1,15})(k|m)?_tokens?$/i.exec(String(entry.unit));
  const perTokens = unit
    ? Number(unit[2]) *
      (unit[3]?.toLowerCase() === 'm' ? 1e6 : unit[3]?.toLowerCase() === 'k' ? 1e3 : 1)
    : 1;
  const digits = Math.log10(perTokens);
  if (
    (unit === null && entry.unit !== undefined && entry.unit !== null) ||
    !Number.isInteger(digits)
  ) {
    throw new CostEstimateError(
      id,
      'pricing[0].unit',
      entry.unit,
      `the pricing unit of ${quoted} is not one it can apply (like usd_per_1m_tokens)`,
    );
  }

  const price = (
    name: 'prompt' | 'completion' | 'input_cache_read',
    fallback?: Decimal,
  ): Decimal => {
    const value: unknown = entry[name];
    const field = `pricing[0].${name}`;
    if (value === undefined || value === null) {
      if (fallback) return fallback;
      throw new CostEstimateError(id, field, undefined, `model ${quoted} has no ${name} price`);
    }
    const parsed =
      typeof value === 'string' || typeof value === 'number' ? readDecimal(value) : 'not a number';
    if (parsed === 'not a number')
      throw new CostEstimateError(
        id,
        field,
        value,
        `the ${name} price of ${quoted} is not a number`,
      );
    if (parsed === 'too many digits')
      throw new CostEstimateError(
        id,
        field,
        value,
        `the ${name} price of ${quoted} has more than ${MAX_DIGITS} digits`,
      );
    if (parsed === 'exponent too large')
      throw new CostEstimateError(
        id,
        field,
        value,
        `the ${name} price of ${quoted} has an exponent beyond ±${MAX_EXPONENT}`,
      );
    if (parsed.units < 0n)
      throw new CostEstimateError(id, field, value, `the ${name} price of ${quoted} is negative`);
    return shift(parsed, digits);
  };
  const promptPrice = price('prompt');
  const completionPrice = price('completion');
  const cachePrice = price('input_cache_read', promptPrice);

  if (typeof usage !== 'object' || usage === null)
    throw new CostEstimateError(id, 'usage', usage, 'usage is not a usage object');
  const promptTokens = tokens(id, 'usage.prompt_tokens', usage.prompt_tokens);
  const completionTokens = tokens(id, 'usage.completion_tokens', usage.completion_tokens);
  const cached = Math.min(cachedTokens(id, usage), promptTokens);
  const prompt = multiply(promptPrice, promptTokens - cached);
  const cacheRead = multiply(cachePrice, cached);
  const completion = multiply(completionPrice, completionTokens);
  return {
    prompt: formatDecimal(prompt),
    completion: formatDecimal(completion),
    cacheRead: formatDecimal(cacheRead),
    total: formatDecimal(add(add(prompt, completion), cacheRead)),
    currency: unit?.[1]?.toLowerCase(),
  };
}

/** A token count: a whole number of 0 or more (a bigint would be exact, but no server sends one). */
function tokens(model: string, field: string, value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new CostEstimateError(
    model,
    field,
    value,
    `${field} is not a whole number of tokens (0 or more)`,
  );
}

/** Cached prompt tokens: the standard field, else DeepSeek's; absent is 0, present and unusable is an error. */
function cachedTokens(model: string, usage: CompletionUsage): number {
  const details = usage.prompt_tokens_details?.cached_tokens;
  const standard =
    details === undefined || details === null
      ? 0
      : tokens(model, 'usage.prompt_tokens_details.cached_tokens', details);
  if (standard > 0) return standard;
  const deepseek = extras(usage)['prompt_cache_hit_tokens'];
  return deepseek === undefined || deepseek === null
    ? 0
    : tokens(model, 'usage.prompt_cache_hit_tokens', deepseek);
}
