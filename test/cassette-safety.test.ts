// Cassettes (issue 22, items 3 and 7), through startMockServer({ record / replay }) and the
// mock-server command: a cassette never holds a secret, in any encoding, nor a credential of the
// upstream URL's query; and a broken entry fails loudly at start, naming the cassette and the
// entry, instead of leaving a client waiting for bytes that never come.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { CommandIO } from '../src/cli/command';
import { runCli } from '../src/cli/run';
import { Client } from '../src/index';
import { startMockServer, type Cassette, type CassetteInteraction, type MockServer, type MockServerOptions } from '../src/testing';

const KEY = 'sk-upstream-3c8e1f7a9b2d-never-in-a-cassette';

const dir = mkdtempSync(path.join(tmpdir(), 'model-inference-sdk-cassettes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const opened: MockServer[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
async function start(options: MockServerOptions): Promise<MockServer> {
  const server = await startMockServer(options);
  opened.push(server);
  return server;
}
let files = 0;
const fileFor = (name: string): string => path.join(dir, `${name}-${files++}.json`);

/** An upstream that takes KEY, and a recorder in front of it writing `cassette`. */
async function recording(cassette: string, upstreamQuery = ''): Promise<{ upstream: MockServer; recorder: MockServer }> {
  const upstream = await start({ apiKeys: { [KEY]: 'all' } });
  const recorder = await start({ record: { upstream: `${upstream.url}${upstreamQuery}`, apiKey: KEY, cassette } });
  return { upstream, recorder };
}

/** What the recording client receives, as bytes (plain fetch: no SDK in between). */
async function fetchBytes(server: MockServer, route: string, body?: unknown): Promise<Uint8Array> {
  const response = await fetch(`${server.url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return new Uint8Array(await response.arrayBuffer());
}

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const utf16le = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf16le'));
/** Every way of reading bytes back as text that could show the key. */
const readings = (bytes: Uint8Array): string[] => [Buffer.from(bytes).toString('latin1'), Buffer.from(bytes).toString('utf8'), Buffer.from(bytes).toString('utf16le'), Buffer.from(bytes.subarray(1)).toString('utf16le')];

/** The cassette's text and every body in it decoded, checked for the key (and `more`) in every reading. */
function expectCassetteClean(file: string, ...more: string[]): Cassette {
  const text = readFileSync(file, 'utf8');
  const cassette = JSON.parse(text) as Cassette;
  const texts = [text, ...cassette.interactions.flatMap((i) => (i.response.base64 === undefined ? [] : readings(new Uint8Array(Buffer.from(i.response.base64, 'base64')))))];
  for (const secret of [KEY, ...more]) for (const t of texts) expect(t).not.toContain(secret);
  return cassette;
}

describe('a cassette never holds a secret (item 3)', () => {
  it('a non-UTF-8 error page quoting the key: masked in the bytes stored as base64, and in what the recording client gets', async () => {
    const cassette = fileFor('latin1');
    const { upstream, recorder } = await recording(cassette);
    // Latin-1: 'é' is the byte 0xE9, not UTF-8, so the body is stored as base64.
    upstream.enqueue({ status: 401, headers: { 'content-type': 'text/html; charset=iso-8859-1' }, body: latin1(`<h1>Clé refusée</h1><p>key ${KEY} is not valid</p>`) });
    const seen = await fetchBytes(recorder, '/models');
    for (const reading of readings(seen)) expect(reading).not.toContain(KEY);
    expect(Buffer.from(seen).toString('latin1')).toBe('<h1>Clé refusée</h1><p>key *** is not valid</p>');
    await recorder.close();
    const stored = expectCassetteClean(cassette);
    expect(stored.interactions[0]?.response.base64).toBeDefined();
  });

  it('nor in UTF-16, percent-encoded, hex or base64 (a Basic credential echoed back, base64url at another alignment)', async () => {
    const cassette = fileFor('encodings');
    const { upstream, recorder } = await recording(cassette);
    const basic = Buffer.from(`user:${KEY}`).toString('base64');
    const hex = Buffer.from(KEY).toString('hex');
    upstream.enqueue(
      { status: 400, headers: { 'content-type': 'text/plain; charset=utf-16le' }, body: utf16le(`bad key ${KEY}`) },
      { status: 400, body: { error: { message: 'echo', authorization: `Basic ${basic}`, url: `https://x.example/?k=${encodeURIComponent(KEY)}`, hex } } },
      { status: 400, headers: { 'content-type': 'text/plain' }, body: `${hex.toUpperCase()} ${Buffer.from(`xy${KEY}`).toString('base64url')}` },
    );
    for (let i = 0; i < 3; i++) {
      const seen = await fetchBytes(recorder, '/models');
      for (const reading of readings(seen)) for (const form of [KEY, basic, hex]) expect(reading).not.toContain(form);
    }
    await recorder.close();
    expectCassetteClean(cassette, basic, hex, hex.toUpperCase(), encodeURIComponent(KEY), Buffer.from(`xy${KEY}`).toString('base64url').slice(4, -4));
  });

  it('nor from a stream: the key whole (masked as it goes by, across network writes) or in pieces across deltas', async () => {
    const cassette = fileFor('stream');
    const { upstream, recorder } = await recording(cassette);
    const event = (content: string) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'mock/echo', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    const whole = event(`the key is ${KEY}!`);
    // One event written in two pieces, cut in the middle of the key.
    const cutAt = whole.indexOf(KEY) + 10;
    upstream.enqueue({ raw: [whole.slice(0, cutAt), whole.slice(cutAt), 'data: [DONE]\n\n'] });
    const seen = Buffer.from(await fetchBytes(recorder, '/chat/completions', { model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }], stream: true })).toString('utf8');
    expect(seen).not.toContain(KEY);
    expect(seen).toContain('the key is ***!');

    // A model repeating the key back, a few characters per delta.
    const pieces = ['your key: ', KEY.slice(0, 7), KEY.slice(7, 20), KEY.slice(20), ' (done)'];
    upstream.enqueue({ raw: [...pieces.map(event), 'event: end\ndata: [DONE]\n\n'] });
    await fetchBytes(recorder, '/chat/completions', { model: 'mock/echo', messages: [{ role: 'user', content: 'again' }], stream: true });
    await recorder.close();

    const stored = expectCassetteClean(cassette, KEY.slice(0, 7), KEY.slice(7, 20), KEY.slice(20));
    const events = stored.interactions[1]?.response.events ?? [];
    const contents = events.flatMap((e) => {
      const data = /^data: (\{.*\})$/m.exec(e)?.[1];
      return data === undefined ? [] : [(JSON.parse(data) as { choices: { delta: { content: string } }[] }).choices[0]?.delta.content];
    });
    expect(contents.join('')).toBe('your key: *** (done)');
    expect(contents).toHaveLength(pieces.length); // every event kept
    expect(events.at(-1)).toBe('event: end\ndata: [DONE]\n\n'); // untouched events keep their bytes
  });

  it('nor a credential-looking query value of the upstream URL, matched by a rule (key, token, code, sig, signature …)', async () => {
    const cassette = fileFor('query');
    const values = { api_key: 'qv-api-key-1', sig: 'qv-sas-sig-2', code: 'qv-oauth-code-3', 'X-Amz-Signature': 'qv-amz-sig-4', accessToken: 'qv-access-5', 'X-Amz-Credential': 'qv-amz-cred-6', client_secret: 'qv-client-7', auth_code: 'qv-auth-code-8' };
    const query = `?${new URLSearchParams({ ...values, 'api-version': '2024-06-01', limit: '5' }).toString()}`;
    const { upstream, recorder } = await recording(cassette, query);
    // The values are secrets wherever they are echoed, too.
    upstream.enqueue({ status: 400, body: { error: { message: `signed with ${values.sig} and ${values.code}` } } });
    const client = new Client({ apiKey: recorder.apiKey, baseURL: recorder.url, maxRetries: 0, logLevel: 'off' });
    await client.models.list().catch(() => undefined);
    // The client's own query credential is kept out too; a replay still matches the request.
    const listed = await fetch(`${recorder.url}/models?key=qv-client-own-9&limit=2`, { headers: { authorization: `Bearer ${recorder.apiKey}` } });
    expect(listed.status).toBe(200);
    expect(upstream.requests.at(-1)?.url).toContain('key=qv-client-own-9');
    await recorder.close();

    const stored = expectCassetteClean(cassette, ...Object.values(values), 'qv-client-own-9');
    const shown = new URL(stored.upstream);
    for (const name of Object.keys(values)) expect(shown.searchParams.get(name)).toBe('***');
    expect(shown.searchParams.get('api-version')).toBe('2024-06-01');
    expect(shown.searchParams.get('limit')).toBe('5');
    expect(stored.interactions[1]?.request.path).toBe('/models?key=***&limit=2');

    const replay = await start({ replay: cassette });
    const again = await fetch(`${replay.url}/models?key=another-value&limit=2`, { headers: { authorization: `Bearer ${replay.apiKey}` } });
    expect(again.status).toBe(200);
  });
});

