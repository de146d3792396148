// Options, headers, query values and model ids taken at the docs' word: "An unknown option name
// fails at once, with the nearest known name ... so does a key or header value HTTP cannot carry"
// (README, Options); `Client`'s TSDoc: "@throws InferenceError when ... an option is unknown or
// invalid"; docs/models.md on ids; docs/reliability.md ("Every failure is an InferenceError").
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, Client, InferenceError } from '../../src/index';
import { clientOf, delay, json, KEY, rejection, serve, USER, type TestServer } from './support';

let server: TestServer;
beforeAll(async () => {
  server = await serve(async (req, res) => {
    if (req.url?.includes('slow')) await delay(300);
    json(res, { object: 'list', data: [] });
  });
});
afterAll(() => server.close());

/** `new Client(options)` either refuses the options with an InferenceError, or the client it made answers `call`. */
async function refusedOrHonoured(options: Record<string, unknown>, call: (c: Client) => Promise<unknown>): Promise<'refused' | 'honoured'> {
  let client: Client;
  try {
    client = clientOf(server.baseURL, options);
  } catch (err) {
    expect(err).toBeInstanceOf(InferenceError);
    return 'refused';
  }
  let err: unknown;
  try {
    await call(client);
    return 'honoured';
  } catch (e) {
    err = e;
  }
  // Not refused, not honoured: the promise is broken however the call failed.
  throw new Error(`accepted at construction, then the call failed: ${String(err)}`);
}

describe('numbers a timer cannot hold', () => {
  // setTimeout takes at most 2^31-1 ms; a larger delay fires after 1 ms. A timeout of 25 days or
  // Infinity must either be refused or mean "a long time", never "at once".
  it.each([2 ** 31, 2 ** 40, Number.MAX_SAFE_INTEGER])('client timeout %d', async (timeout) => {
    expect(await refusedOrHonoured({ timeout }, (c) => c.models.list({ query: { slow: 1 } }))).toBeDefined();
  });

  it('per-request timeout and streamIdleTimeout of 2^31: refused at the call site, never a timeout at once', async () => {
    const client = clientOf(server.baseURL);
    for (const options of [{ timeout: 2 ** 31 }, { streamIdleTimeout: 2 ** 31 }]) {
      const err = await (async () => client.models.list({ ...options, query: { slow: 1 } }))().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).not.toBeInstanceOf(APIConnectionTimeoutError);
      if (err !== undefined) expect(err).toBeInstanceOf(InferenceError);
    }
  });

  it('timeout: Infinity is refused or honoured', async () => {
    expect(await refusedOrHonoured({ timeout: Infinity }, (c) => c.models.list({ query: { slow: 1 } }))).toBeDefined();
  });
});

