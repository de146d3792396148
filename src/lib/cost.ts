/**
 * `estimateCost(usage, model)`: what a request cost, from the model's prices and the usage the
 * server reported, in exact decimals.
 */
import { InferenceError } from '../errors';
import type { CompletionUsage, Model, ModelPricing } from '../generated/types.gen';
import { extras } from '../extras';
import { add, formatDecimal, multiply, parseDecimal, shift, type Decimal } from './decimal';

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
 * @throws InferenceError when the model carries no usable prices.
 * @example
 * ```ts
 * const model = await client.models.retrieve('acme/chat-1');
 * const completion = await client.chat.completions.create({ model: model.id, messages });
 * const cost = estimateCost(completion.usage!, model);
 * console.log(`${cost.total} (per-token prices, in the service's currency)`);
 * ```
 */
export function estimateCost(usage: CompletionUsage, model: Pick<Model, 'id' | 'pricing'>): CostEstimate {
  const entry: ModelPricing | undefined = model.pricing?.[0];
  if (!entry) throw new InferenceError(`estimateCost: model ${JSON.stringify(model.id)} has no pricing.`);

  // Perplexity states its unit: `usd_per_1m_tokens` (its prices were read under the service's names).
  const unit = typeof entry.unit === 'string' ? /^([a-z]{3})_per_(\d+)(k|m)?_tokens?$/i.exec(entry.unit) : null;
  const perTokens = unit ? Number(unit[2]) * (unit[3]?.toLowerCase() === 'm' ? 1e6 : unit[3]?.toLowerCase() === 'k' ? 1e3 : 1) : 1;
  const digits = Math.log10(perTokens);
  if (!Number.isInteger(digits)) throw new InferenceError(`estimateCost: unsupported pricing unit ${JSON.stringify(entry.unit)}.`);

  const price = (name: string, value: string | undefined, fallback?: Decimal): Decimal => {
    if (value === undefined) {
      if (fallback) return fallback;
      throw new InferenceError(`estimateCost: model ${JSON.stringify(model.id)} has no ${name} price.`);
    }
    const parsed = parseDecimal(value);
    if (!parsed) throw new InferenceError(`estimateCost: the ${name} price of ${JSON.stringify(model.id)} is not a number: ${JSON.stringify(value)}.`);
    return shift(parsed, digits);
  };
  const promptPrice = price('prompt', entry.prompt);
  const completionPrice = price('completion', entry.completion);
  const cachePrice = price('input_cache_read', entry.input_cache_read, promptPrice);

  const cached = Math.min(cachedTokens(usage), usage.prompt_tokens);
  const prompt = multiply(promptPrice, usage.prompt_tokens - cached);
  const cacheRead = multiply(cachePrice, cached);
  const completion = multiply(completionPrice, usage.completion_tokens);
  return {
    prompt: formatDecimal(prompt),
    completion: formatDecimal(completion),
    cacheRead: formatDecimal(cacheRead),
    total: formatDecimal(add(add(prompt, completion), cacheRead)),
    currency: unit?.[1]?.toLowerCase(),
  };
}

function cachedTokens(usage: CompletionUsage): number {
  const details = usage.prompt_tokens_details?.cached_tokens;
  if (typeof details === 'number' && Number.isSafeInteger(details) && details > 0) return details;
  const deepseek = extras(usage)['prompt_cache_hit_tokens'];
  return typeof deepseek === 'number' && Number.isSafeInteger(deepseek) && deepseek > 0 ? deepseek : 0;
}
