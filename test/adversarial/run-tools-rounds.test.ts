// runTools() taken at docs/tools.md's word: invalid arguments never reach the function, unknown
// tools are answered, results are "a string ... as it is; anything else as JSON", every call of a
// round runs at once, toolTimeout bounds a tool. The model's side is a loopback server that answers
// each round as the test says.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { APIConnectionTimeoutError, InferenceError } from '../../src/index';
import { zodFunction } from '../../src/helpers/zod';
import { delay, json, never, rejection, toolCallCompletion, within } from './support';
import { useToolServer, server, script, toolMessages, plainTool, run } from '../support/adversarial-run-tools';

useToolServer();

describe('what goes back to the model', () => {
  // A tool that returns nothing (a `void` function) is the commonest tool there is.
  // (JSON.stringify(undefined) is undefined: a message without `content`, which a strict server answers 400.)
  it('a tool that returns undefined: the tool message still has string content', async () => {
    const s = script(toolCallCompletion([{ id: 'call_1', name: 'log_it', arguments: '{}' }]));
    await run([plainTool('log_it', () => undefined)]).finalContent();
    const [message] = toolMessages(s.bodies()[1]!);
    expect(message).toBeDefined();
    expect(typeof message!.content).toBe('string');
  });

  // Was a fault (issue 29 §2): a tool result JSON cannot hold (a BigInt) rejected the run with a raw TypeError.
  it('a tool that returns a BigInt: a typed error naming the tool (or a string sent)', async () => {
    script(toolCallCompletion([{ id: 'call_1', name: 'count', arguments: '{}' }]));
    const result = await run([plainTool('count', () => ({ n: 10n }))]).finalContent().then(
      () => 'ok',
      (e: unknown) => e,
    );
    if (result !== 'ok') {
      expect(result).toBeInstanceOf(InferenceError);
      expect(String((result as Error).message)).toContain('count');
    }
  });

  // A function or a Symbol has no JSON (JSON.stringify gives undefined): it used to go out as a tool message without content.
  it.each([
    ['a cycle', () => { const o: Record<string, unknown> = {}; o['self'] = o; return o; }, /JSON cannot hold/],
    ['a function', () => () => 1, /returned a function/],
    ['a Symbol', () => Symbol('x'), /returned a symbol/],
    ['a toJSON that throws', () => ({ toJSON: () => { throw new Error('no JSON for you'); } }), /no JSON for you/],
  ])('a tool that returns %s: InferenceError naming the tool, nothing more sent', async (_what, result, message) => {
    const s = script(toolCallCompletion([{ id: 'call_1', name: 'odd', arguments: '{}' }]));
    const err = await rejection(() => run([plainTool('odd', result)]).finalContent());
    expect(err).toBeInstanceOf(InferenceError);
    expect((err as Error).message).toMatch(/tool "odd"/);
    expect((err as Error).message).toMatch(message);
    expect(s.bodies()).toHaveLength(1);
  });

  it('arguments that are not JSON, or fail the schema: the function is not called, the problem goes back as the result', async () => {
    const s = script(
      toolCallCompletion([
        { id: 'call_1', name: 'get_weather', arguments: '{"city": ' },
        { id: 'call_2', name: 'get_weather', arguments: '{"city": 42}' },
      ]),
    );
    let calls = 0;
    const tool = zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }), function: () => (calls++, 'sunny') });
    expect(await run([tool]).finalContent()).toBe('done');
    expect(calls).toBe(0);
    const results = toolMessages(s.bodies()[1]!);
    expect(results.map((m) => m.tool_call_id)).toEqual(['call_1', 'call_2']);
    for (const m of results) expect(String(m.content)).toMatch(/invalid arguments for get_weather/);
  });

  // tools.md: the function is not called when the arguments fail, and gets the validated value when they pass.
  it("an argument schema whose validate returns a thenable: the tool gets the validated value, or is not called", async () => {
    const s = script(
      toolCallCompletion([
        { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'call_2', name: 'get_weather', arguments: '{"city":"?"}' },
      ]),
    );
    const thenable = (result: unknown) => ({ then: (resolve: (v: unknown) => void) => resolve(result) });
    const parameters = {
      '~standard': {
        version: 1,
        vendor: 'thenables',
        validate: (v: { city: string }) => thenable(v.city === '?' ? { issues: [{ message: 'unknown city' }] } : { value: { city: v.city.toUpperCase() } }),
        jsonSchema: { input: () => ({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }), output: () => ({}) },
      },
    };
    const seen: unknown[] = [];
    const tool = zodFunction({ name: 'get_weather', parameters: parameters as never, function: (args: unknown) => (seen.push(args), 'sunny') });
    expect(await run([tool]).finalContent()).toBe('done');
    expect(seen).toEqual([{ city: 'PARIS' }]);
    expect(toolMessages(s.bodies()[1]!).map((m) => String(m.content))).toEqual(['sunny', expect.stringMatching(/unknown city/)]);
  });

  // A model names tools; a name that is a property of every object must not find one.
  it('a call to toString, constructor, __proto__ or hasOwnProperty is answered as a tool that does not exist', async () => {
    const names = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'];
    const s = script(toolCallCompletion(names.map((name, i) => ({ id: `call_${i}`, name, arguments: '{}' }))));
    let called = 0;
    expect(await run([plainTool('real_tool', () => (called++, 'x'))]).finalContent()).toBe('done');
    expect(called).toBe(0);
    const results = toolMessages(s.bodies()[1]!);
    expect(results).toHaveLength(names.length);
    for (const m of results) expect(typeof m.content).toBe('string');
  });

  it('empty arguments count as {} for a tool without parameters', async () => {
    script(toolCallCompletion([{ id: 'call_1', name: 'now', arguments: '' }]));
    const seen: unknown[] = [];
    const tool = zodFunction({ name: 'now', parameters: z.object({}), function: (args) => (seen.push(args), '12:00') });
    await run([tool]).finalContent();
    expect(seen).toEqual([{}]);
  });
});

