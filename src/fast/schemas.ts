/**
 * The response schemas as `LazySchema`s: a fast path that decides the common case, and the zod
 * schema, imported only when the fast path cannot decide (an odd or invalid response). A
 * resource that passes these instead of the zod schemas keeps zod off its import path: about
 * 50 ms less cold start in Node, and most of a browser bundle when the bundler splits code.
 * Errors are unchanged: they always come from the zod schema.
 */
import type { ZodMiniType } from 'zod/mini';
import type { ChatCompletion, ChatCompletionChunk, Completion, Model, ModelList } from '../generated/types.gen';
import { fastChatCompletion, fastChatCompletionChunk } from './chat';
import { fastCompletion } from './completion';

/** A check that returns the parsed value, or `undefined` when the schema must decide. */
export type FastPath<T> = (value: unknown) => T | undefined;

/** A schema loaded on first need, with an optional fast path that makes the need rare. */
export interface LazySchema<T> {
  readonly fast?: FastPath<T> | undefined;
  load(): Promise<ZodMiniType<T>>;
}

const generated = () => import('../generated/zod.gen');

export const chatCompletionChunkSchema: LazySchema<ChatCompletionChunk> = {
  fast: fastChatCompletionChunk,
  load: () => generated().then((m) => m.zChatCompletionChunk),
};
export const chatCompletionSchema: LazySchema<ChatCompletion> = {
  fast: fastChatCompletion,
  load: () => generated().then((m) => m.zChatCompletion),
};
export const completionSchema: LazySchema<Completion> = {
  fast: fastCompletion,
  load: () => generated().then((m) => m.zCompletion),
};
export const modelListSchema: LazySchema<ModelList> = { load: () => generated().then((m) => m.zModelList) };
export const modelSchema: LazySchema<Model> = { load: () => generated().then((m) => m.zModel) };
