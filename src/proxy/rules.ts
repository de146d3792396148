/**
 * What the route sends upstream, built from what the browser sent: a new body of the fields the
 * route knows (an unknown field is refused, never passed on: some gateways read `models` or
 * `provider` to route elsewhere), the model checked against the allow-list, `max_tokens` capped
 * and filled in, `n` bounded, the messages rebuilt field by field with their roles checked (in any
 * case and spacing) and the app's system prompt first. Nothing of the browser's object is kept,
 * so `__proto__` or a getter in it can reach nothing.
 */
import { forbidden, invalid, modelNotFound } from './errors';
import type { Resolved } from './options';

/** A body to send, with what the route needs to meter it. */
export interface Outgoing {
  body: Record<string, unknown>;
  model: string;
  stream: boolean;
  /** The browser asked for the usage chunk (`stream_options.include_usage`). */
  wantsUsage: boolean;
  /** The most completion tokens the request can produce (all choices). */
  completionTokens: number;
}

type Check = (value: unknown, name: string) => unknown;

/** A plain copy of a JSON value; one nested too deeply to copy (a hostile body) is a 400. */
function copy(value: unknown, name: string): unknown {
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    throw invalid(`\`${name}\` is nested too deeply.`, name, 'invalid_value');
  }
}

const number =
  (min: number, max: number): Check =>
  (value, name) => {
    if (typeof value !== 'number' || !(value >= min && value <= max))
      throw invalid(`\`${name}\` must be a number from ${min} to ${max}.`, name, 'invalid_value');
    return value;
  };
const integer =
  (min: number, max: number): Check =>
  (value, name) => {
    if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max)
      throw invalid(
        `\`${name}\` must be a whole number from ${min} to ${max}.`,
        name,
        'invalid_value',
      );
    return value;
  };
const boolean: Check = (value, name) => {
  if (typeof value !== 'boolean')
    throw invalid(`\`${name}\` must be true or false.`, name, 'invalid_value');
  return value;
};
const text: Check = (value, name) => {
  if (typeof value !== 'string')
    throw invalid(`\`${name}\` must be a string.`, name, 'invalid_value');
  return value;
};
const stop: Check = (value, name) => {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length <= 4 && value.every((item) => typeof item === 'string'))
    return [...value];
  throw invalid(`\`${name}\` must be a string or up to 4 strings.`, name, 'invalid_value');
};
const object: Check = (value, name) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(`\`${name}\` must be an object.`, name, 'invalid_value');
  return copy(value, name);
};
const array: Check = (value, name) => {
  if (!Array.isArray(value)) throw invalid(`\`${name}\` must be an array.`, name, 'invalid_value');
  return copy(value, name);
};
const objectOrText: Check = (value, name) =>
  typeof value === 'string' ? value : object(value, name);

/** Sampling fields both endpoints take, and how each is checked. */
const SAMPLING: Record<string, Check> = {
  temperature: number(0, 2),
  top_p: number(0, 1),
  presence_penalty: number(-2, 2),
  frequency_penalty: number(-2, 2),
  seed: integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  stop,
};
const CHAT: Record<string, Check> = {
  ...SAMPLING,
  logprobs: boolean,
  top_logprobs: integer(0, 20),
  reasoning_effort: text,
};
const LEGACY: Record<string, Check> = { ...SAMPLING, echo: boolean, logprobs: integer(0, 5) };
const TOOLS: Record<string, Check> = {
  tools: array,
  tool_choice: objectOrText,
  parallel_tool_calls: boolean,
  functions: array,
  function_call: objectOrText,
};
/** Handled apart, in `common()`. */
const OWN = ['model', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'n'];

