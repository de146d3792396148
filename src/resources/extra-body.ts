import { InferenceError } from '../errors';

/**
 * The body as sent: the typed parameters plus the request's `extraBody`, a server's own
 * parameters that the types do not name (options-check.ts has checked its shape). A field in
 * both is refused rather than silently overwritten: which of the two was meant cannot be known.
 */
export function withExtraBody<B extends object>(body: B, extra: Readonly<Record<string, unknown>> | undefined, method: string): B {
  if (extra === undefined) return body;
  for (const key of Object.keys(extra)) {
    if (Object.hasOwn(body, key) && (body as Record<string, unknown>)[key] !== undefined) {
      throw new InferenceError(`${method}: \`${key}\` is both in the body and in \`extraBody\`; set it in one place.`);
    }
  }
  return { ...body, ...extra };
}
