// The key through every channel an error, a log or a hook offers. The promise (README "Errors and
// retries", docs/reliability.md "The key never escapes", docs/errors-and-retries.md): the key "is
// replaced by `***` wherever it occurs: the message and stack, the parsed body (`error`), `raw`,
// the response headers, the whole `cause` chain ..., and so in `util.inspect`, `console.log` and
// `JSON.stringify` of the error"; "every log line at every level"; "Hooks never see the API key".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { APIConnectionError, APIError, HookError, InferenceError, OutputParseError, ResponseValidationError, type Logger } from '../../src/index';
import { zodResponseFormat } from '../../src/helpers/zod';
import { clientOf, completion, dump, json, KEY, rejection, serve, sse, textChunks, USER, within, type TestServer } from './support';

let server: TestServer;
beforeAll(async () => {
  server = await serve((_req, res) => json(res, { object: 'list', data: [] }));
});
afterAll(() => server.close());

/** A client whose `fetch` option rejects with `reason`. */
const failingFetch = (reason: unknown) => clientOf(server.baseURL, { fetch: (async () => Promise.reject(reason)) as typeof fetch });

describe('a fetch option whose error carries the key', () => {
  // Issue 29 item 1 (the outside round): regression checks, one per container.
  class AxiosLikeHeaders {
    Authorization = `Bearer ${KEY}`;
  }
  // Issue 29 §1: the cause chain is masked in util.inspect whatever carries the key: a class instance, Map, Set or URL.
  it.each([
    ['a class instance', () => ({ headers: new AxiosLikeHeaders() })],
    ['a Map', () => new Map([['authorization', `Bearer ${KEY}`]])],
    ['a Set', () => new Set([`Bearer ${KEY}`])],
    ['a URL', () => new URL(`https://proxy.example/?key=${KEY}`)],
  ])('in %s inside the cause', async (_name, container) => {
    const err = await rejection(() => failingFetch(new TypeError('fetch failed', { cause: { config: container() } })).models.list());
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(dump(err)).not.toContain(KEY);
  });

  // Node's own fetch reports a refused dual-stack connection as an AggregateError whose `errors`
  // util.inspect prints: the errors of an AggregateError are part of what console.log shows.
  it('in the errors of an AggregateError cause', async () => {
    const cause = new AggregateError([new Error(`connect ECONNREFUSED (Bearer ${KEY})`)], 'all attempts failed');
    const err = await rejection(() => failingFetch(new TypeError('fetch failed', { cause })).models.list());
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(dump(err)).not.toContain(KEY);
  });

  it('as a string cause', async () => {
    const err = await rejection(() => failingFetch(new TypeError('fetch failed', { cause: `proxy said: Bearer ${KEY}` })).models.list());
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(dump(err)).not.toContain(KEY);
  });

  it('only in a cause\'s stack', async () => {
    const cause = new Error('upstream failed');
    cause.stack = `Error: upstream failed (Authorization: Bearer ${KEY})\n    at proxy (proxy.js:1:1)`;
    const err = await rejection(() => failingFetch(new TypeError('fetch failed', { cause })).models.list());
    expect(dump(err)).not.toContain(KEY);
  });

  it('when fetch rejects with a bare string or a plain object (not an Error)', async () => {
    for (const reason of [`failed: Bearer ${KEY}`, { message: 'failed', headers: { authorization: `Bearer ${KEY}` } }]) {
      const err = await rejection(() => failingFetch(reason).models.list());
      expect(err).toBeInstanceOf(APIConnectionError);
      expect(dump(err)).not.toContain(KEY);
    }
  });

  // Masking walks what the user's fetch threw: a getter that throws, a cycle, a chain thousands
  // deep must not turn a connection error into another exception or a hang, nor leave the key.
  const hostileCauses: [string, () => unknown][] = [
    ['an Error with a throwing getter', () => {
      const hostile = new Error(`Bearer ${KEY}`);
      Object.defineProperty(hostile, 'config', { enumerable: true, get: () => { throw new Error('getter says no'); } });
      return hostile;
    }],
    ['a chain of 10 000 causes', () => {
      let deep: Error = new Error(`bottom ${KEY}`);
      for (let i = 0; i < 10_000; i++) deep = new Error(`level ${i}`, { cause: deep });
      return deep;
    }],
  ];
  it.each(hostileCauses)('in %s', async (_name, make) => {
    const result = await within(rejection(() => failingFetch(new TypeError('fetch failed', { cause: make() })).models.list()), 15_000);
    expect(result).not.toBe('pending');
    const err = (result as { value: unknown }).value;
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(dump(err)).not.toContain(KEY);
  });

  // Plain objects in the cause chain are masked at any depth, one that refers to itself too (its copy refers to the copy).
  it('in a plain object with a cycle', async () => {
    const cyclic: Record<string, unknown> = { token: KEY };
    cyclic['self'] = cyclic;
    const err = await rejection(() => failingFetch(new TypeError('fetch failed', { cause: { config: cyclic } })).models.list());
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(dump(err)).not.toContain(KEY);
  });
});

