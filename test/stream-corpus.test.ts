/**
 * Every stream (.sse) of ../shared/corpus and ../shared/corpus2 (real captures from 39 servers),
 * replayed byte for byte through the public API, and compared with the reading MANIFEST.json gives,
 * turned into the SDK's documented reading where the two differ (test/support/corpus.ts):
 * - through the local server (real HTTP on 127.0.0.1), whole, read with `textStream()`;
 * - through msw, whole, read chunk by chunk with `for await`;
 * - through msw, cut at every byte boundary between `\r` and `\n` and inside a UTF-8 character
 *   (small files: one byte per read);
 * - through msw, cut at random byte boundaries (fast-check), biased towards those same places.
 * Chat streams go through `chat.completions.create`, `/completions` streams through the legacy
 * `completions.create`. Where the SDK's policy differs from the MANIFEST's reading, `sdkReading`
 * says so and why, and the SDK's reading is asserted.
 */
import fc from 'fast-check';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ChatCompletionAccumulator } from '../src/stream/accumulate';
import {
  APIConnectionError,
  APIError,
  BadRequestError,
  Client,
  InternalServerError,
  type ChatCompletion,
  type ChatCompletionChunk,
  type Completion,
  extras,
} from '../src/index';
import { useMockServer } from './support/mock-server';
import { BASE_URL, testClient, useMsw } from './helpers';
import {
  bodyOf,
  bytewise,
  corpusPresent,
  cutAt,
  finishReason,
  isLegacy,
  loadManifest,
  readCapture,
  reasoning,
  refusal,
  toolCalls,
  trickyOffsets,
  usage,
  type CorpusEntry,
  type ExpectedError,
} from './support/corpus';

const streams = loadManifest().filter((e) => e.kind === 'stream' && e.file.endsWith('.sse'));

/** Random cuttings per file. 119 files × 20 runs (plus the fixed runs). */
const NUM_RUNS = 20;
/** Files up to this size are also read one byte per read. */
const BYTEWISE_MAX = 32 * 1024;
/** Larger files: cut at the tricky offsets and every STRIDE bytes. */
const STRIDE = 127;
/** No stream may hang: a stalled read ends after this, and each test has its own timeout. */
const IDLE_MS = 5_000;

/** What a test reads out of a stream, in the MANIFEST's terms. */
interface Reading {
  text: string;
  reasoning?: string | undefined;
  reasoning_details_text?: string | undefined;
  refusal?: string | undefined;
  finish_reason: string | null;
  usage?: unknown;
  tool_calls?: { name: string; arguments: string }[] | undefined;
  choices?: { index: number; text: string; finish_reason: string | null }[] | undefined;
  error?: ExpectedError | undefined;
  /**
   * The stream ended cleanly but before any finish reason and without `[DONE]` (GPUStack): the
   * SDK's policy is an `APIConnectionError`, never a silent success.
   */
  incomplete?: boolean | undefined;
}

/** The caught error, and the reading of what came before it (or of the whole stream). */
interface Outcome {
  reading: Reading;
  error: unknown;
  /**
   * What the read mode can see: `chunks` everything; `final` the final completion but not the
   * raw chunks (so no `reasoning_details`); `text` only text and the ending (`textStream()`
   * stopped by an error, so there is no final completion).
   */
  sees: 'chunks' | 'final' | 'text';
}

/**
 * The MANIFEST's reading, turned into the SDK's where its policy differs. The policy points of
 * the corpus README ("How a test should use it", point 5), and where the SDK stands:
 * - several chunks repeating finish_reason (openrouter/chat-stream-error-mid-stream sends
 *   "length" twice, Mistral GLM a duplicated final chunk): the last non-null, non-empty one
 *   wins, as in the MANIFEST. Same reading, nothing changed.
 * - finish_reason arriving with content (mistral/chat-stream-length-same-chunk): the content of
 *   that chunk is kept and the reason recorded. Same reading.
 * - usage after the finish chunk (a `choices: []` trailer: openai/…-usage-only-chunk, writer,
 *   snowflake) or cumulative on every chunk (perplexity, xai/…-usage-every-chunk): the last
 *   non-null usage, whole, provider extras kept. Same reading.
 * - an error object beside normal choices: DIFFERENT, see below.
 * - in-band errors end the stream with an APIError (`finalChatCompletion()` rejects with it);
 *   what came before is what the loop saw. The MANIFEST reads text, reasoning and finish_reason
 *   from the chunks before the error too, so those compare as they are.
 * - an error in llama.cpp's non-standard `error:` SSE field (llama.cpp, and GPUStack on llama.cpp):
 *   DIFFERENT. A conforming SSE parser drops the field, so the MANIFEST reads no error (and, for
 *   llama.cpp, no chunk at all); the SDK reads the field as the server's error, an `APIError`.
 */
