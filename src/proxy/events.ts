/**
 * A streamed completion re-written for the browser as the service's contract: each of the SDK's
 * normalized chunks as `data: <json>\n\n`, then `data: [DONE]`. The body is pull-based: the next
 * chunk is read from upstream only when the browser has taken the last one (backpressure), and
 * nothing of the generation is kept but the running token count. A failure after the headers
 * went out (the upstream's, or a limit passed mid-way) ends the body with an in-band error event
 * in the service's error shape, as real servers send it; the SDK's and `openai`'s stream readers
 * throw it as an `APIError`. When the browser goes away, the body is cancelled and the upstream
 * request aborted at once.
 */
import { APIUserAbortError, estimateTextTokens } from 'model-inference-sdk';
import type { Refusal } from './errors';

/** The usage the upstream reported (its last word), or what the route counted. */
export interface Counted {
  prompt: number;
  completion: number;
  estimated: boolean;
  /** The model the chunks name (the one that answered, with the upstream's `fallbacks`). */
  model?: unknown;
}

export interface EventStreamOptions {
  /** The route's prompt estimate, used when the upstream sends no usage. */
  promptTokens: number;
  /** Pass the usage chunk on (the browser asked for it). */
  wantsUsage: boolean;
  /** Reserve for `completion` tokens so far; `false` once a limit is passed. */
  grow: (completion: number) => Promise<boolean>;
  /** The refusal to send in-band when the limit is passed mid-way. */
  overLimit: () => Refusal;
  /** An upstream failure in the service's shape. */
  failure: (error: unknown) => Refusal;
  mask: (text: string) => string;
  /** Aborts the upstream request. */
  abort: () => void;
  /** Once, when the body ends for any reason. */
  end: (counted: Counted, outcome: 'ok' | 'aborted' | 'error' | 'budget') => void;
}

const encoder = new TextEncoder();

/** Completion tokens of one chunk's text: content, reasoning, refusal, tool calls; a legacy chunk's `text`. */
function chunkTokens(chunk: Record<string, unknown>): number {
  let tokens = 0;
  const choices = chunk['choices'];
  if (!Array.isArray(choices)) return 0;
  for (const choice of choices as Array<Record<string, unknown> | null>) {
    if (typeof choice?.['text'] === 'string') tokens += estimateTextTokens(choice['text']);
    const delta = choice?.['delta'] as Record<string, unknown> | undefined;
    if (typeof delta !== 'object' || delta === null) continue;
    for (const field of ['content', 'reasoning', 'refusal'])
      if (typeof delta[field] === 'string') tokens += estimateTextTokens(delta[field]);
    const calls = delta['tool_calls'];
    if (Array.isArray(calls))
      for (const call of calls as Array<{
        function?: { name?: unknown; arguments?: unknown };
      } | null>) {
        for (const part of [call?.function?.name, call?.function?.arguments])
          if (typeof part === 'string') tokens += estimateTextTokens(part);
      }
  }
  return tokens;
}

function usageOf(
  chunk: Record<string, unknown>,
): { prompt: number; completion: number } | undefined {
  const usage = chunk['usage'] as
    { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined;
  const { prompt_tokens: prompt, completion_tokens: completion } = usage ?? {};
  return Number.isSafeInteger(prompt) &&
    Number.isSafeInteger(completion) &&
    (prompt as number) >= 0 &&
    (completion as number) >= 0
    ? { prompt: prompt as number, completion: completion as number }
    : undefined;
}

export function eventStream(
  source: AsyncIterable<object>,
  options: EventStreamOptions,
): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  let seen = 0;
  let reported: { prompt: number; completion: number } | undefined;
  let model: unknown;
  let ended = false;
  const end = (outcome: 'ok' | 'aborted' | 'error' | 'budget') => {
    if (ended) return;
    ended = true;
    options.end(
      reported
        ? { ...reported, estimated: false, model }
        : { prompt: options.promptTokens, completion: seen, estimated: true, model },
      outcome,
    );
  };
  const event = (data: string) => encoder.encode(`data: ${data}\n\n`);
  const inBand = (refusal: Refusal) => event(options.mask(JSON.stringify(refusal.body())));

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Until one event is out: a chunk the browser does not get (the usage it did not ask for)
        // must not leave its read waiting.
        for (;;) {
          let next: IteratorResult<object>;
          try {
            next = await iterator.next();
          } catch (error) {
            if (ended) return; // cancelled meanwhile
            if (error instanceof APIUserAbortError) {
              // The browser went away (its request's signal): no failure, and nobody to tell.
              controller.close();
              end('aborted');
              return;
            }
            controller.enqueue(inBand(options.failure(error)));
            controller.close();
            end('error');
            return;
          }
          if (ended) return;
          if (next.done) {
            controller.enqueue(event('[DONE]'));
            controller.close();
            end('ok');
            return;
          }
          const chunk = next.value as Record<string, unknown>;
          reported = usageOf(chunk) ?? reported;
          model ??= chunk['model'];
          seen += chunkTokens(chunk);
          let fits: boolean;
          try {
            fits = await options.grow(reported?.completion ?? seen);
          } catch (error) {
            // The store failed: the answer ends as on an upstream failure, and the upstream with it.
            if (!ended) {
              options.abort();
              controller.enqueue(inBand(options.failure(error)));
              controller.close();
              end('error');
            }
            return;
          }
          if (ended) return; // cancelled meanwhile
          if (!fits) {
            options.abort();
            controller.enqueue(inBand(options.overLimit()));
            controller.close();
            end('budget');
            return;
          }
          let out: Record<string, unknown> = chunk;
          if (!options.wantsUsage && chunk['usage'] !== undefined) {
            if (Array.isArray(chunk['choices']) && chunk['choices'].length === 0) continue;
            const { usage: _usage, ...rest } = chunk;
            out = rest;
          }
          controller.enqueue(event(options.mask(JSON.stringify(out))));
          return;
        }
      },
      cancel() {
        options.abort();
        end('aborted');
      },
    },
    { highWaterMark: 0 },
  );
}
