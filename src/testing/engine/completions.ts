/**
 * `POST /v1/completions` (legacy): the prompt (or prompts) validated, each echoed by the built-in
 * model (or a scripted reply's text), rendered as a `text_completion` or a stream; errors in the
 * spec's extended shape.
 *
 * @module
 */
import type { ModelObject } from '../fixtures';
import { generateCompletion } from '../model';
import { jsonFault, streamWithFault } from './faults';
import { isRecord, jsonResponse, respondWith } from './outcome';
import type { Outcome } from './outcome';
import type { ReadBody, Shaping, State } from './state';
import {
  contextMessage,
  fromGeneration,
  fromReply,
  notAvailable,
  nowSeconds,
  readSamplingParams,
  usageOf,
} from './turn';
import type { Turn, Usage } from './turn';

export function legacyCompletions(
  state: State,
  body: ReadBody,
  visible: readonly ModelObject[],
  shaping: Shaping,
  signal: AbortSignal,
): Outcome {
  // The spec gives the legacy endpoint the extended error shape; we use it for all of its errors.
  const fail = (status: number, message: string, param: string, code: string): Outcome =>
    respondWith(
      jsonResponse(status, { error: { message, type: 'invalid_request_error', param, code } }),
    );
  if (!body.json.ok || !isRecord(body.json.value)) {
    return fail(
      400,
      'We could not parse the JSON body of your request: expected a JSON object.',
      'body',
      'invalid_json',
    );
  }
  const request = body.json.value;
  const modelId = request['model'];
  if (typeof modelId !== 'string' || modelId === '') {
    return fail(400, 'You must provide a model parameter.', 'model', 'missing_required_parameter');
  }
  const prompts = readPrompts(request['prompt']);
  if (prompts === undefined) {
    return fail(
      400,
      "'prompt' must be a string, an array of strings, an array of token ids or an array of token-id arrays.",
      'prompt',
      'invalid_type',
    );
  }
  const params = readSamplingParams(request);
  if (typeof params === 'string') return fail(400, params, 'max_tokens', 'invalid_value');
  const model = visible.find((m) => m.id === modelId);
  if (model === undefined) return fail(404, notAvailable(modelId), 'model', 'model_not_found');

  const limit = Math.min(params.maxTokens, model.max_output_length);
  const turns: Turn[] = [];
  for (const prompt of prompts) {
    const gen = generateCompletion(prompt, limit);
    if (gen.promptTokens > model.context_length) {
      return fail(
        400,
        contextMessage(model, gen.promptTokens),
        'prompt',
        'context_length_exceeded',
      );
    }
    turns.push(
      shaping.reply === undefined
        ? fromGeneration(gen)
        : fromReply({ ...shaping.reply, tool_calls: [], reasoning: '' }, gen.promptTokens, limit),
    );
  }

  const id = `cmpl-${++state.counters.completion}`;
  const created = nowSeconds();
  const usage = sumUsage(turns.map((turn) => usageOf(turn, params.n)));
  // Shape of the widely used legacy API (the spec leaves it open).
  const completion = (choices: unknown[], extra?: object): Record<string, unknown> => ({
    id,
    object: 'text_completion',
    created,
    model: model.id,
    choices,
    ...extra,
  });
  // `n` choices per prompt, numbered across the prompts, as the widely used API does.
  const choices = turns.flatMap((turn, p) =>
    Array.from({ length: params.n }, (_, i) => ({ index: p * params.n + i, turn })),
  );
  if (!params.stream) {
    return jsonFault(
      shaping.fault,
      completion(
        choices.map(({ index, turn }) => ({
          text: turn.text,
          index,
          logprobs: null,
          finish_reason: turn.finishReason,
        })),
        { usage },
      ),
    );
  }
  const events: unknown[] = [];
  for (const { index, turn } of choices) {
    for (const token of turn.tokens)
      events.push(completion([{ text: token, index, logprobs: null, finish_reason: null }]));
    events.push(
      completion([{ text: '', index, logprobs: null, finish_reason: turn.finishReason }]),
    );
  }
  if (params.includeUsage) events.push(completion([], { usage }));
  return streamWithFault(events, shaping.fault, signal, state.chunkDelayMs);
}

/**
 * The prompts of a request, as text: a string; several strings; token ids, one prompt read as its
 * ids written out (`[1, 2]` is `1 2`: the built-in model has no tokenizer); or several such
 * arrays. `null` is an empty prompt (the widely used API starts from its end-of-text token).
 * `undefined` when the prompt is none of these.
 */
function readPrompts(prompt: unknown): string[] | undefined {
  if (prompt === null) return [''];
  if (typeof prompt === 'string') return [prompt];
  if (!Array.isArray(prompt) || prompt.length === 0) return undefined;
  if (prompt.every(isTokenId)) return [prompt.join(' ')];
  if (prompt.every((p) => typeof p === 'string')) return prompt as string[];
  if (prompt.every((p) => Array.isArray(p) && p.length > 0 && p.every(isTokenId))) {
    return prompt.map((p: unknown[]) => p.join(' '));
  }
  return undefined;
}

function isTokenId(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function sumUsage(usages: Usage[]): Usage {
  const total: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  for (const usage of usages) {
    total.prompt_tokens += usage.prompt_tokens;
    total.completion_tokens += usage.completion_tokens;
    total.total_tokens += usage.total_tokens;
  }
  return total;
}
