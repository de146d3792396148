/**
 * Shared by the examples: a client for the real service when INFERENCE_API_KEY and
 * INFERENCE_BASE_URL are set, else for the bundled local server (started here, closed by `done`).
 * The model is picked as `npm run demo` picks it: INFERENCE_MODEL, else the first ready model
 * the key may use.
 */
import { Client } from 'model-inference-sdk';
import { startMockServer } from 'model-inference-sdk/testing';

export async function exampleClient(): Promise<{ client: Client; model: string; done: () => Promise<void> }> {
  if (process.env.INFERENCE_API_KEY && process.env.INFERENCE_BASE_URL) {
    const client = new Client();
    return { client, model: await pickModel(client), done: async () => {} };
  }
  const server = await startMockServer();
  return {
    client: new Client({ apiKey: server.apiKey, baseURL: server.url }),
    model: 'mock/echo',
    done: () => server.close(),
  };
}

/** INFERENCE_MODEL, else the first model of the list that is ready (as `npm run demo` does). */
export async function pickModel(client: Client): Promise<string> {
  const model = process.env.INFERENCE_MODEL || (await client.models.list()).data.find((m) => m.is_ready !== false)?.id;
  if (!model) throw new Error('No model is available to this API key: set INFERENCE_MODEL.');
  return model;
}
