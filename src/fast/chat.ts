/**
 * Fast paths for the chat-completions responses: `ChatCompletionChunk` (every event of a stream,
 * so the one that counts) and `ChatCompletion`. Each mirrors its schema in
 * src/generated/zod.gen.ts field by field, in the schema's order; see shapes.ts for the rules
 * and for what "not sure" means.
 */
import type { ChatCompletion, ChatCompletionChunk } from '../generated/types.gen';
import {
  choiceLogprobs,
  content,
  int,
  isPlain,
  items,
  layout,
  optInt,
  optNullStr,
  optNum,
  optStr,
  rebuild,
  settle,
  str,
  typedList,
  usage,
  type Layout,
  type Obj,
} from './shapes';

// The objects of every chunk get their own copy functions (see `Layout.copy`): constant
// property names, written out, so that V8 makes each store a fast named store.

/** The top level of a chunk and of a completion: the same keys. */
const TOP = /* @__PURE__ */ layout(['id', 'object', 'created', 'model', 'choices', 'usage', 'system_fingerprint', 'service_tier'], (input, out) => {
  let value: unknown;
  if ((value = input['id']) !== undefined) out['id'] = value;
  if ((value = input['object']) !== undefined) out['object'] = value;
  if ((value = input['created']) !== undefined) out['created'] = value;
  if ((value = input['model']) !== undefined) out['model'] = value;
  if ((value = input['choices']) !== undefined) out['choices'] = value;
  if ((value = input['usage']) !== undefined) out['usage'] = value;
  if ((value = input['system_fingerprint']) !== undefined) out['system_fingerprint'] = value;
  if ((value = input['service_tier']) !== undefined) out['service_tier'] = value;
});
const CHUNK_CHOICE = /* @__PURE__ */ layout(['index', 'delta', 'finish_reason', 'logprobs'], (input, out) => {
  let value: unknown;
  if ((value = input['index']) !== undefined) out['index'] = value;
  if ((value = input['delta']) !== undefined) out['delta'] = value;
  if ((value = input['finish_reason']) !== undefined) out['finish_reason'] = value;
  if ((value = input['logprobs']) !== undefined) out['logprobs'] = value;
});
/** A delta, and a message: the same keys. */
const DELTA = /* @__PURE__ */ layout(['role', 'content', 'refusal', 'tool_calls', 'reasoning_content', 'reasoning', 'annotations', 'reasoning_details'], (input, out) => {
  let value: unknown;
  if ((value = input['role']) !== undefined) out['role'] = value;
  if ((value = input['content']) !== undefined) out['content'] = value;
  if ((value = input['refusal']) !== undefined) out['refusal'] = value;
  if ((value = input['tool_calls']) !== undefined) out['tool_calls'] = value;
  if ((value = input['reasoning_content']) !== undefined) out['reasoning_content'] = value;
  if ((value = input['reasoning']) !== undefined) out['reasoning'] = value;
  if ((value = input['annotations']) !== undefined) out['annotations'] = value;
  if ((value = input['reasoning_details']) !== undefined) out['reasoning_details'] = value;
});
const CHUNK_TOOL_CALL = /* @__PURE__ */ layout(['index', 'id', 'type', 'function']);
const FUNCTION_FRAGMENT = /* @__PURE__ */ layout(['name', 'arguments']);

/** `zChatCompletionChunk`, or `undefined` when the schema must decide. */
export function fastChatCompletionChunk(value: unknown): ChatCompletionChunk | undefined {
  return top(value, chunkChoice, true) as ChatCompletionChunk | undefined;
}

/** `zChatCompletion`, or `undefined` when the schema must decide. */
export function fastChatCompletion(value: unknown): ChatCompletion | undefined {
  return top(value, completionChoice, false) as ChatCompletion | undefined;
}

/** The top level, the same in both but for the choices (and `choices: null`, which only chunks allow). */
function top(value: unknown, choice: (value: unknown) => unknown, nullChoices: boolean): Obj | undefined {
  if (!isPlain(value)) return undefined;
  if (!optStr(value, 'id') || !optStr(value, 'object') || !optNum(value, 'created') || !optStr(value, 'model')) return undefined;
  if (!optNullStr(value, 'system_fingerprint') || !optNullStr(value, 'service_tier')) return undefined;
  const choices = value['choices'];
  const choicesOut = choices === null && nullChoices ? choices : items(choices, choice);
  if (choicesOut === undefined) return undefined;
  const usageIn = value['usage'];
  const usageOut = usage(usageIn);
  if (usageOut === false) return undefined;
  const out = settle(value, TOP, choicesOut !== choices || usageOut !== usageIn);
  if (out !== undefined && out !== value) {
    out['choices'] = choicesOut;
    if (usageOut !== usageIn) out['usage'] = usageOut;
  }
  return out;
}

