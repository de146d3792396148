/**
 * `model-inference-sdk/helpers/zod`: turn zod 4 schemas (classic or mini) and other Standard Schemas
 * into response formats and tools, as the official client's `openai/helpers/zod` does.
 *
 * A separate entry so that the main one never imports zod at startup: zod's JSON Schema
 * conversion loads only for code that uses these helpers.
 *
 * @example
 * ```ts
 * import { zodResponseFormat, zodFunction } from 'model-inference-sdk/helpers/zod';
 * import * as z from 'zod';
 *
 * const format = zodResponseFormat(z.object({ city: z.string() }), 'city');
 * ```
 *
 * @module
 */
export { zodResponseFormat, zodFunction } from '../schema/helpers';
export type { ZodFunctionOptions } from '../schema/helpers';
