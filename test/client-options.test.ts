import { inspect } from 'node:util';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, InferenceError, ResponseValidationError, type Logger } from '../src/index';
import { API_KEY, BASE_URL, testClient, useMsw } from './helpers';

const server = useMsw();

const MODEL = { id: 'acme/base', object: 'model', created: 1, owned_by: 'acme' };

/** Answer GET /models and remember each request. */
function captureModels(body: unknown = { object: 'list', data: [MODEL] }) {
  const seen: Request[] = [];
  server.use(
    http.get('*/models', ({ request }) => {
      seen.push(request.clone());
      return HttpResponse.json(body as never);
    }),
  );
  return seen;
}

function spyLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (...args: unknown[]) => void lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  return { lines, error: record, warn: record, info: record, debug: record };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('construction', () => {
  it('reads the key and base URL from INFERENCE_API_KEY and INFERENCE_BASE_URL', async () => {
    vi.stubEnv('INFERENCE_API_KEY', 'env-key');
    vi.stubEnv('INFERENCE_BASE_URL', 'http://env.test/v1/');
    const seen = captureModels();
    const client = new Client({ logLevel: 'off' });
    expect(client.baseURL).toBe('http://env.test/v1');
    await client.models.list();
    expect(seen[0]?.url).toBe('http://env.test/v1/models');
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer env-key');
  });

  it('fails without a key, saying both ways to set it', () => {
    vi.stubEnv('INFERENCE_API_KEY', '');
    expect(() => new Client({ baseURL: BASE_URL })).toThrow(InferenceError);
    expect(() => new Client({ baseURL: BASE_URL })).toThrow(/apiKey.*INFERENCE_API_KEY/);
  });

  it('fails without a base URL, saying both ways to set it', () => {
    vi.stubEnv('INFERENCE_BASE_URL', '');
    expect(() => new Client({ apiKey: 'k' })).toThrow(/baseURL.*INFERENCE_BASE_URL/);
  });

  it('rejects an unknown option and suggests the nearest name', () => {
    expect(() => new Client({ apiKey: 'k', baseUrl: BASE_URL } as never)).toThrow(
      /unknown option `baseUrl`\. Did you mean `baseURL`\?/,
    );
    expect(() => new Client({ apiKey: 'k', baseURL: BASE_URL, retries: 3 } as never)).toThrow(/unknown option `retries`/);
  });

  it.each([
    [{ timeout: -1 }, /timeout/],
    [{ timeout: Number.NaN }, /timeout/],
    [{ maxRetries: 1.5 }, /maxRetries/],
    [{ maxRetries: -1 }, /maxRetries/],
    [{ logLevel: 'verbose' }, /logLevel/],
    [{ validation: 'strict' }, /validation/],
    [{ baseURL: 'not a url' }, /baseURL.*not a valid URL/],
    [{ baseURL: 'ftp://host/v1' }, /http or https/],
    [{ baseURL: 'https://user:pw@host/v1' }, /credentials/],
    [{ fetch: 'nope' }, /fetch/],
    [{ defaultHeaders: { 'x-a': 'b\r\nx-evil: 1' } }, /line break/],
  ])('rejects invalid option %j', (bad, message) => {
    expect(() => new Client({ apiKey: 'k', baseURL: BASE_URL, ...(bad as object) })).toThrow(message);
  });

  it.each([
    [{ timeout: '5000' }, '`timeout` must be a number of milliseconds from 0 to 2147483647; got the string "5000".'],
    [{ maxRetries: '2' }, '`maxRetries` must be a whole number, 0 or more; got the string "2".'],
    [{ maxConcurrency: '4' }, '`maxConcurrency` must be a whole number above 0; got the string "4".'],
    [{ streamIdleTimeout: [1000] }, '`streamIdleTimeout` must be a number of milliseconds from 0 to 2147483647; got an object.'],
    [{ maxRetries: true }, '`maxRetries` must be a whole number, 0 or more; got a boolean.'],
    [{ maxRetries: 1.5 }, '`maxRetries` must be a whole number, 0 or more; got 1.5.'],
  ])('says what a numeric option %j was when it is not a number (a string from process.env does not read as in range)', (bad, message) => {
    expect(() => new Client({ apiKey: 'k', baseURL: BASE_URL, ...(bad as object) })).toThrow(new InferenceError(message));
  });

  it('says the same of a per-request numeric option', async () => {
    const client = new Client({ apiKey: 'k', baseURL: BASE_URL });
    await expect(client.models.list({ timeout: '5000' as never })).rejects.toThrow(
      new InferenceError('`timeout` must be a number of milliseconds from 0 to 2147483647; got the string "5000".'),
    );
  });

  it('rejects a key with a line break without quoting it', () => {
    let error: unknown;
    try {
      new Client({ apiKey: 'sk-secret\r\nx-evil: 1', baseURL: BASE_URL });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InferenceError);
    expect(String((error as Error).message)).not.toContain('sk-secret');
  });

  it('has the documented defaults', () => {
    const client = testClient();
    expect(client.timeout).toBe(600_000);
    expect(client.maxRetries).toBe(2);
  });

  it('refuses to run in a web page unless dangerouslyAllowBrowser is set', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => testClient()).toThrow(/dangerouslyAllowBrowser/);
    expect(() => testClient({ dangerouslyAllowBrowser: true })).not.toThrow();
  });

  describe("in a web page, a client of the page's own route needs no key", () => {
    const inPage = () => {
      vi.stubGlobal('window', {});
      vi.stubGlobal('document', {});
      vi.stubGlobal('location', { href: 'http://app.test/chat?x=1' });
    };

    it('takes a path as baseURL, on the page origin, and sends no Authorization header', async () => {
      inPage();
      const seen: Request[] = [];
      server.use(
        http.get('http://app.test/api/inference/v1/models', ({ request }) => {
          seen.push(request.clone());
          return HttpResponse.json({ object: 'list', data: [MODEL] });
        }),
      );
      const client = new Client({ baseURL: '/api/inference/v1', logLevel: 'off' });
      expect(client.baseURL).toBe('http://app.test/api/inference/v1');
      expect((await client.models.list()).data[0]?.id).toBe('acme/base');
      expect(seen).toHaveLength(1);
      expect(seen[0]!.headers.has('authorization')).toBe(false);
    });

    it('takes the page origin written out, but not another origin without a key', () => {
      inPage();
      expect(new Client({ baseURL: 'http://app.test/v1' }).baseURL).toBe('http://app.test/v1');
      expect(() => new Client({ baseURL: 'http://api.test/v1' })).toThrow(
        /Missing API key/,
      );
      // A protocol-relative URL is another origin too.
      expect(() => new Client({ baseURL: '//api.test/v1' })).toThrow(/Missing API key/);
    });

    it('still refuses a key in a page without dangerouslyAllowBrowser, even for its own route', () => {
      inPage();
      expect(() => new Client({ apiKey: API_KEY, baseURL: '/api/inference/v1' })).toThrow(
        /dangerouslyAllowBrowser/,
      );
      expect(() => new Client({ apiKey: API_KEY, baseURL: '/v1', dangerouslyAllowBrowser: true })).not.toThrow();
    });

    it('outside a page, a path is no base URL and a key is still required', () => {
      expect(() => new Client({ apiKey: API_KEY, baseURL: '/api/inference/v1' })).toThrow(/not a valid URL/);
      vi.stubGlobal('location', { href: 'http://app.test/' }); // Deno --location: no document, no page
      expect(() => new Client({ baseURL: 'http://app.test/v1' })).toThrow(/Missing API key/);
    });
  });

  it('never shows the key when the client is inspected or serialised', () => {
    const client = testClient();
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(API_KEY);
    expect(JSON.stringify(client)).not.toContain(API_KEY);
    expect(inspect(client.withOptions({ timeout: 1 }), { depth: 10 })).not.toContain(API_KEY);
  });
});

