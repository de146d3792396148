/**
 * `inference-sdk/testing`: a local mock of the Model Inference Service for
 * tests, demos and examples. Self-contained (node built-ins only).
 *
 * @example
 * ```ts
 * import { startMockServer } from 'inference-sdk/testing';
 *
 * const server = await startMockServer();
 * // point a client at server.url with server.apiKey ...
 * await server.close();
 * ```
 *
 * @module
 */
export { startMockServer } from './mock-server';
export type { MockServer, MockServerOptions, RecordedRequest, ScriptedReply } from './mock-server';
export { DEFAULT_MOCK_MODELS, MOCK_API_KEY, toModelObject } from './fixtures';
export type { MockModel, ModelObject } from './fixtures';
export { countTokens, generateChatReply, generateCompletion, messageText, splitTokens } from './model';
export type { Generation } from './model';