describe('a server that echoes the key', () => {
  it('in x-request-id on an error: requestId and inspect', async () => {
    server.handle((_req, res) => json(res, { error: { message: 'Incorrect API key', type: 'invalid_request_error' } }, 401, { 'x-request-id': `req-${KEY}` }));
    const err = await rejection(() => clientOf(server.baseURL).models.list());
    expect(err).toBeInstanceOf(APIError);
    expect(String((err as APIError).requestId)).not.toContain(KEY);
    expect(dump(err)).not.toContain(KEY);
  });

  // The error's `type`, `code` and `param` come from the body, which is masked: a key in them is masked too.
  it('as the code, type and param of an error body', async () => {
    server.handle((_req, res) => json(res, { error: { message: 'bad', type: `t-${KEY}`, code: `c-${KEY}`, param: `p-${KEY}` } }, 400));
    const err = (await rejection(() => clientOf(server.baseURL).models.list())) as APIError;
    expect([err.type, err.code, err.param].join(' ')).not.toContain(KEY);
    expect(dump(err)).not.toContain(KEY);
  });

  // The body (`error`) is masked wherever the key occurs, a property name included.
  it('as an object key (a property name) of an error body', async () => {
    server.handle((_req, res) => json(res, { error: { message: 'invalid credentials', details: { [KEY]: 'revoked' } } }, 401));
    const err = await rejection(() => clientOf(server.baseURL).models.list());
    expect(err).toBeInstanceOf(APIError);
    expect(dump(err)).not.toContain(KEY);
  });

  // hooks.md: "A reply that quotes the key ... reaches onEnd (summary.data) and onChunk as a masked copy".
  it('as a property name of a 2xx body: the masked copy onEnd gets', async () => {
    server.handle((_req, res) => json(res, { object: 'list', data: [], [KEY]: true }));
    const seen: string[] = [];
    await clientOf(server.baseURL, { hooks: { onEnd: (summary) => void seen.push(dump(summary.data)) } }).models.list();
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toContain(KEY);
  });

  it("in a 2xx body that fails validation: the ResponseValidationError's issues", async () => {
    server.handle((_req, res) => json(res, { object: 'list', data: `not a list: ${KEY}` }));
    const err = await rejection(() => clientOf(server.baseURL).models.list());
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(dump(err)).not.toContain(KEY);
  });

  it("with validation: 'warn', in the warning logged about such a body", async () => {
    const lines: string[] = [];
    const logger: Logger = { debug: (...a) => lines.push(dump(a)), info: (...a) => lines.push(dump(a)), warn: (...a) => lines.push(dump(a)), error: (...a) => lines.push(dump(a)) };
    server.handle((_req, res) => json(res, { object: 'list', data: `not a list: ${KEY}` }));
    await clientOf(server.baseURL, { validation: 'warn', logLevel: 'debug', logger }).models.list();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  // "every error's message, stack, body (`error`), `raw` ...": OutputParseError carries `raw` and
  // `completion`; a model that repeats the key into a structured output must not print it.
  it("as a model's structured output that fails its schema: OutputParseError", async () => {
    server.handle((_req, res) => json(res, completion({ content: JSON.stringify({ city: KEY, celsius: 'warm' }) })));
    const err = await rejection(() =>
      clientOf(server.baseURL).chat.completions.parse({
        model: 'acme/chat-1',
        messages: USER,
        response_format: zodResponseFormat(z.object({ city: z.string(), celsius: z.number() }), 'weather'),
      }),
    );
    expect(err).toBeInstanceOf(OutputParseError);
    expect(dump(err)).not.toContain(KEY);
  });
  // The same with streaming: stream() and parse({ stream: true }) parse when the stream ends.
  it.each(['stream()', 'parse({ stream: true })'])("as a streamed structured output that fails its schema, through %s: OutputParseError", async (how) => {
    server.handle((_req, res) => sse(res, textChunks([JSON.stringify({ city: KEY, celsius: 'warm' })])));
    const body = { model: 'acme/chat-1', messages: USER, response_format: zodResponseFormat(z.object({ city: z.string(), celsius: z.number() }), 'weather') };
    const completions = clientOf(server.baseURL).chat.completions;
    const err = await rejection(async () =>
      (how === 'stream()' ? completions.stream(body) : await completions.parse({ ...body, stream: true })).finalChatCompletion(),
    );
    expect(err).toBeInstanceOf(OutputParseError);
    expect(dump(err)).not.toContain(KEY);
  });
});

describe('what the caller itself hands over', () => {
  it('a hook that throws an error quoting the key: the HookError', async () => {
    server.handle((_req, res) => json(res, { object: 'list', data: [] }));
    const client = clientOf(server.baseURL, { hooks: { name: 'signer', beforeRequest: () => { throw new Error(`could not sign with ${KEY}`); } } });
    const err = await rejection(() => client.models.list());
    expect(err).toBeInstanceOf(HookError);
    expect(dump(err)).not.toContain(KEY);
  });

  // hooks.md: "Hooks never see the API key." A header the caller sets to the key under a name the
  // credential rule does not know still carries the key.
  it('a default header that carries the key under a plain name: beforeRequest never sees it', async () => {
    server.handle((_req, res) => json(res, { object: 'list', data: [] }));
    const seen: string[] = [];
    const client = clientOf(server.baseURL, {
      defaultHeaders: { 'x-forwarded-credential-for': KEY },
      hooks: { beforeRequest: (request) => void seen.push(dump([...request.headers])) },
    });
    await client.models.list();
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toContain(KEY);
    expect(server.requests.at(-1)!.headers['x-forwarded-credential-for']).toBe(KEY); // still sent
  });

  // A key with every character a regular expression or a replacement string treats specially.
  it('a key full of regular-expression and replacement characters is masked, and masks nothing else', async () => {
    const key = 'sk-(a+)[b]*?{2}|^$&$1.\\d';
    server.handle((_req, res) => json(res, { error: { message: `Incorrect API key provided: ${key}.` } }, 401));
    const err = await rejection(() => clientOf(server.baseURL, { apiKey: key }).models.list());
    expect(err).toBeInstanceOf(APIError);
    expect(err).toBeInstanceOf(InferenceError);
    expect(dump(err)).not.toContain(key);
    expect((err as Error).message).toContain('Incorrect API key provided: ***.');
  });
});

// A server or a gateway in front of it may echo the key in another form than it was sent: a key
// with spaces around it arrives without them, a gateway quotes it percent-encoded (from a URL) or
// base64-encoded (in Basic or Bearer credentials). Each form is masked as the key is.
describe('the key echoed in another form', () => {
  const key = 'sk-ab+cd/ef=gh_7Hq2Lm9Xz4Pw';
  const forms: [string, string, string][] = [
    ['percent-encoded', key, encodeURIComponent(key)],
    ['percent-encoded in lower case', key, encodeURIComponent(key).replace(/%../g, (e) => e.toLowerCase())],
    ['base64 in Bearer credentials', key, btoa(`Bearer ${key}`)],
    ['base64 in Basic credentials (URL-safe alphabet)', key, btoa(`user:${key}`).replaceAll('+', '-').replaceAll('/', '_')],
    ['trimmed (a key pasted with blanks around it, which the header drops)', `\t${key}  `, key],
  ];
  it.each(forms)('%s: the error, its headers and every log line', async (_name, apiKey, echoed) => {
    server.handle((_req, res) => json(res, { error: { message: `key ${echoed} is revoked` } }, 401, { 'x-request-id': echoed, 'www-authenticate': `Bearer error="${echoed}"` }));
    const lines: string[] = [];
    const log = (...a: unknown[]) => void lines.push(dump(a));
    const err = await rejection(() => clientOf(server.baseURL, { apiKey, logLevel: 'debug', logger: { debug: log, info: log, warn: log, error: log } }).models.list());
    expect(err).toBeInstanceOf(APIError);
    expect((err as Error).message).toMatch(/^401 GET \/v1\/models: key \S*\*\*\*\S* ?is revoked$/);
    expect(lines.length).toBeGreaterThan(0);
    for (const text of [dump(err), dump([...(err as APIError).headers!]), lines.join('\n')]) {
      expect(text).not.toContain(echoed);
      expect(text).not.toContain(key);
    }
  });
});

// A key shorter than 4 characters (util/mask.ts MIN_SECRET: no real key is that short) is not
// masked in text, where it would turn every word into ***; it is still kept out of what the SDK
// itself writes: the Authorization header in debug logs, and the Request hooks get.
describe('a key of 1 to 3 characters', () => {
  it.each(['k', 'sk', 'e.*'])('%s: not in a debug log line or a hook, and ordinary text left whole', async (apiKey) => {
    server.handle((_req, res) => json(res, { error: { message: 'The model acme/kestrel-sk-e.* is not available.' } }, 404));
    const lines: string[] = [];
    const seen: string[] = [];
    const log = (...a: unknown[]) => void lines.push(dump(a));
    const client = clientOf(server.baseURL, { apiKey, logLevel: 'debug', logger: { debug: log, info: log, warn: log, error: log }, hooks: { beforeRequest: (request) => void seen.push(dump([...request.headers])) } });
    const err = await rejection(() => client.models.retrieve('acme/kestrel'));
    expect((err as Error).message).toContain('The model acme/kestrel-sk-e.* is not available.');
    expect(server.requests.at(-1)!.headers['authorization']).toBe(`Bearer ${apiKey}`);
    expect(seen).toHaveLength(1);
    expect(lines.join('\n')).toMatch(/authorization/i);
    for (const text of [...lines, ...seen]) expect(text).not.toContain(`Bearer ${apiKey}`);
  });
});

// An error page in UTF-16 (charset=utf-16, as some Windows servers send): the body is read as
// UTF-8, so the key shows with a NUL between its characters, which a terminal drops.
it.each(['little', 'big'])('the key in a UTF-16 (%s-endian) error page: masked in the error', async (order) => {
  const page = Buffer.from(`<p>Bad key ${KEY}</p>`, 'utf16le');
  server.handle((_req, res) => {
    res.writeHead(401, { 'content-type': 'text/html; charset=utf-16' });
    res.end(order === 'big' ? page.swap16() : page);
  });
  const err = await rejection(() => clientOf(server.baseURL).models.list());
  expect(err).toBeInstanceOf(APIError);
  const text = dump(err).replace(/\\x00|\\u0000|\0/g, '');
  expect(text).toContain('Bad key ***');
  expect(text).not.toContain(KEY);
});

describe('a rotated key (an apiKey function) is masked too', () => {
  it("a server echoing each attempt's key: neither key in the error, beforeRetry's error or a log line", async () => {
    const keys = ['sk-rotated-first-1111aaaa', 'sk-rotated-second-2222bbbb'];
    let i = 0;
    server.handle((req, res) => json(res, { error: { message: `key ${String(req.headers.authorization)} is overloaded` } }, 503, { 'retry-after-ms': '0' }));
    const seen: string[] = [];
    const log = (...a: unknown[]) => void seen.push(dump(a));
    const client = clientOf(server.baseURL, {
      apiKey: () => keys[Math.min(i++, 1)]!,
      maxRetries: 1,
      logLevel: 'debug',
      logger: { debug: log, info: log, warn: log, error: log },
      hooks: { beforeRetry: ({ error }) => void seen.push(dump(error)), onError: (error) => void seen.push(dump(error)) },
    });
    const err = await rejection(() => client.models.list());
    seen.push(dump(err));
    const all = seen.join('\n');
    expect(all).toContain('***');
    for (const key of keys) expect(all).not.toContain(key);
  });
});

// A copy with a new key (a rotation: `withOptions({ apiKey })`) may still meet the old one: a
// server or a gateway quoting the key it had before, a fetch wrapper's cached error.
describe('a withOptions copy with another key masks both keys', () => {
  const next = 'sk-rotated-next-9f8e7d6c5b4a';
  it.each([
    ['a string', next],
    ['a function', async () => next],
  ])('the new key as %s: the error and every log line', async (_name, apiKey) => {
    server.handle((_req, res) => json(res, { error: { message: `key ${KEY} was replaced by ${next}` } }, 401));
    const lines: string[] = [];
    const log = (...a: unknown[]) => void lines.push(dump(a));
    const copy = clientOf(server.baseURL, { logLevel: 'debug', logger: { debug: log, info: log, warn: log, error: log } }).withOptions({ apiKey });
    const err = await rejection(() => copy.models.list());
    expect((err as Error).message).toContain('key *** was replaced by ***');
    expect(server.requests.at(-1)!.headers['authorization']).toBe(`Bearer ${next}`);
    expect(lines.length).toBeGreaterThan(0);
    for (const text of [dump(err), ...lines]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(next);
    }
  });
});

describe('no credential crosses origins (docs/errors-and-retries.md, "Redirects")', () => {
  let other: TestServer;
  beforeAll(async () => {
    other = await serve((_req, res) => json(res, { object: 'list', data: [] }));
  });
  afterAll(() => other.close());

  const credentialHeaders = { 'x-api-key': 'c-1', 'api-key': 'c-2', 'x-goog-api-key': 'c-3', 'x-auth-token': 'c-4', cookie: 'c=5', 'x-client-secret': 'c-6', 'x-session': 'c-7' };

  it.each([
    ['another port', () => `${other.origin}/v1/models`],
    ['localhost instead of 127.0.0.1 (same port: another origin all the same)', () => `${server.origin.replace('127.0.0.1', 'localhost')}/v1/models`],
  ])('a redirect to %s: followed without Authorization or any credential-like header', async (_name, target) => {
    const start = server.requests.length;
    const otherStart = other.requests.length;
    server.handle((req, res) => {
      if (req.headers.host?.startsWith('localhost')) return json(res, { object: 'list', data: [] });
      res.writeHead(307, { location: target() });
      res.end();
    });
    await clientOf(server.baseURL, { defaultHeaders: { ...credentialHeaders, 'x-tenant': 'acme' } }).models.list();
    const hop = [...other.requests.slice(otherStart), ...server.requests.slice(start + 1)].at(-1)!;
    expect(hop).toBeDefined();
    expect(hop.headers['x-tenant']).toBe('acme');
    for (const name of ['authorization', ...Object.keys(credentialHeaders)]) expect(hop.headers[name], name).toBeUndefined();
    expect(JSON.stringify(hop.headers)).not.toContain(KEY);
  });

  it('a redirect loop: an APIError with the 3xx status after at most 20 redirects', async () => {
    const start = server.requests.length;
    server.handle((_req, res) => {
      res.writeHead(302, { location: `${server.baseURL}/models?hop=${server.requests.length}` });
      res.end();
    });
    const result = await within(rejection(() => clientOf(server.baseURL).models.list()), 20_000);
    const err = (result as { value: APIError }).value;
    expect(err).toBeInstanceOf(APIError);
    expect(err.status).toBe(302);
    expect(server.requests.length - start).toBeLessThanOrEqual(21);
  });

  it('303 after a POST continues as a GET without the body', async () => {
    const start = server.requests.length;
    server.handle((req, res) => {
      if (req.method === 'POST') {
        res.writeHead(303, { location: `${server.baseURL}/result` });
        return res.end();
      }
      json(res, completion({ content: 'after 303' }));
    });
    const c = await clientOf(server.baseURL).chat.completions.create({ model: 'acme/chat-1', messages: USER });
    expect(c.choices[0]!.message.content).toBe('after 303');
    const hop = server.requests[start + 1]!;
    expect(hop.method).toBe('GET');
    expect(hop.body).toBe('');
  });
});
