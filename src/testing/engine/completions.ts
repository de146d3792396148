/**
 * `POST /v1/completions` (legacy): the prompt validated, echoed by the built-in model (or a
 * scripted reply's text), rendered as a `text_completion` or a stream; errors in the spec's
 * extended shape.
 *
 * @module
 */
import type { ModelObject } from '../fixtures';
import { generateCompletion } from '../model';
import { jsonFault, streamWithFault } from './faults';
import { isRecord, jsonResponse, respondWith } from './outcome';
import type { Outcome } from './outcome';
import type { ReadBody, Shaping, State } from './state';
import { contextMessage, fromGeneration, fromReply, notAvailable, nowSeconds, readSamplingParams, usageOf } from './turn';

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
  const prompt = request['prompt'];
  if (typeof prompt !== 'string')
    return fail(400, "'prompt' must be a string.", 'prompt', 'invalid_type');
  const params = readSamplingParams(request);
  if (typeof params === 'string') return fail(400, params, 'max_tokens', 'invalid_value');
  const model = visible.find((m) => m.id === modelId);
  if (model === undefined) return fail(404, notAvailable(modelId), 'model', 'model_not_found');

  const limit = Math.min(params.maxTokens, model.max_output_length);
  const gen = generateCompletion(prompt, limit);
  if (gen.promptTokens > model.context_length) {
    return fail(400, contextMessage(model, gen.promptTokens), 'prompt', 'context_length_exceeded');
  }
  const turn =
    shaping.reply === undefined
      ? fromGeneration(gen)
      : fromReply({ ...shaping.reply, tool_calls: [], reasoning: '' }, gen.promptTokens, limit);

  const id = `cmpl-${++state.counters.completion}`;
  const created = nowSeconds();
  const usage = usageOf(turn, params.n);
  // Shape of the widely used legacy API (the spec leaves it open).
  const completion = (choices: unknown[], extra?: object): Record<string, unknown> => ({
    id,
    object: 'text_completion',
    created,
    model: model.id,
    choices,
    ...extra,
  });
  const choices = Array.from({ length: params.n }, (_, index) => index);
  if (!params.stream) {
    return jsonFault(
      shaping.fault,
      completion(
        choices.map((index) => ({
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
  for (const index of choices) {
    for (const token of turn.tokens)
      events.push(completion([{ text: token, index, logprobs: null, finish_reason: null }]));
    events.push(
      completion([{ text: '', index, logprobs: null, finish_reason: turn.finishReason }]),
    );
  }
  if (params.includeUsage) events.push(completion([], { usage }));
  return streamWithFault(events, shaping.fault, signal, state.chunkDelayMs);
}
