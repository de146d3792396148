/**
 * A bare loopback HTTP server whose every response is written by the test, for faults the mock
 * server has no words for (a body cut mid-way, gzip, trickling bytes, redirects, endless bodies).
 * Records every request; `close()` destroys open sockets.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, expect } from 'vitest';

export interface FaultServer {
  /** Base URL ending in /v1. */
  url: string;
  origin: string;
  requests: {
    method: string;
    url: string;
    headers: IncomingMessage['headers'];
    body: string;
    /** Resolves when the response (or its connection) closes, e.g. because the client went away. */
    closed: Promise<void>;
  }[];
  close(): Promise<void>;
}

export async function startFaultServer(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>,
): Promise<FaultServer> {
  const sockets = new Set<Socket>();
  const requests: FaultServer['requests'] = [];
  const server = createServer((req, res) => {
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, closed });
      void Promise.resolve(handle(req, res, body)).catch(() => res.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Wait `ms`, unless the response closes first; resolves false if it closed. */
export function pause(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(false);
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    res.once('close', onClose);
  });
}

/** Timers still pending (Node lists each as 'Timeout'). */
const pendingTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

/**
 * Fault servers for a test file: `faultServer()` starts one that is closed after the test, and
 * each test must leave no more timers than it found (nothing of the SDK outlives its call: a
 * leaked timer keeps a serverless function alive). `before` runs before each test.
 */
export function useFaultServers(before: () => void = () => {}): { faultServer: typeof startFaultServer } {
  const opened: FaultServer[] = [];
  let timersBefore = 0;
  beforeEach(() => {
    before();
    timersBefore = pendingTimers();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    // Given a moment: fetch's connection pool (undici) keeps short-lived timers of its own for a
    // closing connection, which a busy machine may not have run yet. A timer the SDK leaked (an
    // attempt's timeout, an idle timer: minutes long) is still there after it.
    // (A plain loop: vi.waitFor's own timers would be counted.)
    for (let waited = 0; pendingTimers() > timersBefore && waited < 3_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pendingTimers()).toBeLessThanOrEqual(timersBefore);
  });
  return {
    async faultServer(...args) {
      const server = await startFaultServer(...args);
      opened.push(server);
      return server;
    },
  };
}
