/**
 * Serving a route (model-inference-sdk/proxy) in tests: on a real loopback server through
 * `toNodeListener`, and a loopback upstream of the test's own making for what the mock server
 * does not do (echo the key, ignore max_tokens, watch for the abort).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener, type ProxyHandler } from '../../src/proxy/index';

export interface Served {
  /** The route's base URL, e.g. http://127.0.0.1:4321/api/inference/v1. */
  url: string;
  origin: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** The route on a loopback `http` server, under `basePath`. */
export async function serveRoute(handler: ProxyHandler, basePath = '/api/inference/v1'): Promise<Served> {
  const server = createServer(toNodeListener(handler));
  const origin = await listen(server);
  return { url: `${origin}${basePath}`, origin, close: closer(server) };
}

/** A hand-written upstream on loopback: `answer` handles every request (its body already read). */
export interface Upstream extends Served {
  requests: Array<{ path: string; body: string; headers: IncomingMessage['headers'] }>;
}

export async function startUpstream(
  answer: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<Upstream> {
  const requests: Array<{ path: string; body: string; headers: IncomingMessage['headers'] }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body, headers: req.headers });
      answer(req, res, body);
    });
  });
  const origin = await listen(server);
  return { url: `${origin}/v1`, origin, requests, close: closer(server) };
}

/** A request to a handler, in process. */
export function call(
  handler: ProxyHandler,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  const hasBody = init.body !== undefined;
  return handler(
    new Request(`http://app.test/api/inference/v1${path}`, {
      method: init.method ?? (hasBody ? 'POST' : 'GET'),
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...init.headers },
      ...(hasBody ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    }),
  );
}

/** A chat body of one user message. */
export const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'mock/echo',
  messages: [{ role: 'user', content }],
  ...extra,
});

/** The route's error body and status. */
export async function errorOf(response: Response): Promise<{ status: number; error: Record<string, unknown> }> {
  const body = (await response.json()) as { error: Record<string, unknown> };
  return { status: response.status, error: body.error };
}
