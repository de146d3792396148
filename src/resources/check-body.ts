import { InferenceError } from '../errors';
import { bodyHazard } from '../options-check';

/**
 * The checks worth doing before a request: the ones whose failure would otherwise come back as
 * a vague 400 from some servers, or not at all. The server still validates everything else.
 */
export function checkBody(body: unknown, method: string, required: 'messages' | 'prompt'): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InferenceError(`${method}(body): body must be an object like { model, ${required} }.`);
  }
  const hazard = bodyHazard(body);
  if (hazard) throw new InferenceError(`${method}(body): the body has ${hazard}.`);
  const { model } = body as { model?: unknown };
  if (typeof model !== 'string' || model === '') {
    throw new InferenceError(`${method}(body): \`model\` must be a non-empty string such as "vendor/model".`);
  }
  const value = (body as Record<string, unknown>)[required];
  if (required === 'messages' && !Array.isArray(value)) {
    throw new InferenceError(`${method}(body): \`messages\` must be an array of { role, content } objects.`);
  }
  // `null` is a prompt (openai's types take it: the server starts from its own); absent is not.
  if (required === 'prompt' && value === undefined) {
    throw new InferenceError(`${method}(body): \`prompt\` is required (a string, an array of strings, or token ids).`);
  }
}
