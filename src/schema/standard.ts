/**
 * Schemas from outside: a zod 4 schema (classic or mini) or any Standard Schema that can give
 * its JSON Schema (the Standard JSON Schema interface, standardschema.dev) → the JSON Schema to
 * send, and a validator for what comes back. Nothing here builds anything at import time; the
 * zod import is the functional `zod/mini` one the generated schemas use already.
 */
import { globalRegistry, toJSONSchema as zodToJSONSchema, type ZodMiniType } from 'zod/mini';
import { InferenceError } from '../errors/api';
import type { ValidationIssue } from '../errors/validation';
import { formatPath, valueAt } from '../util/path';

/**
 * A JSON Schema document (free-form object).
 *
 * @example
 * ```ts
 * import type { JSONSchema } from 'model-inference-sdk';
 *
 * const schema: JSONSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
 * const completion = await client.chat.completions.parse({
 *   model: 'acme/chat-1',
 *   messages,
 *   response_format: { type: 'json_schema', json_schema: { name: 'city', schema, strict: true } },
 * });
 * completion.choices[0]?.message.parsed; // unknown: JSON-parsed, not validated
 * ```
 */
export type JSONSchema = Record<string, unknown>;

/**
 * The part of the Standard Schema interface (v1) this SDK relies on: a vendor, a `validate`
 * function and the inferred types. Zod 4, Valibot, ArkType and others implement it. The schema
 * may be an object or a function (ArkType's types are callable); only its `~standard` is read.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { type StandardSchema } from 'model-inference-sdk';
 * import { zodResponseFormat } from 'model-inference-sdk/helpers/zod';
 *
 * // Any zod 4, Valibot, ArkType… schema, as zodResponseFormat() and zodFunction() take.
 * const weatherFormat = <S extends StandardSchema>(schema: S) => zodResponseFormat(schema, 'weather', { description: 'Weather in one city' });
 * const completion = await client.chat.completions.parse({ model: 'acme/chat-1', messages, response_format: weatherFormat(z.object({ celsius: z.number() })) });
 * completion.choices[0]?.message.parsed?.celsius; // number | undefined
 * ```
 */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    /** Check a value: its output value, or the issues. */
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** The Standard JSON Schema converter, when the library offers one (zod 4 classic does; zod/mini does not). */
    readonly jsonSchema?: {
      /** The JSON Schema of what the schema accepts. */
      readonly input: (options: { readonly target: string }) => JSONSchema;
      /** The JSON Schema of what it produces. */
      readonly output: (options: { readonly target: string }) => JSONSchema;
    };
  };
}

/**
 * What `~standard.validate` returns.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import type { StandardResult } from 'model-inference-sdk';
 *
 * const City = z.object({ city: z.string() });
 * const result: StandardResult<{ city: string }> = await City['~standard'].validate({ city: 42 });
 * if (result.issues) for (const issue of result.issues) console.log(issue.path, issue.message);
 * else console.log(result.value.city);
 * ```
 */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };

/**
 * The type a schema produces once it has validated a value.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import type { InferOutput } from 'model-inference-sdk';
 *
 * const Weather = z.object({ city: z.string(), celsius: z.string().transform(Number) });
 * type Weather = InferOutput<typeof Weather>; // { city: string; celsius: number }: what message.parsed holds
 * const show = (weather: Weather): string => `${weather.city}: ${weather.celsius.toFixed(1)} °C`;
 * ```
 */
export type InferOutput<S> = S extends StandardSchema<unknown, infer Output> ? Output : unknown;

/** The outcome of {@link validateWith}. */
export type Checked<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

// The JSON Schema dialect asked of Standard JSON Schema libraries. 2020-12 is what OpenAI's
// structured outputs document (`$defs`); draft-07 is the fallback for libraries without it.
const TARGETS = ['draft-2020-12', 'draft-07'] as const;

