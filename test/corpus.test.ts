/**
 * Every JSON body and error body of ../shared/corpus (real captures from 29 servers), served
 * byte for byte with its recorded status and content-type, read through the public API, and
 * compared with the reading MANIFEST.json gives. Streams (.sse) are the streaming suite's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { APIError, type ChatCompletion, type Completion } from '../src/index';
import { testClient, useMsw } from './helpers';

const CORPUS = fileURLToPath(new URL('../../shared/corpus/', import.meta.url));
const present = existsSync(`${CORPUS}MANIFEST.json`);
if (!present) console.warn(`corpus tests skipped: ${CORPUS}MANIFEST.json not found (the corpus lives in ../shared/corpus)`);

interface Entry {
  file: string;
  kind: 'json' | 'error' | 'stream';
  endpoint: string;
  http_status?: number;
  content_type?: string;
  expect: {
    text?: string | null;
    reasoning?: string;
    finish_reason?: string | null;
    usage?: unknown;
    tool_calls?: { name: string; arguments: string }[];
    choices?: { index: number; text: string; finish_reason: string }[];
    models?: string[];
    model?: string;
    error?: { type: string | null; code: string | number | null; message_substring: string };
  };
}

const entries: Entry[] = present ? (JSON.parse(readFileSync(`${CORPUS}MANIFEST.json`, 'utf8')) as Entry[]) : [];
const bodies = entries.filter((e) => e.kind === 'json');
const errors = entries.filter((e) => e.kind === 'error');

const server = useMsw();

/** Serve the capture's exact bytes for any request. */
function serve(entry: Entry, status: number) {
  const bytes = readFileSync(CORPUS + entry.file);
  const headers = { 'content-type': entry.content_type ?? 'application/json' };
  server.use(http.all('*', () => new HttpResponse(bytes, { status, headers })));
}

/** Call the endpoint the capture was recorded from. */
function call(entry: Entry) {
  const client = testClient({ maxRetries: 0 });
  const path = entry.endpoint.split(' ')[1] ?? '';
  if (entry.endpoint.startsWith('GET') && /models\/\{/.test(path)) return client.models.retrieve('vendor/model');
  if (entry.endpoint.startsWith('GET')) return client.models.list();
  if (/chat\/completions/.test(path)) return client.chat.completions.create({ model: 'm', messages: [] });
  return client.completions.create({ model: 'm', prompt: 'p' });
}

/** The text of a message whose content is a string, null, or typed parts (Mistral). */
function textOf(content: unknown): string | null {
  if (typeof content === 'string' || content === null) return content;
  if (Array.isArray(content)) {
    return content
      .filter((p: { type?: string }) => p.type === 'text')
      .map((p: { text?: string }) => p.text ?? '')
      .join('');
  }
  return null;
}

function reasoningOf(message: Record<string, unknown>): string | undefined {
  for (const field of ['reasoning_content', 'reasoning']) {
    if (typeof message[field] === 'string') return message[field];
  }
  if (Array.isArray(message.content)) {
    // Mistral Magistral: {type:'thinking', thinking:[{type:'text', text}]}
    const parts = (message.content as { type?: string; thinking?: { text?: string }[] }[]).filter((p) => p.type === 'thinking');
    if (parts.length) return parts.flatMap((p) => p.thinking ?? []).map((t) => t.text ?? '').join('');
  }
  return undefined;
}

describe.skipIf(!present)('corpus: JSON bodies', () => {
  it('has bodies to test', () => expect(bodies.length).toBeGreaterThan(50));

  it.each(bodies.map((e) => [e.file, e] as const))('%s', async (_file, entry) => {
    serve(entry, entry.http_status ?? 200);
    const value = (await call(entry)) as unknown;
    const want = entry.expect;

    if (want.models) {
      expect((value as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(want.models);
      return;
    }
    if (want.model !== undefined) {
      expect((value as { id: string }).id).toBe(want.model);
      return;
    }
    if (entry.endpoint.includes('chat/completions')) {
      const completion = value as ChatCompletion;
      const choice = completion.choices.find((c) => (c.index ?? 0) === 0) ?? completion.choices[0];
      const message = (choice?.message ?? {}) as Record<string, unknown>;
      if ('text' in want) expect(textOf(message.content) ?? null).toEqual(want.text);
      if (want.reasoning !== undefined) expect(reasoningOf(message)).toBe(want.reasoning);
      expect(choice?.finish_reason ?? null).toBe(want.finish_reason ?? null);
      if (want.tool_calls) {
        // Policy: a call sent without `arguments` (OpenRouter) keeps it absent, which the type
        // allows; the MANIFEST's reading writes the missing key as "".
        const calls = (choice?.message?.tool_calls ?? []).map((c) => ({
          name: c.function?.name,
          arguments: c.function?.arguments ?? '',
        }));
        expect(calls).toEqual(want.tool_calls);
      }
      expect(completion.usage ?? null).toEqual(want.usage ?? null);
    } else {
      const completion = value as Completion;
      const ordered = [...completion.choices].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      expect(ordered[0]?.text).toBe(want.text);
      expect(ordered[0]?.finish_reason ?? null).toBe(want.finish_reason ?? null);
      if (want.choices) {
        expect(ordered.map((c) => ({ index: c.index, text: c.text, finish_reason: c.finish_reason }))).toEqual(want.choices);
      }
      expect(completion.usage ?? null).toEqual(want.usage ?? null);
    }
  });
});

describe.skipIf(!present)('corpus: error bodies', () => {
  it('has error bodies to test', () => expect(errors.length).toBeGreaterThan(15));

  it.each(errors.map((e) => [e.file, e] as const))('%s', async (_file, entry) => {
    // The README: serve with the recorded status, or 400 where none was recorded.
    const status = entry.http_status ?? 400;
    serve(entry, status);
    const error = (await Promise.resolve(call(entry)).then(
      () => undefined,
      (e: unknown) => e,
    )) as APIError;
    const want = entry.expect.error!;
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(status);
    expect(error.type ?? null).toBe(want.type);
    expect(error.code ?? null).toBe(want.code);
    expect(error.message).toContain(want.message_substring);
    expect(error.message.startsWith(`${status} `)).toBe(true);
    expect(error.error).toBeDefined();
  });
});
