// Runs the checks in headless Chromium (Debian's /usr/bin/chromium) through playwright-core. The
// page is served from its own 127.0.0.1 origin, so its calls to the mock server are cross-origin
// like a real app's; the bundle is a classic script that defines window.__runChecks. The same
// origin serves the route (model-inference-sdk/proxy from the installed tarball, on Node's http) at
// /api/inference/v1, as a web app would: the page's keyless Client streams through it, and this
// driver checks that the key is in nothing the page could read of the route (every response's
// headers and body as the network gave them, what the page's Client read, the page itself).
//
//   node --import tsx chromium.ts <browser.js> <config json>
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type * as Proxy from '../../../src/proxy/index';
import type { CheckConfig, RuntimeReport } from '../../../test/runtimes/checks';

const [bundle, config] = process.argv.slice(2);
if (bundle === undefined || config === undefined)
  throw new Error('usage: chromium.ts <browser.js> <config json>');

const script = readFileSync(bundle);
const settings = JSON.parse(config) as CheckConfig;
const proxy = (await import(
  pathToFileURL(path.join(path.dirname(bundle), 'node_modules/model-inference-sdk/dist/proxy/index.js')).href
)) as typeof Proxy;
const route = proxy.toNodeListener(
  proxy.createProxy({
    models: ['mock/echo'],
    upstream: { apiKey: settings.apiKey, baseURL: settings.watchURL ?? settings.baseURL, maxRetries: 0, logLevel: 'off' },
  }),
);
const page =
  '<!doctype html><meta charset="utf-8"><title>model-inference-sdk checks</title><script src="/checks.js"></script>';
const server = createServer((req, res) => {
  if (req.url?.startsWith('/api/inference/v1/')) route(req, res);
  else if (req.url === '/checks.js')
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
  else if (req.url === '/')
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  else res.writeHead(404).end();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// Flags from RUNTIMES.md: nothing leaves 127.0.0.1 (gotcha 13); a fresh profile per run.
const args = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];
const profile = mkdtempSync(path.join(tmpdir(), 'chromium-profile-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args,
});
const cleanup = async (): Promise<void> => {
  await context.close().catch(() => {});
  server.closeAllConnections();
  server.close();
  rmSync(profile, { recursive: true, force: true });
};
process.once('SIGTERM', () => void cleanup().finally(() => process.exit(143)));

try {
  const tab = await context.newPage();
  // Everything the network gave the page from the route.
  const fromRoute: Promise<string>[] = [];
  tab.on('response', (response) => {
    if (!new URL(response.url()).pathname.startsWith('/api/inference/v1/')) return;
    const headers = Object.entries(response.headers()).map(([name, value]) => `${name}: ${value}`).join('\n');
    fromRoute.push(response.text().then((body) => `${response.status()} ${headers}\n${body}`, () => headers));
  });
  tab.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  tab.on('console', (message) => {
    if (message.type() === 'error') console.error(`[page console] ${message.text()}`);
  });
  await tab.goto(`${origin}/`);
  const raw: unknown = await tab.evaluate(`window.__runChecks(${config})`);
  if (typeof raw !== 'string') throw new Error(`__runChecks gave ${typeof raw}, not a JSON string`);
  const report = JSON.parse(raw) as RuntimeReport;
  const started = Date.now();
  const page = await tab.evaluate('document.documentElement.outerHTML + document.cookie + JSON.stringify(localStorage) + JSON.stringify(sessionStorage)');
  const read = [...(report.seen ?? []), ...(await Promise.all(fromRoute)), String(page)];
  const leaked = read.filter((text) => text.includes(settings.apiKey));
  report.results.push({
    name: 'route key',
    ok: leaked.length === 0 && fromRoute.length >= 4,
    ms: Date.now() - started,
    ...(leaked.length > 0 ? { detail: `the key is in: ${leaked[0]!.slice(0, 100)}` } : fromRoute.length < 4 ? { detail: `only ${fromRoute.length} route responses seen` } : {}),
  });
  delete report.seen;
  console.log(`RESULT ${JSON.stringify(report)}`);
} finally {
  await cleanup();
}
