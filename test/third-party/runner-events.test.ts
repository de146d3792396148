// `runTools(…).on(…)` code written for the official `openai` client sees the same events, in the
// same order, with the same arguments, on model-inference-sdk's runner: both clients run the same
// scripted tool loops against the local server, and their event logs are compared.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type ChatCompletionRunnerEvents } from '../../src/index';
import { startMockServer, type MockServer } from '../../src/testing';
import { calls, says, streamsCalls, streamsText } from '../support/scripted-model';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(() => server.close());

const messages = [{ role: 'user' as const, content: 'Weather in Paris and Oslo?' }];
const parameters = { type: 'object', properties: { city: { type: 'string' } } };
const weather = (args: { city: string }) => JSON.stringify({ city: args.city, celsius: args.city === 'Oslo' ? -2 : 21 });

/** The events both runners have, and what each passes (reduced to what can be compared). */
const EVENTS = {
  connect: () => null,
  chatCompletion: (c: { choices: { message: { content: string | null } }[] }) => c.choices[0]?.message.content ?? null,
  message: (m: { role: string; content?: unknown }) => [m.role, m.content ?? null],
  functionToolCall: (f: { name: string; arguments: string }) => [f.name, f.arguments],
  functionToolCallResult: (content: string) => content,
  content: (delta: string) => delta,
  finalChatCompletion: (c: { choices: { message: { content: string | null } }[] }) => c.choices[0]?.message.content ?? null,
  finalMessage: (m: { role: string; content?: unknown }) => [m.role, m.content ?? null],
  finalContent: (content: string) => content,
  finalFunctionToolCall: (f: { name: string; arguments: string }) => [f.name, f.arguments],
  finalFunctionToolCallResult: (content: string) => content,
  totalUsage: (u: { total_tokens: number }) => u.total_tokens,
  end: () => null,
} satisfies { [K in keyof ChatCompletionRunnerEvents]?: (value: never) => unknown };

type Runner = { on(event: string, listener: (value: never) => void): unknown; done(): Promise<void> };

async function log(runner: Runner): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (const [name, reduce] of Object.entries(EVENTS)) runner.on(name, (value: never) => seen.push([name, (reduce as (v: never) => unknown)(value)]));
  await runner.done();
  return seen;
}

async function both(stream: boolean, script: () => object[]): Promise<{ openai: unknown[]; sdk: unknown[] }> {
  server.enqueue(...script());
  const openai = new OpenAI({ apiKey: server.apiKey, baseURL: server.url, maxRetries: 0 });
  const fromOpenAI = await log(
    openai.chat.completions.runTools({
      model: 'mock/echo',
      messages,
      stream: stream as false,
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters, parse: JSON.parse, function: weather } }],
    }) as unknown as Runner,
  );
  server.enqueue(...script());
  const sdk = new Client({ apiKey: server.apiKey, baseURL: server.url, maxRetries: 0, logLevel: 'off' });
  const fromSdk = await log(
    sdk.chat.completions.runTools({
      model: 'mock/echo',
      messages,
      stream,
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters, function: weather } }],
    }) as unknown as Runner,
  );
  return { openai: fromOpenAI, sdk: fromSdk };
}

describe("runTools() events: the official client's runner and model-inference-sdk's, side by side", () => {
  it('two parallel tool calls, then the answer', async () => {
    const { openai, sdk } = await both(false, () => [
      calls(['c1', 'get_weather', '{"city":"Paris"}'], ['c2', 'get_weather', '{"city":"Oslo"}']),
      says('Paris 21, Oslo -2.'),
    ]);
    expect(sdk).toEqual(openai);
    expect(sdk.length).toBeGreaterThan(12);
  });

  it('streamed: the same, with the text as it arrives', async () => {
    const { openai, sdk } = await both(true, () => [streamsCalls(['s1', 'get_weather', '{"city":"Oslo"}']), streamsText('Cold in Oslo.')]);
    // One difference, on purpose: the server reported usage on the last chunk, and the official
    // streaming runner loses it (no totalUsage event); model-inference-sdk's reports it.
    const usage = sdk.findIndex((e) => (e as [string])[0] === 'totalUsage');
    expect(sdk[usage]).toEqual(['totalUsage', 7]);
    expect(openai.some((e) => (e as [string])[0] === 'totalUsage')).toBe(false);
    expect(sdk.filter((_, i) => i !== usage)).toEqual(openai);
    expect(sdk.filter((e) => (e as [string])[0] === 'content')).toEqual([
      ['content', 'Cold '],
      ['content', 'in '],
      ['content', 'Oslo.'],
    ]);
  });
});
