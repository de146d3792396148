// The route (model-inference-sdk/proxy) in every runtime of the matrix, against the loopback mock
// (through the harness's watching proxy, which sees whether the route cut its request off).
//
// - Node, workerd, edge-runtime: the route runs in the runtime, called in process as a framework
//   calls it (a web Request in, a Response out); the package's Client reads it through `fetch`.
// - Deno and Bun: the route is served by the runtime's own server (Deno.serve, Bun.serve) on
//   127.0.0.1, and the Client reads it over HTTP; a Client that aborts is a browser that leaves.
// - Chromium: the route is served by the driver, on the page's origin; the page's Client uses it
//   with `baseURL: '/api/inference/v1'`, no key and no `dangerouslyAllowBrowser`, and hands back
//   everything it could read, for the driver to check that the key is in none of it.
//
// Web-standard globals only; `import type` is erased at build time.
import type * as SDK from '../../src/index';
import type * as Proxy from '../../src/proxy/index';

export type ProxyModule = typeof Proxy;

export const ROUTE_CHECK_NAMES = ['route stream', 'route refusals', 'route abort', 'route key'] as const;

export interface RouteCheckConfig {
  baseURL: string;
  apiKey: string;
  runtime: string;
  browser: boolean;
  watchURL?: string;
}

type Check = (name: (typeof ROUTE_CHECK_NAMES)[number], body: () => Promise<void>) => Promise<void>;

interface Served {
  url: string;
  close(): Promise<void>;
}

/** The route on the runtime's own HTTP server, where it has one of web handlers (Deno, Bun). */
function serveNatively(handler: Proxy.ProxyHandler): Promise<Served> | undefined {
  const g = globalThis as {
    Deno?: { serve(options: { port: number; hostname: string; onListen(): void }, handler: Proxy.ProxyHandler): { addr: { port: number }; shutdown(): Promise<void> } };
    Bun?: { serve(options: { port: number; hostname: string; fetch: Proxy.ProxyHandler }): { port: number; stop(force: boolean): void } };
  };
  if (g.Deno) {
    const server = g.Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, handler);
    return Promise.resolve({ url: `http://127.0.0.1:${server.addr.port}/api/inference/v1`, close: () => server.shutdown() });
  }
  if (g.Bun) {
    const server = g.Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: handler });
    return Promise.resolve({ url: `http://127.0.0.1:${server.port}/api/inference/v1`, close: async () => server.stop(true) });
  }
  return undefined;
}

const LONG_PROMPT = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');

export async function runRouteChecks(
  sdk: typeof SDK,
  proxy: ProxyModule | undefined,
  config: RouteCheckConfig,
  check: Check,
  expectCut: (check: 'route-abort') => Promise<void>,
  marker: string,
): Promise<string[]> {
  /** Everything the caller could read of the route: bodies, headers, error messages and bodies. */
  const seen: string[] = [];
  const read = (response: Response) => response.headers.forEach((value, name) => seen.push(`${name}: ${value}`));
  const fail = (error: unknown) => {
    seen.push(String(error), JSON.stringify(error), error instanceof sdk.APIError ? JSON.stringify(error.error) : '');
    return error;
  };

  let client: SDK.Client;
  let served: Served | undefined;
  if (config.browser) {
    // The page's own route: a path, no key, no dangerouslyAllowBrowser.
    client = new sdk.Client({ baseURL: '/api/inference/v1', maxRetries: 0 });
  } else {
    if (proxy === undefined) throw new Error('the route checks need model-inference-sdk/proxy');
    const handler = proxy.createProxy({
      models: ['mock/echo'],
      upstream: { apiKey: config.apiKey, baseURL: config.watchURL ?? config.baseURL, maxRetries: 0, logLevel: 'off' },
    });
    served = await serveNatively(handler);
    client = new sdk.Client({
      apiKey: 'not-the-key',
      baseURL: served?.url ?? 'http://app.local/api/inference/v1',
      maxRetries: 0,
      logLevel: 'off',
      ...(served ? {} : { fetch: (input: RequestInfo | URL, init?: RequestInit) => handler(new Request(input, init)) }),
    });
  }

  try {
    await check('route stream', async () => {
      const { data: stream, response } = await client.chat.completions
        .create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello route' }], stream: true })
        .withResponse();
      read(response);
      let text = '';
      for await (const chunk of stream) {
        seen.push(JSON.stringify(chunk));
        text += chunk.choices?.[0]?.delta?.content ?? '';
      }
      if (text !== 'You said: hello route') throw new Error(`streamed ${JSON.stringify(text)}`);
      if (!response.headers.get('x-request-id')) throw new Error('no x-request-id from the upstream');
    });

    await check('route refusals', async () => {
      const system = await client.chat.completions
        .create({ model: 'mock/echo', messages: [{ role: 'system', content: 'New rules' }, { role: 'user', content: 'hi' }] })
        .then(() => undefined, fail);
      if (!(system instanceof sdk.PermissionDeniedError)) throw new Error(`a system message: expected PermissionDeniedError, got ${String(system)}`);
      const hidden = await client.models.retrieve('mock/sleeping').then(() => undefined, fail);
      if (!(hidden instanceof sdk.NotFoundError)) throw new Error(`a model not served: expected NotFoundError, got ${String(hidden)}`);
      const list = await client.models.list().withResponse();
      read(list.response);
      seen.push(JSON.stringify(list.data));
      const ids = list.data.data.map((m) => m.id).join(',');
      if (ids !== 'mock/echo') throw new Error(`the route listed ${ids}`);
    });

    await check('route abort', async () => {
      const stream = await client.chat.completions.create({
        model: 'mock/echo',
        messages: [{ role: 'user', content: `${marker} ${LONG_PROMPT}` }],
        stream: true,
      });
      let chunks = 0;
      const thrown = await (async () => {
        for await (const _chunk of stream) if (++chunks === 2) stream.controller.abort();
      })().then(() => undefined, (error: unknown) => error);
      if (!(thrown instanceof sdk.APIUserAbortError)) throw new Error(`expected APIUserAbortError, got ${String(thrown)}`);
      await expectCut('route-abort');
    });

    if (!config.browser)
      await check('route key', async () => {
        const leaked = seen.filter((text) => text.includes(config.apiKey));
        if (seen.length < 5) throw new Error(`only ${seen.length} things read`);
        if (leaked.length > 0) throw new Error(`the key is in what the client read: ${leaked[0]!.slice(0, 80)}`);
      });
  } finally {
    await served?.close();
  }
  return seen;
}
