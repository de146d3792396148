/**
 * Issue 22, items 5, 6 and 8: what real servers and gateways do on the wire, through the public
 * API against real loopback servers. Debug logging never changes an outcome (10 MB bodies); no
 * member or key of a body rewrites it around the checks.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, InferenceError, type ChatCompletionMessageParam } from '../src/index';
import { useFaultServers } from './support/fault-server';
import { spyLogger } from './support/secrets';
import { outcome } from './support/settle';
import { KEY, messages, client, completion } from './support/wire-quirks';

const { faultServer } = useFaultServers();

describe('debug logging never changes an outcome (INFERENCE_LOG=debug, 10 MB bodies)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const TEN_MB = 10 * 1024 * 1024;
  // A base64 image of 10 MB, with the key planted across the place where a log line is cut
  // (2,000 characters): it starts 16 characters before.
  const head = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,' } }] }] });
  const image = `data:image/png;base64,${'A'.repeat(2_000 - 16 - (head.length - '"}}]}]}'.length))}${KEY}${'B'.repeat(TEN_MB)}`;
  const big = 'x'.repeat(TEN_MB);

  /** How a call ends and what the server saw: with logging as the environment says. */
  async function run(scenario: 'request' | 'response' | 'error', logger?: ReturnType<typeof spyLogger>) {
    const server = await faultServer((_req, res) => {
      if (scenario === 'error') {
        res.writeHead(500, { 'content-type': 'text/plain', 'retry-after-ms': '0' });
        return void res.end(big);
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion({ content: scenario === 'response' ? big : 'a picture' })));
    });
    // No logLevel here: INFERENCE_LOG decides, as it does for a user.
    const c = new Client({ apiKey: KEY, baseURL: server.url, maxRetries: 2, ...(logger ? { logger } : {}) });
    const content: ChatCompletionMessageParam['content'] = scenario === 'request' ? [{ type: 'image_url', image_url: { url: image } }] : 'hi';
    const result = await outcome(() => c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content }] }));
    const summary =
      result instanceof Error
        ? { error: result.constructor.name, status: (result as { status?: unknown }).status }
        : { content: (result as { choices: { message: { content: string } }[] }).choices[0]!.message.content.length };
    return { summary, attempts: server.requests.length };
  }

  for (const scenario of ['request', 'response', 'error'] as const) {
    it(`a 10 MB ${scenario === 'error' ? 'error body' : scenario}: the same outcome and attempts as without logging, lines cut, no key`, async () => {
      vi.stubEnv('INFERENCE_LOG', 'off');
      const quiet = await run(scenario);
      vi.stubEnv('INFERENCE_LOG', 'debug');
      const logger = spyLogger();
      const logged = await run(scenario, logger);
      expect(logged).toEqual(quiet);
      expect(quiet.summary).toEqual(scenario === 'error' ? { error: 'InternalServerError', status: 500 } : { content: scenario === 'response' ? TEN_MB : 'a picture'.length });
      expect(quiet.attempts).toBe(scenario === 'error' ? 3 : 1);
      expect(logger.lines.length).toBeGreaterThan(0);
      for (const line of logger.lines) expect(line.text.length).toBeLessThan(5_000);
      const text = logger.text();
      expect(text).toMatch(/characters in all/);
      expect(text).not.toContain(KEY);
      // No piece of the key either, at the cut or anywhere.
      expect(text).not.toContain(KEY.slice(0, 12));
    }, 60_000);
  }

  it('a logger that throws loses its lines, not the call', async () => {
    vi.stubEnv('INFERENCE_LOG', 'debug');
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion({ content: 'fine' })));
    });
    const fail = () => {
      throw new Error('transport closed');
    };
    const c = new Client({ apiKey: KEY, baseURL: server.url, logger: { debug: fail, info: fail, warn: fail, error: fail } });
    const result = await c.chat.completions.create({ model: 'm', messages });
    expect(result.choices[0]?.message.content).toBe('fine');
    expect(server.requests).toHaveLength(1);
  });

  it('a credential field cut off at the end of a logged body is masked too', async () => {
    vi.stubEnv('INFERENCE_LOG', 'debug');
    const server = await faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion({ content: 'fine' })));
    });
    const logger = spyLogger();
    const token = `tok-${'z'.repeat(5_000)}`;
    await new Client({ apiKey: KEY, baseURL: server.url, logger }).chat.completions.create({ model: 'm', messages }, { extraBody: { access_token: token } });
    expect(logger.text()).not.toContain('tok-zzz');
  });
});

