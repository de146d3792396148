// The watching proxy of `npm run test:runtimes` (run.ts): it stands between a runtime's checks and
// the mock server, and tells the abort and break checks whether the client really cut the request.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CutReport } from '../../test/runtimes/checks';

interface CancelRecord {
  runtime: string;
  check: string;
  /** The client closed the connection before the mock server finished the response. */
  cut: boolean;
  /** The mock server finished the response. */
  ended: boolean;
}

/**
 * Forwards everything to the mock server, and remembers how the requests marked by the abort and
 * break checks ended; the checks ask at `GET /__watch/cut?runtime=&check=` (see checks.ts).
 */
export async function startWatchProxy(target: URL): Promise<{ url: string; server: Server }> {
  const records: CancelRecord[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    if (url.pathname === '/__watch/cut') {
      const runtime = url.searchParams.get('runtime');
      const check = url.searchParams.get('check');
      const seen = records.filter((r) => r.runtime === runtime && r.check === check);
      const report: CutReport = {
        seen: seen.length,
        cut: seen.some((r) => r.cut),
        ended: seen.some((r) => r.ended),
      };
      res.writeHead(200, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
      });
      res.end(JSON.stringify(report));
      return;
    }
    if (url.pathname === '/__watch/ndjson') {
      // A route handler's body (toReadableStream()): one chunk, then nothing until the page leaves.
      res.writeHead(200, {
        'content-type': 'application/x-ndjson',
        'access-control-allow-origin': '*',
      });
      res.write(
        `${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] })}\n`,
      );
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const match = /\[rt-check (\S+) (abort|break|route-abort)\]/.exec(body.toString('utf8'));
      const record: CancelRecord | undefined = match
        ? { runtime: match[1]!, check: match[2]!, cut: false, ended: false }
        : undefined;
      if (record) records.push(record);
      const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
      const upstream = httpRequest(url, { method: req.method, headers }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        res.flushHeaders(); // SSE: pass every event on as it comes
        upRes.on('data', (chunk: Buffer) => res.write(chunk));
        upRes.on('end', () => {
          if (record) record.ended = true;
          res.end();
        });
      });
      upstream.on('error', () => res.destroy());
      res.on('close', () => {
        if (res.writableFinished) return;
        if (record) record.cut = true;
        upstream.destroy();
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}${target.pathname}`, server };
}