/**
 * The JSON Schema of what the model must produce: the schema's *input* side, since the model
 * writes the input and validation turns it into the output (transforms, defaults).
 *
 * @param where names the helper for error messages, e.g. `zodResponseFormat(schema, 'city')`.
 * @param definitions `schemaDefinitions`: zod schemas to give as definitions under these names.
 * @throws InferenceError for a zod 3 schema, or a value that is neither zod 4 nor Standard JSON Schema.
 */
export function toJSONSchema(
  schema: unknown,
  where: string,
  definitions?: Record<string, unknown>,
): JSONSchema {
  // A schema may be a function: ArkType's types are callable (`User(data)` validates).
  if ((typeof schema !== 'object' && typeof schema !== 'function') || schema === null) {
    throw new InferenceError(
      `${where}: expected a zod 4 schema or a Standard JSON Schema, got ${schema === null ? 'null' : typeof schema}.`,
    );
  }
  if (definitions !== undefined) return withDefinitions(schema, where, definitions);
  const standard = (schema as Partial<StandardSchema>)['~standard'];
  const converter = standard?.jsonSchema;
  if (converter && typeof converter.input === 'function') {
    let failure: unknown;
    for (const target of TARGETS) {
      try {
        return converter.input({ target });
      } catch (error) {
        failure ??= error;
      }
    }
    throw new InferenceError(
      `${where}: the ${standard.vendor} schema could not be converted to JSON Schema: ${describe(failure)}`,
      { cause: failure },
    );
  }
  if ('_zod' in schema) {
    // zod/mini schemas leave `~standard.jsonSchema` out so that it tree-shakes; convert with zod's own function.
    try {
      return zodToJSONSchema(schema as unknown as ZodMiniType, {
        io: 'input',
        target: 'draft-2020-12',
      }) as JSONSchema;
    } catch (error) {
      throw new InferenceError(
        `${where}: the zod schema could not be converted to JSON Schema: ${describe(error)}`,
        { cause: error },
      );
    }
  }
  if (isZod3(schema)) {
    throw new InferenceError(
      `${where}: this is a zod 3 schema, which cannot describe itself as JSON Schema here. ` +
        "Upgrade to zod 4 (`npm install zod@^4`, then `import * as z from 'zod'`; on zod 3.25 `import * as z from 'zod/v4'` works too), " +
        "or pass the JSON Schema yourself as `response_format: { type: 'json_schema', json_schema: { name, schema, strict: true } }` " +
        "(or as a tool's `function.parameters`).",
    );
  }
  if (standard) {
    throw new InferenceError(
      `${where}: this ${standard.vendor} schema implements Standard Schema but not Standard JSON Schema (\`~standard.jsonSchema\`), ` +
        'so its JSON Schema is unknown. Use a version of the library that offers it, or pass the JSON Schema yourself.',
    );
  }
  throw new InferenceError(
    `${where}: expected a zod 4 schema or a Standard JSON Schema (a schema with \`~standard\`).`,
  );
}

/**
 * A zod 4 schema's JSON Schema with each of `definitions` given once, under its name, in the
 * root's `$defs`, and a `$ref` wherever it is used: zod's own conversion, told the names through
 * a registry that adds them to what zod's global registry holds (descriptions, other metadata).
 */
