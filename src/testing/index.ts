/**
 * `model-inference-sdk/testing`: a local implementation of the Model Inference
 * Service for tests, demos and examples. One behaviour (`engine/`), carried
 * by three transports:
 *
 * - {@link startMockServer}: a real HTTP server on 127.0.0.1 (node:http);
 * - {@link createMockService}: a `fetch` function, in process, any runtime;
 * - `createMockHandlers` in `model-inference-sdk/testing/msw`: msw handlers (msw is
 *   an optional peer dependency, needed only by that entry).
 *
 * @example
 * ```ts
 * import { startMockServer } from 'model-inference-sdk/testing';
 *
 * const server = await startMockServer();
 * // point a client at server.url with server.apiKey ...
 * await server.close();
 * ```
 *
 * @module
 */

// Transports
export { startMockServer } from './mock-server';
export type { MockServer, MockServerOptions } from './mock-server';
export { createMockService, DEFAULT_IN_PROCESS_URL } from './service';
export type { CreateMockServiceOptions, MockService } from './service';

// Scripting, recording and the controls every transport shares
export type {
  MockControls,
  MockErrorReply,
  MockFault,
  MockReply,
  MockServiceOptions,
  MockToolCall,
  RecordedRequest,
  ScriptedReply,
} from './scripted';

// Data and the deterministic model
// (the model's own parts, such as its tokenizer, stay internal: its rules are in docs/testing.md)
export { DEFAULT_MOCK_MODELS, MOCK_API_KEY } from './fixtures';
export type { MockModel } from './fixtures';
export { generateChatReply, generateCompletion } from './model';
export type { ChatReplyOptions, GeneratedToolCall, Generation } from './model';

// Record and replay
export type { RecordOptions } from './record-options';
export type { ReplayOptions } from './replay';
export type { Cassette, CassetteInteraction, CassetteRequest, CassetteResponse } from './cassette';
