/**
 * A route for web apps: the service's wire format served from the app's own server, holding the
 * key there and deciding what a browser may ask and spend. `createProxy(options)` gives a
 * `(request: Request) => Promise<Response>` handler, for a Next.js route handler, Hono, Workers,
 * Deno or Bun as it is, and for Node's `http` through `toNodeListener()`. Built on the public
 * entry (it imports `model-inference-sdk` as a user's code does). See docs/route.md.
 *
 * @example
 * ```ts
 * // app/api/inference/v1/[...path]/route.ts
 * import { createProxy } from 'model-inference-sdk/proxy';
 *
 * const handler = createProxy({ models: ['acme/chat-1'], system: 'You are the help desk of Acme.' });
 * export { handler as GET, handler as POST };
 *
 * // In the page: new Client({ baseURL: '/api/inference/v1' }), with no key.
 * ```
 *
 * @packageDocumentation
 */

export { createProxy } from './proxy';
export type { ProxyHandler } from './proxy';
export type {
  ProxyOptions,
  ProxyContext,
  ProxyUsage,
  ProxyRateLimit,
  ProxyBudget,
} from './options';
export { memoryStore } from './store';
export type { ProxyStore } from './store';
export type { ProxyErrorBody } from './errors';
export { toNodeListener } from './node';
export type { NodeRequestLike, NodeResponseLike } from './node';
