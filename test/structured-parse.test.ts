/**
 * Structured outputs end to end against the local server: parse() with its typed errors.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  ContentFilterFinishReasonError,
  InferenceError,
  LengthFinishReasonError,
  OutputParseError,
  type StandardSchema,
} from '../src/index';
import { zodResponseFormat } from '../src/helpers/zod';
import { useMockServer } from './support/mock-server';
import { messages, answer, says, Weather } from './support/structured';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'requests' });

describe('parse()', () => {
  const format = zodResponseFormat(Weather, 'weather');

  it('gives message.parsed, validated, with the nulls strict mode asked for removed again', async () => {
    server.enqueue(says('{"city":"Paris","celsius":21.5,"note":null,"wind":null}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format });
    const message = completion.choices[0]!.message;
    expect(message.parsed).toEqual({ city: 'Paris', celsius: 21.5, wind: null });
    expect(message.content).toBe('{"city":"Paris","celsius":21.5,"note":null,"wind":null}');
    expect(completion.usage?.total_tokens).toBe(18);
  });

  describe('a schema whose validation never settles (an async check that hangs)', () => {
    const json = z.toJSONSchema(Weather);
    const stuck: StandardSchema<unknown, { city: string }> = {
      '~standard': { version: 1, vendor: 'test', validate: () => new Promise(() => {}), jsonSchema: { input: () => json, output: () => json } },
    };
    const stuckFormat = zodResponseFormat(stuck, 'weather');
    const pendingTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

    it("parse(): the call's timeout ends the wait with APIConnectionTimeoutError; no timer left", async () => {
      server.enqueue(says('{"city":"Paris","celsius":21}'));
      const timers = pendingTimers();
      // The timeout bounds the request too: long enough for a loaded machine's request, then the wait.
      await expect(client.chat.completions.parse({ model: 'mock/echo', messages, response_format: stuckFormat }, { timeout: 1_000 })).rejects.toThrow(
        expect.objectContaining({ name: 'APIConnectionTimeoutError', message: 'The schema validating the reply did not settle within 1000 ms (timeout): POST /chat/completions (parse)' }),
      );
      expect(pendingTimers()).toBeLessThanOrEqual(timers);
    });

    it("parse(): the call's signal ends the wait with APIUserAbortError at once", async () => {
      server.enqueue(says('{"city":"Paris","celsius":21}'));
      const controller = new AbortController();
      const parsing = client.chat.completions.parse({ model: 'mock/echo', messages, response_format: stuckFormat }, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 50)); // the reply is in; the schema hangs
      controller.abort();
      await expect(parsing).rejects.toMatchObject({ name: 'APIUserAbortError' });
    });

    it('runTools(): a round whose reply the schema never settles on ends at the timeout', async () => {
      server.enqueue(says('{"city":"Paris","celsius":21}'));
      const noop = { type: 'function' as const, function: { name: 'noop', parameters: { type: 'object' }, function: () => '' } };
      const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [noop], response_format: stuckFormat }, { timeout: 1_000 });
      await expect(runner.done()).rejects.toThrow('The schema validating the reply did not settle within 1000 ms (timeout): POST /chat/completions (runTools)');
    });
  });

  it('applies the schema: transforms and defaults', async () => {
    const Count = z.object({ count: z.string().transform(Number), unit: z.string().default('items') });
    server.enqueue(says('{"count":"12","unit":null}'));
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: zodResponseFormat(Count, 'count') });
    expect(completion.choices[0]!.message.parsed).toEqual({ count: 12, unit: 'items' });
  });

  it('surfaces a refusal, with parsed null', async () => {
    server.enqueue(answer({ content: null, refusal: "I can't help with that." }));
    const message = (await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format })).choices[0]!.message;
    expect(message.refusal).toBe("I can't help with that.");
    expect(message.parsed).toBeNull();
  });

  it('throws OutputParseError for text that is not JSON, with the raw text', async () => {
    server.enqueue(says('Sure! The weather is nice.'));
    const error = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputParseError);
    expect(error).toMatchObject({ name: 'OutputParseError', reason: 'json', raw: 'Sure! The weather is nice.', toolCall: undefined });
    expect((error as OutputParseError).message).toMatch(/^The model's output is not valid JSON/);
  });

  it('throws OutputParseError for JSON the schema rejects, with each issue and the value found', async () => {
    server.enqueue(says('{"city":7,"celsius":"warm","note":null,"wind":null}'));
    const error = (await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format }).catch((e: unknown) => e)) as OutputParseError;
    expect(error).toBeInstanceOf(OutputParseError);
    expect(error.reason).toBe('schema');
    expect(error.issues.map((i) => [i.path, i.received])).toEqual([
      ['city', 7],
      ['celsius', 'warm'],
    ]);
    expect(error.message).toMatch(/does not match the schema: city: .*; celsius: /);
    expect(error.completion?.choices).toHaveLength(1);
  });

  it('throws LengthFinishReasonError when the output was cut at the token limit', async () => {
    server.enqueue(says('{"city":"Par', 'length'));
    const error = (await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format, max_tokens: 5 }).catch((e: unknown) => e)) as LengthFinishReasonError;
    expect(error).toBeInstanceOf(LengthFinishReasonError);
    expect(error.name).toBe('LengthFinishReasonError');
    expect(error.message).toMatch(/max_tokens/);
    expect(error.completion.choices[0]!.finish_reason).toBe('length');
  });

  it('throws ContentFilterFinishReasonError when the filter stopped the reply', async () => {
    server.enqueue(answer({ content: '' }, 'content_filter'));
    const error = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentFilterFinishReasonError);
    expect(error).toMatchObject({ name: 'ContentFilterFinishReasonError' });
  });

  it('reads JSON after an inline <think> block and inside a code fence', async () => {
    server.enqueue(says('<think>\nThe user wants JSON.\n</think>\n\n```json\n{"city":"Oslo","celsius":-2,"note":"snow","wind":4}\n```'));
    const message = (await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format })).choices[0]!.message;
    expect(message.parsed).toEqual({ city: 'Oslo', celsius: -2, note: 'snow', wind: 4 });
  });

  it('JSON-parses json_object and hand-written json_schema formats, without validation', async () => {
    server.enqueue(says('{"any": [1, 2]}'), says('{"x": true}'));
    const a = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: { type: 'json_object' } });
    expect(a.choices[0]!.message.parsed).toEqual({ any: [1, 2] });
    const b = await client.chat.completions.parse({
      model: 'mock/echo',
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' }, strict: true } },
    });
    expect(b.choices[0]!.message.parsed).toEqual({ x: true });
  });

  it('leaves parsed null without a JSON response format, and for a turn that only called tools', async () => {
    server.enqueue(says('{"looks": "like json"}'), answer({ content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }, 'tool_calls'));
    const plain = await client.chat.completions.parse({ model: 'mock/echo', messages });
    expect(plain.choices[0]!.message.parsed).toBeNull();
    const tools = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format });
    expect(tools.choices[0]!.message.parsed).toBeNull();
  });

  it('parses every choice when n > 1', async () => {
    server.enqueue({
      body: {
        choices: [
          { index: 0, message: { role: 'assistant', content: '{"city":"A","celsius":1,"note":null,"wind":null}' }, finish_reason: 'stop' },
          { index: 1, message: { role: 'assistant', content: '{"city":"B","celsius":2,"note":null,"wind":null}' }, finish_reason: 'stop' },
        ],
      },
    });
    const completion = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format, n: 2 });
    expect(completion.choices.map((c) => c.message.parsed?.city)).toEqual(['A', 'B']);
  });

  it('keeps withResponse() and asResponse()', async () => {
    server.enqueue(says('{"city":"Rome","celsius":30,"note":null,"wind":null}'));
    const { data, response, requestId } = await client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format }).withResponse();
    expect(data.choices[0]!.message.parsed?.city).toBe('Rome');
    expect(response.status).toBe(200);
    expect(requestId).toMatch(/^req_/);

    server.enqueue(says('{"city":"Rome","celsius":30,"note":null,"wind":null}'));
    const pending = client.chat.completions.parse({ model: 'mock/echo', messages, response_format: format });
    const raw = await pending.asResponse();
    expect(raw.bodyUsed).toBe(false);
    expect(await raw.json()).toMatchObject({ choices: [{ message: { content: '{"city":"Rome","celsius":30,"note":null,"wind":null}' } }] });
    // Awaited after asResponse(), it still parses (as the official client does).
    expect((await pending).choices[0]!.message.parsed?.city).toBe('Rome');
  });

  it('rejects at the call site for a bad body, before any request', async () => {
    await expect(client.chat.completions.parse({ model: '', messages })).rejects.toThrow(/`model` must be a non-empty string/);
    await expect(client.chat.completions.parse({ model: 'm', messages }, { timeoutt: 1 } as never)).rejects.toThrow(InferenceError);
    expect(server.requests).toHaveLength(0);
  });
});
