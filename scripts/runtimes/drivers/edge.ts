// Runs the checks in Vercel's edge-runtime: a classic-script (IIFE) bundle of the packed SDK +
// test/runtimes/checks.ts, evaluated in an EdgeRuntime context (RUNTIMES.md gotcha 12: no
// import/export, no process, no require).
//
//   node --import tsx edge.ts <edge.js> <config json>
import { readFileSync } from 'node:fs';
import { EdgeRuntime } from 'edge-runtime';

const [bundle, config] = process.argv.slice(2);
if (bundle === undefined || config === undefined)
  throw new Error('usage: edge.ts <edge.js> <config json>');

const runtime = new EdgeRuntime({ initialCode: readFileSync(bundle, 'utf8') });
// The config is JSON, hence a valid JS expression.
const report: unknown = await runtime.evaluate(`__runChecks(${config})`);
if (typeof report !== 'string')
  throw new Error(`__runChecks gave ${typeof report}, not a JSON string`);
console.log(`RESULT ${report}`);
// A request the SDK left open inside the VM would keep this process alive until the harness's
// time limit; the report is out, so end here.
process.exit(0);
