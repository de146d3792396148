import { InferenceError } from '../errors/api';
import { bodyHazard } from '../options/check-fields';

/**
 * The checks worth doing before a request: the ones whose failure would otherwise come back as
 * a vague 400 from some servers, or not at all. The server still validates everything else.
 */
export function checkBody(body: unknown, method: string, required: 'messages' | 'prompt'): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InferenceError(
      `${method}(body): body must be an object like { model, ${required} }.`,
    );
  }
  const hazard = bodyHazard(body);
  if (hazard) throw new InferenceError(`${method}(body): the body has ${hazard}.`);
  // `stream` decides how the response is read, and what is sent is what JSON.stringify sees: an
  // own, enumerable, plain value. A getter could answer differently each time it is read; an
  // inherited or hidden `stream` is read by the SDK but not sent.
  const stream = Object.getOwnPropertyDescriptor(body, 'stream');
  if (stream ? !('value' in stream) || !stream.enumerable : 'stream' in body) {
    throw new InferenceError(
      `${method}(body): \`stream\` must be a plain field of the body (true, false or absent), not a getter, hidden or inherited.`,
    );
  }
  const { model } = body as { model?: unknown };
  if (typeof model !== 'string' || model === '') {
    throw new InferenceError(
      `${method}(body): \`model\` must be a non-empty string such as "vendor/model".`,
    );
  }
  const value = (body as Record<string, unknown>)[required];
  if (required === 'messages' && !Array.isArray(value)) {
    throw new InferenceError(
      `${method}(body): \`messages\` must be an array of { role, content } objects.`,
    );
  }
  // `null` is a prompt (openai's types take it: the server starts from its own); absent is not.
  if (required === 'prompt' && value === undefined) {
    throw new InferenceError(
      `${method}(body): \`prompt\` is required (a string, an array of strings, or token ids).`,
    );
  }
}
