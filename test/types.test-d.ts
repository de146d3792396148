/** Type tests: what users see in their editor. Checked by tsc as part of `npm test`. */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  APIPromise,
  APIError,
  Client,
  ChatCompletion,
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
  ClientOptions,
  Completion,
  FetchOptions,
  Model,
  ModelList,
  RateLimitError,
  RequestOptions,
  ResponseValidationError,
  ValidationIssue,
  WithResponse,
} from '../src/index';

declare const client: Client;

describe('resources', () => {
  it('return APIPromises of the resource types', () => {
    expectTypeOf(client.models.list()).toEqualTypeOf<APIPromise<ModelList>>();
    expectTypeOf(client.models.retrieve('a/b')).toEqualTypeOf<APIPromise<Model>>();
    expectTypeOf(client.chat.completions.create({ model: 'm', messages: [] })).toEqualTypeOf<APIPromise<ChatCompletion>>();
    expectTypeOf(client.completions.create({ model: 'm', prompt: 'p' })).toEqualTypeOf<APIPromise<Completion>>();
  });

  it('await to the data; withResponse and asResponse add the response', () => {
    expectTypeOf<Awaited<APIPromise<ModelList>>>().toEqualTypeOf<ModelList>();
    expectTypeOf(client.models.list().withResponse()).toEqualTypeOf<Promise<WithResponse<ModelList>>>();
    expectTypeOf(client.models.list().asResponse()).toEqualTypeOf<Promise<Response>>();
  });

  it('take per-request options', () => {
    expectTypeOf(client.models.list).parameter(0).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf<RequestOptions['fetchOptions']>().toEqualTypeOf<FetchOptions | undefined>();
    expectTypeOf<RequestOptions['signal']>().toEqualTypeOf<AbortSignal | undefined>();
  });
});

describe('request types', () => {
  it('accept every message role and content as a string or parts', () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'be brief' },
      { role: 'developer', content: 'internal' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: 'data:,' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '42' },
    ];
    expectTypeOf(messages).toExtend<ChatCompletionCreateParams['messages']>();
  });

  it('reject an unknown role', () => {
    // @ts-expect-error: 'robot' is not a role
    const bad: ChatCompletionMessageParam = { role: 'robot', content: 'x' };
    void bad;
  });

  it('type the widely used request fields', () => {
    expectTypeOf<ChatCompletionCreateParams>().toHaveProperty('tools');
    expectTypeOf<ChatCompletionCreateParams>().toHaveProperty('response_format');
    expectTypeOf<ChatCompletionCreateParams>().toHaveProperty('reasoning_effort');
    expectTypeOf<ChatCompletionCreateParams>().toHaveProperty('stream_options');
  });

  it('reject a misspelt client option', () => {
    // @ts-expect-error: baseUrl is not an option (baseURL is)
    const options: ClientOptions = { baseUrl: 'x' };
    void options;
  });
});

describe('response types are honest', () => {
  it('make fields optional that real servers omit', () => {
    expectTypeOf<Model['id']>().toEqualTypeOf<string>();
    expectTypeOf<Model>().toHaveProperty('context_length').toEqualTypeOf<number | undefined>();
    expectTypeOf<ChatCompletion['choices']>().toBeArray();
  });
});

describe('errors', () => {
  it('carry typed fields', () => {
    expectTypeOf<APIError['status']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RateLimitError['status']>().toEqualTypeOf<number>();
    expectTypeOf<APIError['code']>().toEqualTypeOf<string | number | undefined>();
    expectTypeOf<ResponseValidationError['issues']>().toEqualTypeOf<readonly ValidationIssue[]>();
    expectTypeOf<ResponseValidationError>().not.toExtend<APIError>();
  });
});