describe('requests', () => {
  it('sends the bearer key, JSON accept header and no telemetry headers', async () => {
    const seen = captureModels();
    await testClient().models.list();
    const headers = Object.fromEntries(seen[0]!.headers);
    expect(headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(headers.accept).toBe('application/json');
    expect(Object.keys(headers).filter((h) => /stainless|telemetry|x-sdk/i.test(h))).toEqual([]);
  });

  it('calls an async apiKey function before each request', async () => {
    const seen = captureModels();
    let n = 0;
    const client = testClient({ apiKey: async () => `rotating-${++n}` });
    await client.models.list();
    await client.models.list();
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer rotating-1', 'Bearer rotating-2']);
  });

  it('rejects an apiKey function that returns nothing usable', async () => {
    captureModels();
    await expect(testClient({ apiKey: () => '' }).models.list()).rejects.toThrow(/apiKey.*non-empty/);
  });

  it('merges default and per-request headers; null removes one', async () => {
    const seen = captureModels();
    const client = testClient({ defaultHeaders: { 'x-team': 'search', 'x-trace': 'on' } });
    await client.models.list({ headers: { 'x-trace': null, 'x-call': '1' } });
    expect(seen[0]!.headers.get('x-team')).toBe('search');
    expect(seen[0]!.headers.has('x-trace')).toBe(false);
    expect(seen[0]!.headers.get('x-call')).toBe('1');
  });

  it('lets a per-request header replace the authorization header (for gateways with their own scheme)', async () => {
    const seen = captureModels();
    await testClient().models.list({ headers: { authorization: null, 'api-key': 'gateway' } });
    expect(seen[0]!.headers.has('authorization')).toBe(false);
    expect(seen[0]!.headers.get('api-key')).toBe('gateway');
  });

  it('merges default and per-request query parameters; null removes one', async () => {
    const seen = captureModels();
    const client = testClient({ defaultQuery: { 'api-version': '2024-01', tenant: 'a' } });
    await client.models.list({ query: { tenant: null, page: 2 } });
    const url = new URL(seen[0]!.url);
    expect(url.searchParams.get('api-version')).toBe('2024-01');
    expect(url.searchParams.has('tenant')).toBe(false);
    expect(url.searchParams.get('page')).toBe('2');
  });

  it('leaves out a query parameter given as undefined, as openai does ({ ...defaultQuery, ...query })', async () => {
    const seen = captureModels();
    const client = testClient({
      baseURL: 'http://localhost:4010/v1?api-version=2024-01',
      defaultQuery: { 'api-version': '2024-06', tenant: 'a', team: 'docs' },
    });
    await client.models.list({ query: { 'api-version': undefined, tenant: undefined, page: undefined } });
    expect([...new URL(seen[0]!.url).searchParams]).toEqual([['team', 'docs']]);
    // Over the base URL's own query too, as openai's { ...pathQuery, ...defaultQuery } does.
    await client.withOptions({ defaultQuery: { 'api-version': undefined } }).models.list();
    expect([...new URL(seen[1]!.url).searchParams]).toEqual([]);
  });

  it('uses the fetch option, with fetchOptions merged from client and request', async () => {
    const calls: RequestInit[] = [];
    const fetchSpy: typeof fetch = async (_input, init) => {
      calls.push(init ?? {});
      return Response.json({ object: 'list', data: [] });
    };
    const client = testClient({ fetch: fetchSpy, fetchOptions: { cache: 'no-store', keepalive: true } });
    await client.models.list({ fetchOptions: { keepalive: false } });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'GET', cache: 'no-store', keepalive: false });
  });

  it('rejects unknown per-request options at the call site', async () => {
    await expect(testClient().models.list({ timout: 5 } as never)).rejects.toThrow(/unknown option `timout`\. Did you mean `timeout`\?/);
  });

  it('withOptions returns a changed copy and leaves the original alone', async () => {
    const seen = captureModels();
    const client = testClient({ defaultHeaders: { 'x-a': '1' } });
    const other = client.withOptions({ timeout: 5_000, defaultHeaders: { 'x-b': '2' } });
    expect(other).not.toBe(client);
    expect(other.timeout).toBe(5_000);
    expect(client.timeout).toBe(600_000);
    await other.models.list();
    expect(seen[0]!.headers.get('x-b')).toBe('2');
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });
});