describe('how tools run', () => {
  it('every call of a round runs at once', async () => {
    script(
      toolCallCompletion([
        { id: 'a', name: 'first', arguments: '{}' },
        { id: 'b', name: 'second', arguments: '{}' },
      ]),
    );
    let secondStarted!: () => void;
    const started = new Promise<void>((resolve) => (secondStarted = resolve));
    const first = plainTool('first', async () => {
      await started; // deadlocks if the tools run one after the other
      return 'one';
    });
    const second = plainTool('second', () => (secondStarted(), 'two'));
    const result = await within(run([first, second]).finalContent(), 15_000);
    expect(result).toEqual({ value: 'done' });
  });

  it('a tool that throws ends the run with its error; the other tools of the round see their signal abort', async () => {
    script(
      toolCallCompletion([
        { id: 'a', name: 'fails', arguments: '{}' },
        { id: 'b', name: 'waits', arguments: '{}' },
      ]),
    );
    const boom = new Error('tool failed');
    let aborted: Promise<void> | undefined;
    const waits = plainTool('waits', (_args, { signal }) => {
      aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      return never();
    });
    const fails = plainTool('fails', async () => {
      await delay(20);
      throw boom;
    });
    const err = await rejection(() => run([fails, waits]).finalContent());
    expect(err === boom || (err as Error).cause === boom).toBe(true);
    expect(aborted).toBeDefined();
    expect(await within(aborted!, 10_000)).not.toBe('pending');
  });

  it('a tool that never settles: APIConnectionTimeoutError at toolTimeout naming the tool; its signal aborts; nothing more is sent', async () => {
    const s = script(toolCallCompletion([{ id: 'a', name: 'hangs', arguments: '{}' }]));
    let aborted = false;
    const hangs = plainTool('hangs', (_a, { signal }) => {
      signal.addEventListener('abort', () => (aborted = true));
      return never();
    });
    const result = await within(rejection(() => run([hangs], { toolTimeout: 200 }).finalContent()), 20_000);
    const err = (result as { value: Error }).value;
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect(err.message).toMatch(/hangs/);
    expect(err.message).toMatch(/toolTimeout/);
    expect(aborted).toBe(true);
    await delay(100);
    expect(s.bodies()).toHaveLength(1);
  });

  // Was a fault (issue 29 §3): a zodFunction whose schema never settled waited for the call's timeout, not toolTimeout.
  it('an argument schema that never settles: ended at toolTimeout', async () => {
    script(toolCallCompletion([{ id: 'a', name: 'slow_schema', arguments: '{"x":1}' }]));
    const schema = z.object({ x: z.number() }).refine(() => never<boolean>());
    const tool = zodFunction({ name: 'slow_schema', parameters: schema, function: () => 'x' });
    const result = await within(rejection(() => run([tool], { toolTimeout: 200, timeout: 60_000 }).finalContent()), 10_000);
    expect(result).not.toBe('pending');
    expect((result as { value: unknown }).value).toBeInstanceOf(APIConnectionTimeoutError);
    expect(String((result as { value: Error }).value.message)).toMatch(/slow_schema.*toolTimeout|toolTimeout.*slow_schema/);
  });

  it.each([NaN, -1, Infinity, 2 ** 31, '100'])('toolTimeout %s: refused at the call site, or honoured (a 50 ms tool still runs)', async (toolTimeout) => {
    script(toolCallCompletion([{ id: 'a', name: 'quick', arguments: '{}' }]));
    const quick = plainTool('quick', async () => (await delay(50), 'ok'));
    const outcome = await (async () => run([quick], { toolTimeout }).finalContent())().then(
      (v) => ({ v }),
      (e: unknown) => ({ e }),
    );
    if ('e' in outcome) {
      expect(outcome.e).toBeInstanceOf(InferenceError);
      expect(outcome.e).not.toBeInstanceOf(APIConnectionTimeoutError);
    } else expect(outcome.v).toBe('done');
  });

  it.each([NaN, -1, 1.5, Infinity, 0])('maxRounds %s: refused at the call site, or the run stays bounded', async (maxRounds) => {
    const start = server.requests.length;
    server.handle((_req, res) => json(res, toolCallCompletion([{ id: 'a', name: 'again', arguments: '{}' }]))); // always calls a tool
    const again = plainTool('again', () => 'more');
    const runner = (async () => run([again], { maxRounds }).finalContent())();
    const result = await within(runner, 20_000);
    expect(result).not.toBe('pending');
    if ('error' in (result as object)) expect((result as { error: unknown }).error).toBeInstanceOf(InferenceError);
    expect(server.requests.length - start).toBeLessThanOrEqual(10);
  });
});
