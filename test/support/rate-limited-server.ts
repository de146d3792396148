/**
 * A loopback chat-completions server that enforces a token bucket, as rate-limited services do:
 * `rate` requests a second, `burst` at once. A request with a token left is answered (a completion,
 * or a stream of `chunks` content chunks); one without gets a 429 with `retry-after-ms` and
 * `retry-after` (the time until the next token). Each response carries the rate-limit headers of
 * the family asked for (`openai`, `common`, `ietf`, `ietf-old`, or `none`: the 429's
 * `retry-after` alone), the reset being when the bucket is full again. It counts what it saw:
 * requests, 429s, and the most requests in flight at once.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Family = 'openai' | 'common' | 'ietf' | 'ietf-old' | 'none';

export interface BucketOptions {
  rate: number;
  burst: number;
  family?: Family;
  /** Milliseconds each answer takes (default 0). */
  latency?: number;
  /** A token limit per minute (OpenAI's `-tokens` headers), counted as each body's `max_tokens`. */
  tokensPerMinute?: number;
}

export interface RateLimitedServer {
  url: string;
  requests: number;
  limited: number;
  maxInFlight: number;
  /** The `content` of each request's last message, in the order they arrived. */
  order: string[];
  /** `model` of each request, in order. */
  models: string[];
  close(): Promise<void>;
}

export async function startRateLimitedServer(options: BucketOptions): Promise<RateLimitedServer> {
  const { rate, burst, family = 'openai', latency = 0 } = options;
  let tokens = burst;
  let last = performance.now();
  let tokenBudget = options.tokensPerMinute ?? 0;
  let inFlight = 0;
  const refill = () => {
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - last) * rate) / 1000);
    if (options.tokensPerMinute)
      tokenBudget = Math.min(
        options.tokensPerMinute,
        tokenBudget + ((now - last) * options.tokensPerMinute) / 60_000,
      );
    last = now;
  };
  const state: RateLimitedServer = {
    url: '',
    requests: 0,
    limited: 0,
    maxInFlight: 0,
    order: [],
    models: [],
    close: async () => {},
  };
  const headers = (): Record<string, string> => {
    const remaining = Math.floor(tokens);
    const full = Math.ceil(((burst - tokens) * 1000) / rate); // ms until the bucket is full
    switch (family) {
      case 'openai': {
        const out: Record<string, string> = {
          'x-ratelimit-limit-requests': String(burst),
          'x-ratelimit-remaining-requests': String(remaining),
          'x-ratelimit-reset-requests': `${full}ms`,
        };
        if (options.tokensPerMinute) {
          out['x-ratelimit-limit-tokens'] = String(options.tokensPerMinute);
          out['x-ratelimit-remaining-tokens'] = String(Math.floor(tokenBudget));
          out['x-ratelimit-reset-tokens'] = `${Math.ceil(((options.tokensPerMinute - tokenBudget) * 60_000) / options.tokensPerMinute)}ms`;
        }
        return out;
      }
      case 'common':
        return {
          'x-ratelimit-limit': String(burst),
          'x-ratelimit-remaining': String(remaining),
          // Epoch milliseconds: the family's rule reads 10^12 and above so.
          'x-ratelimit-reset': String(Date.now() + full),
        };
      case 'ietf':
        return {
          'ratelimit-policy': `"burst";q=${burst};w=${Math.ceil(burst / rate)}`,
          ratelimit: `"burst";r=${remaining};t=${(full / 1000).toFixed(3)}`,
        };
      case 'ietf-old':
        return { ratelimit: `limit=${burst}, remaining=${remaining}, reset=${(full / 1000).toFixed(3)}` };
      case 'none':
        return {};
    }
  };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => void answer(Buffer.concat(parts).toString('utf8'), res));
  });
  const answer = async (text: string, res: ServerResponse) => {
    state.requests++;
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.once('close', () => inFlight--);
    const body = JSON.parse(text || '{}') as {
      model?: string;
      stream?: boolean;
      max_tokens?: number;
      messages?: { content?: string }[];
    };
    state.order.push(body.messages?.at(-1)?.content ?? '');
    state.models.push(body.model ?? '');
    refill();
    const cost = body.max_tokens ?? 0;
    if (tokens < 1 || (options.tokensPerMinute !== undefined && tokenBudget < cost)) {
      state.limited++;
      const wait = Math.ceil(((1 - tokens) * 1000) / rate);
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after-ms': String(Math.max(1, wait)),
        'retry-after': String(Math.max(1, Math.ceil(wait / 1000))),
        ...headers(),
      });
      res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_error' } }));
      return;
    }
    tokens -= 1;
    tokenBudget -= cost;
    const sent = headers();
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    const model = body.model ?? 'acme/chat-1';
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', ...sent });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.end(`${chunk({ role: 'assistant', content: '' }, null)}${chunk({ content: 'ok' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', ...sent });
    res.end(
      JSON.stringify({
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  };
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}