describe('values no option can mean', () => {
  it.each([
    ['timeout', NaN],
    ['timeout', -1],
    ['timeout', '1000'],
    ['maxRetries', NaN],
    ['maxRetries', -1],
    ['maxRetries', 1.5],
    ['maxRetries', Infinity],
    ['streamIdleTimeout', NaN],
    ['streamIdleTimeout', -5],
    ['maxBodySize', -1],
    ['maxBodySize', NaN],
    ['maxEventSize', -1],
  ])('new Client({ %s: %s }) throws InferenceError naming the option', (name, value) => {
    let err: unknown;
    try {
      clientOf(server.baseURL, { [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InferenceError);
    expect((err as Error).message).toContain(name);
  });

  it('the same values per request: an InferenceError at the call site, nothing sent', async () => {
    const client = clientOf(server.baseURL);
    const before = server.requests.length;
    for (const options of [{ timeout: NaN }, { maxRetries: -1 }, { maxRetries: Infinity }, { streamIdleTimeout: -1 }, { maxBodySize: NaN }]) {
      const err = await rejection(() => client.models.list(options as never));
      expect(err).toBeInstanceOf(InferenceError);
    }
    expect(server.requests.length).toBe(before);
  });

  it('a misspelt per-request option fails at once with the nearest name', async () => {
    const err = await rejection(() => clientOf(server.baseURL).models.list({ timout: 5 } as never));
    expect(err).toBeInstanceOf(InferenceError);
    expect((err as Error).message).toMatch(/Did you mean .timeout.\?/);
  });

  it('withOptions() checks what it is given as the constructor does', () => {
    const client = clientOf(server.baseURL);
    expect(() => client.withOptions({ timeout: NaN })).toThrow(InferenceError);
    expect(() => client.withOptions({ baseUrl: 'x' } as never)).toThrow(/Did you mean .baseURL.\?/);
  });

  // Was a fault (docs): README quoted `unknown option 'baseUrl'. Did you mean 'baseURL'?` while the code prints backticks.
  it("the README's quoted message for a misspelt option is what the code prints", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const quoted = /``(new Client: unknown option [^\n]+?)``/.exec(readme)?.[1];
    expect(quoted).toBeDefined();
    let message = '';
    try {
      new Client({ apiKey: KEY, baseUrl: 'http://127.0.0.1/v1' } as never);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain(quoted);
  });
});

describe('keys and header values HTTP cannot carry', () => {
  it.each([
    ['a key with a line feed', { apiKey: `${KEY}\r\nx-injected: 1` }],
    ['a key outside Latin-1', { apiKey: `${KEY}\u2603` }],
    ['an apiKey function returning a key with a NUL', { apiKey: () => `${KEY}\u0000` }],
  ])('%s: InferenceError that never quotes the key, nothing sent', async (_name, options) => {
    const before = server.requests.length;
    const err = await rejection(async () => clientOf(server.baseURL, options).models.list());
    expect(err).toBeInstanceOf(InferenceError);
    expect(String((err as Error).message)).not.toContain(KEY);
    expect(server.requests.length).toBe(before);
  });

  it('an apiKey function that returns no string: InferenceError, nothing sent', async () => {
    const before = server.requests.length;
    for (const apiKey of [() => undefined, () => 42, async () => ({ key: KEY })]) {
      const err = await rejection(() => clientOf(server.baseURL, { apiKey: apiKey as never }).models.list());
      expect(err).toBeInstanceOf(InferenceError);
      expect(dumpMessage(err)).not.toContain(KEY);
    }
    expect(server.requests.length).toBe(before);
  });

  it('an idempotencyKey with CR LF: InferenceError at the call site, nothing sent', async () => {
    const before = server.requests.length;
    const err = await rejection(() => clientOf(server.baseURL).chat.completions.create({ model: 'acme/chat-1', messages: USER }, { idempotencyKey: 'k\r\nx-injected: 1' }));
    expect(err).toBeInstanceOf(InferenceError);
    expect(server.requests.length).toBe(before);
  });
});

function dumpMessage(err: unknown): string {
  return err instanceof Error ? `${err.message}\n${String(err.stack)}` : String(err);
}

describe('query values', () => {
  it('reach the server exactly, whatever characters they hold', async () => {
    const values = ['a&b=c#d', '100% sure?', 'line\nfeed\ttab', 'é ☃ 😀', '+plus and space', '../..'];
    const client = clientOf(server.baseURL);
    for (const q of values) {
      await client.models.list({ query: { q } });
      const url = new URL(server.requests.at(-1)!.url, server.origin);
      expect(url.pathname).toBe('/v1/models');
      expect([...url.searchParams.keys()]).toEqual(['q']);
      expect(url.searchParams.get('q')).toBe(q);
    }
  });

  // Was a fault (issue 29 §2): query values that are objects were sent as `[object Object]`.
  it('an object value is refused at the call site', async () => {
    const err = await rejection(() => clientOf(server.baseURL).models.list({ query: { filter: { a: 1 } } as never }));
    expect(err).toBeInstanceOf(InferenceError);
  });

  // Was a fault: QueryInit is string | number | boolean, yet a Symbol was sent as `Symbol(x)` and a function as its source code.
  it('a Symbol or a function value is refused at the call site, nothing sent', async () => {
    const client = clientOf(server.baseURL);
    const before = server.requests.length;
    for (const value of [Symbol('x'), () => 'the source of this function']) {
      const err = await rejection(() => client.models.list({ query: { v: value } as never }));
      expect(err).toBeInstanceOf(InferenceError);
    }
    expect(server.requests.length).toBe(before);
  });

  it('NaN, Infinity and arrays are refused too, in defaultQuery as in query, naming the parameter', async () => {
    const client = clientOf(server.baseURL);
    const before = server.requests.length;
    for (const value of [NaN, Infinity, ['a', 'b']]) {
      const err = await rejection(() => client.models.list({ query: { v: value } as never }));
      expect(err).toBeInstanceOf(InferenceError);
      expect((err as Error).message).toMatch(/parameter "v" must be a string, a finite number, a boolean or null/);
    }
    expect(() => new Client({ apiKey: KEY, baseURL: server.baseURL, defaultQuery: { v: {} } as never })).toThrow(/`defaultQuery`: parameter "v"/);
    expect(server.requests.length).toBe(before);
  });
});

describe('model ids (docs/models.md, "Model ids that are file paths")', () => {
  /** The path the server saw for `retrieve(id)`, or the error thrown at the call site. */
  async function pathFor(id: string): Promise<string | InferenceError> {
    server.handle((_req, res) => json(res, { id, object: 'model', created: 1, owned_by: 'x' }));
    try {
      await clientOf(server.baseURL).models.retrieve(id);
    } catch (err) {
      if (err instanceof InferenceError && !('status' in err && err.status !== undefined)) return err;
      throw err;
    }
    return server.requests.at(-1)!.url;
  }

  it.each(['acme/%2e%2e', '%2e%2e/x', 'a/.%2e/b', 'a\\..\\..\\etc', 'x/..%2f..%2fetc'])('%s never reaches the server as a dot segment', async (id) => {
    const seen = await pathFor(id);
    if (seen instanceof InferenceError) return; // refused: fine
    expect(seen.startsWith('/v1/models/')).toBe(true);
    // What a proxy that decodes once, then resolves dot segments, would make of it.
    const decodedOnce = seen.split('/').map((s) => decodeURIComponent(s));
    expect(decodedOnce.join('/')).not.toMatch(/(^|[/\\])\.\.([/\\]|$)/);
    expect(new URL(seen, server.origin).pathname.startsWith('/v1/models/')).toBe(true);
  });

  it('a ? or # in an id stays in the path: no query or fragment is made of it', async () => {
    const seen = await pathFor('acme/chat?admin=1#frag');
    expect(typeof seen).toBe('string');
    const url = new URL(seen as string, server.origin);
    expect(url.search).toBe('');
    expect(decodeURIComponent(url.pathname)).toBe('/v1/models/acme/chat?admin=1#frag');
  });

  it('control characters in an id are percent-encoded, never sent raw', async () => {
    const seen = await pathFor('acme/chat\u001b[2J\u0007');
    if (seen instanceof InferenceError) return;
    // eslint-disable-next-line no-control-regex
    expect(seen).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(decodeURIComponent(seen)).toBe('/v1/models/acme/chat\u001b[2J\u0007');
  });
});

describe('base URLs', () => {
  // Issue 29 §1: a base URL with a password that fails for another reason (port 99999) is quoted without its user and password.
  it('a password is never quoted, whatever else is wrong with the URL', () => {
    for (const baseURL of ['http://user:pw-s3cr3t@127.0.0.1:99999/v1', 'http://user:pw-s3cr3t@exa mple.com/v1', 'https://user:pw-s3cr3t@/v1']) {
      let err: unknown;
      try {
        new Client({ apiKey: KEY, baseURL });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InferenceError);
      expect(dumpMessage(err)).not.toContain('pw-s3cr3t');
    }
  });

  it('a URL with credentials that parses is refused without quoting them', () => {
    let err: unknown;
    try {
      new Client({ apiKey: KEY, baseURL: 'https://user:pw-s3cr3t@api.example.com/v1' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InferenceError);
    expect(dumpMessage(err)).not.toContain('pw-s3cr3t');
  });

  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'data:text/plain,x', 'ws://127.0.0.1/v1'])('%s is refused at construction', (baseURL) => {
    expect(() => new Client({ apiKey: KEY, baseURL })).toThrow(InferenceError);
  });
});

describe('preflight (docs/models.md, "Checking limits before sending")', () => {
  // The model's limits are "fetched once (GET /models/{slug}) and cached": a slug that names a
  // property of every object must be fetched and checked like any other.
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('a model named %s is looked up and checked', async (id) => {
    const start = server.requests.length;
    server.handle((req, res) => {
      if (req.method === 'GET') return json(res, { id, object: 'model', created: 1, owned_by: 'x', max_output_length: 10 });
      json(res, { id: 'c', object: 'chat.completion', created: 1, model: id, choices: [{ index: 0, message: { role: 'assistant', content: 'sent' }, finish_reason: 'stop' }] });
    });
    const client = clientOf(server.baseURL, { preflight: 'error' });
    const err = await rejection(() => client.chat.completions.create({ model: id, messages: USER, max_tokens: 100 }));
    expect((err as Error).name).toBe('PreflightError');
    expect(server.requests.slice(start).map((r) => r.method)).toEqual(['GET']);
  });

  it('a lookup that never answers: the call waits at most its timeout, then is sent unchecked', async () => {
    const start = server.requests.length;
    server.handle((req, res) => {
      if (req.method === 'GET') return; // never answers
      json(res, { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'sent' }, finish_reason: 'stop' }] });
    });
    const client = clientOf(server.baseURL, { preflight: 'error', timeout: 300 });
    const c = await client.chat.completions.create({ model: 'acme/slow-lookup', messages: USER, max_tokens: 100 });
    expect(c.choices[0]!.message.content).toBe('sent');
    expect(server.requests.slice(start).map((r) => r.method)).toEqual(['GET', 'POST']);
  });
});

