// The checks every runtime runs against the local mock server, through the *packed* SDK.
//
// This file never imports the SDK itself: each runtime's entry imports `model-inference-sdk` (the
// installed tarball) and passes the module in, so the same checks run on Node, Bun, Deno, workerd,
// edge-runtime and Chromium. The `import type` below is erased at build time; it only lets tsc
// check this file against the public API. Web-standard globals only (no node:*, no process).
import type * as SDK from '../../src/index';
import { ROUTE_CHECK_NAMES, runRouteChecks, type ProxyModule } from './route-checks';

export type Sdk = typeof SDK;

export interface CheckConfig {
  /** Mock server base URL, ending in /v1. */
  baseURL: string;
  apiKey: string;
  /** Short id of the runtime (`node22`, `deno`, ...): tags the requests of the cancel checks. */
  runtime: string;
  /** True in a web page: the client must refuse to construct without `dangerouslyAllowBrowser`. */
  browser: boolean;
  /**
   * Base URL of the harness's watching proxy (in front of the same mock server). With it, the abort
   * and break checks go through the proxy and then ask it (`GET /__watch/cut`) whether the
   * response was cut off by the client while the server was still sending. Without it (the
   * tarball smoke of check:package), they go to baseURL and only the client side is checked.
   */
  watchURL?: string;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  ms: number;
  detail?: string;
}

export interface RuntimeReport {
  /** What the runtime says it is, e.g. `node 22.23.3`, `deno 2.9.6`, a user agent. */
  runtime: string;
  results: CheckResult[];
  /** In a page: everything its Client read of the route, for the driver to look for the key in. */
  seen?: string[];
}

/** The check names, in the order they run (the harness prints them as table columns). */
export const CHECK_NAMES = [
  'browser guard',
  'models.list',
  'chat',
  'stream',
  'abort',
  'break',
  'NotFoundError',
  'hooks',
  'read-back abort',
  ...ROUTE_CHECK_NAMES,
] as const;

/** Text of the request the cancel checks send: the proxy finds the request by this marker. */
export function cancelMarker(runtime: string, check: 'abort' | 'break' | 'route-abort'): string {
  return `[rt-check ${runtime} ${check}]`;
}

/** What the watching proxy answers at `GET /__watch/cut?runtime=&check=`. */
export interface CutReport {
  /** Marked requests seen (a retry would make this 2). */
  seen: number;
  /** The client closed the connection while the server was still sending. */
  cut: boolean;
  /** The server finished the response: nobody cancelled it. */
  ended: boolean;
}

/**
 * Waits (up to 3 s) until the proxy has seen the response cut off. Asked from inside the runtime,
 * before it moves on or exits, so a process exit cannot pass for a cancel.
 */
