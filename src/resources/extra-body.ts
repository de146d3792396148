import { InferenceError } from '../errors/api';

/**
 * A plain object of body fields (options/check.ts refuses anything else at the call site). Typed
 * `object` so that an interface of a server's parameters, which has no index signature, is taken.
 */
type Fields = object;

/**
 * The body as sent: the client's `defaultBody`, then the typed parameters, then the request's
 * `extraBody` (a server's own parameters that the types do not name; options/check.ts has checked
 * the shapes). A default gives way to a field the call sets. A field in both the body and
 * `extraBody` is refused rather than silently overwritten: which of the two was meant cannot be
 * known. The caller's objects are not changed. Pre-flight checks and hooks see this body, as sent.
 */
export function withExtraBody<B extends object>(
  body: B,
  defaults: Fields | undefined,
  extra: Fields | undefined,
  method: string,
): B {
  if (extra === undefined && defaults === undefined) return body;
  if (extra !== undefined) {
    for (const key of Object.keys(extra)) {
      // A `null` in the body means "the server's default" (as in the official client), so a
      // value in `extraBody` does not contradict it.
      if (Object.hasOwn(body, key) && (body as Record<string, unknown>)[key] != null) {
        throw new InferenceError(
          `${method}: \`${key}\` is both in the body and in \`extraBody\`; set it in one place.`,
        );
      }
    }
  }
  return { ...defaults, ...body, ...extra };
}