describe('logging never changes how a call ends', () => {
  it('a logger that throws, or lacks the method for a level, loses its line, not the call', async () => {
    server.handle((_req, res) => json(res, { object: 'list', data: [] }));
    const throwing = { debug: () => { throw new Error('log full'); }, info: () => { throw new Error('log full'); }, warn: () => { throw new Error('log full'); }, error: () => { throw new Error('log full'); } };
    for (const logger of [throwing, { warn: () => {} }, {}]) {
      const client = clientOf(server.baseURL, { logLevel: 'debug', logger: logger as never });
      await expect(client.models.list()).resolves.toMatchObject({ object: 'list' });
    }
  });

  it('debug logs mask every query value and every credential-like header, and the key', async () => {
    server.handle((_req, res) => json(res, { object: 'list', data: [] }));
    const lines: string[] = [];
    const log = (...a: unknown[]) => void lines.push(a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' '));
    const client = clientOf(`${server.baseURL}?api-version=v-secret-1`, {
      logLevel: 'debug',
      logger: { debug: log, info: log, warn: log, error: log },
      defaultHeaders: { 'x-session-id': 'sess-secret-2', 'x-custom-auth': 'auth-secret-3' },
    });
    await client.models.list({ query: { token: 'tok-secret-4', plain: 'plain-secret-5' } });
    const all = lines.join('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [KEY, 'v-secret-1', 'sess-secret-2', 'auth-secret-3', 'tok-secret-4', 'plain-secret-5']) expect(all).not.toContain(secret);
  });
});

