/**
 * Shared by the examples: a client for the real service when INFERENCE_API_KEY and
 * INFERENCE_BASE_URL are set, else for the bundled local server (started here, closed by `done`).
 */
import { Client } from 'model-inference-sdk';
import { startMockServer } from 'model-inference-sdk/testing';

export async function exampleClient(): Promise<{ client: Client; model: string; done: () => Promise<void> }> {
  if (process.env.INFERENCE_API_KEY && process.env.INFERENCE_BASE_URL) {
    return { client: new Client(), model: process.env.INFERENCE_MODEL ?? 'acme/chat-1', done: async () => {} };
  }
  const server = await startMockServer();
  return {
    client: new Client({ apiKey: server.apiKey, baseURL: server.url }),
    model: 'mock/echo',
    done: () => server.close(),
  };
}
