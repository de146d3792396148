/**
 * Every endpoint through the public API against the local server: the request as sent, the
 * response as typed, and APIPromise's extras.
 */
import { describe, expect, it } from 'vitest';
import { APIPromise, AuthenticationError, InferenceError, NotFoundError } from '../src/index';
import { useMockServer } from './support/mock-server';

const { server, client } = useMockServer(
  { apiKeys: { 'key-all': 'all', 'key-one': ['mock/echo'] } },
  { client: { apiKey: 'key-all' }, reset: 'requests' },
);

const last = () => server.requests.at(-1)!;

describe('models', () => {
  it('lists every model of the key, with the spec fields', async () => {
    const list = await client.models.list();
    expect(list.object).toBe('list');
    const echo = list.data.find((m) => m.id === 'mock/echo');
    expect(echo).toMatchObject({ object: 'model', is_ready: true });
    expect(typeof echo?.context_length).toBe('number');
    expect(echo?.pricing).toEqual([{ prompt: expect.any(String), completion: expect.any(String), input_cache_read: expect.any(String) }]);
    expect(last()).toMatchObject({ method: 'GET', path: '/models' });
  });

  it('iterates the models with for await, as the official client does, and still awaits to the list', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    const list = await client.models.list();
    expect(ids).toEqual(list.data.map((m) => m.id));
    expect(ids.length).toBeGreaterThan(1);
    expect(Object.keys(list).sort()).toEqual(['data', 'object']);
  });

  it('withResponse() gives the request id under both names', async () => {
    const { requestId, request_id } = await client.models.list().withResponse();
    expect(requestId).toMatch(/.+/);
    expect(request_id).toBe(requestId);
  });

  it('lists only the models available to the key', async () => {
    const limited = client.withOptions({ apiKey: 'key-one' });
    expect((await limited.models.list()).data.map((m) => m.id)).toEqual(['mock/echo']);
    await expect(limited.models.retrieve('mock/reasoner')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('retrieves a model by slug, keeping / as a separator', async () => {
    const model = await client.models.retrieve('mock/echo');
    expect(model.id).toBe('mock/echo');
    expect(last().path).toBe('/models/mock/echo');
  });

  it('percent-encodes each segment of the slug', async () => {
    await client.models.retrieve('my vendor/model?x=1#y').catch(() => undefined);
    expect(last().path).toBe('/models/my%20vendor/model%3Fx%3D1%23y');
  });

  it.each(['', '.', '..', 'a/..', '../chat/completions', 'a/../../b'])(
    'rejects slug %j before any request',
    async (slug) => {
      await expect(client.models.retrieve(slug)).rejects.toThrow(InferenceError);
      expect(server.requests).toHaveLength(0);
    },
  );

  it.each([
    ['/', '/models/%2F'],
    ['a//b', '/models/a%2F%2Fb'],
    ['a/', '/models/a%2F'],
    ['/a', '/models/%2Fa'],
    ['a/./b', '/models/a%2F.%2Fb'],
  ])('sends slug %j, which cannot go segment by segment, as one encoded segment: %s', async (slug, path) => {
    await client.models.retrieve(slug).catch(() => undefined);
    expect(last().path).toBe(path);
  });

  it("reports an unknown model with the service's short error shape", async () => {
    const error = (await client.models.retrieve('acme/nope').catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toMatch(/^404 GET \/v1\/models\/acme\/nope: .*not available on this API/);
  });

  it('reports a wrong key as AuthenticationError', async () => {
    await expect(client.withOptions({ apiKey: 'wrong' }).models.list()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('chat completions', () => {
  it('sends the body as JSON and returns the typed completion', async () => {
    const completion = await client.chat.completions.create({
      model: 'mock/echo',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello there' },
      ],
      temperature: 0.2,
    });
    expect(last()).toMatchObject({
      method: 'POST',
      path: '/chat/completions',
      body: { model: 'mock/echo', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello there' }], temperature: 0.2 },
    });
    expect(last().headers['content-type']).toBe('application/json');
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'You said: hello there' });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 4, total_tokens: 8 });
  });

  it('passes the fields of the widely used API through', async () => {
    const completion = await client.chat.completions.create({
      model: 'mock/echo',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'one two three four' }] }],
      max_tokens: 2,
      n: 2,
      seed: 7,
      stop: ['\n'],
      response_format: { type: 'json_object' },
    });
    expect(last().body).toMatchObject({ max_tokens: 2, n: 2, seed: 7, stop: ['\n'], response_format: { type: 'json_object' } });
    expect(completion.choices).toHaveLength(2);
    expect(completion.choices[0]?.finish_reason).toBe('length');
  });

  it('rejects a body without model or messages at the call site', async () => {
    await expect(client.chat.completions.create({ messages: [] } as never)).rejects.toThrow(/`model` must be a non-empty string/);
    await expect(client.chat.completions.create({ model: 'm' } as never)).rejects.toThrow(/`messages` must be an array/);
    await expect(client.chat.completions.create(null as never)).rejects.toThrow(InferenceError);
    // Rejected, not thrown, as openai's calls are; the error is made at the call, so that its stack names the caller.
    const pending = client.chat.completions.create({ model: '', messages: [] });
    const error = (await pending.then(undefined, (e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(InferenceError);
    expect(error.stack).toContain('resources.test.ts');
    expect(server.requests).toHaveLength(0);
  });
});

describe('legacy completions', () => {
  it('returns the completion in the widely used shape', async () => {
    const completion = await client.completions.create({ model: 'mock/echo', prompt: 'Once upon a time' });
    expect(last()).toMatchObject({ method: 'POST', path: '/completions', body: { model: 'mock/echo', prompt: 'Once upon a time' } });
    expect(completion.object).toBe('text_completion');
    expect(completion.choices[0]?.text).toBe('You said: Once upon a time');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("reports an unknown model with the service's extended error shape", async () => {
    const error = await client.completions.create({ model: 'acme/nope', prompt: 'x' }).catch((e: unknown) => e as NotFoundError);
    expect(error).toMatchObject({ type: 'invalid_request_error', param: 'model', code: 'model_not_found' });
  });

  it('rejects a body without a prompt at the call site', async () => {
    await expect(client.completions.create({ model: 'm' } as never)).rejects.toThrow(/`prompt` is required/);
  });
});

describe('APIPromise', () => {
  it('is what every method returns', () => {
    const pending = client.models.list();
    expect(pending).toBeInstanceOf(APIPromise);
    expect(Object.prototype.toString.call(pending)).toBe('[object APIPromise]');
    return pending;
  });

  it('.withResponse() gives the data, the raw response and the request id', async () => {
    const { data, response, requestId } = await client.models.list().withResponse();
    expect(data.object).toBe('list');
    expect(response.status).toBe(200);
    expect(requestId).toMatch(/^req_/);
    expect(requestId).toBe(response.headers.get('x-request-id'));
  });

  it('.asResponse() gives the raw response with the body unread', async () => {
    const response = await client.models.list().asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(((await response.json()) as { object: string }).object).toBe('list');
  });

  it('.asResponse() does not take the body from the promise: awaiting it, or withResponse(), still gives the parsed body', async () => {
    const pending = client.models.list();
    const response = await pending.asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(((await response.json()) as { object: string }).object).toBe('list');
    const list = await pending;
    expect(list.object).toBe('list');
    expect(list._request_id).toBe(response.headers.get('x-request-id'));
    const { data, response: same, request_id } = await pending.withResponse();
    expect(data).toBe(list);
    expect(same).toBe(response);
    expect(request_id).toMatch(/^req_/);
    expect(server.requests).toHaveLength(1);
  });

  it('.asResponse() then await, before the raw body is read: both get the whole body', async () => {
    const pending = client.models.list();
    const response = await pending.asResponse();
    expect((await pending).object).toBe('list');
    expect(response.bodyUsed).toBe(false);
    expect(((await response.json()) as { object: string }).object).toBe('list');
  });

  it('.asResponse() on a streaming create: the raw event stream for the caller, and the stream when awaited', async () => {
    const pending = client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello there' }], stream: true });
    const response = await pending.asResponse();
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const text = await response.text();
    expect(text).toContain('data: [DONE]');
    let content = '';
    for await (const chunk of await pending) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe('You said: hello there');
  });

  it('.asResponse() on a streaming create: breaking out of the awaited stream leaves the raw body whole', async () => {
    const pending = client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello there' }], stream: true });
    const response = await pending.asResponse();
    for await (const chunk of await pending) {
      expect(chunk.object).toBe('chat.completion.chunk');
      break;
    }
    expect(await response.text()).toContain('data: [DONE]');
  });

  it('.asResponse() then a body that fails validation: the awaiter gets the typed error, the caller the raw body', async () => {
    server.enqueue({ status: 200, body: '<html>proxy</html>', headers: { 'content-type': 'text/html' } });
    const pending = client.models.list();
    const response = await pending.asResponse();
    await expect(pending).rejects.toBeInstanceOf(InferenceError);
    expect(await response.text()).toBe('<html>proxy</html>');
  });

  it('.asResponse() still throws typed errors for error statuses', async () => {
    await expect(client.models.retrieve('acme/nope').asResponse()).rejects.toBeInstanceOf(NotFoundError);
  });

  it('sends the request even if nobody awaits it, and a failure is not an unhandled rejection', async () => {
    server.enqueue({ status: 400, body: { error: { message: 'x' } } });
    void client.models.list({ maxRetries: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.requests).toHaveLength(1);
  });

  it('supports .catch and .finally', async () => {
    let finished = false;
    const error = await client.models
      .retrieve('acme/nope')
      .finally(() => {
        finished = true;
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(finished).toBe(true);
  });
});
