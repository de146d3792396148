/**
 * Security against real loopback servers: the key never escapes (errors, their serialisation,
 * logs, a fetch error that quotes it, a logged client). docs/reliability.md is the table of these
 * outcomes.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  ResponseValidationError,
  type Logger,
} from '../src/index';
import { useMockServer } from './support/mock-server';
import { useFaultServers } from './support/fault-server';
import { KEY, client, outcome } from './support/reliability';

const { server: mock } = useMockServer({ apiKeys: { [KEY]: 'all' } });

useFaultServers(() => {
  mock.requests.length = 0;
});

describe('secrets', () => {
  function spyLogger(): Logger & { text: () => string } {
    const lines: string[] = [];
    const log = (...args: unknown[]) => void lines.push(args.map((a) => inspect(a, { depth: 10 })).join(' '));
    return { error: log, warn: log, info: log, debug: log, text: () => lines.join('\n') };
  }

  function expectNoKey(...things: unknown[]) {
    for (const thing of things) {
      const texts = [String(thing), inspect(thing, { depth: 10, showHidden: true })];
      try {
        texts.push(JSON.stringify(thing) ?? '');
      } catch {
        // circular: inspect covers it
      }
      if (thing instanceof Error) texts.push(thing.message, thing.stack ?? '');
      for (const text of texts) expect(text).not.toContain(KEY);
    }
  }

  it('never appears in errors of any class, their serialisation, or logs at debug level', async () => {
    const logger = spyLogger();
    const c = client(mock.url, { logLevel: 'debug', logger, timeout: 100, maxRetries: 1 });
    mock.enqueue({ status: 401, body: { error: { message: 'bad key' } } });
    const auth = await outcome(() => c.models.list());
    mock.enqueue({ status: 503, headers: { 'retry-after-ms': '0' }, body: { error: { message: 'busy' } } }, { stall: true });
    const timeout = await outcome(() => c.models.list());
    mock.enqueue({ status: 200, body: '<html/>' });
    const validation = await outcome(() => c.models.list());
    const controller = new AbortController();
    controller.abort();
    const abort = await outcome(() => c.models.list({ signal: controller.signal }));
    expect(auth).toBeInstanceOf(APIError);
    expect(timeout).toBeInstanceOf(APIConnectionTimeoutError);
    expect(validation).toBeInstanceOf(ResponseValidationError);
    expect(abort).toBeInstanceOf(APIUserAbortError);
    expectNoKey(auth, timeout, validation, abort, c, c.models, c.chat.completions);
    expect(logger.text()).toContain('***');
    expect(logger.text()).not.toContain(KEY);
  });

  it('is scrubbed from a fetch error that quotes it', async () => {
    const leaky: typeof fetch = async (_url, init) => {
      throw new TypeError(`request failed with headers ${JSON.stringify(Object.fromEntries(new Headers(init?.headers)))}`);
    };
    const error = await outcome(() => client('http://api.test/v1', { fetch: leaky, maxRetries: 0 }).models.list());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(inspect(error, { depth: 10 })).toContain('***');
    expectNoKey(error);
  });

  it('never appears when a client is logged with console.log', () => {
    const c = client(mock.url);
    expectNoKey(c, inspect(c, { depth: Infinity, showHidden: true, getters: true }));
  });
});
