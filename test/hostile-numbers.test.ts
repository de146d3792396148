/**
 * Hostile numbers from a server, and model ids that are file paths (issue 22, items 2 and 8),
 * through the public API against real loopback servers: every price is read in bounded time and
 * unusable ones are typed errors; bad token counts are `CostEstimateError`s; `waitUntilReady()`
 * keeps its timeout against a server that stalls or asks to retry in 30 s; preflight ignores
 * limits that are not limits; llama.cpp/vLLM path ids are sent, traversal-safe.
 * docs/reliability.md lists these cases with their outcomes; docs/models.md documents the values.
 */
import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  Client,
  type ClientOptions,
  type CompletionUsage,
  CostEstimateError,
  estimateCost,
  InferenceError,
  type Model,
  ModelNotReadyError,
  NotFoundError,
  PreflightError,
} from '../src/index';
import { startMockServer } from '../src/testing';
import { cleanEnv, killLeftovers, spawnCli } from './cli-support';
import { useFaultServers } from './support/fault-server';
import { within } from './support/settle';

const KEY = 'sk-test-numbers-0123456789';
const { faultServer } = useFaultServers();
afterEach(() => killLeftovers());

const client = (baseURL: string, options: ClientOptions = {}) => new Client({ apiKey: KEY, baseURL, logLevel: 'off', ...options });
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};
const usage = (counts: Partial<Record<keyof CompletionUsage, unknown>> & Record<string, unknown> = {}) =>
  ({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, ...counts }) as CompletionUsage;
const priced = (prompt: unknown, more: Record<string, unknown> = {}): Pick<Model, 'id' | 'pricing'> =>
  ({ id: 'acme/chat', pricing: [{ prompt, completion: '1', ...more }] }) as Pick<Model, 'id' | 'pricing'>;

type ProbeResult = { value: Record<string, string> } | { error: { name: string; inference: boolean; message: string; field?: string; raw?: unknown } };

/**
 * `estimateCost()` of each case in a child process: a price that blocks the event loop cannot be
 * timed out in this process, so "returns in bounded time" is "the child exits before a generous
 * bound" (never a measure of speed). Rejects with what it printed so far if it does not.
 */
function probeCosts(cases: { usage: CompletionUsage; model: Pick<Model, 'id' | 'pricing'> }[], bound = 45_000): Promise<ProbeResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/cost-probe.ts'], { env: cleanEnv(), stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`estimateCost still running after ${bound} ms; results so far: ${out}`));
    }, bound);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`probe exited ${String(code)}: ${err}`));
      resolve(out.trim().split('\n').map((line) => JSON.parse(line) as ProbeResult));
    });
    child.stdin.end(JSON.stringify(cases));
  });
}

