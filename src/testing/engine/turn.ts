/**
 * One choice's reply, ready to render ({@link Turn}): the built-in model's, or a scripted `reply`
 * counted and limited by the same rules; its usage; and the sampling fields both generation
 * endpoints read from a request.
 *
 * @module
 */
import type { ModelObject } from '../fixtures';
import { argumentFragments, splitTokens } from '../model';
import type { Generation } from '../model';
import type { MockReply } from '../scripted';
import { isRecord } from './outcome';

/** A reply for one choice, ready to render: the built-in model's or a scripted one. */
export interface Turn {
  text: string;
  tokens: string[];
  reasoning: string[];
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string;
  promptTokens: number;
  completionTokens: number;
}

export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

/** Request fields shared by both generation endpoints, validated. */
export interface SamplingParams {
  n: number;
  maxTokens: number;
  stream: boolean;
  includeUsage: boolean;
}

/** Request fields shared by both generation endpoints, validated; a string is the error message. */
export function readSamplingParams(request: Record<string, unknown>): SamplingParams | string {
  const n = request['n'] ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 128) {
    return "Invalid 'n': expected an integer from 1 to 128.";
  }
  // max_completion_tokens is the newer name; it wins when both are sent.
  const limitName =
    request['max_completion_tokens'] != null ? 'max_completion_tokens' : 'max_tokens';
  const limit = request[limitName] ?? Number.POSITIVE_INFINITY;
  if (
    typeof limit !== 'number' ||
    !(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 1))
  ) {
    return `Invalid '${limitName}': expected a positive integer.`;
  }
  const streamOptions = request['stream_options'];
  return {
    n,
    maxTokens: limit,
    stream: request['stream'] === true,
    includeUsage: isRecord(streamOptions) && streamOptions['include_usage'] === true,
  };
}

export function fromGeneration(gen: Generation): Turn {
  return {
    text: gen.text,
    tokens: gen.tokens,
    reasoning: gen.reasoning,
    toolCalls: gen.toolCalls,
    finishReason: gen.finishReason,
    promptTokens: gen.promptTokens,
    completionTokens: gen.completionTokens,
  };
}

/** A scripted reply as a turn: counted and limited by the built-in rules. */
export function fromReply(reply: MockReply, promptTokens: number, limit: number): Turn {
  const content = reply.content ?? (reply.json !== undefined ? JSON.stringify(reply.json) : '');
  let tokens = splitTokens(content);
  const cut = tokens.length > limit;
  if (cut) {
    tokens = tokens.slice(0, limit);
    const last = tokens.length - 1;
    if (last >= 0) tokens[last] = (tokens[last] ?? '').trimEnd();
  }
  const reasoning = splitTokens(reply.reasoning ?? '');
  const toolCalls = (reply.tool_calls ?? []).map((call, i) => ({
    id: call.id ?? `call_${i + 1}`,
    name: call.name,
    arguments:
      typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
  const fragments = toolCalls.reduce(
    (sum, call) => sum + argumentFragments(call.arguments).length,
    0,
  );
  return {
    // Tokens are cut at a limit, so the text is rebuilt from them rather than taken as given.
    text: cut ? tokens.join('') : content,
    tokens,
    reasoning,
    toolCalls,
    finishReason:
      reply.finish_reason ?? (cut ? 'length' : toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    promptTokens,
    completionTokens: tokens.length + reasoning.length + fragments,
  };
}

export function usageOf(turn: Turn, n: number): Usage {
  const completion = turn.completionTokens * n;
  return {
    prompt_tokens: turn.promptTokens,
    completion_tokens: completion,
    total_tokens: turn.promptTokens + completion,
  };
}

export function notAvailable(slug: string): string {
  return `The model \`${slug}\` is not available on this API.`;
}

export function contextMessage(model: ModelObject, promptTokens: number): string {
  return `This model's maximum context length is ${model.context_length} tokens. However, your request has ${promptTokens} prompt tokens.`;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
