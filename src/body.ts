/**
 * Reading a response body with a size limit, so that a hostile or broken server cannot make the
 * client buffer without bound. Counts bytes as they arrive and stops reading at the limit.
 */

/** The text of a body, or `undefined` with `truncated: true` past `maxBytes` (the body is cancelled). */
export async function readText(
  response: Response,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean; bytes: number }> {
  if (!response.body) return { text: '', truncated: false, bytes: 0 };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), truncated: false, bytes };
      bytes += value.byteLength;
      if (bytes > maxBytes) {
        const keep = value.byteLength - (bytes - maxBytes);
        text += decoder.decode(value.subarray(0, Math.max(0, keep)));
        void reader.cancel().catch(() => {}); // not awaited: a body that was tee'd (msw, a cloning fetch) cancels only when every copy does
        return { text, truncated: true, bytes };
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
}