describe('prices are read in bounded time; hostile ones are typed errors', () => {
  it('estimateCost returns for huge exponents, negatives, NaN and thousands of digits, each a CostEstimateError naming the field and carrying the raw value', async () => {
    const hostile = ['1e-20000', '1e-100000', '1e999999999', '1E+401', '-1', '-0.000001', 'NaN', 'Infinity', '-Infinity', '', '0x10', '9'.repeat(5000), `0.${'0'.repeat(3000)}1`, `${'1'.repeat(200_000)}`];
    const results = await probeCosts(hostile.map((prompt) => ({ usage: usage(), model: priced(prompt) })));
    expect(results).toHaveLength(hostile.length);
    results.forEach((result, i) => {
      expect(result, `prompt price ${hostile[i]!.slice(0, 20)}`).toMatchObject({ error: { name: 'CostEstimateError', inference: true, field: 'pricing[0].prompt', raw: hostile[i] } });
    });
    const messages = results.map((r) => ('error' in r ? r.error.message : ''));
    expect(messages[0]).toBe('estimateCost: the prompt price of "acme/chat" has an exponent beyond ±400: "1e-20000".');
    expect(messages[4]).toBe('estimateCost: the prompt price of "acme/chat" is negative: "-1".');
    expect(messages[6]).toBe('estimateCost: the prompt price of "acme/chat" is not a number: "NaN".');
    // A long value is cut short in the message (the error's `raw` keeps it whole).
    expect(messages[11]).toMatch(/has more than 400 digits: "9{39}… \(5002 characters\)\.$/);
    expect(messages.every((m) => m.length < 200)).toBe(true);
  }, 60_000);

  it('reads every price within the documented limits exactly: 400 digits, exponents to ±400, zero and -0', async () => {
    const cases = [`0.${'0'.repeat(398)}1`, '1e-400', '1e400', '-0', ' 0.5 ', '5e-324'];
    const results = await probeCosts(cases.map((prompt) => ({ usage: usage({ prompt_tokens: 2, completion_tokens: 0, total_tokens: 2 }), model: priced(prompt) })));
    expect(results.map((r) => ('value' in r ? r.value['prompt'] : r.error.message))).toEqual([
      `0.${'0'.repeat(398)}2`,
      `0.${'0'.repeat(399)}2`,
      `2${'0'.repeat(400)}`,
      '0',
      '1',
      `0.${'0'.repeat(322)}1`,
    ]);
  }, 60_000);

  it("a unit it cannot apply is refused, never read as per token (Perplexity's usd_per_1m_tokens still applies)", () => {
    const u = usage({ prompt_tokens: 1_000_000, completion_tokens: 0, total_tokens: 1_000_000 });
    expect(estimateCost(u, priced('2', { unit: 'usd_per_1m_tokens' }))).toMatchObject({ prompt: '2', currency: 'usd' });
    for (const unit of ['usd_per_million', `usd_per_${'9'.repeat(5000)}_tokens`, 'usd_per_3_tokens', 'usd_per_0_tokens', 42]) {
      const error = outcomeOf(() => estimateCost(u, priced('2', { unit })));
      expect(error).toBeInstanceOf(CostEstimateError);
      expect(error).toMatchObject({ field: 'pricing[0].unit', raw: unit });
    }
  });

  it('JSON-number prices beyond a double read as "Infinity" (refused by estimateCost); the smallest read as their exact 325 digits', async () => {
    const server = await faultServer((_req, res) =>
      json(res, 200, '{"id":"acme/big","object":"model","created":0,"pricing":{"prompt":1e400,"completion":-1e400,"input_cache_read":5e-324}}'),
    );
    const model = await client(server.url).models.retrieve('acme/big');
    expect(model.pricing?.[0]).toMatchObject({ prompt: 'Infinity', completion: '-Infinity', input_cache_read: `0.${'0'.repeat(323)}5` });
    expect(outcomeOf(() => estimateCost(usage(), model))).toMatchObject({ name: 'CostEstimateError', field: 'pricing[0].prompt', raw: 'Infinity' });
    const cacheOnly = { id: 'acme/big', pricing: [{ prompt: '0', completion: '0', input_cache_read: model.pricing?.[0]?.input_cache_read }] } as Model;
    expect(estimateCost(usage({ prompt_tokens_details: { cached_tokens: 2 } }), cacheOnly).cacheRead).toBe(`0.${'0'.repeat(322)}1`);
  });

  it("the CLI's models table and `models get` finish and show hostile prices as invalid (no hang, no raw value)", async () => {
    const server = await startMockServer({
      models: [
        { id: 'acme/ok', pricing: [{ prompt: '0.5', completion: '1', input_cache_read: '0.1' }] },
        { id: 'acme/forever', pricing: [{ prompt: '1e999999999', completion: '1', input_cache_read: '1' }] },
        { id: 'acme/slow', pricing: [{ prompt: '1', completion: '1e-100000', input_cache_read: '1' }] },
        { id: 'acme/long', pricing: [{ prompt: '1', completion: '1', input_cache_read: '7'.repeat(5000) }] },
        { id: 'acme/negative', pricing: [{ prompt: '-1', completion: '-1', input_cache_read: '0' }] },
        { id: 'acme/nan', pricing: [{ prompt: 'NaN', completion: '1', input_cache_read: '1' }] },
      ],
    });
    try {
      const env = { INFERENCE_API_KEY: server.apiKey, INFERENCE_BASE_URL: server.url };
      const table = await spawnCli(['models'], { env });
      expect({ code: table.code, stderr: table.stderr }).toEqual({ code: 0, stderr: '' });
      expect(table.stdout).toMatch(/^acme\/ok\s.*\s0\.5 \/ 1 \/ 0\.1$/m);
      for (const id of ['forever', 'slow', 'long', 'negative', 'nan']) expect(table.stdout).toMatch(new RegExp(`^acme/${id}\\s.*\\sinvalid$`, 'm'));
      expect(table.stdout).not.toContain('7777777777');

      const one = await spawnCli(['models', 'get', 'acme/forever'], { env });
      expect(one.code).toBe(0);
      expect(one.stdout).toMatch(/^prices\s+invalid \(pricing\[0\]\.prompt; --json shows it as sent\)$/m);
    } finally {
      await server.close();
    }
  }, 90_000);
});

describe('bad token counts are CostEstimateErrors, not RangeErrors', () => {
  const model = priced('0.1', { input_cache_read: '0.01' });
  const bad = [1.5, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 53, '10', null];

  it.each([
    ['prompt_tokens', 'usage.prompt_tokens', (v: unknown) => usage({ prompt_tokens: v })],
    ['completion_tokens', 'usage.completion_tokens', (v: unknown) => usage({ completion_tokens: v })],
    ['cached_tokens', 'usage.prompt_tokens_details.cached_tokens', (v: unknown) => usage({ prompt_tokens_details: { cached_tokens: v } })],
    ["DeepSeek's prompt_cache_hit_tokens", 'usage.prompt_cache_hit_tokens', (v: unknown) => usage({ prompt_cache_hit_tokens: v })],
  ])('%s', (_name, field, make) => {
    for (const value of bad) {
      // null is "absent" for the cache counts (as the normalizer reads it), a bad count for the others.
      if (value === null && field.includes('cache')) {
        expect(() => estimateCost(make(value), model)).not.toThrow();
        continue;
      }
      const error = outcomeOf(() => estimateCost(make(value), model));
      expect(error, `${field} = ${String(value)}`).toBeInstanceOf(CostEstimateError);
      expect(error).toBeInstanceOf(InferenceError);
      expect(error).toMatchObject({ name: 'CostEstimateError', model: 'acme/chat', field, raw: value });
      expect((error as Error).message).toContain(`estimateCost: ${field} is not a whole number of tokens (0 or more): `);
    }
  });

  it('a missing usage is a CostEstimateError too, and good counts still price exactly', () => {
    expect(outcomeOf(() => estimateCost(undefined as unknown as CompletionUsage, model))).toMatchObject({ name: 'CostEstimateError', field: 'usage' });
    expect(estimateCost(usage({ prompt_tokens: 1000, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 400 } }), model)).toEqual({
      prompt: '60',
      completion: '3',
      cacheRead: '4',
      total: '67',
      currency: undefined,
    });
  });
});

