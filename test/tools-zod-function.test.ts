/**
 * Tool calling against the local server, our side: zodFunction, parsed_arguments from parse(), and
 * toAssistantMessage.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';
import { OutputParseError, toAssistantMessage } from '../src/index';
import { zodFunction } from '../src/helpers/zod';
import { useMockServer } from './support/mock-server';
import { answer, calls, says } from './support/scripted-model';
import { messages, City, weatherTool } from './support/tools';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'requests' });

const sent = (i: number) => server.requests[i]!.body as { messages: Record<string, unknown>[]; tools?: unknown[]; tool_choice?: unknown; stream?: boolean };

describe('zodFunction', () => {
  it('is a strict function tool with a strict JSON Schema', () => {
    const tool = weatherTool();
    expect(tool).toEqual({
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather in a city',
        strict: true,
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, unit: { anyOf: [{ type: 'string', enum: ['c', 'f'] }, { type: 'null' }] } },
          required: ['city', 'unit'],
          additionalProperties: false,
        },
      },
    });
  });

  it('takes zod/mini schemas', () => {
    const tool = zodFunction({ name: 'add', parameters: zm.object({ a: zm.number(), b: zm.number() }) });
    expect(tool.function.parameters).toEqual({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false });
  });

  it('checks its name and function', () => {
    expect(() => zodFunction({ name: 'get weather', parameters: City })).toThrow(/the name must be 1 to 64 letters/);
    expect(() => zodFunction({ name: 'x', parameters: City, function: 'nope' as never })).toThrow(/`function` must be a function/);
  });
});

describe('parse() with tools', () => {
  it('gives parsed_arguments, validated by the tool schema', async () => {
    server.enqueue(calls(['call_1', 'get_weather', '{"city":"Paris","unit":null}']));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, tools: [weatherTool()] });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(call.function.parsed_arguments).toEqual({ city: 'Paris' });
    expect(call.function.arguments).toBe('{"city":"Paris","unit":null}');
    expect(call.id).toBe('call_1');
  });

  it('throws OutputParseError naming the tool call when the arguments fail the schema', async () => {
    server.enqueue(calls(['call_9', 'get_weather', '{"town":"Paris"}']));
    const error = (await client.chat.completions.parse({ model: 'mock/echo', messages, tools: [weatherTool()] }).catch((e: unknown) => e)) as OutputParseError;
    expect(error).toBeInstanceOf(OutputParseError);
    expect(error.toolCall).toEqual({ id: 'call_9', name: 'get_weather' });
    expect(error.raw).toBe('{"town":"Paris"}');
    expect(error.message).toMatch(/^The arguments of tool call get_weather \(call_9\) do/);
  });

  it('JSON-parses the arguments of plain tools; only a strict one must be valid JSON', async () => {
    const plain = { type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object' } } };
    server.enqueue(calls(['a', 'lookup', '{"q":1}']), calls(['b', 'lookup', '{"q":']), calls(['c', 'lookup', '{"q":']));
    const ok = await client.chat.completions.parse({ model: 'mock/echo', messages, tools: [plain] });
    expect(ok.choices[0]!.message.tool_calls![0]!.function.parsed_arguments).toEqual({ q: 1 });
    const loose = await client.chat.completions.parse({ model: 'mock/echo', messages, tools: [plain] });
    expect(loose.choices[0]!.message.tool_calls![0]!.function.parsed_arguments).toBeUndefined();
    const strict = { type: 'function' as const, function: { ...plain.function, strict: true } };
    await expect(client.chat.completions.parse({ model: 'mock/echo', messages, tools: [strict] })).rejects.toBeInstanceOf(OutputParseError);
  });

  it('reads absent arguments as {} (OpenRouter, Anthropic compat)', async () => {
    server.enqueue(answer({ content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'now' } }] }, 'tool_calls'));
    const now = zodFunction({ name: 'now', parameters: z.object({}) });
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, tools: [now] });
    expect(completion.choices[0]!.message.tool_calls![0]!.function.parsed_arguments).toEqual({});
  });

  it('keeps the tool definitions as sent, functions and parsers left out', async () => {
    server.enqueue(says('no tools needed'));
    await client.chat.completions.parse({ model: 'mock/echo', messages, tools: [weatherTool()] });
    expect(sent(0).tools).toEqual([JSON.parse(JSON.stringify(weatherTool()))]);
  });
});

describe('toAssistantMessage', () => {
  /** The first message of a reply the server sends as `message`, read through the client. */
  async function reply(message: Record<string, unknown>) {
    server.enqueue({ body: { choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'tool_calls' }] } });
    return (await client.chat.completions.create({ model: 'mock/echo', messages })).choices[0]!.message;
  }

  it('keeps tool calls as received (vendor extras too), with type and arguments filled, and drops parsed_arguments', async () => {
    const message = await reply({ content: null, reasoning: 'r', tool_calls: [{ id: '', function: { name: 'now' }, extra_content: { google: { thought_signature: 'sig' } } }] });
    expect(toAssistantMessage(message)).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: '', type: 'function', function: { name: 'now', arguments: '{}' }, extra_content: { google: { thought_signature: 'sig' } } }],
    });
    const withParsed = { ...message, tool_calls: message.tool_calls!.map((c) => ({ ...c, function: { ...c.function, parsed_arguments: {} } })) };
    expect(toAssistantMessage(withParsed).tool_calls?.[0]?.function).toEqual({ name: 'now', arguments: '{}' });
  });

  it('sends back only the text of Mistral content, not its thinking parts', async () => {
    const content = [{ type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] }, { type: 'text', text: 'Hi.' }];
    expect(toAssistantMessage(await reply({ content }))).toEqual({ role: 'assistant', content: 'Hi.' });
  });

  it("sends DeepSeek's reasoning_content back when the server used it, and never the SDK's reasoning", async () => {
    expect(toAssistantMessage(await reply({ content: 'x', reasoning_content: 'because' }))).toEqual({ role: 'assistant', content: 'x', reasoning_content: 'because' });
    expect(toAssistantMessage(await reply({ content: 'x', reasoning: 'because' }))).toEqual({ role: 'assistant', content: 'x' });
  });
});