function sdkReading(entry: CorpusEntry): Reading {
  const error = entry.expect.error ?? errorField(entry);
  const want: CorpusEntry['expect'] = error ? { ...entry.expect, error } : entry.expect;
  const reading: Reading = {
    // A chat message with no string content at all is `content: null` in the SDK (as in a
    // non-streamed completion); the MANIFEST joins nothing into "". Compared as "".
    text: want.text ?? '',
    // The SDK's reading (support/corpus.ts): one reasoning field, `""` and `eos` finish reasons
    // read as the API's values, `null` usage details as absent, `"{}"` for calls without arguments.
    reasoning: isLegacy(entry) ? undefined : reasoning(want),
    reasoning_details_text: want.reasoning_details_text,
    refusal: refusal(want.refusal),
    finish_reason: finishReason(want.finish_reason),
    usage: usage(want.usage),
    tool_calls: toolCalls(want.tool_calls),
    choices: want.choices?.map((c) => ({ ...c, finish_reason: finishReason(c.finish_reason) })),
    error: want.error,
    incomplete:
      !want.error && entry.stream_stats?.done === false && entry.stream_stats.json_chunks > 0 && finishReason(want.finish_reason) === null,
  };
  if (want.error && reading.usage !== null) {
    // Policy "an error object beside normal choices" (openrouter/chat-stream-error-mid-stream:
    // `{"error":{"code":400,…},"choices":[…],"usage":{…}}` after the finish chunks): the SDK
    // throws the event as an APIError and does not read it as a chunk, so its `usage` does not
    // reach the accumulator. It is not lost: `error.error.usage` holds it, checked in `check`.
    reading.usage = null;
  }
  return reading;
}

/** The error a capture sends in a non-standard `error:` SSE line (llama.cpp), in the MANIFEST's terms. */
function errorField(entry: CorpusEntry): ExpectedError | undefined {
  const line = new TextDecoder().decode(readCapture(entry)).split(/\r\n|\r|\n/).find((l) => l.startsWith('error:'));
  if (!line) return undefined;
  // Wrapped in `{"error": …}` (GPUStack) or not (llama.cpp).
  type Fields = { message?: string; type?: string; code?: number | string };
  const body = JSON.parse(line.slice('error:'.length)) as Fields & { error?: Fields };
  const error = body.error ?? body;
  return { type: error.type ?? null, code: error.code ?? null, message_substring: (error.message ?? '').slice(0, 80) };
}

/** The usage an in-band error event carried beside its error (OpenRouter), when the reading moved it there. */
function usageOnError(entry: CorpusEntry): unknown {
  return entry.expect.error && entry.expect.usage != null ? entry.expect.usage : undefined;
}

function client(baseURL = BASE_URL, apiKey?: string): Client {
  return apiKey
    ? new Client({ apiKey, baseURL, maxRetries: 0, logLevel: 'off', streamIdleTimeout: IDLE_MS })
    : testClient({ maxRetries: 0, streamIdleTimeout: IDLE_MS });
}

/** `reasoning_details[].text` of choice 0, joined (OpenRouter, Snowflake), from the raw chunks (kept as sent). */
function reasoningDetailsText(chunks: ChatCompletionChunk[]): string | undefined {
  let text: string | undefined;
  for (const chunk of chunks) {
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      const details = extras(choice.delta)['reasoning_details'];
      if (!Array.isArray(details)) continue;
      for (const item of details as { text?: unknown }[]) {
        if (typeof item?.text === 'string') text = (text ?? '') + item.text;
      }
    }
  }
  return text;
}

function chatReading(completion: ChatCompletion, chunks: ChatCompletionChunk[] | undefined): Reading {
  // Choices come in index order (the normalized shape promises it).
  expect(completion.choices.map((c) => c.index)).toEqual([...completion.choices.map((c) => c.index)].sort((a, b) => a - b));
  const first = completion.choices.find((c) => c.index === 0);
  const message = first?.message;
  return {
    text: message?.content ?? '',
    reasoning: message?.reasoning,
    reasoning_details_text: chunks && reasoningDetailsText(chunks),
    refusal: message?.refusal ?? undefined,
    finish_reason: first?.finish_reason ?? null,
    usage: completion.usage,
    tool_calls: message?.tool_calls?.map((c) => ({ name: c.function.name, arguments: c.function.arguments })),
    choices:
      completion.choices.length > 1
        ? completion.choices.map((c) => ({ index: c.index, text: c.message.content ?? '', finish_reason: c.finish_reason }))
        : undefined,
  };
}

