/**
 * `model-inference-sdk/schemas`: the service's contract as zod schemas (`zod/mini`), one per
 * schema of spec/openapi.yaml (`zModel`, `zModelList`, `zChatCompletion`, `zChatCompletionChunk`,
 * `zCompletion`, …). They describe what the SDK returns: the shape every response has after the
 * SDK's normalizer read it. Use them to validate responses you stored or cached (a database, a
 * cassette, a queue) with the same contract the SDK holds live ones to.
 *
 * The SDK itself does not use them: each response is checked by a normalizer generated from the
 * same spec (faster, and it reads other servers' variants into the contract's shape); the test
 * suite holds the two to each other. A raw body from another server may need that reading first:
 * validate what the SDK returned, not what the server sent.
 *
 * zod 4 is an optional peer dependency: `npm install zod@^4`. Without it, importing this entry
 * throws an `InferenceError` that says so. The schemas are built when the entry is imported.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { zChatCompletion } from 'model-inference-sdk/schemas';
 *
 * const stored: unknown = JSON.parse(await readFile('completion.json', 'utf8'));
 * const checked = zChatCompletion.safeParse(stored);
 * if (!checked.success) console.error(checked.error.issues);
 * ```
 *
 * @module
 */
export * from '../generated/zod.gen';