/** The fields every endpoint shares: model, stream, the token caps, `n`, and the field table. */
function common(
  raw: Record<string, unknown>,
  options: Resolved,
  fields: Record<string, Check>,
  handled: string[],
) {
  const body: Record<string, unknown> = {};
  for (const name of Object.keys(raw)) {
    const value = raw[name];
    if (value === null || value === undefined || handled.includes(name) || OWN.includes(name))
      continue;
    const check = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (check) body[name] = check(value, name);
    else if (options.allowFields.has(name)) body[name] = copy(value, name);
    else if (name === 'response_format' || Object.hasOwn(TOOLS, name))
      throw forbidden(
        `This route does not accept \`${name}\`.`,
        name,
        name === 'response_format' ? 'response_format_not_allowed' : 'tools_not_allowed',
      );
    else
      throw invalid(
        `Unknown parameter \`${name.slice(0, 64)}\`.`,
        name.slice(0, 64),
        'unknown_parameter',
      );
  }

  const model = raw['model'];
  if (typeof model !== 'string' || model === '')
    throw invalid('`model` is required.', 'model', 'invalid_value');
  if (!options.models.has(model)) throw modelNotFound('model');
  body['model'] = model;

  const stream = raw['stream'] ?? false;
  boolean(stream, 'stream');
  let wantsUsage = false;
  if (stream === true) {
    body['stream'] = true;
    const asked = raw['stream_options'];
    if (asked !== undefined && asked !== null) {
      object(asked, 'stream_options');
      const include = (asked as Record<string, unknown>)['include_usage'];
      if (include !== undefined && include !== null)
        wantsUsage = boolean(include, 'stream_options.include_usage') as boolean;
    }
    // Always asked for upstream: the usage is what the user is charged.
    body['stream_options'] = { include_usage: true };
  }

  // Capped (1e9 becomes the cap), filled in when absent; a value that is no whole number is refused.
  // With both, the larger is reserved: a server may read either (many read only `max_tokens`).
  let most = 0;
  for (const name of ['max_tokens', 'max_completion_tokens']) {
    const value = raw[name];
    if (value === undefined || value === null) continue;
    integer(1, Number.MAX_SAFE_INTEGER)(value, name);
    most = Math.max(most, (body[name] = Math.min(value as number, options.maxTokens)) as number);
  }
  if (most === 0) body['max_tokens'] = most = options.maxTokens;

  const n = raw['n'] ?? 1;
  if (!Number.isSafeInteger(n) || (n as number) < 1)
    throw invalid('`n` must be a whole number of 1 or more.', 'n', 'invalid_value');
  if ((n as number) > options.maxChoices)
    throw invalid(
      `This route gives at most ${options.maxChoices} choice(s) (\`n\`).`,
      'n',
      'invalid_value',
    );
  if (raw['n'] !== undefined && raw['n'] !== null) body['n'] = n;

  const completionTokens = most * (n as number);
  return { body, model, stream: stream === true, wantsUsage, completionTokens };
}

/** Roles a browser may send, each with the message fields it keeps. */
const ROLE_FIELDS: Record<string, string[]> = {
  user: ['content', 'name'],
  assistant: ['content', 'name', 'refusal', 'tool_calls', 'function_call'],
  tool: ['content', 'tool_call_id'],
  function: ['content', 'name'],
  system: ['content', 'name'],
  developer: ['content', 'name'],
};