/** Chat, chunk by chunk with `for await`, then `finalChatCompletion()`. */
async function readChatChunks(api: Client): Promise<Outcome> {
  const chunks: ChatCompletionChunk[] = [];
  let error: unknown;
  let completion: ChatCompletion | undefined;
  try {
    // `create` resolves once the first event is in: an error there rejects it.
    const stream = await api.chat.completions.create({ model: 'm', messages: [], stream: true });
    try {
      for await (const chunk of stream) chunks.push(chunk);
      completion = await stream.finalChatCompletion();
    } catch (e) {
      error = e;
      // The final completion reports the stream's own error, not a success or another error.
      await expect(stream.finalChatCompletion()).rejects.toBe(e);
    }
  } catch (e) {
    error ??= e;
  }
  if (!completion) {
    // What arrived before the error, accumulated the way the stream does it.
    const accumulator = new ChatCompletionAccumulator();
    for (const chunk of chunks) accumulator.add(chunk);
    completion = accumulator.result();
  }
  return { reading: chatReading(completion, chunks), error, sees: 'chunks' };
}

/** Chat through `textStream()`; the final completion must agree with the text it gave. */
async function readChatText(api: Client): Promise<Outcome> {
  const deltas: string[] = [];
  let error: unknown;
  try {
    const stream = await api.chat.completions.create({ model: 'm', messages: [], stream: true });
    try {
      for await (const text of stream.textStream()) deltas.push(text);
    } catch (e) {
      error = e;
    }
    if (error === undefined) {
      const reading = chatReading(await stream.finalChatCompletion(), undefined);
      expect(reading.text).toBe(deltas.join(''));
      return { reading, error, sees: 'final' };
    }
  } catch (e) {
    error ??= e;
  }
  return { reading: { text: deltas.join(''), finish_reason: null }, error, sees: 'text' };
}

/** Legacy completions: `choices[].text` joined per index. */
async function readLegacy(api: Client): Promise<Outcome> {
  const texts = new Map<number, string>();
  const finish = new Map<number, string | null>();
  let usage: unknown = null;
  let error: unknown;
  try {
    const stream = await api.completions.create({ model: 'm', prompt: 'p', stream: true });
    for await (const chunk of stream as AsyncIterable<Completion>) {
      if (chunk.usage != null) usage = chunk.usage;
      for (const choice of chunk.choices) {
        const index = choice.index;
        texts.set(index, (texts.get(index) ?? '') + choice.text);
        // The legacy stream has no accumulator in the SDK; this reading takes the last finish
        // reason given (TGI's `""` on every chunk but the last reads as `null`).
        if (!finish.has(index)) finish.set(index, null);
        if (choice.finish_reason !== null) finish.set(index, choice.finish_reason);
      }
    }
  } catch (e) {
    error = e;
  }
  const indexes = [...texts.keys()].sort((a, b) => a - b);
  const choices = indexes.map((index) => ({ index, text: texts.get(index)!, finish_reason: finish.get(index) ?? null }));
  return {
    reading: {
      text: texts.get(0) ?? '',
      finish_reason: finish.get(0) ?? null,
      usage,
      choices: choices.length > 1 ? choices : undefined,
    },
    error,
    sees: 'chunks',
  };
}

function read(entry: CorpusEntry, api: Client, mode: 'chunks' | 'text'): Promise<Outcome> {
  if (isLegacy(entry)) return readLegacy(api);
  return mode === 'text' ? readChatText(api) : readChatChunks(api);
}

