/**
 * The route on Node's `http`: a listener that turns `IncomingMessage` into a web `Request` and
 * writes the `Response` back. Written against the structural shape of the two objects, so this
 * entry imports nothing of `node:` and stays web-standard. The body is read as the route pulls
 * it; the answer is written as the browser takes it (`drain`); a browser that goes away aborts the
 * request's signal, so the upstream call is aborted at once.
 */
import type { ProxyHandler } from './proxy';

/**
 * What the listener reads of Node's `IncomingMessage`.
 *
 * @example
 * ```ts
 * import type { IncomingMessage } from 'node:http';
 * import type { NodeRequestLike } from 'model-inference-sdk/proxy';
 *
 * const fits = (req: IncomingMessage): NodeRequestLike => req;
 * ```
 */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** A TLS socket has `encrypted: true`. */
  socket?: unknown;
}

/**
 * What the listener uses of Node's `ServerResponse`.
 *
 * @example
 * ```ts
 * import type { ServerResponse } from 'node:http';
 * import type { NodeResponseLike } from 'model-inference-sdk/proxy';
 *
 * const fits = (res: ServerResponse): NodeResponseLike => res;
 * ```
 */
export interface NodeResponseLike {
  /** Sends the status and headers. */
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  /** Sends the headers now (events go out as they come). */
  flushHeaders?(): void;
  /** Writes a piece of the body; `false` when the socket's buffer is full (wait for `drain`). */
  write(chunk: Uint8Array): boolean;
  /** Ends the body. */
  end(): unknown;
  /** Once the buffer has room again (`drain`), or the connection closed (`close`). */
  once(event: 'drain' | 'close', listener: () => void): unknown;
  /** When the connection closes: before the end, the browser went away. */
  on(event: 'close', listener: () => void): unknown;
  /** Whether the whole answer was written (`true` in a `close` after the end). */
  readonly writableFinished?: boolean;
  /** Drops the connection (after a failure inside the listener). */
  destroy?(error?: Error): unknown;
}

/**
 * A Node `http` listener for a route handler.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createProxy, toNodeListener } from 'model-inference-sdk/proxy';
 *
 * createServer(toNodeListener(createProxy({ models: ['acme/chat-1'] }))).listen(3000);
 * ```
 */
export function toNodeListener(
  handler: ProxyHandler,
): (request: NodeRequestLike, response: NodeResponseLike) => void {
  return (req, res) => {
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    void serve(handler, req, res, gone).catch(() => res.destroy?.());
  };
}

async function serve(
  handler: ProxyHandler,
  req: NodeRequestLike,
  res: NodeResponseLike,
  gone: AbortController,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  const tls = (req.socket as { encrypted?: unknown } | null | undefined)?.encrypted === true;
  const origin = `${tls ? 'https' : 'http'}://${headers.get('host') ?? 'localhost'}`;
  let url: URL;
  try {
    url = new URL(req.url ?? '/', origin);
  } catch {
    url = new URL(req.url ?? '/', 'http://localhost');
  }
  const incoming = req[Symbol.asyncIterator]();
  const body =
    method === 'GET' || method === 'HEAD'
      ? null
      : new ReadableStream<Uint8Array>(
          {
            async pull(controller) {
              const { value, done } = await incoming.next();
              if (done) controller.close();
              else
                controller.enqueue(
                  typeof value === 'string' ? new TextEncoder().encode(value) : value,
                );
            },
            async cancel() {
              await incoming.return?.();
            },
          },
          { highWaterMark: 0 },
        );
  const request = new Request(url, {
    method,
    headers,
    body,
    signal: gone.signal,
    ...(body ? { duplex: 'half' } : {}),
  } as RequestInit);

  const response = await handler(request);
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) out['set-cookie'] = cookies;
  res.writeHead(response.status, out);
  res.flushHeaders?.();
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  gone.signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (!res.write(value) && !gone.signal.aborted)
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      if (gone.signal.aborted) return;
    }
    res.end();
  } finally {
    gone.signal.removeEventListener('abort', cancel);
  }
}
