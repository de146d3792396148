import { inspect } from 'node:util';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InferenceError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../src/index';
import { API_KEY, testClient, useMsw } from './helpers';

const server = useMsw();

/** Answer every chat completion with this status and body. */
function replyChat(status: number, body: unknown, headers: Record<string, string> = {}) {
  server.use(
    http.post('*/chat/completions', () =>
      typeof body === 'string'
        ? new HttpResponse(body, { status, headers })
        : HttpResponse.json(body as never, { status, headers }),
    ),
  );
}

const chat = (client = testClient({ maxRetries: 0 })) =>
  client.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'hi' }] });

async function failure(promise: PromiseLike<unknown>): Promise<APIError> {
  try {
    await promise;
  } catch (error) {
    return error as APIError;
  }
  throw new Error('expected the call to fail');
}

describe('status → error class', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
  ])('%i → %s', async (status, Class) => {
    replyChat(status, { error: { message: 'nope', type: 'invalid_request_error' } }, { 'x-request-id': 'req_42' });
    const error = await failure(chat());
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(InferenceError);
    expect(error.name).toBe(Class.name);
    expect(error.status).toBe(status);
    expect(error.requestId).toBe('req_42');
    expect(error.headers?.get('x-request-id')).toBe('req_42');
    expect(error.message).toBe(`${status} POST /v1/chat/completions: nope`);
  });

  it('an unmapped 4xx is a plain APIError', async () => {
    replyChat(418, { error: { message: 'teapot' } });
    const error = await failure(chat());
    expect(error.constructor).toBe(APIError);
    expect(error.status).toBe(418);
  });
});

describe('error bodies', () => {
  it("reads the service's short shape", async () => {
    replyChat(404, { error: { message: 'The model `x/y` is not available on this API.', type: 'invalid_request_error' } });
    const error = await failure(chat());
    expect(error).toMatchObject({ type: 'invalid_request_error', code: undefined, param: undefined });
    expect(error.error).toEqual({ error: { message: 'The model `x/y` is not available on this API.', type: 'invalid_request_error' } });
  });

  it("reads the service's extended shape", async () => {
    server.use(
      http.post('*/completions', () =>
        HttpResponse.json(
          { error: { message: 'no such model', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } },
          { status: 404 },
        ),
      ),
    );
    const error = await failure(testClient().completions.create({ model: 'x/y', prompt: 'hi' }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ type: 'invalid_request_error', param: 'model', code: 'model_not_found' });
    expect(error.message).toBe('404 POST /v1/completions: no such model');
  });

  it('a 404 on a base URL without /v1 says so once: with the URL meant, unless the server already did', async () => {
    const client = testClient({ baseURL: 'http://api.test', maxRetries: 0 });
    replyChat(404, { error: { message: 'Not Found', type: 'invalid_request_error' } });
    expect((await failure(chat(client))).message).toBe(
      '404 POST /chat/completions: Not Found (the base URL http://api.test has no /v1; the service answers under /v1: did you mean http://api.test/v1?)',
    );
    replyChat(404, { error: { message: 'The API is served under /v1: use http://api.test/v1 as the base URL.' } });
    expect((await failure(chat(client))).message).toBe('404 POST /chat/completions: The API is served under /v1: use http://api.test/v1 as the base URL.');
    // A base URL with its version gets no hint.
    replyChat(404, { error: { message: 'Not Found' } });
    expect((await failure(chat(testClient({ baseURL: 'http://api.test/v1', maxRetries: 0 })))).message).toBe('404 POST /v1/chat/completions: Not Found');
  });

  it('reads an HTML page from a proxy', async () => {
    replyChat(502, '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', { 'content-type': 'text/html' });
    const error = await failure(chat());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toBe('502 POST /v1/chat/completions: the server answered with an HTML page ("502 Bad Gateway")');
    expect(error.error).toContain('<html>');
  });

  it('reads an empty body', async () => {
    replyChat(500, '');
    const error = await failure(chat());
    expect(error.message).toBe('500 POST /v1/chat/completions: no body');
  });

  it('reads a plain text body', async () => {
    replyChat(400, 'model is required');
    expect((await failure(chat())).message).toBe('400 POST /v1/chat/completions: model is required');
  });

  it('reads a FastAPI detail list', async () => {
    replyChat(422, { detail: [{ loc: ['body', 'messages'], msg: ['field required', 'must be a list'], type: 'missing' }] });
    const error = await failure(chat());
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.message).toBe('422 POST /v1/chat/completions: body.messages: field required, must be a list');
  });

  it('treats an error object in a 200 response as an APIError, classed by its numeric code', async () => {
    replyChat(200, { error: { message: 'Provider returned error', code: 502 }, user_id: 'u1' });
    const error = await failure(chat());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(502);
    expect(error.code).toBe(502);
    expect(error.message).toBe('502 POST /v1/chat/completions: Provider returned error');
  });

  it('an error object in a 200 response takes its status from status_code (Groq)', async () => {
    replyChat(200, { error: { message: 'tool call validation failed', type: 'invalid_request_error', code: 'tool_use_failed', status_code: 400 } });
    const error = await failure(chat());
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('tool_use_failed');
  });

  it('an error object in a 200 response without a status-like code is a plain APIError with status 200', async () => {
    replyChat(200, { error: { message: 'Context length exceeded', code: 'CONTEXT_LENGTH_EXCEEDED' } });
    const error = await failure(chat());
    expect(error.constructor).toBe(APIError);
    expect(error.status).toBe(200);
    expect(error.code).toBe('CONTEXT_LENGTH_EXCEEDED');
  });
});

describe('non-JSON success bodies', () => {
  it('a 200 HTML page is a ResponseValidationError carrying the text', async () => {
    replyChat(200, '<!doctype html><title>Login</title>', { 'content-type': 'text/html' });
    const error = await failure(chat());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).not.toBeInstanceOf(APIError);
    expect((error as unknown as ResponseValidationError).raw).toBe('<!doctype html><title>Login</title>');
    expect(error.message).toMatch(/expected a JSON body, got HTML/);
  });

  it('truncated JSON is a ResponseValidationError', async () => {
    replyChat(200, '{"id":"x","choices":[', { 'content-type': 'application/json' });
    const error = await failure(chat());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toMatch(/not valid JSON/);
  });
});

describe('connection errors', () => {
  it('a network failure is an APIConnectionError with the cause kept', async () => {
    server.use(http.post('*/chat/completions', () => HttpResponse.error()));
    const error = await failure(chat());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.status).toBeUndefined();
    expect(error.cause).toBeDefined();
    expect(error.message).toMatch(/^Connection error: POST \/v1\/chat\/completions/);
  });
});

describe('secrets', () => {
  it('no error message, serialisation or inspection holds the key', async () => {
    replyChat(401, { error: { message: 'Invalid API key', type: 'authentication_error' } });
    const error = await failure(chat());
    expect(error).toBeInstanceOf(AuthenticationError);
    for (const text of [error.message, String(error), JSON.stringify(error), inspect(error, { depth: 10 }), error.stack ?? '']) {
      expect(text).not.toContain(API_KEY);
    }
  });
});
