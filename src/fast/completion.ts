/**
 * Fast path for the legacy `Completion` (a response, and every event of a legacy stream). Mirrors
 * `zCompletion` in src/generated/zod.gen.ts; see shapes.ts for the rules. Per-token
 * `top_logprobs` maps are left to the schema (its record rules are not worth copying for a
 * field this rare).
 */
import type { Completion } from '../generated/types.gen';
import { int, isPlain, isSafeInt, items, layout, optNullList, optNullStr, optNum, optStr, rebuild, settle, str, usage } from './shapes';

const COMPLETION = /* @__PURE__ */ layout(['id', 'object', 'created', 'model', 'choices', 'usage', 'system_fingerprint']);
const CHOICE = /* @__PURE__ */ layout(['index', 'text', 'finish_reason', 'logprobs']);
const LOGPROBS = /* @__PURE__ */ layout(['tokens', 'token_logprobs', 'top_logprobs', 'text_offset']);

/** `zCompletion`, or `undefined` when the schema must decide. */
export function fastCompletion(value: unknown): Completion | undefined {
  if (!isPlain(value)) return undefined;
  if (!optStr(value, 'id') || !optStr(value, 'object') || !optNum(value, 'created') || !optStr(value, 'model') || !optNullStr(value, 'system_fingerprint')) {
    return undefined;
  }
  const choices = value['choices'];
  const choicesOut = items(choices, completionChoice);
  if (choicesOut === undefined) return undefined;
  const usageIn = value['usage'];
  const usageOut = usage(usageIn);
  if (usageOut === false) return undefined;
  const out = settle(value, COMPLETION, choicesOut !== choices || usageOut !== usageIn);
  if (out !== undefined && out !== value) {
    out['choices'] = choicesOut;
    if (usageOut !== usageIn) out['usage'] = usageOut;
  }
  return out as Completion | undefined;
}

function completionChoice(value: unknown): unknown {
  if (!isPlain(value) || !int(value, 'index') || !str(value, 'text') || !optNullStr(value, 'finish_reason')) return undefined;
  const logprobs = value['logprobs'];
  if (logprobs === undefined || logprobs === null) return settle(value, CHOICE, false);
  const logprobsOut = completionLogprobs(logprobs);
  if (logprobsOut === undefined) return undefined;
  return rebuild(settle(value, CHOICE, logprobsOut !== logprobs), value, 'logprobs', logprobsOut);
}

function completionLogprobs(value: unknown): unknown {
  if (
    !isPlain(value) ||
    !optNullList(value, 'tokens', (item) => typeof item === 'string') ||
    !optNullList(value, 'token_logprobs', (item) => item === null || Number.isFinite(item)) ||
    // A list of per-token maps goes to the schema; a list of nulls (vLLM without top_logprobs) stays here.
    !optNullList(value, 'top_logprobs', (item) => item === null) ||
    !optNullList(value, 'text_offset', isSafeInt)
  ) {
    return undefined;
  }
  return settle(value, LOGPROBS, false);
}