describe('replay fails loudly on a broken entry (item 7)', () => {
  const ok: CassetteInteraction = { request: { method: 'GET', path: '/models', headers: {} }, response: { status: 200, headers: { 'content-type': 'application/json' }, body: { object: 'list', data: [] } } };
  const write = (name: string, interactions: unknown[]): string => {
    const file = fileFor(name);
    writeFileSync(file, JSON.stringify({ version: 1, upstream: 'https://api.example.com/v1', interactions }));
    return file;
  };
  const broken = (response: Record<string, unknown>, request: Record<string, unknown> = { method: 'POST', path: '/chat/completions', headers: {} }) => ({ request, response });

  it('a hand-edited content-length that the body disagrees with: an error naming the cassette and the entry, before any request', async () => {
    // 10 bytes short of what the header says: a client would wait for them until its timeout.
    const file = write('length', [ok, broken({ status: 200, headers: { 'content-type': 'application/json', 'content-length': '40' }, body: { ok: true, padding: 'xxxxxx' } })]);
    const error = await startMockServer({ replay: file }).then(
      async (server) => {
        await server.close();
        return undefined;
      },
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toContain(`the cassette ${file} has a broken entry, interactions[1] (POST /chat/completions)`);
    expect(error?.message).toContain("its content-length header says \"40\" bytes, but the body it holds is 30 bytes");
  });

  it('a content-length that agrees with the body is served as it is', async () => {
    const body = '{"object":"list","data":[]}';
    const file = write('length-ok', [{ ...ok, response: { ...ok.response, headers: { 'content-type': 'application/json', 'content-length': String(body.length) } } }]);
    const server = await start({ replay: file });
    const { data } = await new Client({ apiKey: server.apiKey, baseURL: server.url, maxRetries: 0, logLevel: 'off' }).models.list();
    expect(data).toEqual([]);
  });

  const cases: [string, unknown, string][] = [
    ['not an object', 'GET /models', 'it is not an object with a request and a response'],
    ['no request method', { request: { path: '/models' }, response: { status: 200, headers: {} } }, 'request.method must be an HTTP method, got undefined'],
    ['a path without its slash', { request: { method: 'GET', path: 'models' }, response: { status: 200, headers: {} } }, "request.path must be a path under the base URL starting with '/'"],
    ['a status no response can have', broken({ status: 700, headers: {} }), 'response.status must be an integer from 200 to 599, got 700'],
    ['a body in two fields', broken({ status: 200, headers: {}, body: {}, text: 'x' }), "response has the body in 'body' and 'text': keep one"],
    ['base64 that is not', broken({ status: 200, headers: {}, base64: 'not base64!' }), 'response.base64 is not base64'],
    ['events that are not strings', broken({ status: 200, headers: {}, events: [{ data: 1 }] }), 'response.events must be an array of strings'],
    ['delays that do not fit the events', broken({ status: 200, headers: {}, events: ['data: 1\n\n'], delays: [1, 2] }), 'response.delays must have one number per event (1), got 2'],
    ['a delay of days', broken({ status: 200, headers: {}, events: ['data: 1\n\n'], delays: [1e9] }), 'response.delays must be an array of numbers of ms, each from 0 to 600000'],
    ['a header with a line break', broken({ status: 200, headers: { 'x-note': 'a\r\nset-cookie: x' } }), "response.headers['x-note'] holds a control character or a line break"],
    ['a header name that is none', broken({ status: 200, headers: { 'bad name': 'x' } }), 'response.headers has a name that is not a header name: "bad name"'],
    ['a content-encoding over a decoded body', broken({ status: 200, headers: { 'content-encoding': 'gzip' }, text: 'plain' }), "response.headers has 'content-encoding', which a replay cannot honour"],
    ['a 204 with a body', broken({ status: 204, headers: {}, text: 'surprise' }), 'a 204 response has no body, but this one has 8 bytes'],
    ['a cut that is not true', broken({ status: 200, headers: {}, events: [], cut: 'yes' }), 'response.cut must be true or left out, got "yes"'],
  ];
  for (const [what, entry, message] of cases) {
    it(`${what}: the error names the cassette, the entry and what is wrong`, async () => {
      const file = write('broken', [ok, entry]);
      await expect(startMockServer({ replay: file })).rejects.toThrow(`the cassette ${file} has a broken entry, interactions[1]`);
      await expect(startMockServer({ replay: file })).rejects.toThrow(message);
    });
  }

  it('mock-server --replay says it in the CLI’s words and exits 1, without starting', async () => {
    const file = write('cli', [broken({ status: 200, headers: { 'content-length': '999' }, text: 'short' })]);
    let stderr = '';
    let stdout = '';
    const io: CommandIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), signal: new AbortController().signal, env: {} };
    const code = await runCli(['mock-server', '--port', '0', '--replay', file], io);
    expect(code).toBe(1);
    expect(stderr).toContain(`model-inference-sdk mock-server: the cassette ${file} has a broken entry, interactions[0] (POST /chat/completions): its content-length header says "999" bytes, but the body it holds is 5 bytes`);
    expect(stdout).toBe('');
  });
});
