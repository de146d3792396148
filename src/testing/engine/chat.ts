/**
 * `POST /v1/chat/completions`: the request validated as the service does, the reply generated (or
 * scripted), and rendered as a `chat.completion` or as a stream in the spec's order.
 *
 * @module
 */
import type { ModelObject } from '../fixtures';
import { argumentFragments, generateChatReply } from '../model';
import { jsonFault, streamWithFault } from './faults';
import { errorResponse, isRecord, respondWith } from './outcome';
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
import type { Turn } from './turn';

export function chatCompletions(
  state: State,
  body: ReadBody,
  visible: readonly ModelObject[],
  shaping: Shaping,
  signal: AbortSignal,
): Outcome {
  const fail = (status: number, message: string): Outcome =>
    respondWith(errorResponse(status, message, 'invalid_request_error'));
  if (!body.json.ok || !isRecord(body.json.value)) {
    return fail(400, 'We could not parse the JSON body of your request: expected a JSON object.');
  }
  const request = body.json.value;
  const modelId = request['model'];
  if (typeof modelId !== 'string' || modelId === '')
    return fail(400, 'You must provide a model parameter.');
  const messages = request['messages'];
  if (!Array.isArray(messages) || messages.length === 0)
    return fail(400, "'messages' must be a non-empty array.");
  const badIndex = messages.findIndex((m) => !isRecord(m) || typeof m['role'] !== 'string');
  if (badIndex >= 0) {
    return fail(
      400,
      `Invalid message at 'messages[${badIndex}]': each message must be an object with a string 'role'.`,
    );
  }
  const params = readSamplingParams(request);
  if (typeof params === 'string') return fail(400, params);
  const model = visible.find((m) => m.id === modelId);
  if (model === undefined) return fail(404, notAvailable(modelId));

  const limit = Math.min(params.maxTokens, model.max_output_length);
  // A model that supports reasoning (mock/reasoner) reasons before it answers, as its name says.
  const reasoning = model.supported_features.includes('reasoning');
  const gen = generateChatReply(messages, limit, { ...request, reasoning });
  // The spec: context_length bounds the input. Checked on the prompt the built-in model counted.
  if (gen.promptTokens > model.context_length)
    return fail(400, contextMessage(model, gen.promptTokens));
  const turn =
    shaping.reply === undefined
      ? fromGeneration(gen)
      : fromReply(shaping.reply, gen.promptTokens, limit);

  const id = `chatcmpl-${++state.counters.chat}`;
  const created = nowSeconds();
  const usage = usageOf(turn, params.n);
  const choices = Array.from({ length: params.n }, (_, index) => index);

  if (!params.stream) {
    return jsonFault(shaping.fault, {
      id,
      object: 'chat.completion',
      created,
      model: model.id,
      choices: choices.map((index) => ({
        index,
        message: chatMessage(turn),
        finish_reason: turn.finishReason,
      })),
      usage,
    });
  }

  const chunk = (choice: unknown[], extra?: object): Record<string, unknown> => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: model.id,
    choices: choice,
    ...extra,
  });
  const events: unknown[] = [];
  // The spec's order, per choice: role chunk with empty content, fragments,
  // an empty delta with finish_reason. Reasoning comes before the content and
  // tool calls after it, as the servers that send all three do.
  for (const index of choices) {
    const delta = (d: object): unknown => chunk([{ index, delta: d, finish_reason: null }]);
    events.push(delta({ role: 'assistant', content: '' }));
    for (const token of turn.reasoning) events.push(delta({ reasoning_content: token }));
    for (const token of turn.tokens) events.push(delta({ content: token }));
    turn.toolCalls.forEach((call, i) => {
      events.push(
        delta({
          tool_calls: [
            {
              index: i,
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: '' },
            },
          ],
        }),
      );
      for (const fragment of argumentFragments(call.arguments)) {
        events.push(delta({ tool_calls: [{ index: i, function: { arguments: fragment } }] }));
      }
    });
    events.push(chunk([{ index, delta: {}, finish_reason: turn.finishReason }]));
  }
  if (params.includeUsage) events.push(chunk([], { usage }));
  return streamWithFault(events, shaping.fault, signal, state.chunkDelayMs);
}

function chatMessage(turn: Turn): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    // The widely used API sends null content beside tool calls.
    content: turn.text === '' && turn.toolCalls.length > 0 ? null : turn.text,
  };
  if (turn.reasoning.length > 0) message['reasoning_content'] = turn.reasoning.join('');
  if (turn.toolCalls.length > 0) {
    message['tool_calls'] = turn.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return message;
}
