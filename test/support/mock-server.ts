/**
 * `useMockServer()`: the loopback set-up many test files share (start the mock of
 * model-inference-sdk/testing on 127.0.0.1, make a client for it, close it after), as one call. The
 * msw counterpart is `useMsw()` in test/helpers.ts; this one lives apart so that files using it
 * do not load msw.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { Client, type ClientOptions } from '../../src/index';
import { startMockServer, type MockServer, type MockServerOptions } from '../../src/testing';

export interface UseMockServerSettings {
  /** Options of the client, over `{ apiKey: server.apiKey, baseURL: server.url, logLevel: 'off' }`. */
  client?: ClientOptions;
  /** A new server (and client) for every test, rather than one for the file or block. */
  each?: boolean;
  /** After each test, forget the recorded requests (`'requests'`) or call `clear()` (`'all'`: the queued replies too). */
  reset?: 'requests' | 'all';
}

/**
 * Starts a mock server before the tests of the enclosing file or `describe` (or before each test,
 * with `each`), and closes it after them. Returns stand-ins for the server and a client pointed at
 * it: use them anywhere inside tests and hooks; they act on whichever server is running.
 *
 * ```ts
 * const { server, client } = useMockServer({ apiKeys: { [KEY]: 'all' } }, { client: { maxRetries: 0 }, reset: 'requests' });
 * it('...', async () => {
 *   server.enqueue({ reply: { content: 'Paris' } });
 *   await client.chat.completions.create(...);
 *   await client({ maxRetries: 2 }).models.list(); // another client of the same server
 * });
 * ```
 */
/**
 * The client of `useMockServer()`: the file's client itself (`client.chat.completions.create(…)`),
 * and callable for another one on the same server with other options (`client({ maxRetries: 1 })`:
 * over the same defaults, the settings' `client` options included).
 */
export type MockClient = Client & ((options?: ClientOptions) => Client);

export function useMockServer(options: MockServerOptions = {}, settings: UseMockServerSettings = {}): { server: MockServer; client: MockClient } {
  let server: MockServer | undefined;
  let client: Client | undefined;
  const [before, after] = settings.each === true ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    server = await startMockServer(options);
    client = new Client({ apiKey: server.apiKey, baseURL: server.url, logLevel: 'off', ...settings.client });
  });
  if (settings.reset !== undefined) {
    afterEach(() => {
      if (settings.reset === 'all') server?.clear();
      else if (server !== undefined) server.requests.length = 0;
    });
  }
  after(async () => {
    const closing = server;
    server = undefined;
    client = undefined;
    await closing?.close();
  });
  const another = (extra: ClientOptions = {}): Client => {
    const running = server;
    if (running === undefined) throw new Error('useMockServer(): client(options) works only inside tests and hooks, between its start and its close.');
    return new Client({ apiKey: running.apiKey, baseURL: running.url, logLevel: 'off', ...settings.client, ...extra });
  };
  return {
    server: standIn('server', () => server, {}),
    client: standIn('client', () => client, Object.setPrototypeOf(another, Client.prototype) as object) as MockClient,
  };
}

/**
 * An object that forwards everything to `current()`: the value the hooks above set and unset.
 * Methods are bound to it, so a class's private fields work through the stand-in.
 */
function standIn<T extends object>(name: string, current: () => T | undefined, shape: object): T {
  const live = (): T => {
    const value = current();
    if (value === undefined) throw new Error(`useMockServer(): the ${name} runs only inside tests and hooks, between its start and its close.`);
    return value;
  };
  return new Proxy(shape, {
    // A callable shape (the client's) makes a new object of its own when called.
    apply: (target, _this, args: unknown[]) => (target as (...args: unknown[]) => unknown)(...args),
    get(_, key) {
      const target = live();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(live(), key, value),
    has: (_, key) => Reflect.has(live(), key),
  }) as T;
}
