/**
 * Every JSON body and error body of ../shared/corpus and ../shared/corpus2 (real captures from 39
 * servers), served byte for byte with its recorded status and content-type, read through the
 * public API under the default `validation: 'error'`, and compared with the reading MANIFEST.json
 * gives, turned into the SDK's documented reading where the two differ (test/support/corpus.ts).
 * Every value also comes back in the documented shape: the generated contract schema accepts it.
 * Streams (.sse) are the streaming suite's.
 */
import { readFileSync } from 'node:fs';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { zChatCompletion, zCompletion, zModel, zModelList } from '../src/generated/zod.gen';
import { APIError, type ChatCompletion, type Completion, type Model, type ModelList } from '../src/index';
import { testClient, useMsw } from './helpers';
import { corpusPresent, endpointPath, finishReason, isLegacy, loadManifest, reasoning, refusal, toolCalls, usage, type CorpusEntry } from './support/corpus';

const entries = loadManifest();
const bodies = entries.filter((e) => e.kind === 'json');
const errors = entries.filter((e) => e.kind === 'error');

const server = useMsw();

/** Serve the capture's exact bytes for any request. */
function serve(entry: CorpusEntry, status: number) {
  const bytes = readFileSync(entry.path);
  const headers = { 'content-type': entry.content_type ?? 'application/json' };
  server.use(http.all('*', () => new HttpResponse(bytes, { status, headers })));
}

/** Call the endpoint the capture was recorded from. */
function call(entry: CorpusEntry) {
  const client = testClient({ maxRetries: 0 });
  const path = endpointPath(entry);
  if (entry.endpoint.startsWith('GET') && /models\/\{|models\/[^/]+/.test(path)) return client.models.retrieve('vendor/model');
  if (entry.endpoint.startsWith('GET')) return client.models.list();
  if (!isLegacy(entry)) return client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  return client.completions.create({ model: 'm', prompt: 'p' });
}

/** The documented shape: the generated contract schema accepts the value as returned. */
function inContract(value: unknown, schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, label: string): void {
  const result = schema.safeParse(value);
  expect(result.success, `${label}: ${JSON.stringify(result.error)}`).toBe(true);
}

describe.skipIf(!corpusPresent)('corpus: JSON bodies', () => {
  it('has the JSON bodies of both corpora', () => expect(bodies.length).toBe(99));

  it.each(bodies.map((e) => [e.id, e] as const))('%s', async (label, entry) => {
    serve(entry, entry.http_status ?? 200);
    const value = (await call(entry)) as unknown;
    const want = entry.expect;

    if (want.models) {
      const list = value as ModelList;
      inContract(list, zModelList, label);
      expect(list.object).toBe('list');
      expect(list.data.map((m) => m.id)).toEqual(want.models);
      for (const model of list.data) {
        expect(model.object).toBe('model');
        // Prices are always an array of exact decimal strings (Perplexity sends one object of numbers).
        if (model.pricing) for (const entry of model.pricing) for (const price of [entry.prompt, entry.completion]) if (price !== undefined) expect(price).toMatch(/^-?\d+(\.\d+)?$/);
      }
      return;
    }
    if (want.model !== undefined) {
      inContract(value, zModel, label);
      expect((value as Model).id).toBe(want.model);
      return;
    }
    if (!isLegacy(entry)) {
      const completion = value as ChatCompletion;
      inContract(completion, zChatCompletion, label);
      expect(completion.object).toBe('chat.completion');
      expect(completion.choices.map((c) => c.index)).toEqual([...completion.choices.map((c) => c.index)].sort((a, b) => a - b));
      const choice = completion.choices.find((c) => c.index === 0) ?? completion.choices[0];
      const message = choice!.message;
      expect(message.role).toBe('assistant');
      if ('text' in want) expect(message.content).toEqual(want.text ?? null);
      expect(message.reasoning).toBe(reasoning(want));
      expect(message.refusal ?? undefined).toBe(refusal(want.refusal));
      expect(choice!.finish_reason).toBe(finishReason(want.finish_reason));
      if (want.tool_calls) {
        expect(message.tool_calls?.map((c) => ({ name: c.function.name, arguments: c.function.arguments }))).toEqual(toolCalls(want.tool_calls));
        for (const call of message.tool_calls ?? []) expect(call.type).toBe('function');
      } else {
        // No tool calls: the field is absent, never `null` or `[]`.
        expect('tool_calls' in message).toBe(false);
      }
      expect(completion.usage).toEqual(usage(want.usage));
    } else {
      const completion = value as Completion;
      inContract(completion, zCompletion, label);
      expect(completion.object).toBe('text_completion');
      const ordered = completion.choices;
      expect(ordered.map((c) => c.index)).toEqual([...ordered.map((c) => c.index)].sort((a, b) => a - b));
      expect(ordered[0]?.text).toBe(want.text);
      expect(ordered[0]?.finish_reason).toBe(finishReason(want.finish_reason));
      if (want.choices) {
        expect(ordered.map((c) => ({ index: c.index, text: c.text, finish_reason: c.finish_reason }))).toEqual(
          want.choices.map((c) => ({ ...c, finish_reason: finishReason(c.finish_reason) })),
        );
      }
      expect(completion.usage).toEqual(usage(want.usage));
    }
  });
});

describe.skipIf(!corpusPresent)('corpus: error bodies', () => {
  it('has the error bodies of both corpora', () => expect(errors.length).toBe(32));

  it.each(errors.map((e) => [e.id, e] as const))('%s', async (_label, entry) => {
    // The README: serve with the recorded status, or 400 where none was recorded.
    const status = entry.http_status ?? 400;
    serve(entry, status);
    const error = (await Promise.resolve(call(entry)).then(
      () => undefined,
      (e: unknown) => e,
    )) as APIError;
    const want = entry.expect.error!;
    expect(error).toBeInstanceOf(APIError);
    expect(error.type ?? null).toBe(want.type);
    expect(error.code ?? null).toBe(want.code);
    expect(error.message).toContain(want.message_substring);
    expect(error.error).toBeDefined();
    if (status !== 200) {
      expect(error.status).toBe(status);
      expect(error.message.startsWith(`${status} `)).toBe(true);
    }
  });
});
