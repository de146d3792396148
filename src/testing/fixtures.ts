/**
 * Default data of the mock server: the API key it accepts and the models it
 * serves, plus the one function that turns a (partial) model definition into
 * the full Model object of the service's wire format.
 *
 * Kept apart from the server so that tests can import the defaults to build
 * expectations without starting anything.
 *
 * @module
 */

/**
 * The API key the mock server accepts when no `apiKeys` option is given.
 *
 * @example
 * ```ts
 * import { MOCK_API_KEY, startMockServer } from 'model-inference-sdk/testing';
 *
 * const server = await startMockServer();
 * await fetch(`${server.url}/models`, { headers: { authorization: `Bearer ${MOCK_API_KEY}` } });
 * await server.close();
 * ```
 */
export const MOCK_API_KEY = 'mock-key';

/**
 * A model the mock server serves. Only `id` is required: the other fields
 * get defaults (filled in by the mock) so that tests can declare models
 * tersely while the server still answers with every field of the spec.
 *
 * @example
 * ```ts
 * import { startMockServer, type MockModel } from 'model-inference-sdk/testing';
 *
 * const tiny: MockModel = { id: 'acme/tiny', context_length: 16, max_output_length: 4 };
 * const server = await startMockServer({ models: [tiny] });
 * await server.close();
 * ```
 */
export interface MockModel {
  /** Slug of the form `<vendor>/<model_name>`. */
  id: string;
  /** Display name; default: the part of the slug after the first `/`. */
  name?: string;
  /** Context size in tokens; default 8192. Longer prompts are rejected with 400. */
  context_length?: number;
  /** Maximum output in tokens; default 4096. Longer replies stop with finish_reason `length`. */
  max_output_length?: number;
  /** Feature names such as `tools` or `reasoning`; default none. */
  supported_features?: string[];
  /** Readiness flag as reported; default true. The built-in model answers either way. */
  is_ready?: boolean;
  /** Price entries (decimal strings); default one entry of zeros. */
  pricing?: { prompt: string; completion: string; input_cache_read: string }[];
  /** Owner name; default: the vendor part of the slug. */
  owned_by?: string;
  /** Creation timestamp in seconds; default a fixed date so responses are deterministic. */
  created?: number;
}

/**
 * The Model object exactly as the service sends it: every field present.
 *
 * @example
 * ```ts
 * import { toModelObject, type ModelObject } from './fixtures'; // internal: not part of model-inference-sdk/testing
 *
 * const wire: ModelObject = toModelObject({ id: 'acme/base' });
 * console.log(wire.object); // 'model'
 * ```
 */
export interface ModelObject {
  id: string;
  object: 'model';
  owned_by: string;
  created: number;
  name: string;
  context_length: number;
  max_output_length: number;
  input_modalities: string[];
  output_modalities: string[];
  supported_features: string[];
  pricing: { prompt: string; completion: string; input_cache_read: string }[];
  is_ready: boolean;
}

/** 2025-01-01T00:00:00Z: a fixed default so that two runs give identical bodies. */
const DEFAULT_CREATED = 1_735_689_600;

/**
 * The models served when the `models` option is not given:
 *
 * - `mock/echo`: ready, supports `tools`;
 * - `mock/reasoner`: ready, supports `reasoning`;
 * - `mock/sleeping`: `is_ready: false` (still answers; the flag is only reported).
 *
 * @example
 * ```ts
 * import { DEFAULT_MOCK_MODELS } from 'model-inference-sdk/testing';
 *
 * const ids = DEFAULT_MOCK_MODELS.map((m) => m.id); // ['mock/echo', 'mock/reasoner', 'mock/sleeping']
 * ```
 */
export const DEFAULT_MOCK_MODELS: readonly MockModel[] = Object.freeze([
  {
    id: 'mock/echo',
    name: 'Mock Echo',
    context_length: 8192,
    max_output_length: 4096,
    supported_features: ['tools'],
    is_ready: true,
    pricing: [{ prompt: '0.10', completion: '0.40', input_cache_read: '0.025' }],
    owned_by: 'mock',
  },
  {
    id: 'mock/reasoner',
    name: 'Mock Reasoner',
    context_length: 32768,
    max_output_length: 8192,
    supported_features: ['reasoning'],
    is_ready: true,
    pricing: [{ prompt: '1.10', completion: '4.40', input_cache_read: '0.275' }],
    owned_by: 'mock',
  },
  {
    id: 'mock/sleeping',
    name: 'Mock Sleeping',
    context_length: 4096,
    max_output_length: 1024,
    supported_features: [],
    is_ready: false,
    pricing: [{ prompt: '0', completion: '0', input_cache_read: '0' }],
    owned_by: 'mock',
  },
]);

/**
 * Fills in the defaults of a {@link MockModel} and returns the full wire
 * object. Arrays are copied so that callers cannot alter the server's data
 * through a response they hold.
 *
 * @example
 * ```ts
 * import { toModelObject } from './fixtures'; // internal
 *
 * toModelObject({ id: 'acme/base' }).owned_by; // 'acme'
 * ```
 */
export function toModelObject(model: MockModel): ModelObject {
  const slash = model.id.indexOf('/');
  const vendor = slash >= 0 ? model.id.slice(0, slash) : model.id;
  const shortName = slash >= 0 ? model.id.slice(slash + 1) : model.id;
  return {
    id: model.id,
    object: 'model',
    owned_by: model.owned_by ?? vendor,
    created: model.created ?? DEFAULT_CREATED,
    name: model.name ?? shortName,
    context_length: model.context_length ?? 8192,
    max_output_length: model.max_output_length ?? 4096,
    input_modalities: ['text'],
    output_modalities: ['text'],
    supported_features: [...(model.supported_features ?? [])],
    pricing: (model.pricing ?? [{ prompt: '0', completion: '0', input_cache_read: '0' }]).map(
      (p) => ({
        prompt: p.prompt,
        completion: p.completion,
        input_cache_read: p.input_cache_read,
      }),
    ),
    is_ready: model.is_ready ?? true,
  };
}