async function expectCut(config: CheckConfig, check: 'abort' | 'break' | 'route-abort'): Promise<void> {
  if (config.watchURL === undefined) return;
  const url = new URL('/__watch/cut', config.watchURL);
  url.searchParams.set('runtime', config.runtime);
  url.searchParams.set('check', check);
  const deadline = Date.now() + 3_000;
  for (;;) {
    const report = (await (await fetch(url)).json()) as CutReport;
    if (report.seen !== 1)
      throw new Error(`the server saw ${report.seen} ${check} requests, expected 1`);
    if (report.ended)
      throw new Error(
        `${check} did not cancel the HTTP request: the server sent the whole response`,
      );
    if (report.cut) return;
    if (Date.now() > deadline) throw new Error(`${check}: the connection was still open 3 s later`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Long enough that the reply streams for about a second at the harness's chunk delay, so a cancel
// after the second chunk is unambiguously mid-stream.
const LONG_PROMPT = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');

export async function runChecks(sdk: Sdk, config: CheckConfig, proxy?: ProxyModule): Promise<RuntimeReport> {
  const options = {
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    maxRetries: 0,
    timeout: 20_000,
  };
  const watched = { ...options, baseURL: config.watchURL ?? config.baseURL };
  // In a page the plain construction must throw, so every later check opts in explicitly.
  const extra = config.browser ? { dangerouslyAllowBrowser: true } : {};
  const results: CheckResult[] = [];

  const check = async (
    name: (typeof CHECK_NAMES)[number],
    body: () => Promise<void>,
  ): Promise<void> => {
    const started = Date.now();
    try {
      await body();
      results.push({ name, ok: true, ms: Date.now() - started });
    } catch (error) {
      results.push({ name, ok: false, ms: Date.now() - started, detail: describeError(error) });
    }
  };

  await check('browser guard', async () => {
    if (config.browser) {
      let thrown: unknown;
      try {
        new sdk.Client(options);
      } catch (error) {
        thrown = error;
      }
      if (!(thrown instanceof sdk.InferenceError)) {
        throw new Error(
          `new Client() in a page should throw InferenceError; got ${describeError(thrown)}`,
        );
      }
      if (!thrown.message.includes('dangerouslyAllowBrowser')) {
        throw new Error(
          `the browser error should name dangerouslyAllowBrowser; got: ${thrown.message}`,
        );
      }
      new sdk.Client({ ...options, dangerouslyAllowBrowser: true });
    } else {
      // Not a browser: no flag needed (and no env access needed: key and URL are given).
      new sdk.Client(options);
    }
  });

  const client = new sdk.Client({ ...options, ...extra });
  const watchedClient = new sdk.Client({ ...watched, ...extra });

  await check('models.list', async () => {
    const list = await client.models.list();
    const ids = list.data.map((m) => m.id);
    if (!ids.includes('mock/echo'))
      throw new Error(`mock/echo missing from ${JSON.stringify(ids)}`);
  });

  await check('chat', async () => {
    const completion = await client.chat.completions.create({
      model: 'mock/echo',
      messages: [{ role: 'user', content: 'hello world' }],
    });
    expectEqual(completion.choices[0]?.message?.content, 'You said: hello world');
  });

  await check('stream', async () => {
    const stream = await client.chat.completions.create({
      model: 'mock/echo',
      messages: [{ role: 'user', content: 'hello world' }],
      stream: true,
    });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices?.[0]?.delta?.content ?? '';
    }
    expectEqual(text, 'You said: hello world');
    if (chunks < 2) throw new Error(`expected several chunks, got ${chunks}`);
  });

  await check('abort', async () => {
    const stream = await watchedClient.chat.completions.create({
      model: 'mock/echo',
      messages: [
        { role: 'user', content: `${cancelMarker(config.runtime, 'abort')} ${LONG_PROMPT}` },
      ],
      stream: true,
    });
    let chunks = 0;
    let finished = false;
    let thrown: unknown;
    try {
      for await (const chunk of stream) {
        chunks++;
        if (chunk.choices?.[0]?.finish_reason) finished = true;
        if (chunks === 2) stream.controller.abort();
      }
    } catch (error) {
      thrown = error;
    }
    if (thrown === undefined)
      throw new Error(`the loop ended normally after ${chunks} chunks; expected APIUserAbortError`);
    if (!(thrown instanceof sdk.APIUserAbortError)) {
      throw new Error(`expected APIUserAbortError, got ${describeError(thrown)}`);
    }
    // Chunks already received may still be delivered after abort(); the end must not be.
    if (finished)
      throw new Error(`abort was not mid-stream: the stream finished (${chunks} chunks)`);
    await expectCut(config, 'abort');
  });

  await check('break', async () => {
    const stream = await watchedClient.chat.completions.create({
      model: 'mock/echo',
      messages: [
        { role: 'user', content: `${cancelMarker(config.runtime, 'break')} ${LONG_PROMPT}` },
      ],
      stream: true,
    });
    let chunks = 0;
    for await (const _chunk of stream) {
      if (++chunks === 2) break;
    }
    if (chunks !== 2) throw new Error(`expected to break after 2 chunks, saw ${chunks}`);
    await expectCut(config, 'break');
  });

  await check('NotFoundError', async () => {
    let thrown: unknown;
    try {
      await client.chat.completions.create({
        model: 'mock/no-such-model',
        messages: [{ role: 'user', content: 'hi' }],
      });
    } catch (error) {
      thrown = error;
    }
    if (!(thrown instanceof sdk.NotFoundError))
      throw new Error(`expected NotFoundError, got ${describeError(thrown)}`);
    expectEqual(thrown.status, 404);
  });

  await check('hooks', async () => {
    // The hook runner is loaded with import() at the first call that has hooks: here, in each runtime.
    const seen: string[] = [];
    const hooks: SDK.Hooks = {
      beforeRequest(request, info) {
        if (request.headers.has('authorization')) throw new Error('a hook saw the Authorization header');
        request.headers.set('x-check', 'hooks');
        seen.push(`beforeRequest ${info.operation} ${info.attempt}`);
      },
      afterResponse: (response) => void seen.push(`afterResponse ${response.status}`),
      onChunk: () => void (seen.at(-1) === 'onChunk' || seen.push('onChunk')),
      onEnd: (summary) => void seen.push(`onEnd ${summary.outcome} ${summary.finishReasons.join(',')} ${summary.chunks! > 1}`),
    };
    const hooked = new sdk.Client({ ...options, ...extra, hooks });
    const stream = await hooked.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello world' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices?.[0]?.delta?.content ?? '';
    expectEqual(text, 'You said: hello world');
    expectEqual(seen.join(' | '), 'beforeRequest chat 1 | afterResponse 200 | onChunk | onEnd ok stop true');
  });

  await check('read-back abort', async () => {
    // A page reading its route handler's NDJSON body (Stream.fromReadableStream), then aborting
    // its own fetch: the reader reports an abort, whatever the runtime errors the body with.
    if (config.watchURL === undefined) return; // the tarball smoke has no route to read
    const page = new AbortController();
    const response = await fetch(new URL('/__watch/ndjson', config.watchURL), {
      signal: page.signal,
    });
    const chunks = sdk.ChatCompletionStream.fromReadableStream(response.body!)[
      Symbol.asyncIterator
    ]();
    expectEqual((await chunks.next()).value?.choices[0]?.delta.content, 'Hi');
    const next = chunks.next();
    page.abort();
    let thrown: unknown;
    try {
      await next;
    } catch (error) {
      thrown = error;
    }
    if (!(thrown instanceof sdk.APIUserAbortError))
      throw new Error(`expected APIUserAbortError, got ${describeError(thrown)}`);
  });

  const seen = await runRouteChecks(sdk, proxy, config, check, (name) => expectCut(config, name), cancelMarker(config.runtime, 'route-abort'));

  return { runtime: describeRuntime(), results, ...(config.browser ? { seen } : {}) };
}

/** Node, Bun and Deno: config JSON as the first argument; the report on stdout as `RESULT <json>`. */
export async function cliMain(sdk: Sdk, proxy: ProxyModule): Promise<void> {
  const g = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
  const arg = g.Deno ? g.Deno.args[0] : g.process?.argv[2];
  if (arg === undefined) throw new Error('usage: <entry> <config json>');
  const report = await runChecks(sdk, JSON.parse(arg) as CheckConfig, proxy);
  console.log(`RESULT ${JSON.stringify(report)}`);
}

/** workerd: `GET /?config=<json>` answers with the report as JSON. */
export async function workerFetch(sdk: Sdk, request: Request, proxy: ProxyModule): Promise<Response> {
  const config = new URL(request.url).searchParams.get('config');
  if (config === null) return new Response('missing ?config=', { status: 400 });
  return Response.json(await runChecks(sdk, JSON.parse(config) as CheckConfig, proxy));
}

/** edge-runtime and Chromium: a global the driver calls; the report comes back as a JSON string. */
export function exposeGlobal(sdk: Sdk, proxy?: ProxyModule): void {
  (globalThis as { __runChecks?: (config: CheckConfig) => Promise<string> }).__runChecks = async (
    config,
  ) => JSON.stringify(await runChecks(sdk, config, proxy));
}

export function describeRuntime(): string {
  const g = globalThis as {
    Deno?: { version: { deno: string } };
    Bun?: { version: string };
    EdgeRuntime?: string;
    navigator?: { userAgent?: string };
    process?: { versions?: { node?: string } };
  };
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (typeof g.EdgeRuntime === 'string') return `edge-runtime (EdgeRuntime=${g.EdgeRuntime})`;
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd (Cloudflare-Workers)';
  if (g.process?.versions?.node) return `node ${g.process.versions.node}`;
  return g.navigator?.userAgent ?? 'unknown runtime';
}

function expectEqual(actual: unknown, expected: unknown): void {
  if (actual !== expected)
    throw new Error(`expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `non-Error thrown: ${String(error)}`;
}