describe('JSON bodies (docs/reliability.md, fault table)', () => {
  it('a body larger than maxBodySize: ResponseValidationError with its start as raw; the connection let go', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"object":"list","data":[${'{"id":"m"},'.repeat(20_000)}`); // ~220 kB, never ended
    });
    const err = await rejection(() => clientOf(server.baseURL, { maxBodySize: 10_000 }).models.list());
    expect((err as Error).name).toBe('ResponseValidationError');
    expect(String((err as { raw?: unknown }).raw).startsWith('{"object":"list"')).toBe(true);
    expect(await Promise.race([server.requests.at(-1)!.closed.then(() => 'closed'), delay(15_000).then(() => 'open')])).toBe('closed');
  });

  it('an error body nested 200 000 deep: the status class, not retried because of its shape', async () => {
    const start = server.requests.length;
    server.handle((_req, res) => json(res, `{"error":${'['.repeat(200_000)}${']'.repeat(200_000)}}`, 400));
    const err = await rejection(() => clientOf(server.baseURL, { maxRetries: 2 }).models.list());
    expect((err as Error).name).toBe('BadRequestError');
    expect(server.requests.length - start).toBe(1);
  });

  it('JSON with a wrong content-type is read as JSON; an HTML 502 has its title as the message', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('{"object":"list","data":[]}');
    });
    await expect(clientOf(server.baseURL).models.list()).resolves.toMatchObject({ object: 'list' });
    server.handle((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>');
    });
    const err = await rejection(() => clientOf(server.baseURL).models.list());
    expect((err as Error).message).toContain('502 Bad Gateway');
  });
});
