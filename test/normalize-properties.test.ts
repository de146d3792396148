/**
 * The generated normalizer (src/generated/normalize.gen.ts) against the zod schemas generated from
 * the same spec (src/generated/zod.gen.ts, test/generated/wire.gen.ts). For every response the SDK reads:
 * - it accepts exactly what the wire schema accepts (the same decision, and an issue where the
 *   schema has one);
 * - what it returns is the contract: the contract schema accepts it;
 * - it keeps every field the schema does not declare, with its value as sent;
 * - it is idempotent: reading a normalized value again changes nothing (so a value that went
 *   through `toReadableStream()` and back, or the mock server, reads the same).
 * Checked on generated values with the quirks real servers send (in any key order, with vendor
 * extras), on the same with one thing changed anywhere, and on every JSON body and stream event
 * of ../shared/corpus and ../shared/corpus2. The quirks one by one: test/normalize-quirks.test.ts.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusPresent, isLegacy, loadManifest } from './support/corpus';
import { ROOTS, holds, VALID, mutated } from './support/normalize';

fc.configureGlobal({ endOnFailure: true });

describe('the normalizer and the zod schemas agree', () => {
  for (const [name, normalize, wire, contract] of ROOTS) {
    it(`${name}: on values with the quirks of real servers, extras and any key order`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(VALID[name]!, (value) => {
          holds(name, normalize, wire, contract, value);
          if (wire.safeParse(value).success) accepted++;
        }),
        { numRuns: 400 },
      );
      // Not a vacuous pass: most generated values are readable.
      expect(accepted).toBeGreaterThan(100);
    });

    it(`${name}: on values with one thing changed anywhere`, () => {
      fc.assert(
        fc.property(mutated(VALID[name]!), (value) => holds(name, normalize, wire, contract, value)),
        { numRuns: 600 },
      );
    });

    it(`${name}: on values that are not objects`, () => {
      fc.assert(fc.property(fc.jsonValue({ maxDepth: 1 }).filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)), (value) => holds(name, normalize, wire, contract, value)));
    });
  }
});

describe.skipIf(!corpusPresent)('on every body and stream event of both corpora', () => {
  const entries = loadManifest();

  it('JSON bodies', () => {
    let checked = 0;
    for (const entry of entries.filter((e) => e.kind === 'json')) {
      const body: unknown = JSON.parse(readFileSync(entry.path, 'utf8'));
      const root = /models/.test(entry.endpoint) ? (Array.isArray((body as { data?: unknown }).data) ? 'ModelList' : 'Model') : isLegacy(entry) ? 'Completion' : 'ChatCompletion';
      const [name, normalize, wire, contract] = ROOTS.find(([n]) => n === root)!;
      holds(`${entry.id} (${name})`, normalize, wire, contract, body);
      // Every recorded body is readable.
      expect(wire.safeParse(JSON.parse(readFileSync(entry.path, 'utf8'))).success, entry.id).toBe(true);
      checked++;
    }
    expect(checked).toBe(99);
  });

  it('stream events', () => {
    let events = 0;
    for (const entry of entries.filter((e) => e.kind === 'stream')) {
      const [name, normalize, wire, contract] = ROOTS.find(([n]) => n === (isLegacy(entry) ? 'Completion' : 'ChatCompletionChunk'))!;
      for (const line of readFileSync(entry.path, 'utf8').split(/\r\n|\r|\n/)) {
        const data = /^data: ?(.*)$/.exec(line)?.[1]?.trim();
        if (!data || data === '[DONE]' || data === 'null') continue;
        let value: unknown;
        try {
          value = JSON.parse(data);
        } catch {
          continue;
        }
        if (typeof value === 'object' && value !== null && 'error' in value) continue; // an in-band error, not a chunk
        holds(`${entry.id} (${name})`, normalize, wire, contract, value);
        events++;
      }
    }
    expect(events).toBeGreaterThan(10_000);
  });
});