/** Compare an outcome with the SDK's reading of the entry. */
function check(entry: CorpusEntry, outcome: Outcome): void {
  const want = sdkReading(entry);
  const got = outcome.reading;
  const label = entry.id;

  if (want.incomplete) {
    expect(outcome.error, `${label}: a stream that stops before any finish_reason and without [DONE] is incomplete`).toBeInstanceOf(APIConnectionError);
    expect((outcome.error as Error).message, label).toMatch(/ended before any finish_reason/);
  } else if (want.error) {
    expect(outcome.error, `${label}: the in-band error surfaces`).toBeInstanceOf(APIError);
    const error = outcome.error as APIError;
    expect(error.type ?? null, label).toBe(want.error.type);
    expect(error.code ?? null, label).toBe(want.error.code);
    expect(error.message, label).toContain(want.error.message_substring);
    // The status class comes from the error's own `status_code` (Groq) or else from a numeric
    // HTTP-like code (OpenRouter); the response itself was a 200.
    const raw = (error.error as { error?: { status_code?: unknown } }).error ?? (error.error as { status_code?: unknown });
    const named = typeof raw?.status_code === 'number' ? raw.status_code : undefined;
    const status = named ?? (typeof want.error.code === 'number' && want.error.code >= 400 && want.error.code <= 599 ? want.error.code : undefined);
    if (status !== undefined) {
      expect(error.status, label).toBe(status);
      if (status === 400) expect(error, label).toBeInstanceOf(BadRequestError);
      if (status >= 500) expect(error, label).toBeInstanceOf(InternalServerError);
    } else {
      // The response was a 200, and the error names no status of its own.
      expect(error.status, label).toBe(200);
    }
    const usage = usageOnError(entry);
    if (usage !== undefined) expect((error.error as { usage?: unknown }).usage, label).toEqual(usage);
  } else if (outcome.error !== undefined) {
    // A stream without an in-band error must end cleanly, [DONE] or not.
    throw outcome.error;
  }

  expect(got.text, `${label}: text`).toBe(want.text);
  if (outcome.sees === 'text') return;
  expect(got.finish_reason, `${label}: finish_reason`).toBe(want.finish_reason);
  expect(got.usage, `${label}: usage`).toEqual(want.usage);
  expect(got.choices, `${label}: choices`).toEqual(want.choices);
  if (isLegacy(entry)) return;
  expect(got.reasoning, `${label}: reasoning`).toBe(want.reasoning);
  if (outcome.sees === 'chunks') {
    // Not accumulated by the SDK (it keeps one reasoning string); read from the raw deltas,
    // which keep every field the server sent.
    expect(got.reasoning_details_text, `${label}: reasoning_details text`).toBe(want.reasoning_details_text);
  }
  expect(got.refusal, `${label}: refusal`).toBe(want.refusal);
  expect(got.tool_calls, `${label}: tool_calls`).toEqual(want.tool_calls);
}

describe.skipIf(!corpusPresent)('corpus: streams', () => {
  it('has the 119 streams of both corpora, chat and legacy', () => {
    expect(streams.length).toBe(119);
    expect(streams.some(isLegacy)).toBe(true);
  });
});

// The local server first, with msw not listening (it would intercept 127.0.0.1 too).
describe.skipIf(!corpusPresent)('corpus streams: whole, through the local server (real HTTP, textStream)', () => {
  const { server } = useMockServer();

  it.each(streams.map((e) => [e.id, e] as const))('%s', { timeout: 15_000 }, async (_file, entry) => {
    server.enqueue({ raw: readCapture(entry), headers: { 'content-type': entry.content_type ?? 'text/event-stream' } });
    check(entry, await read(entry, client(server.url, server.apiKey), 'text'));
  });
});

describe.skipIf(!corpusPresent)('corpus streams: through msw, whole and cut', () => {
  const msw = useMsw();

  /** Serve these pieces, one per read, to the next request. */
  function serve(entry: CorpusEntry, pieces: readonly Uint8Array[]): void {
    const headers = { 'content-type': entry.content_type ?? 'text/event-stream' };
    msw.use(http.all('*', () => new HttpResponse(bodyOf(pieces), { status: entry.http_status ?? 200, headers }), { once: true }));
  }

  describe.each(streams.map((e) => [e.id, e] as const))('%s', (_file, entry) => {
    const bytes = readCapture(entry);
    const tricky = trickyOffsets(bytes);

    it('whole (for await)', { timeout: 15_000 }, async () => {
      serve(entry, [bytes]);
      check(entry, await read(entry, client(), 'chunks'));
    });

    it(
      bytes.length <= BYTEWISE_MAX ? 'one byte per read' : `cut inside every UTF-8 character, between every \\r\\n, and every ${STRIDE} bytes`,
      { timeout: 20_000 },
      async () => {
        const pieces =
          bytes.length <= BYTEWISE_MAX
            ? bytewise(bytes)
            : cutAt(bytes, [...tricky, ...Array.from({ length: Math.floor(bytes.length / STRIDE) }, (_, i) => (i + 1) * STRIDE)]);
        serve(entry, pieces);
        check(entry, await read(entry, client(), 'chunks'));
      },
    );

    it(`cut at random byte boundaries (fast-check, ${NUM_RUNS} runs)`, { timeout: 30_000 }, async () => {
      const anywhere = fc.integer({ min: 1, max: Math.max(1, bytes.length - 1) });
      // Half the cuts land where decoders break: inside a UTF-8 character, between \r and \n.
      const cut = tricky.length ? fc.oneof(anywhere, fc.integer({ min: 0, max: tricky.length - 1 }).map((i) => tricky[i]!)) : anywhere;
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(cut, { maxLength: 48 }), async (offsets) => {
          serve(entry, cutAt(bytes, offsets));
          check(entry, await read(entry, client(), 'chunks'));
        }),
        { numRuns: NUM_RUNS },
      );
    });
  });
});
