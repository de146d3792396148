/**
 * How a runTools() loop ends, against the local server: an abort (the caller's signal, in flight or
 * reused), toolTimeout (a tool or its parse that never settles, the default bound, refused values),
 * and a tool that throws.
 */
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  InferenceError,
  ToolTimeoutError,
  type RunnableFunctionTool,
} from '../src/index';
import { zodFunction } from '../src/helpers/zod';
import { useMockServer } from './support/mock-server';
import { calls, says } from './support/scripted-model';
import { messages, City, weatherTool } from './support/tools';

const { server, client } = useMockServer({}, { client: { maxRetries: 0 }, reset: 'requests' });

const sent = (i: number) => server.requests[i]!.body as { messages: Record<string, unknown>[]; tools?: unknown[]; tool_choice?: unknown; stream?: boolean };

describe('runTools()', () => {
  it('aborts: the run rejects with APIUserAbortError and running tools see their signal abort', async () => {
    let toolSignal: AbortSignal | undefined;
    const hang = zodFunction({
      name: 'get_weather',
      parameters: City,
      function: (_args, { signal }) => {
        toolSignal = signal;
        return new Promise(() => {}); // a tool that never ends
      },
    });
    server.enqueue(calls(['h', 'get_weather', '{"city":"Paris","unit":null}']));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [hang] });
    for await (const event of runner) if (event.type === 'message' && event.message.role === 'assistant') break;
    await new Promise((resolve) => setTimeout(resolve, 10));
    runner.abort();
    await expect(runner.done()).rejects.toBeInstanceOf(APIUserAbortError);
    await expect(runner.finalContent()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(toolSignal?.aborted).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  /** Timers still pending (Node lists each as 'Timeout'). */
  const pendingTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  /** A tool that never settles, and the signal it was given. */
  const neverSettles = () => {
    const seen: { signal?: AbortSignal } = {};
    const tool = zodFunction({
      name: 'get_weather',
      parameters: City,
      function: (_args, { signal }) => {
        seen.signal = signal;
        return new Promise<string>(() => {});
      },
    });
    return { tool, seen };
  };

  it('a tool that never settles ends the run at toolTimeout: ToolTimeoutError (an APIConnectionTimeoutError) naming it, its signal aborted, no timer left', async () => {
    const { tool, seen } = neverSettles();
    server.enqueue(calls(['h', 'get_weather', '{"city":"Paris","unit":null}']));
    const timers = pendingTimers();
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [tool] }, { toolTimeout: 50 });
    const error = await runner.done().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect(error).toMatchObject({ name: 'ToolTimeoutError', tool: 'get_weather' });
    expect((error as Error).message).toBe('The tool "get_weather" did not settle within 50 ms (toolTimeout): POST /chat/completions (runTools)');
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.signal?.reason).toBe(error);
    await expect(runner.finalContent()).rejects.toBe(error);
    expect(server.requests).toHaveLength(1); // nothing more was sent
    expect(pendingTimers()).toBeLessThanOrEqual(timers);
  });

  it('a tool whose own `parse` never settles is bounded by toolTimeout too', async () => {
    let ran = false;
    const tool: RunnableFunctionTool<{ city: string }> = {
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        parse: () => new Promise<{ city: string }>(() => {}),
        function: () => {
          ran = true;
          return 'sunny';
        },
      },
    };
    server.enqueue(calls(['p', 'get_weather', '{"city":"Paris"}']));
    const timers = pendingTimers();
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [tool] }, { toolTimeout: 50 });
    await expect(runner.done()).rejects.toThrow('The tool "get_weather" did not settle within 50 ms (toolTimeout)');
    expect(ran).toBe(false);
    expect(pendingTimers()).toBeLessThanOrEqual(timers);
  });

  it('a tool slower than usual but within toolTimeout is answered as always', async () => {
    const slow = zodFunction({
      name: 'get_weather',
      parameters: City,
      function: () => new Promise<string>((resolve) => setTimeout(() => resolve('21 °C'), 30)),
    });
    server.enqueue(calls(['s', 'get_weather', '{"city":"Paris","unit":null}']), says('It is 21 °C.'));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [slow] }, { toolTimeout: 5_000 });
    expect(await runner.finalContent()).toBe('It is 21 °C.');
    expect(sent(1).messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 's', content: '21 °C' });
  });

  it('by default a tool is bounded too (10 minutes), and an aborted run clears that bound at once', async () => {
    const { tool, seen } = neverSettles();
    server.enqueue(calls(['h', 'get_weather', '{"city":"Paris","unit":null}']));
    const set = vi.spyOn(globalThis, 'setTimeout');
    const clear = vi.spyOn(globalThis, 'clearTimeout');
    try {
      // The requests' own timeout set apart, so that the only 10-minute timer is the tool's bound.
      const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [tool] }, { timeout: 30_000 });
      while (seen.signal === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
      const bound = set.mock.results[set.mock.calls.findIndex((call) => call[1] === 10 * 60 * 1000)]?.value as unknown;
      expect(bound).toBeDefined();
      runner.abort();
      await expect(runner.done()).rejects.toBeInstanceOf(APIUserAbortError);
      expect(seen.signal.aborted).toBe(true);
      expect(clear).toHaveBeenCalledWith(bound);
    } finally {
      set.mockRestore();
      clear.mockRestore();
    }
  });

  it.each([-1, Number.NaN, 2 ** 31, '5000', Number.POSITIVE_INFINITY])('toolTimeout %s is refused at the call site', async (value) => {
    await expect(client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weatherTool()] }, { toolTimeout: value as number }).done()).rejects.toThrow(
      new InferenceError(`chat.completions.runTools: \`toolTimeout\` must be a number of milliseconds from 0 to 2147483647; got ${typeof value === 'string' ? `the string "${value}"` : String(value)}.`),
    );
  });

  it("one caller's signal reused for many runs keeps no listener of theirs once they are over", async () => {
    const { EventEmitter } = await import('node:events');
    const signal = new AbortController().signal;
    for (let i = 0; i < 20; i++) {
      server.enqueue(says(`run ${i}`));
      await client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weatherTool()] }, { signal }).done();
    }
    expect(EventEmitter.getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it("aborts a request in flight through the caller's signal", async () => {
    const controller = new AbortController();
    server.enqueue({ ...says('late'), delayMs: 15_000 });
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [weatherTool()] }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(runner.done()).rejects.toBeInstanceOf(APIUserAbortError);
    // Far below the reply's 15 s, however busy the machine: the abort did not wait for it.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('fails the run when a tool throws, aborting the other tools of the round', async () => {
    let otherSignal: AbortSignal | undefined;
    const boom = zodFunction({ name: 'boom', parameters: z.object({}), function: () => Promise.reject(new Error('database down')) });
    const wait = zodFunction({
      name: 'wait',
      parameters: z.object({}),
      function: (_args, { signal }) => {
        otherSignal = signal;
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve('stopped')));
      },
    });
    server.enqueue(calls(['w', 'wait', '{}'], ['b', 'boom', '{}']));
    const runner = client.chat.completions.runTools({ model: 'mock/echo', messages, tools: [wait, boom] });
    await expect(runner.done()).rejects.toThrow('database down');
    expect(otherSignal?.aborted).toBe(true);
  });
});