function chunkChoice(value: unknown): unknown {
  if (!isPlain(value) || !int(value, 'index') || !optNullStr(value, 'finish_reason')) return undefined;
  const delta = value['delta'];
  const deltaOut = chunkDelta(delta);
  if (deltaOut === undefined) return undefined;
  const logprobs = value['logprobs'];
  const logprobsOut = choiceLogprobs(logprobs);
  if (logprobsOut === false) return undefined;
  const out = settle(value, CHUNK_CHOICE, deltaOut !== delta || logprobsOut !== logprobs);
  if (out !== undefined && out !== value) {
    out['delta'] = deltaOut;
    if (logprobsOut !== logprobs) out['logprobs'] = logprobsOut;
  }
  return out;
}

/** A delta or a message: they differ in `role` (nullable in a delta), the tool calls and `annotations` (nullable in a message). */
function fragment(value: unknown, shape: Layout, delta: boolean): unknown {
  if (!isPlain(value)) return undefined;
  if (!(delta ? optNullStr(value, 'role') : optStr(value, 'role'))) return undefined;
  if (!optNullStr(value, 'refusal') || !optNullStr(value, 'reasoning_content') || !optNullStr(value, 'reasoning')) return undefined;
  const contentIn = value['content'];
  const contentOut = content(contentIn);
  const calls = value['tool_calls'];
  const callsOut = calls === undefined || calls === null ? calls : items(calls, delta ? chunkToolCall : messageToolCall);
  const annotations = value['annotations'];
  const annotationsOut = typedList(annotations, !delta);
  const details = value['reasoning_details'];
  const detailsOut = typedList(details, false);
  const callsFailed = callsOut === undefined && calls !== undefined;
  if (contentOut === false || callsFailed || annotationsOut === false || detailsOut === false) return undefined;
  const rebuilt = contentOut !== contentIn || callsOut !== calls || annotationsOut !== annotations || detailsOut !== details;
  const out = settle(value, shape, rebuilt);
  if (out !== undefined && out !== value && rebuilt) {
    if (contentOut !== contentIn) out['content'] = contentOut;
    if (callsOut !== calls) out['tool_calls'] = callsOut;
    if (annotationsOut !== annotations) out['annotations'] = annotationsOut;
    if (detailsOut !== details) out['reasoning_details'] = detailsOut;
  }
  return out;
}

function chunkDelta(value: unknown): unknown {
  return fragment(value, DELTA, true);
}

function chunkToolCall(value: unknown): unknown {
  if (!isPlain(value) || !optInt(value, 'index') || !optNullStr(value, 'id') || !optNullStr(value, 'type')) return undefined;
  const fn = value['function'];
  if (fn === undefined) return settle(value, CHUNK_TOOL_CALL, false);
  if (!isPlain(fn) || !optNullStr(fn, 'name') || !optNullStr(fn, 'arguments')) return undefined;
  const fnOut = settle(fn, FUNCTION_FRAGMENT, false);
  if (fnOut === undefined) return undefined;
  return rebuild(settle(value, CHUNK_TOOL_CALL, fnOut !== fn), value, 'function', fnOut);
}

const CHOICE = /* @__PURE__ */ layout(['index', 'message', 'finish_reason', 'logprobs']);
const MESSAGE = DELTA;
const TOOL_CALL = /* @__PURE__ */ layout(['id', 'type', 'function']);
const FUNCTION = /* @__PURE__ */ layout(['name', 'arguments']);

function completionChoice(value: unknown): unknown {
  if (!isPlain(value) || !int(value, 'index') || !optNullStr(value, 'finish_reason')) return undefined;
  const message = value['message'];
  const messageOut = message === undefined ? message : fragment(message, MESSAGE, false);
  if (message !== undefined && messageOut === undefined) return undefined;
  const logprobs = value['logprobs'];
  const logprobsOut = choiceLogprobs(logprobs);
  if (logprobsOut === false) return undefined;
  const out = settle(value, CHOICE, messageOut !== message || logprobsOut !== logprobs);
  if (out !== undefined && out !== value) {
    if (messageOut !== message) out['message'] = messageOut;
    if (logprobsOut !== logprobs) out['logprobs'] = logprobsOut;
  }
  return out;
}

function messageToolCall(value: unknown): unknown {
  if (!isPlain(value) || !str(value, 'id') || !optStr(value, 'type')) return undefined;
  const fn = value['function'];
  if (!isPlain(fn) || !str(fn, 'name') || !optStr(fn, 'arguments')) return undefined;
  const fnOut = settle(fn, FUNCTION, false);
  if (fnOut === undefined) return undefined;
  return rebuild(settle(value, TOOL_CALL, fnOut !== fn), value, 'function', fnOut);
}
