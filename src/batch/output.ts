/**
 * Batch output lines, in the OpenAI Batch API's output format: one per input line, with the
 * response (status, request id, body) or, for a line that failed after its retries, the error.
 */
import {
  APIError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  InferenceError,
} from 'model-inference-sdk';

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

/** The output line of a request that succeeded. */
export function succeeded(
  id: string,
  customId: string,
  data: unknown,
  response: Response,
): BatchOutputLine {
  return {
    id,
    custom_id: customId,
    response: {
      status_code: response.status,
      request_id: response.headers.get('x-request-id'),
      body: data,
    },
    error: null,
  };
}

/** The output line of a request that failed; `undefined` for an abort (the line has no result yet). */
export function failed(id: string, customId: string, error: unknown): BatchOutputLine | undefined {
  if (error instanceof APIUserAbortError) return undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof APIError && error.status !== undefined) {
    return {
      id,
      custom_id: customId,
      response: {
        status_code: error.status,
        request_id: error.requestId ?? null,
        body: error.error ?? null,
      },
      error: {
        code: typeof error.code === 'string' ? error.code : `http_${error.status}`,
        message,
      },
    };
  }
  const code =
    error instanceof APIConnectionTimeoutError
      ? 'timeout'
      : error instanceof APIError
        ? 'connection_error'
        : error instanceof InferenceError
          ? 'invalid_response'
          : 'internal_error';
  return { id, custom_id: customId, response: null, error: { code, message } };
}
