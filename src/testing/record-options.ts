/**
 * What `startMockServer({ record })` is given (`RecordOptions`), checked: the upstream as it is
 * called and as it is shown (credentials in its URL masked), the file, and the secrets to mask.
 *
 * @module
 */
import { isCredentialParam, maskText, MASK } from '../util/mask';
import { secretForms } from './redact';

/**
 * What to record: the real server, its key, and the file to write.
 *
 * @example
 * ```ts
 * import { startMockServer, type RecordOptions } from 'model-inference-sdk/testing';
 *
 * const record: RecordOptions = {
 *   upstream: 'https://api.example.com/v1',
 *   apiKey: process.env['INFERENCE_API_KEY'] ?? '',
 *   cassette: 'test/cassettes/summarize.json',
 * };
 * const server = await startMockServer({ record });
 * ```
 */
export interface RecordOptions {
  /** The real server's base URL, as a client's `baseURL` (ending in `/v1`). */
  upstream: string;
  /** Sent to the upstream as `Authorization: Bearer <apiKey>` (the client's own key is for the mock). Never written. Leave it out for a server without auth. */
  apiKey?: string;
  /** The cassette file to write (created, or replaced), with its folders. Written after every answer, and when the server closes. */
  cassette: string;
  /** Also keep when each stream event came (`delays`), so that a replay with `timing: true` keeps the pace; default false. */
  timing?: boolean;
}

/** The options checked, the upstream as it is called and as it is shown, and the secrets to mask. */
export function checkOptions(options: RecordOptions) {
  const fail = (why: string): never => {
    throw new TypeError(`model-inference-sdk/testing: record.${why}`);
  };
  if (typeof options !== 'object' || options === null)
    fail('options must be an object: { upstream, apiKey, cassette }.');
  if (typeof options.cassette !== 'string' || options.cassette === '')
    fail('cassette must be the path of the file to write.');
  if (options.apiKey !== undefined && typeof options.apiKey !== 'string')
    fail('apiKey must be a string.');
  let url: URL | undefined;
  try {
    url = new URL(options.upstream);
  } catch {
    // reported below
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return fail(
      `upstream must be an absolute http(s) URL such as https://api.example.com/v1, got ${JSON.stringify(options.upstream)}.`,
    );

  const secrets = [options.apiKey ?? ''];
  const shown = new URL(url.href);
  if (url.username !== '' || url.password !== '')
    secrets.push(decodeURIComponent(url.username), decodeURIComponent(url.password));
  shown.username = '';
  shown.password = '';
  for (const [name, value] of url.searchParams) {
    if (!isCredentialParam(name)) continue;
    secrets.push(value);
    shown.searchParams.set(name, MASK);
  }
  const base = url.pathname.replace(/\/+$/, '');
  return {
    file: options.cassette,
    secrets: secrets.filter((s) => s !== ''),
    upstream: {
      // A gateway that takes its key in the path (`https://gateway.example/<key>/v1`): masked too.
      shown: maskText(shown.href, secretForms(secrets)).replace(/\/+$/, ''),
      /** The upstream URL of a request: its path under the upstream's, the upstream's query and then the request's. */
      target(path: string, search: string): string {
        const target = new URL(url.href);
        target.pathname = `${base}${path}`;
        for (const [name, value] of new URLSearchParams(search))
          target.searchParams.append(name, value);
        return target.href;
      },
    },
  };
}
