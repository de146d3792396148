/**
 * The root of the error hierarchy (see errors/api.ts): `InferenceError`, and the request target
 * that the errors of a request name.
 */
/**
 * Where an error happened: the request's method and URL path, e.g. `POST /v1/chat/completions`.
 *
 * @example
 * ```ts
 * const target: RequestTarget = { method: 'GET', path: '/v1/models' };
 * ```
 */
export interface RequestTarget {
  method: string;
  /** The URL path, without origin or query (queries can carry secrets on some servers). */
  path: string;
  /** `host:port` of the server, named in connection errors. */
  host?: string | undefined;
}

/**
 * Base class of every error this SDK throws. Catch it to handle them all.
 *
 * @example
 * ```ts
 * try {
 *   await client.models.list();
 * } catch (err) {
 *   if (err instanceof InferenceError) console.error(err.name, err.message);
 * }
 * ```
 */
export class InferenceError extends Error {
  override name = 'InferenceError';
}