describe('waitUntilReady keeps its timeout', () => {
  const notReady = (id: string) => ({ id, object: 'model', created: 0, is_ready: false });
  const ready = (id: string) => ({ id, object: 'model', created: 0, is_ready: true });

  it('against a server that stalls: ModelNotReadyError at the timeout, not after the client timeout', async () => {
    const server = await faultServer(() => {}); // never answers
    const wait = client(server.url).models.waitUntilReady('acme/chat', { timeout: 300 });
    const result = await within(wait, 20_000);
    expect(result).not.toBe('pending');
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(ModelNotReadyError);
    expect(error).toMatchObject({ model: 'acme/chat' });
    expect((error as Error).message).toMatch(/not ready after \d+ ms \(the last poll had not finished/);
    // The stalled poll was cancelled, not left open.
    await expect(within(server.requests[0]!.closed, 10_000)).resolves.not.toBe('pending');
  }, 30_000);

  it('against a 503 with retry-after: 30, retried inside a poll: ModelNotReadyError at the timeout', async () => {
    const server = await faultServer((_req, res) => json(res, 503, { error: { message: 'Loading model' } }, { 'retry-after': '30' }));
    const result = await within(client(server.url).models.waitUntilReady('acme/chat', { timeout: 300 }), 20_000);
    expect(result).not.toBe('pending');
    expect((result as { error: unknown }).error).toBeInstanceOf(ModelNotReadyError);
  }, 30_000);

  it('a 503 (a server still loading) counts as not ready: it polls again and returns the model once ready', async () => {
    let calls = 0;
    const server = await faultServer((_req, res) => {
      calls++;
      if (calls <= 2) json(res, 503, { error: { message: 'Loading model' } });
      else json(res, 200, calls === 3 ? notReady('acme/chat') : ready('acme/chat'));
    });
    const model = await client(server.url, { maxRetries: 0 }).models.waitUntilReady('acme/chat', { pollInterval: 10 });
    expect(model.is_ready).toBe(true);
    expect(server.requests.map((r) => r.url)).toEqual(Array(4).fill('/v1/models/acme/chat'));
  });

  it('503 until the timeout: ModelNotReadyError whose cause is the last 503', async () => {
    const server = await faultServer((_req, res) => json(res, 503, { error: { message: 'Loading model' } }));
    const error = await client(server.url, { maxRetries: 0 }).models.waitUntilReady('acme/chat', { timeout: 200, pollInterval: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelNotReadyError);
    expect((error as Error).message).toMatch(/the server answered 503/);
    expect((error as Error).cause).toMatchObject({ status: 503 });
  });

  it('other errors are thrown as they are (404)', async () => {
    const server = await faultServer((_req, res) => json(res, 404, { error: { message: 'no such model' } }));
    await expect(client(server.url).models.waitUntilReady('acme/nope', { timeout: 5_000 })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("the caller's signal still aborts it with APIUserAbortError, also during a stalled poll", async () => {
    const server = await faultServer(() => {});
    const controller = new AbortController();
    const wait = client(server.url).models.waitUntilReady('acme/chat', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const result = await within(wait, 20_000);
    expect((result as { error: unknown }).error).toBeInstanceOf(APIUserAbortError);
  }, 30_000);

  it('a pollInterval that is NaN, negative, zero or infinite, or a bad timeout, is refused before anything is sent', async () => {
    const server = await faultServer((_req, res) => json(res, 200, ready('acme/chat')));
    const models = client(server.url).models;
    for (const pollInterval of [Number.NaN, -1, 0, Number.POSITIVE_INFINITY, 2 ** 31, '100' as unknown as number]) {
      await expect(models.waitUntilReady('acme/chat', { pollInterval }), `pollInterval ${String(pollInterval)}`).rejects.toThrow(
        /models\.waitUntilReady: `pollInterval` must be a number of milliseconds from 1 to 2147483647/,
      );
    }
    for (const timeout of [Number.NaN, -1, Number.POSITIVE_INFINITY, 2 ** 31]) {
      await expect(models.waitUntilReady('acme/chat', { timeout }), `timeout ${String(timeout)}`).rejects.toThrow(/`timeout` must be a number of milliseconds from 0 to 2147483647/);
    }
    expect(server.requests).toHaveLength(0);
    await expect(models.waitUntilReady('acme/chat', { pollInterval: 1 })).resolves.toMatchObject({ is_ready: true });
  });
});

describe('preflight ignores limits that are not positive integers', () => {
  const completion = { id: 'c', object: 'chat.completion', created: 0, model: 'acme/chat', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };

  it.each([
    ['-1', -1, 'error'],
    ['0', 0, 'error'],
    ['1.5 (validation off)', 1.5, 'off'],
    ['"8192" (validation off)', '8192', 'off'],
  ] as const)('max_output_length %s: the call is sent unchecked', async (_name, limit, validation) => {
    const server = await faultServer((req, res) =>
      req.url === '/v1/models/acme/chat' ? json(res, 200, { id: 'acme/chat', object: 'model', created: 0, max_output_length: limit }) : json(res, 200, completion),
    );
    const c = client(server.url, { preflight: 'error', validation });
    const reply = await c.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 });
    expect(reply.choices[0]?.message.content).toBe('ok');
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/models/acme/chat', '/v1/chat/completions']);
  });

  it('a positive integer limit is still enforced', async () => {
    const server = await faultServer((_req, res) => json(res, 200, { id: 'acme/chat', object: 'model', created: 0, max_output_length: 4 }));
    const error = await client(server.url, { preflight: 'error' })
      .chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreflightError);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/models/acme/chat']);
  });
});

describe('model ids that are file paths (llama.cpp, vLLM) can be retrieved, traversal-safe', () => {
  /** A server that answers every GET /v1/models/… with the id it decoded, as Starlette-style routers read `{id:path}`. */
  async function echoServer() {
    return faultServer((req, res) => {
      const raw = (req.url ?? '').slice('/v1/models/'.length);
      json(res, 200, { id: decodeURIComponent(raw), object: 'model', created: 0 });
    });
  }

  it.each([
    ['/models/qwen.gguf', '/v1/models/%2Fmodels%2Fqwen.gguf'],
    ['/data/models//llama 3.gguf', '/v1/models/%2Fdata%2Fmodels%2F%2Fllama%203.gguf'],
    ['./qwen.gguf', '/v1/models/.%2Fqwen.gguf'],
    ['models/qwen.gguf', '/v1/models/models/qwen.gguf'],
    ['acme/chat-1', '/v1/models/acme/chat-1'],
    ['acme/base 1', '/v1/models/acme/base%201'],
    ['qwen2.5:7b', '/v1/models/qwen2.5%3A7b'],
  ])('retrieve(%j) sends %s and the server reads the id back', async (id, path) => {
    const server = await echoServer();
    const model = await client(server.url).models.retrieve(id);
    expect(server.requests.map((r) => r.url)).toEqual([path]);
    expect(model.id).toBe(id);
  });

  it('waitUntilReady accepts a path id', async () => {
    const server = await echoServer();
    await expect(client(server.url).models.waitUntilReady('/models/qwen.gguf')).resolves.toMatchObject({ id: '/models/qwen.gguf' });
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/models/%2Fmodels%2Fqwen.gguf']);
  });

  it('the mock server of model-inference-sdk/testing serves a path id as llama.cpp lists it', async () => {
    const server = await startMockServer({ models: [{ id: '/models/qwen.gguf', is_ready: true }] });
    try {
      const c = new Client({ apiKey: server.apiKey, baseURL: server.url, logLevel: 'off' });
      expect((await c.models.list()).data.map((m) => m.id)).toEqual(['/models/qwen.gguf']);
      await expect(c.models.retrieve('/models/qwen.gguf')).resolves.toMatchObject({ id: '/models/qwen.gguf' });
      await expect(c.models.waitUntilReady('/models/qwen.gguf')).resolves.toMatchObject({ is_ready: true });
    } finally {
      await server.close();
    }
  });

  it('ids that could leave /models/ are refused at the call site, nothing sent', async () => {
    const server = await echoServer();
    const models = client(server.url).models;
    for (const id of ['', '.', '..', '../etc/passwd', 'acme/../../admin', '/models/../secret.gguf', '..\\..\\admin', 'acme/..']) {
      await expect(models.retrieve(id), JSON.stringify(id)).rejects.toThrow(InferenceError);
      await expect(models.waitUntilReady(id), JSON.stringify(id)).rejects.toThrow(InferenceError);
    }
    expect(server.requests).toHaveLength(0);
  });
});

/** The error `run` throws (or its value). */
function outcomeOf(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return error;
  }
}
