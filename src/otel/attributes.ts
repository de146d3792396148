/**
 * What a call is, in the attributes of the OpenTelemetry GenAI semantic conventions: the request's
 * (operation, provider, model, sampling parameters, server) when its span starts, the response's
 * (id, model, finish reasons, usage, time to first chunk) when it ends.
 */
import type { Attributes } from '@opentelemetry/api';
import type { CallSummary, HookInfo } from 'model-inference-sdk';

/** `gen_ai.operation.name`: the conventions' names where they have one (`text_completion`), else the SDK's (`models.list`). */
export function operationName(operation: HookInfo['operation']): string {
  return operation === 'completions' ? 'text_completion' : operation;
}

/** `{gen_ai.operation.name} {gen_ai.request.model}`, e.g. `chat acme/chat-1`. */
export function spanName(info: HookInfo): string {
  const operation = operationName(info.operation);
  return info.model === undefined ? operation : `${operation} ${info.model}`;
}

/** What the span starts with: the operation, the provider, the model and the request's sampling parameters. */
export function requestAttributes(info: HookInfo, provider: string): Attributes {
  const attributes: Attributes = {
    'gen_ai.operation.name': operationName(info.operation),
    'gen_ai.provider.name': provider,
    // Its name before the conventions renamed it, still read by many backends.
    'gen_ai.system': provider,
  };
  if (info.model !== undefined) attributes['gen_ai.request.model'] = info.model;
  const body = info.body as Record<string, unknown> | undefined;
  if (body === undefined) return attributes;
  const number = (name: string, value: unknown) => {
    if (typeof value === 'number' && Number.isFinite(value))
      attributes[`gen_ai.request.${name}`] = value;
  };
  number('temperature', body['temperature']);
  number('top_p', body['top_p']);
  number('top_k', body['top_k']);
  number('max_tokens', body['max_completion_tokens'] ?? body['max_tokens']);
  number('frequency_penalty', body['frequency_penalty']);
  number('presence_penalty', body['presence_penalty']);
  number('seed', body['seed']);
  if (typeof body['n'] === 'number' && body['n'] !== 1)
    attributes['gen_ai.request.choice.count'] = body['n'];
  const stop = body['stop'];
  if (typeof stop === 'string') attributes['gen_ai.request.stop_sequences'] = [stop];
  else if (Array.isArray(stop) && stop.every((s) => typeof s === 'string'))
    attributes['gen_ai.request.stop_sequences'] = stop as string[];
  const format = (body['response_format'] as { type?: unknown } | undefined)?.type;
  if (format === 'json_object' || format === 'json_schema')
    attributes['gen_ai.output.type'] = 'json';
  else if (format === 'text') attributes['gen_ai.output.type'] = 'text';
  return attributes;
}

/** `server.address` and `server.port` of a request URL (the port spelled out even when it is the scheme's default). */
export function serverAttributes(url: string): Attributes {
  const parsed = new URL(url);
  return {
    'server.address': parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    'server.port': Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)),
  };
}

/** What the span ends with: the response's id, model, finish reasons, usage, and a stream's time to first chunk. */
export function responseAttributes(summary: CallSummary): Attributes {
  const attributes: Attributes = {};
  if (summary.id !== undefined) attributes['gen_ai.response.id'] = summary.id;
  if (summary.model !== undefined) attributes['gen_ai.response.model'] = summary.model;
  if (summary.finishReasons.length > 0)
    attributes['gen_ai.response.finish_reasons'] = [...summary.finishReasons];
  const usage = summary.usage;
  if (usage) {
    attributes['gen_ai.usage.input_tokens'] = usage.prompt_tokens;
    attributes['gen_ai.usage.output_tokens'] = usage.completion_tokens;
    const cached = usage.prompt_tokens_details?.cached_tokens;
    if (typeof cached === 'number') attributes['gen_ai.usage.cache_read.input_tokens'] = cached;
  }
  if (summary.timeToFirstChunk !== undefined)
    attributes['gen_ai.response.time_to_first_chunk'] = summary.timeToFirstChunk / 1000;
  return attributes;
}

/** The attributes every metric of a call carries (the conventions' low-cardinality subset). */
export function metricAttributes(start: Attributes): Attributes {
  const attributes: Attributes = {};
  for (const name of [
    'gen_ai.operation.name',
    'gen_ai.provider.name',
    'gen_ai.request.model',
    'server.address',
    'server.port',
  ]) {
    if (start[name] !== undefined) attributes[name] = start[name];
  }
  return attributes;
}