describe('logging', () => {
  it('logs requests at debug level with the key redacted', async () => {
    captureModels();
    const logger = spyLogger();
    await testClient({ logLevel: 'debug', logger }).models.list();
    expect(logger.lines.join('\n')).toContain('GET http://api.test/v1/models');
    expect(logger.lines.join('\n')).toContain('"authorization":"***"');
    expect(logger.lines.join('\n')).not.toContain(API_KEY);
  });

  it('takes its level from INFERENCE_LOG', async () => {
    vi.stubEnv('INFERENCE_LOG', 'debug');
    captureModels();
    const logger = spyLogger();
    await new Client({ apiKey: API_KEY, baseURL: BASE_URL, logger }).models.list();
    expect(logger.lines.length).toBeGreaterThan(0);
  });

  it('logs nothing at level off', async () => {
    captureModels();
    const logger = spyLogger();
    await testClient({ logLevel: 'off', logger }).models.list();
    expect(logger.lines).toEqual([]);
  });
});

describe('validation option', () => {
  const bad = { object: 'list', data: [{ object: 'model' }] }; // a model without its id

  it("'error' (default) throws ResponseValidationError with the path and the raw body", async () => {
    captureModels(bad);
    const error = await testClient().models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const v = error as ResponseValidationError;
    expect(v.issues[0]).toMatchObject({ path: 'data[0].id', received: undefined });
    expect(v.raw).toEqual(bad);
    expect(v.message).toMatch(/^200 GET \/v1\/models: .*data\[0\]\.id/);
  });

  it("'warn' logs and returns the body as received", async () => {
    captureModels(bad);
    const logger = spyLogger();
    const list = await testClient({ validation: 'warn', logger, logLevel: 'warn' }).models.list();
    expect(list).toEqual(bad);
    expect(logger.lines.join()).toMatch(/data\[0\]\.id/);
  });

  it("'off' returns the body unchecked", async () => {
    captureModels(bad);
    await expect(testClient({ validation: 'off' }).models.list()).resolves.toEqual(bad);
  });
});
