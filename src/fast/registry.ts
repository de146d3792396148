/**
 * Which generated schema has a fast path. `validate.ts` looks a zod schema up here; a schema
 * without one is checked by zod alone.
 *
 * This is the one static import of the generated zod schemas outside the resources. Once every
 * resource passes a `LazySchema` from schemas.ts instead of a zod schema, this file can go, and
 * zod leaves the import path of the core entry (see docs/performance.md).
 */
import type { ZodMiniType } from 'zod/mini';
import { zChatCompletion, zChatCompletionChunk, zCompletion } from '../generated/zod.gen';
import { fastChatCompletion, fastChatCompletionChunk } from './chat';
import { fastCompletion } from './completion';
import type { FastPath } from './schemas';

let registry: Map<unknown, FastPath<unknown>> | undefined;

/** The fast path standing in for `schema`, if there is one. Built on first use, not at import. */
export function fastPathOf<T>(schema: ZodMiniType<T>): FastPath<T> | undefined {
  registry ??= new Map<unknown, FastPath<unknown>>([
    [zChatCompletionChunk, fastChatCompletionChunk],
    [zChatCompletion, fastChatCompletion],
    [zCompletion, fastCompletion],
  ]);
  return registry.get(schema) as FastPath<T> | undefined;
}
