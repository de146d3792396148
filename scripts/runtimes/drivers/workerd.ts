// Runs the checks inside Cloudflare's workerd, through Miniflare (RUNTIMES.md): the worker is the
// esbuild bundle of the packed SDK + test/runtimes/checks.ts, as wrangler would bundle it.
//
//   <node 22> --import tsx workerd.ts <worker.mjs> <config json>     (miniflare needs Node >= 22)
import { Miniflare } from 'miniflare';

const [scriptPath, config] = process.argv.slice(2);
if (scriptPath === undefined || config === undefined)
  throw new Error('usage: workerd.ts <worker.mjs> <config json>');

const mf = new Miniflare({
  modules: true,
  scriptPath,
  // No nodejs_compat: the SDK must run on plain Workers.
  compatibilityDate: '2026-01-01',
  cf: false, // else each start looks up workers.cloudflare.com for cf.json (RUNTIMES.md gotcha 9)
});
process.once('SIGTERM', () => void mf.dispose().finally(() => process.exit(143)));

try {
  const res = await mf.dispatchFetch(`http://worker.local/?config=${encodeURIComponent(config)}`, {
    headers: { 'accept-encoding': 'identity' },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`worker answered ${res.status}: ${text}`);
  console.log(`RESULT ${text}`);
} finally {
  await mf.dispose();
}