function message(raw: unknown, i: number, options: Resolved): Record<string, unknown> {
  const where = `messages[${i}]`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid(`\`${where}\` must be an object.`, where, 'invalid_value');
  const given = raw as Record<string, unknown>;
  const spelled = given['role'];
  if (typeof spelled !== 'string')
    throw invalid(`\`${where}.role\` must be a string.`, `${where}.role`, 'invalid_value');
  // `SYSTEM`, ` System ` and `system` are one role to every server: compared as servers read them.
  const role = spelled.trim().toLowerCase();
  const fields = Object.hasOwn(ROLE_FIELDS, role) ? ROLE_FIELDS[role]! : undefined;
  if (fields === undefined)
    throw invalid(`\`${where}.role\` must be user or assistant.`, `${where}.role`, 'invalid_value');
  if ((role === 'system' || role === 'developer') && !options.allowSystemMessages)
    throw forbidden(
      `This route does not accept ${role} messages.`,
      `${where}.role`,
      'role_not_allowed',
    );
  if ((role === 'tool' || role === 'function') && !options.allowTools)
    throw forbidden(
      `This route does not accept ${role} messages.`,
      `${where}.role`,
      'tools_not_allowed',
    );

  const out: Record<string, unknown> = { role };
  for (const name of fields) {
    const value = given[name];
    if (value === undefined || value === null) continue;
    if (name === 'tool_calls' || name === 'function_call') {
      if (!options.allowTools)
        throw forbidden(
          'This route does not accept tool calls.',
          `${where}.${name}`,
          'tools_not_allowed',
        );
      out[name] = copy(value, `${where}.${name}`);
    } else if (name === 'content') out[name] = content(value, `${where}.content`, options);
    else out[name] = text(value, `${where}.${name}`);
  }
  if (
    out['content'] === undefined &&
    out['tool_calls'] === undefined &&
    out['function_call'] === undefined
  )
    throw invalid(`\`${where}.content\` is required.`, `${where}.content`, 'invalid_value');
  return out;
}

function content(value: unknown, where: string, options: Resolved): unknown {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value))
    throw invalid(`\`${where}\` must be a string or an array of parts.`, where, 'invalid_value');
  return value.map((part: unknown, j) => {
    const type = (part as { type?: unknown } | null)?.type;
    if (typeof part !== 'object' || part === null || typeof type !== 'string')
      throw invalid(
        `\`${where}[${j}]\` must be a content part.`,
        `${where}[${j}]`,
        'invalid_value',
      );
    if (!options.contentParts.has(type) && type !== 'refusal')
      throw forbidden(
        `This route does not accept ${type.slice(0, 32)} parts.`,
        `${where}[${j}].type`,
        'content_not_allowed',
      );
    if (type === 'text' || type === 'refusal') {
      const value = (part as Record<string, unknown>)[type];
      return { type, [type]: text(value, `${where}[${j}].${type}`) };
    }
    return copy(part, `${where}[${j}]`);
  });
}

/** The upstream body of a chat completion; the app's system prompt first. */
export function chatBody(
  raw: Record<string, unknown>,
  options: Resolved,
  system: string | undefined,
): Outgoing {
  const fields = {
    ...CHAT,
    ...(options.allowTools ? TOOLS : {}),
    ...(options.allowResponseFormat ? { response_format: object } : {}),
  };
  const outgoing = common(raw, options, fields, ['messages']);
  const messages = raw['messages'];
  if (!Array.isArray(messages) || messages.length === 0)
    throw invalid('`messages` must be a non-empty array.', 'messages', 'invalid_value');
  if (messages.length > options.maxMessages)
    throw invalid(
      `This route takes at most ${options.maxMessages} messages.`,
      'messages',
      'too_many_messages',
    );
  const rebuilt = messages.map((item: unknown, i) => message(item, i, options));
  outgoing.body['messages'] =
    system === undefined ? rebuilt : [{ role: 'system', content: system }, ...rebuilt];
  return outgoing;
}

/** The upstream body of a legacy completion. */
export function legacyBody(raw: Record<string, unknown>, options: Resolved): Outgoing {
  const outgoing = common(raw, options, LEGACY, ['prompt']);
  const prompt = raw['prompt'];
  const ok =
    typeof prompt === 'string' ||
    (Array.isArray(prompt) &&
      prompt.length > 0 &&
      prompt.length <= options.maxMessages &&
      prompt.every((item) => typeof item === 'string'));
  if (!ok)
    throw invalid(
      `\`prompt\` must be a string or up to ${options.maxMessages} strings.`,
      'prompt',
      'invalid_value',
    );
  outgoing.body['prompt'] = Array.isArray(prompt) ? [...prompt] : prompt;
  return outgoing;
}
