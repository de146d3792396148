/**
 * The generated normalizer (src/generated/normalize.gen.ts), the quirks real servers send one by
 * one, and its rules on their own. The properties on generated values and the corpora:
 * test/normalize-properties.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as N from '../src/generated/normalize.gen';

fc.configureGlobal({ endOnFailure: true });

describe('the quirks, one by one', () => {
  const chunkOf = (choice: Record<string, unknown>) => N.normalizeChatCompletionChunk({ choices: [choice] }, { issues: [] });

  it('fills what a chunk leaves out, and reads its finish reasons as the API does', () => {
    const chunk = N.normalizeChatCompletionChunk({ choices: null }, { issues: [] });
    expect(chunk).toEqual({ id: '', object: 'chat.completion.chunk', created: 0, model: '', choices: [] });
    expect(chunkOf({ delta: { content: 'a' }, finish_reason: '' }).choices[0]).toEqual({ index: 0, delta: { content: 'a' }, finish_reason: null });
    expect(chunkOf({ index: 0, delta: {}, finish_reason: 'eos' }).choices[0]?.finish_reason).toBe('stop');
    expect(chunkOf({ index: 0, delta: {}, finish_reason: 'model_length' }).choices[0]?.finish_reason).toBe('length');
    expect(chunkOf({ index: 0, finish_reason: 'error' }).choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'error' });
  });

  it('reads content parts as text and thinking as reasoning, keeping the parts', () => {
    const parts = [{ type: 'thinking', thinking: [{ type: 'text', text: 'Hmm.' }] }, { type: 'text', text: 'Hi' }, { type: 'reference', reference_ids: [1] }];
    const delta = chunkOf({ index: 0, delta: { role: 'assistant', content: parts } }).choices[0]!.delta;
    expect(delta).toEqual({ role: 'assistant', content: 'Hi', reasoning: 'Hmm.', content_parts: parts });
    // No text part: no content in a delta, `null` in a message.
    expect(chunkOf({ index: 0, delta: { content: [parts[0]] } }).choices[0]!.delta).toEqual({ reasoning: 'Hmm.', content_parts: [parts[0]] });
    const message = N.normalizeChatCompletion({ choices: [{ message: { content: [parts[0]] } }] }, { issues: [] }).choices[0]!.message;
    expect(message).toMatchObject({ role: 'assistant', content: null, refusal: null, reasoning: 'Hmm.' });
  });

  it('takes reasoning from one field only, in a fixed order', () => {
    const reasoningOf = (delta: Record<string, unknown>) => chunkOf({ index: 0, delta }).choices[0]!.delta.reasoning;
    expect(reasoningOf({ reasoning_content: 'a', reasoning: 'a' })).toBe('a'); // vLLM during its rename: the same text twice
    expect(reasoningOf({ reasoning: 'b', reasoning_details: [{ type: 'reasoning.text', text: 'b' }] })).toBe('b');
    expect(reasoningOf({ reasoning_details: [{ type: 'reasoning.text', text: 'c' }, { type: 'reasoning.encrypted', data: 'x' }] })).toBe('c');
    expect(reasoningOf({ reasoning_content: '' })).toBe('');
    expect(reasoningOf({ reasoning_content: null, content: 'x' })).toBeUndefined();
  });

  it('gives every message its role, content, refusal, and tool calls only when there are some', () => {
    const read = (message: unknown) => N.normalizeChatCompletion({ choices: [{ index: 0, message }] }, { issues: [] }).choices[0]!.message;
    expect(read(undefined)).toEqual({ role: 'assistant', content: null, refusal: null }); // Azure's filtered choice
    expect(read({ content: 'x', tool_calls: [], refusal: '' })).toEqual({ role: 'assistant', content: 'x', refusal: null });
    expect(read({ content: null, tool_calls: null })).toEqual({ role: 'assistant', content: null, refusal: null });
    expect(read({ tool_calls: [{ function: { name: 'f' } }] }).tool_calls).toEqual([{ id: '', type: 'function', function: { name: 'f', arguments: '{}' } }]);
    expect(read({ tool_calls: [{ id: 'c', type: 'tool', function: { name: 'f', arguments: { a: 1 } } }] }).tool_calls).toEqual([
      { id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
    ]);
  });

  it('orders choices by index and numbers those without one', () => {
    const completion = N.normalizeChatCompletion({ choices: [{ index: 1, message: { content: 'b' } }, { index: 0, message: { content: 'a' } }] }, { issues: [] });
    expect(completion.choices.map((c) => c.message.content)).toEqual(['a', 'b']);
    const legacy = N.normalizeCompletion({ choices: [{ text: 'x' }, { text: 'y' }] }, { issues: [] });
    expect(legacy.choices).toEqual([
      { index: 0, text: 'x', finish_reason: null, logprobs: null },
      { index: 1, text: 'y', finish_reason: null, logprobs: null },
    ]);
  });

  it('reads times in milliseconds or with fractions as whole seconds', () => {
    const created = (value: unknown) => N.normalizeChatCompletion({ created: value, choices: [] }, { issues: [] }).created;
    expect(created(1_757_876_416.566)).toBe(1_757_876_416); // SambaNova
    expect(created(1_726_531_200_000)).toBe(1_726_531_200); // watsonx, mistral.rs
    expect(created(null)).toBe(0);
  });

  it('reads prices as an array of exact decimal strings, under the service names', () => {
    const model = N.normalizeModel(
      { id: 'a/b', created: null, owned_by: null, max_model_len: 8192, pricing: { input: 10, output: 0.0000015, cache_read: 1e-7, cache_write: 12.5, unit: 'usd_per_1m_tokens' } },
      { issues: [] },
    );
    expect(model).toMatchObject({ id: 'a/b', object: 'model', context_length: 8192, pricing: [{ prompt: '10', completion: '0.0000015', input_cache_read: '0.0000001', input_cache_write: '12.5', unit: 'usd_per_1m_tokens' }] });
    expect('created' in model).toBe(false);
    expect('owned_by' in model).toBe(false);
  });

  it('fills total_tokens from its parts and reads null breakdowns as absent', () => {
    const usage = N.normalizeChatCompletion({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 3, prompt_tokens_details: null, completion_tokens_details: { reasoning_tokens: null, x: 1 } } }, { issues: [] }).usage;
    expect(usage).toEqual({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5, completion_tokens_details: { x: 1 } });
  });

  it('names the field and the value it cannot read', () => {
    const cx: N.NormalizeContext = { issues: [] };
    N.normalizeChatCompletion({ choices: [{ index: 0, message: { content: 42 } }] }, cx);
    expect(cx.issues).toEqual([{ path: ['choices', 0, 'message', 'content'], message: 'expected string, null or array, got number', received: 42 }]);
    const missing: N.NormalizeContext = { issues: [] };
    N.normalizeChatCompletion({ id: 'x' }, missing);
    expect(missing.issues).toEqual([{ path: ['choices'], message: 'required array is missing', received: undefined }]);
  });
});

describe('the rules, on their own', () => {
  it('decimal(): the exact decimal of a number, never in exponent form, reading back to the same number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const text = N.decimal(x);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(text)).toBe(x === 0 ? 0 : x);
      }),
      { numRuns: 2000 },
    );
    expect([1e-7, 12.5, 1e21, -1.5e-10, 0.1].map(N.decimal)).toEqual(['0.0000001', '12.5', '1000000000000000000000', '-0.00000000015', '0.1']);
  });

  it('seconds(): milliseconds and fractions as whole seconds, stable when read again', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e15, max: 1e15, noNaN: true }), (x) => {
        const s = N.seconds(x);
        if (s === undefined) return;
        expect(Number.isSafeInteger(s)).toBe(true);
        expect(N.seconds(s)).toBe(s);
      }),
    );
  });
});
