/**
 * The incremental partial JSON parser behind `parsedStream()` (src/lib/parse/partial-json.ts): the same
 * values `partial-json` gives for every prefix, each delta parsed once, snapshots never changed
 * after the fact, complete parts shared between snapshots, and throttling for huge outputs.
 * Through the public API: a large structured output streamed in many small deltas.
 */
import fc from 'fast-check';
import { Allow, parse as partialJSON } from 'partial-json';
import { describe, expect, it } from 'vitest';
import { zodResponseFormat } from '../src/helpers/zod';
import { PartialJSON } from '../src/parse/partial-json';
import { useMockServer } from './support/mock-server';
import { z } from 'zod';

const ALLOW = Allow.STR | Allow.NUM | Allow.ARR | Allow.OBJ | Allow.NULL | Allow.BOOL;

/** Split `text` at the given (sorted, deduplicated) positions. */
function pieces(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let start = 0;
  for (const cut of at) {
    out.push(text.slice(start, cut));
    start = cut;
  }
  out.push(text.slice(start));
  return out.filter((p) => p !== '');
}

/** Feed the pieces, returning every snapshot with a deep copy taken when it was returned. */
function run(parts: string[]) {
  const parser = new PartialJSON();
  const seen: { value: unknown; copy: unknown; prefix: string }[] = [];
  let prefix = '';
  for (const part of parts) {
    parser.push(part);
    prefix += part;
    const next = parser.snapshot();
    if (next) seen.push({ value: next.value, copy: structuredClone(next.value), prefix });
  }
  const last = parser.snapshot(true);
  if (last) seen.push({ value: last.value, copy: structuredClone(last.value), prefix });
  return seen;
}

describe('PartialJSON', () => {
  it('agrees with partial-json on every prefix, ends with JSON.parse, and never changes a snapshot', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 30 }), (value, pretty, cuts) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const seen = run(pieces(text, cuts));
        expect(seen.at(-1)?.value ?? null).toEqual(JSON.parse(text) ?? null);
        for (let i = 0; i < seen.length; i++) {
          const { value: v, copy, prefix } = seen[i]!;
          // Nothing returned is changed later.
          expect(v).toEqual(copy);
          if (i > 0) expect(v).not.toEqual(seen[i - 1]!.value);
          // partial-json reads numbers still being written its own way, and trims the text (even
          // the inside of an unfinished string); it also assigns a `__proto__` key (so the key
          // disappears) where JSON.parse and PartialJSON keep it an own property (tested below);
          // elsewhere the values agree.
          if (/[-+.\deE\s]$/.test(prefix) || prefix.includes('"__proto__"')) continue;
          let expected: unknown;
          try {
            expected = partialJSON(prefix, ALLOW);
          } catch {
            continue;
          }
          expect(v).toEqual(expected);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('grows strings, numbers, literals and containers as partial-json does', () => {
    const values = (text: string) => run([...text]).map((s) => s.value);
    expect(values('{"name":"Par')).toEqual([{}, { name: '' }, { name: 'P' }, { name: 'Pa' }, { name: 'Par' }]);
    expect(values('[12.5,t')).toEqual([[], [1], [12], [12.5], [12.5, true]]);
    expect(values('{"a":"x\\u00e9y"}').at(-1)).toEqual({ a: 'xéy' });
    expect(values('{"a":"\\n"}')).toEqual([{}, { a: '' }, { a: '\n' }]);
  });

  it('keeps the parts that were complete: the same objects from one snapshot to the next', () => {
    const parser = new PartialJSON();
    parser.push('{"done":{"x":[1,2]},"list":[{"a":1},');
    const first = parser.snapshot()!.value as { done: object; list: object[] };
    parser.push('{"a":2}');
    const second = parser.snapshot()!.value as { done: object; list: object[] };
    expect(second).not.toBe(first);
    expect(second.done).toBe(first.done);
    expect(second.list[0]).toBe(first.list[0]);
    expect(second.list).toHaveLength(2);
  });

  it('skips what jsonText() skips: whitespace, a <think> block, a code fence', () => {
    const text = '  <think>plan {not json}</think>\n```json\n{"a":[1,2]}\n```\nDone.';
    for (const size of [1, 3, 7, 100]) {
      const parts = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      expect(run(parts).at(-1)?.value).toEqual({ a: [1, 2] });
    }
  });

  it('stops at text that cannot be JSON', () => {
    const parser = new PartialJSON();
    parser.push('Sure! {"a":1}');
    expect(parser.snapshot(true)).toBeUndefined();
    expect(parser.failed).toBe(true);
  });

  it('__proto__ keys stay own properties', () => {
    const seen = run([...'{"__proto__":{"polluted":1}}']);
    const last = seen.at(-1)!.value as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(last, '__proto__')).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('throttles snapshots of huge open containers, and the last value still comes whole', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ i }));
    const text = JSON.stringify({ items });
    const parts = text.match(/[\s\S]{1,8}/g)!;
    const parser = new PartialJSON();
    let snapshots = 0;
    let copied = 0;
    let lengths = 0;
    let last: unknown;
    for (const part of parts) {
      parser.push(part);
      const next = parser.snapshot();
      if (next) {
        last = next.value;
        snapshots++;
        const length = (next.value as { items: unknown[] }).items?.length ?? 0;
        expect(length).toBeGreaterThanOrEqual(lengths);
        lengths = length;
        copied += length;
      }
    }
    expect(parser.snapshot(true)?.value ?? last).toEqual({ items });
    // Every delta changes the value; the copies made stay linear in the text (not 20 000² / 2).
    expect(snapshots).toBeLessThan(parts.length);
    expect(copied).toBeLessThan(text.length * 20);
  });
});

describe('parsedStream() through the public API', () => {
  const { server, client: clientOf } = useMockServer();

  it('a large structured output in many small deltas: every partial grows, the last is the whole value', async () => {
    const Output = z.object({ rows: z.array(z.object({ id: z.number(), label: z.string() })) });
    const value = { rows: Array.from({ length: 3_000 }, (_, id) => ({ id, label: `row ${id}` })) };
    const json = JSON.stringify(value);
    const chunks = json.match(/[\s\S]{1,6}/g)!;
    const events = [
      ...chunks.map((content) => ({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ];
    server.enqueue({ events });
    const client = clientOf();
    const stream = await client.chat.completions.parse({
      model: 'mock/echo',
      messages: [{ role: 'user', content: 'rows' }],
      response_format: zodResponseFormat(Output, 'rows'),
      stream: true,
    });
    let count = 0;
    let rows = 0;
    let last: unknown;
    for await (const partial of stream.parsedStream()) {
      count++;
      expect(partial.rows?.length ?? 0).toBeGreaterThanOrEqual(rows);
      rows = partial.rows?.length ?? 0;
      last = partial;
    }
    expect(count).toBeGreaterThan(1_000);
    expect(last).toEqual(value);
    expect((await stream.finalChatCompletion()).choices[0]!.message.parsed).toEqual(value);
  });
});