describe('no member or key rewrites a body around the checks', () => {
  /** A server that records what it is sent and answers a plain completion. */
  async function recorder() {
    return faultServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion({ content: 'ok' })));
    });
  }
  const rewrite = () => ({ model: 'm', messages, stream: true });
  const hazards: [string, () => object, RegExp][] = [
    ['a toJSON method', () => ({ toJSON: rewrite }), /`toJSON` method, which would replace the body/],
    ['a __proto__ key (from JSON.parse)', () => JSON.parse('{"__proto__":{"stream":true}}') as object, /`__proto__` key/],
    ['a constructor key', () => ({ constructor: { prototype: { stream: true } } }), /`constructor` key/],
  ];

  it.each(hazards)('extraBody with %s: an InferenceError at the call site, nothing sent', async (_name, fields, message) => {
    const server = await recorder();
    const c = client(server.url);
    const calls = [
      () => c.chat.completions.create({ model: 'm', messages }, { extraBody: fields() }),
      () => c.chat.completions.create({ model: 'm', messages, stream: true }, { extraBody: fields() }),
      () => c.completions.create({ model: 'm', prompt: 'hi' }, { extraBody: fields() }),
      () => c.chat.completions.stream({ model: 'm', messages }, { extraBody: fields() }).done(),
    ];
    for (const call of calls) {
      const error = await outcome(call);
      expect(error).toBeInstanceOf(InferenceError);
      expect((error as Error).message).toMatch(/`extraBody` has/);
      expect((error as Error).message).toMatch(message);
    }
    expect(server.requests).toHaveLength(0);
  });

  it.each(hazards)('defaultBody with %s: an InferenceError when the client is made', async (_name, fields, message) => {
    const server = await recorder();
    expect(() => client(server.url, { defaultBody: fields() })).toThrow(InferenceError);
    expect(() => client(server.url, { defaultBody: fields() })).toThrow(message);
    expect(() => client(server.url).withOptions({ defaultBody: fields() })).toThrow(/`defaultBody` has/);
  });

  it.each(hazards)('the body itself with %s: an InferenceError at the call site, nothing sent', async (_name, fields, message) => {
    const server = await recorder();
    const chat = Object.assign(fields(), { model: 'm', messages });
    const error = await outcome(() => client(server.url).chat.completions.create(chat as never));
    expect(error).toBeInstanceOf(InferenceError);
    expect((error as Error).message).toMatch(/chat\.completions\.create\(body\): the body has/);
    expect((error as Error).message).toMatch(message);
    const legacy = Object.assign(fields(), { model: 'm', prompt: 'hi' });
    expect(await outcome(() => client(server.url).completions.create(legacy as never))).toBeInstanceOf(InferenceError);
    expect(server.requests).toHaveLength(0);
  });

  it('a toJSON inherited by a class-instance body is refused too', async () => {
    const server = await recorder();
    class Body {
      model = 'm';
      messages = messages;
      toJSON() {
        return rewrite();
      }
    }
    expect(await outcome(() => client(server.url).chat.completions.create(new Body() as never))).toBeInstanceOf(InferenceError);
    expect(server.requests).toHaveLength(0);
  });

  it('a `stream` that is a getter, hidden or inherited: an InferenceError at the call site, nothing sent', async () => {
    const server = await recorder();
    let reads = 0;
    const getter = {
      model: 'm',
      messages,
      get stream() {
        return reads++ > 0; // false when serialized, true when the SDK decides how to read
      },
    };
    const hidden = Object.defineProperty({ model: 'm', messages }, 'stream', { value: true, enumerable: false });
    const inherited = Object.assign(Object.create({ stream: true }) as object, { model: 'm', messages });
    for (const body of [getter, hidden, inherited]) {
      const error = await outcome(() => client(server.url).chat.completions.create(body as never));
      expect(error).toBeInstanceOf(InferenceError);
      expect((error as Error).message).toMatch(/`stream` must be a plain field of the body/);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('nested values are the server\'s to read: a Date (toJSON) inside extraBody is sent as its JSON', async () => {
    const server = await recorder();
    await client(server.url).chat.completions.create({ model: 'm', messages }, { extraBody: { metadata: { since: new Date(0) } } });
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ metadata: { since: '1970-01-01T00:00:00.000Z' } });
  });
});
