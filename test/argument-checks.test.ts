/**
 * A helper's argument checks run once: `parse()` checks its body and options at its call site,
 * then sends with `create()`, which does not check them a second time. Counted by a body and
 * options that count how often they are looked at the way the checks look at them.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '../src/index';

const completion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'acme/chat-1',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
};

function client(): Client {
  return new Client({
    apiKey: 'sk-test-1234567890',
    baseURL: 'http://api.test/v1',
    logLevel: 'off',
    maxRetries: 0,
    fetch: async () => Response.json(completion),
  });
}

/** `target`, counting the checks' looks: the body's `stream` descriptor, the options' keys. */
function counted<T extends object>(
  target: T,
  count: { looks: number },
  what: 'stream' | 'keys',
): T {
  return new Proxy(target, {
    getOwnPropertyDescriptor(t, key) {
      if (what === 'stream' && key === 'stream') count.looks++;
      return Reflect.getOwnPropertyDescriptor(t, key);
    },
    ownKeys(t) {
      if (what === 'keys') count.looks++;
      return Reflect.ownKeys(t);
    },
  });
}

describe('argument checks run once per call', () => {
  it('parse(): the body is checked once, not again by create()', async () => {
    const count = { looks: 0 };
    const body = counted(
      { model: 'acme/chat-1', messages: [{ role: 'user' as const, content: 'Hi' }] },
      count,
      'stream',
    );
    const parsed = await client().chat.completions.parse(body);
    expect(parsed.choices[0]!.message.content).toBe('Hi');
    expect(count.looks).toBe(1);
  });

  it('parse(): the request options are checked once, not again by create()', async () => {
    const count = { looks: 0 };
    const options = counted({ timeout: 5_000 }, count, 'keys');
    await client().chat.completions.parse(
      { model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hi' }] },
      options,
    );
    expect(count.looks).toBe(1);
  });

  it('create() still checks, with its own name in the message', async () => {
    const c = client();
    await expect(c.chat.completions.create({ model: '', messages: [] } as never)).rejects.toThrow(
      'chat.completions.create(body): `model` must be a non-empty string',
    );
    await expect(
      c.chat.completions.create({ model: 'acme/chat-1', messages: [] }, { timeot: 1 } as never),
    ).rejects.toThrow(/chat\.completions\.create/);
    await expect(c.chat.completions.parse({ model: '', messages: [] } as never)).rejects.toThrow(
      'chat.completions.parse(body): `model` must be a non-empty string',
    );
    const stream = c.chat.completions.stream({ model: '', messages: [] } as never);
    await expect(stream.done()).rejects.toThrow(
      'chat.completions.stream(body): `model` must be a non-empty string',
    );
  });
});
