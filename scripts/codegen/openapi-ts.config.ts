// Configuration of @hey-api/openapi-ts for `npm run generate`.
//
// Run `npm run generate` (scripts/generate.ts), not `npx openapi-ts` directly: the script also
// drops the client-only `ClientOptions` type and formats the output with prettier.
//
// Output (src/generated/): only TypeScript types (types.gen.ts) and zod schemas (zod.gen.ts, from
// `zod/mini`) for the component schemas of spec/openapi.yaml. No SDK or HTTP client code.
import { defineConfig } from '@hey-api/openapi-ts';

/** True when a schema (in hey-api's intermediate form) allows keys beyond its declared properties. */
function keepsUnknownKeys(schema: {
  additionalProperties?: false | { type?: unknown } | undefined;
  properties?: Record<string, unknown> | undefined;
}): boolean {
  const extra = schema.additionalProperties;
  return (
    extra !== undefined &&
    extra !== false &&
    extra.type !== 'never' &&
    schema.properties !== undefined &&
    Object.keys(schema.properties).length > 0
  );
}

export default defineConfig({
  input: './spec/openapi.yaml',
  output: {
    path: './src/generated',
    // No index.ts: import from './generated/types.gen' and './generated/zod.gen'.
    entryFile: false,
    header: [
      '// Generated from spec/openapi.yaml by `npm run generate` (@hey-api/openapi-ts). Do not edit:',
      '// change the spec and regenerate.',
    ],
  },
  logs: { level: 'warn', file: false },
  parser: {
    filters: {
      // Operations would only add request/response wrapper types (ListModelsData, ...); the SDK
      // needs the component schemas, which are kept even though no operation is emitted.
      operations: {
        exclude: [
          'GET /models',
          'GET /models/{model}',
          'POST /chat/completions',
          'POST /completions',
        ],
      },
      orphans: true,
    },
  },
  plugins: [
    {
      name: '@hey-api/typescript',
      // Keep the spec's names exactly (ResponseFormatJSONSchema, not ResponseFormatJsonSchema).
      case: 'preserve',
    },
    {
      name: 'zod',
      compatibilityVersion: 'mini',
      case: 'preserve',
      definitions: { name: 'z{{name}}', case: 'preserve' },
      requests: false,
      responses: false,
      '~resolvers': {
        // Response objects (`additionalProperties: true` next to declared properties):
        // - z.looseObject() instead of the plugin's z.object(), which would strip unknown keys;
        // - optional keys as z.exactOptional() instead of z.optional(): the key may be absent but
        //   its value is never `undefined` (JSON has none), so z.infer matches types.gen.ts under
        //   `exactOptionalPropertyTypes` (`id?: string`, not `id?: string | undefined`).
        // Request objects (no additionalProperties) keep the plugin's z.object() / z.optional().
        object(ctx) {
          if (!keepsUnknownKeys(ctx.schema)) return undefined;
          const z = ctx.symbols.z;
          const shape = ctx.nodes.shape({
            ...ctx,
            applyModifiers(result, opts) {
              const { expression } = ctx.applyModifiers(result, { optional: false });
              if (!opts.optional) return { expression };
              return { expression: ctx.$(z).attr('exactOptional').call(expression) };
            },
          });
          return ctx.$(z).attr('looseObject').call(shape);
        },
      },
    },
  ],
});
