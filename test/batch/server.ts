// A loopback server for the batch tests: it answers chat and text completions by echoing the
// prompt (so a result can be matched to its line), prices its one model, answers 400 to a prompt
// "fail", quotes the key to a prompt "echo-key", and logs every request with its idempotency key
// and the `run` the test has set.
import { startFaultServer, type FaultServer } from '../support/fault-server';

export const KEY = 'sk-batch-test-5f4e3d2c1b0a-secret';
export const MODEL = 'acme/chat-1';

export interface BatchServer extends FaultServer {
  /** The requests of completions: the prompt, its idempotency key and the run it came in. */
  calls: { prompt: string; key: string | undefined; run: number }[];
  run: number;
  /** Milliseconds each answer waits (a function of the prompt). */
  delay: (prompt: string) => number;
}

export async function startBatchServer(): Promise<BatchServer> {
  const state = { run: 0, calls: [] as BatchServer['calls'], delay: (_p: string) => 0 };
  const server = await startFaultServer(async (req, res, body) => {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${server.requests.length}` });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'GET' && req.url?.startsWith('/v1/models/')) {
      const id = decodeURIComponent(req.url.slice('/v1/models/'.length));
      if (id !== MODEL) return json(404, { error: { message: 'no such model', type: 'not_found', code: 'model_not_found' } });
      return json(200, { id, object: 'model', created: 1, owned_by: 'acme', pricing: [{ prompt: '0.0000001', completion: '0.0000003' }] });
    }
    const parsed = JSON.parse(body) as { messages?: { content: string }[]; prompt?: string; model: string };
    const prompt = parsed.prompt ?? parsed.messages?.at(-1)?.content ?? '';
    const key = req.headers['idempotency-key'];
    state.calls.push({ prompt, key: typeof key === 'string' ? key : undefined, run: state.run });
    const wait = state.delay(prompt);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (prompt === 'fail') return json(400, { error: { message: 'this prompt is refused', type: 'invalid_request_error', code: 'refused' } });
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const text = prompt === 'echo-key' ? `your key is ${KEY}` : `echo: ${prompt}`;
    const id = prompt === 'echo-key' ? KEY : `cmpl-${server.requests.length}`;
    if (req.url === '/v1/completions')
      return json(200, { id, object: 'text_completion', created: 1, model: MODEL, choices: [{ index: 0, text, finish_reason: 'stop', logprobs: null }], usage });
    return json(200, {
      id,
      object: 'chat.completion',
      created: 1,
      model: MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage,
    });
  });
  return Object.defineProperties(server, {
    calls: { get: () => state.calls },
    run: { get: () => state.run, set: (v: number) => (state.run = v) },
    delay: { get: () => state.delay, set: (f: (p: string) => number) => (state.delay = f) },
  }) as BatchServer;
}

/** One input line of the OpenAI Batch format asking `prompt` (a chat line, or a text completion line). */
export function inputLine(customId: string, prompt: string, url = '/v1/chat/completions'): string {
  const body = url === '/v1/completions' ? { model: MODEL, prompt, max_tokens: 5 } : { model: MODEL, messages: [{ role: 'user', content: prompt }], max_tokens: 5 };
  return JSON.stringify({ custom_id: customId, method: 'POST', url, body });
}
