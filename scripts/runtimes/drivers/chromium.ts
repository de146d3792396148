// Runs the checks in headless Chromium (Debian's /usr/bin/chromium) through playwright-core. The
// page is served from its own 127.0.0.1 origin, so its calls to the mock server are cross-origin
// like a real app's; the bundle is a classic script that defines window.__runChecks.
//
//   node --import tsx chromium.ts <browser.js> <config json>
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [bundle, config] = process.argv.slice(2);
if (bundle === undefined || config === undefined)
  throw new Error('usage: chromium.ts <browser.js> <config json>');

const script = readFileSync(bundle);
const page =
  '<!doctype html><meta charset="utf-8"><title>model-inference-sdk checks</title><script src="/checks.js"></script>';
const server = createServer((req, res) => {
  if (req.url === '/checks.js')
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
  tab.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  tab.on('console', (message) => {
    if (message.type() === 'error') console.error(`[page console] ${message.text()}`);
  });
  await tab.goto(`${origin}/`);
  const report: unknown = await tab.evaluate(`window.__runChecks(${config})`);
  if (typeof report !== 'string')
    throw new Error(`__runChecks gave ${typeof report}, not a JSON string`);
  console.log(`RESULT ${report}`);
} finally {
  await cleanup();
}
