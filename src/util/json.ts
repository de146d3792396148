/**
 * Reading text that may or may not be JSON: error bodies, in-band errors, validation issues, the
 * test kit's recordings. A leaf: it imports nothing, so the test kit and the CLI can share it
 * with the SDK without pulling in anything else.
 */

/**
 * The value of a JSON text, or `undefined` when it is not JSON: the one place the SDK reads text
 * that may or may not be JSON (error bodies, in-band errors, the test kit's recordings).
 */
export function parseJSON(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** JSON when it parses, else the text itself. */
export function jsonOrText(text: string): unknown {
  const parsed = parseJSON(text);
  return parsed ? parsed.value : text;
}
