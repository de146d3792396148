/**
 * The `apiKey` option given as a function: what it returns, checked when a request needs the key
 * (the client calls it through its request context; the request path races it against the call's
 * signal and timeout).
 */
import { InferenceError } from '../errors/api';
import { assertHeaderValue } from './check-fields';

/**
 * Resolve an `apiKey` function, checking what it returns (without ever quoting it). Its own
 * failure becomes an `InferenceError` with the original as `cause`.
 */
export async function callKeyFunction(fn: () => string | Promise<string>): Promise<string> {
  let key: unknown;
  try {
    key = await fn();
  } catch (error) {
    throw new InferenceError(
      `The \`apiKey\` function failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (typeof key !== 'string' || key === '') {
    throw new InferenceError('The `apiKey` function must return a non-empty string.');
  }
  assertHeaderValue('apiKey', key, false);
  return key;
}
