/**
 * `asResponse()`'s reader, loaded with `import()` by the first `asResponse()` (resources/call.ts):
 * the caller gets the response with its body unread, and the promise keeps a clone of it, read only
 * if the promise is awaited too (as the official `openai` client allows).
 */
import type { Later } from '../core/api-promise';
import type { Reader, Sent } from '../core/response';
import { mask } from '../util/mask';

/**
 * Stop at the headers and give the caller the response, body unread (the attempt's timeout and
 * the caller's signal no longer cover it), keeping a clone for `read`. The clone has a signal of
 * its own: a stream read from it that ends or breaks cancels the clone, never the caller's body.
 */
export function readRaw<T>(read: Reader<T>, sent: Sent): { response: Response; later: Later<T> } {
  // The attempt's timeout (or the caller's signal) fired while this loaded: the request path names it.
  if (sent.signal.aborted) throw sent.signal.reason;
  sent.release();
  const { response } = sent;
  const copy = response.clone();
  const own = new AbortController();
  const detached: Sent = {
    ...sent,
    response: copy,
    signal: own.signal,
    abort: (reason) => own.abort(reason),
    clearTimer: () => {},
    release: () => {},
    done: undefined,
  };
  return {
    response,
    later: {
      read: () =>
        read(detached).catch((error: unknown) => {
          throw mask(error, sent.log.secrets);
        }),
      drop: () => {
        own.abort();
        void copy.body?.cancel().catch(() => {});
      },
    },
  };
}
