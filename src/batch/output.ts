/**
 * Batch output lines, in the OpenAI Batch API's output format: one per input line, with the
 * response (status, request id, body) or, for a line that failed after its retries, the error.
 */
/**
 * One line of a batch output file: OpenAI's Batch API output format.
 *
 * @example
 * ```ts
 * const line: BatchOutputLine = {
 *   id: 'batch_req_3b2c…',
 *   custom_id: 'q-1',
 *   response: { status_code: 200, request_id: 'req_123', body: completion },
 *   error: null,
 * };
 * ```
 */
export interface BatchOutputLine {
  /** `batch_req_` and the first 24 hex digits of the SHA-256 of the input line: the same on every run. */
  id: string;
  custom_id: string;
  /** The server's answer: for a success, and for an error status (its error body); `null` when none came. */
  response: { status_code: number; request_id: string | null; body: unknown } | null;
  /** Why the line failed after its retries; `null` for a success. */
  error: { code: string; message: string } | null;
}

/** The output line of a request that succeeded: `data` and `requestId` with the key masked. */
export function succeeded(
  id: string,
  customId: string,
  data: unknown,
  status: number,
  requestId: string | null,
): BatchOutputLine {
  return {
    id,
    custom_id: customId,
    response: { status_code: status, request_id: requestId, body: data },
    error: null,
  };
}

/**
 * Which of the SDK's errors `error` is, by its class's name and those of its parents: the client
 * may come from the other module format than this entry (`require()` beside `import`), and then
 * its classes are not this entry's, so `instanceof` would say no to every one of them.
 */
export function isError(error: unknown, name: string): error is Error {
  for (
    let proto: unknown = error;
    proto !== null && typeof proto === 'object';
    proto = Object.getPrototypeOf(proto)
  )
    if ((proto as { constructor?: { name?: unknown } }).constructor?.name === name) return true;
  return false;
}

/** The output line of a request that failed; `undefined` for an abort (the line has no result yet). */
export function failed(id: string, customId: string, error: unknown): BatchOutputLine | undefined {
  if (isError(error, 'APIUserAbortError')) return undefined;
  const message = error instanceof Error ? error.message : String(error);
  const api = error as { status?: unknown; requestId?: string; error?: unknown; code?: unknown };
  if (isError(error, 'APIError') && typeof api.status === 'number') {
    return {
      id,
      custom_id: customId,
      response: {
        status_code: api.status,
        request_id: api.requestId ?? null,
        body: api.error ?? null,
      },
      error: { code: typeof api.code === 'string' ? api.code : `http_${api.status}`, message },
    };
  }
  const code = isError(error, 'APIConnectionTimeoutError')
    ? 'timeout'
    : isError(error, 'APIError')
      ? 'connection_error'
      : isError(error, 'InferenceError')
        ? 'invalid_response'
        : 'internal_error';
  return { id, custom_id: customId, response: null, error: { code, message } };
}