function withDefinitions(
  schema: object,
  where: string,
  definitions: Record<string, unknown>,
): JSONSchema {
  if (typeof definitions !== 'object' || definitions === null || Array.isArray(definitions))
    throw new InferenceError(`${where}: \`schemaDefinitions\` must be an object of zod schemas.`);
  if (Object.hasOwn(definitions, '__proto__'))
    throw new InferenceError(
      `${where}: \`schemaDefinitions\` cannot name a definition "__proto__".`,
    );
  const names = new Map<unknown, string>();
  for (const [name, definition] of Object.entries(definitions)) {
    if (typeof definition !== 'object' || definition === null || !('_zod' in definition))
      throw new InferenceError(
        `${where}: \`schemaDefinitions.${name}\` must be a zod 4 schema, as \`schemaDefinitions\` names zod schemas.`,
      );
    names.set(definition, name);
  }
  if (!('_zod' in schema))
    throw new InferenceError(
      `${where}: \`schemaDefinitions\` needs a zod 4 schema; with another library, put its definitions in its own JSON Schema.`,
    );
  type Registry = typeof globalRegistry;
  const metadata = {
    get: (entry: never) => {
      const meta = globalRegistry.get(entry);
      const id = names.get(entry);
      return id === undefined ? meta : { ...meta, id };
    },
    has: (entry: never) => names.has(entry) || globalRegistry.has(entry),
  } as unknown as Registry;
  try {
    return zodToJSONSchema(schema as unknown as ZodMiniType, {
      io: 'input',
      target: 'draft-2020-12',
      metadata,
    }) as JSONSchema;
  } catch (error) {
    throw new InferenceError(
      `${where}: the zod schema could not be converted to JSON Schema: ${describe(error)}`,
      { cause: error },
    );
  }
}

/**
 * zod 3 schemas have `_def` (with a `typeName` such as `ZodObject`) and `parse`, but no `_zod`
 * (zod 4's internals) and no `~standard.jsonSchema`. zod 3.24+ does expose `~standard`, so that
 * alone does not tell them apart.
 */
function isZod3(schema: object): boolean {
  const def = (schema as { _def?: { typeName?: unknown } })._def;
  return (
    typeof def === 'object' &&
    def !== null &&
    !('_zod' in schema) &&
    typeof (schema as { parse?: unknown }).parse === 'function'
  );
}

/**
 * Validate `value` with the schema's own `~standard.validate`: its output value (transforms
 * applied), or its issues with readable paths and the values found there. Synchronous when the
 * schema's validation is.
 */
export function validateWith<T>(
  schema: StandardSchema<unknown, T>,
  value: unknown,
): Checked<T> | Promise<Checked<T>> {
  const std = schema['~standard'];
  let result: unknown;
  try {
    result = std.validate(value);
  } catch (error) {
    throw crashed(std.vendor, error);
  }
  // Anything with a `then` is awaited: a Promise of another realm (a vm context, an iframe) or a
  // library's own thenable is not `instanceof Promise`, and a missed one would pass unvalidated.
  // `Promise.resolve` makes it a native Promise, which the callers recognise.
  if (typeof (result as { then?: unknown } | null)?.then === 'function') {
    return Promise.resolve(result as PromiseLike<StandardResult<T>>).then(
      (r) => checked(r, value, std.vendor),
      (error: unknown) => {
        throw crashed(std.vendor, error);
      },
    );
  }
  return checked(result as StandardResult<T>, value, std.vendor);
}

/** A schema library that throws (or rejects) instead of giving issues: a fault of the schema, named, with its error as `cause`. */
function crashed(vendor: unknown, error: unknown): InferenceError {
  return new InferenceError(
    `The schema's validate (${String(vendor)}) failed: ${describe(error)}`,
    { cause: error },
  );
}

function checked<T>(result: StandardResult<T>, value: unknown, vendor: unknown): Checked<T> {
  if (typeof result !== 'object' || result === null)
    throw crashed(
      vendor,
      new TypeError(`validate returned ${String(result)}, not { value } or { issues }`),
    );
  if (result.issues === undefined) return { ok: true, value: result.value };
  const found = result.issues;
  if (!Array.isArray(found))
    throw crashed(vendor, new TypeError('validate returned `issues` that is not an array'));
  const issues = (found as typeof result.issues).map((issue) => {
    const path = (issue.path ?? []).map((segment) =>
      typeof segment === 'object' && segment !== null ? segment.key : segment,
    );
    return { path: formatPath(path), message: issue.message, received: valueAt(value, path) };
  });
  return { ok: false, issues };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
