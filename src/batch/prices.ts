/**
 * Each model's prices for a batch's cost totals, looked up once per slug (`models.retrieve()`). A
 * model the server cannot describe, or describes without prices, is counted as unpriced: its
 * tokens are summed, its cost is not.
 */
import type { Client, Model } from 'model-inference-sdk';

/** The model of a line, priced: what `CostTracker.add()` takes. */
export type PricedModel = Pick<Model, 'id' | 'pricing'>;

/** A lookup of the prices of a body's `model`, cached for the run. */
export function modelPrices(
  client: Client,
  signal: AbortSignal,
): (slug: unknown) => Promise<PricedModel> {
  const prices = new Map<string, Promise<PricedModel>>();
  return (slug) => {
    const id = typeof slug === 'string' && slug !== '' ? slug : '(no model)';
    let found = prices.get(id);
    if (!found) {
      found = client.models.retrieve(id, { signal }).then(
        (model) => ({ id, pricing: model.pricing ?? [] }),
        () => ({ id, pricing: [] }),
      );
      prices.set(id, found);
    }
    return found;
  };
}
