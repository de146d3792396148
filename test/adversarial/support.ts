// Helpers of the black-box round (issue 29, item 5): a loopback server whose every answer the test
// writes itself, the shapes of the wire format, and bounds that tell "settled" from "pending"
// without asserting how fast anything is. Written from the docs alone; nothing here imports src/
// beyond the public entries.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { inspect } from 'node:util';
import { Client, type ClientOptions } from '../../src/index';

/** A key that must never show anywhere: long enough that no other text holds it by chance. */
export const KEY = 'sk-adv-7Hq2Lm9Xz4Pw8Rt3Vb6Nc1';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Resolves when the server sees this request's connection (or response) close. */
  closed: Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => unknown;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  requests: SeenRequest[];
  /** Replace the handler (the next requests use it). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 that answers with `handler`; `close()` destroys every socket. */
export async function serve(handler: Handler): Promise<TestServer> {
  let current = handler;
  const sockets = new Set<Socket>();
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let resolveClosed!: () => void;
    const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
    res.on('close', resolveClosed);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), closed };
      requests.push(seen);
      Promise.resolve()
        .then(() => current(req, res, seen))
        .catch(() => res.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseURL: `${origin}/v1`,
    requests,
    handle: (h) => void (current = h),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A client of `server` with the secret key, no retries and no logs unless `options` say. */
export function clientOf(baseURL: string, options: ClientOptions = {}): Client {
  return new Client({ apiKey: KEY, baseURL, maxRetries: 0, logLevel: 'off', ...options });
}

export function json(res: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/** Starts an event stream; write events with `event()`. */
export function sseHead(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.flushHeaders();
}

export function event(res: ServerResponse, data: unknown): void {
  res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

/** A whole event stream: each item an event, then `[DONE]`. */
export function sse(res: ServerResponse, events: unknown[], done = true): void {
  sseHead(res);
  for (const e of events) event(res, e);
  if (done) event(res, '[DONE]');
  res.end();
}

export function chunk(delta: Record<string, unknown>, finish_reason: string | null = null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'chatcmpl-adv', object: 'chat.completion.chunk', created: 1, model: 'acme/chat-1', choices: [{ index: 0, delta, finish_reason }], ...extra };
}

/** The chunks of a streamed text reply: role, one per piece, the finish. */
export function textChunks(pieces: string[], finish = 'stop'): Record<string, unknown>[] {
  return [chunk({ role: 'assistant', content: '' }), ...pieces.map((p) => chunk({ content: p })), chunk({}, finish)];
}

export function completion(message: Record<string, unknown>, finish_reason = 'stop', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'chatcmpl-adv',
    object: 'chat.completion',
    created: 1,
    model: 'acme/chat-1',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    ...extra,
  };
}

export function toolCallCompletion(calls: { id: string; name: string; arguments: string }[]): Record<string, unknown> {
  return completion({ tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }, 'tool_calls');
}

/** Everything a user could print of an error: message, stack, util.inspect (all depths), JSON. */
export function dump(value: unknown): string {
  const parts = [inspect(value, { depth: Infinity, showHidden: false, getters: false })];
  if (value instanceof Error) parts.push(value.message, String(value.stack));
  try {
    parts.push(JSON.stringify(value) ?? '');
  } catch {
    // A cycle: inspect above shows it all.
  }
  return parts.join('\n');
}

/** The promise's outcome, or `'pending'` if it has not settled within `ms` (a bound, not a speed). */
export async function within<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | { error: unknown } | 'pending'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), ms)));
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error: unknown) => ({ error })), pending]);
  } finally {
    clearTimeout(timer);
  }
}

/** The error `run` rejects (or throws) with; fails when it does not. */
export async function rejection(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a value');
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise that never settles. */
export const never = <T = never>(): Promise<T> => new Promise<T>(() => {});

export const USER = [{ role: 'user' as const, content: 'Hi' }];
