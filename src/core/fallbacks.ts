/**
 * Which failures move a call to its next model (`fallbacks`): the ones another model may not
 * have. The model is missing or not ready, its limit cannot be waited out, its server failed
 * (5xx after its retries, a timeout, a connection error), its pre-flight check refused the body,
 * or its stream failed before its first content chunk (an in-band error, a cut, a body that is
 * not a stream). Not: the caller's abort, a hook's error, a request the server refuses as such
 * (400, 401, 403, 409, 422), which another model would refuse too.
 *
 * The retry loop (retry.ts) asks this only before anything reached the caller: a JSON call is
 * whole or nothing, and a stream with fallbacks is read up to its first content chunk inside the
 * attempt (stream/events.ts) before it is handed over.
 */
import type { CallDescription } from './call-description';
import { APIError, APIUserAbortError, ModelNotReadyError, PreflightError } from '../errors/api';
import type { CallHooks } from '../options/hooks';
import type { Log } from '../util/log';
import { ResponseValidationError } from '../errors/validation';

/**
 * `run` the call, then, while it fails in a way another model may not, the same call to each of
 * its `fallbacks` in turn; the hooks' `beforeRetry` before each, with the model it goes to.
 */
export async function withFallbacks<T>(
  call: CallDescription,
  run: (call: CallDescription) => Promise<T>,
  log: Log,
  hooks: CallHooks | undefined,
  count: { attempts: number },
): Promise<T> {
  const { stream } = call;
  // Each model once: the one asked for, and a model named twice, are not asked again.
  const fallbacks = [...new Set(call.fallbacks)].filter((model) => model !== call.model);
  for (let next = 0; ;) {
    try {
      return await run(call);
    } catch (error) {
      const model = fallbacks[next++];
      if (model === undefined || !fallsBack(error, stream)) throw error;
      log.info(
        `${(error as Error).message}; trying ${model} instead (fallback ${next} of ${fallbacks.length})`,
      );
      await hooks?.beforeRetry(error as APIError, 0, count.attempts + 1, model);
      call = call.to(model);
    }
  }
}

/** What a server says of a model it does not have, in a 400, 403 or 422 (a 404 always moves on). */
const NOT_AVAILABLE =
  /model_not_found|model.{0,80}\b(not (found|available|supported|exist)|does not exist|unavailable|unknown)|(unknown|invalid|unsupported) model/i;

/** Whether `error`, before anything reached the caller, moves the call to its next model. */
export function fallsBack(error: unknown, stream: boolean): boolean {
  if (error instanceof ModelNotReadyError || error instanceof PreflightError) return true;
  if (error instanceof ResponseValidationError) return stream;
  if (!(error instanceof APIError) || error instanceof APIUserAbortError) return false;
  const status = error.status;
  return (
    status === undefined || // no response: a connection error, a timeout
    status === 200 || // an error where a completion was (an in-band error, OpenRouter's 200)
    status === 404 ||
    status === 408 ||
    status === 429 ||
    status >= 500 ||
    ((status === 400 || status === 403 || status === 422) &&
      NOT_AVAILABLE.test(`${String(error.code ?? '')} ${error.message}`))
  );
}

/** A chunk with something of the reply: text, reasoning, a tool call, a refusal, a finish reason. */
export function hasContent(item: unknown): boolean {
  const choices = (item as { choices?: unknown }).choices;
  return (
    Array.isArray(choices) &&
    choices.some(
      (choice: { finish_reason?: unknown; text?: unknown; delta?: object } | null) =>
        choice?.finish_reason != null ||
        !!choice?.text ||
        Object.entries(choice?.delta ?? {}).some(
          ([key, value]) =>
            key !== 'role' &&
            value != null &&
            value !== '' &&
            !(Array.isArray(value) && value.length === 0),
        ),
    )
  );
}
