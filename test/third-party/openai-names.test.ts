// The official `openai` client's type names and request fields, read from the installed package's
// declarations with the TypeScript compiler, against model-inference-sdk's public entry: code written
// for that client's types compiles against this SDK unless it uses one of the names or fields
// listed below, each left out for the reason given. A new name in a newer `openai`, or a name
// this SDK drops, fails here. (test/types-openai-carry-over.test-d.ts checks what the names mean.)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
// This folder's own install (scripts/tools.mjs), pinned in its package.json.
const openai = fileURLToPath(new URL('node_modules/openai', import.meta.url));
/** The modules of the resources this SDK has: chat completions, legacy completions, models, shared. */
const MODULES = ['resources/chat/completions/completions.d.ts', 'resources/completions.d.ts', 'resources/models.d.ts', 'resources/shared.d.ts'];

/** openai's names this SDK does not have, and why. Nested names are written `A.B`. */
const SKIPPED: Record<string, string> = {
  // Helpers of openai's lib/ (ChatCompletionStreamingRunner, RunnableFunctionWithParse,
  // ChatCompletionToolRunnerParams … are here under the same names); these are not:
  ParsedFunction: 'lib helper; ParsedFunctionToolCall["function"]',
  ParsingToolFunction: 'lib helper (a class); a { type, function } object, or zodFunction()',
  ChatCompletionToolRunnerParamsWithContext: 'lib helper; RunToolsParams (its toolContext is any value)',
  ChatCompletionToolRunnerParamsWithoutContext: 'lib helper; ChatCompletionToolRunnerParams',
  ChatCompletionStreamingToolRunnerParamsWithContext: 'lib helper; RunToolsParams (its toolContext is any value)',
  ChatCompletionStreamingToolRunnerParamsWithoutContext: 'lib helper; ChatCompletionStreamingToolRunnerParams',
  // Stored completions (OpenAI only): the service has no such endpoints.
  ChatCompletionsPage: 'stored completions',
  ChatCompletionStoreMessagesPage: 'stored completions',
  ChatCompletionStoreMessage: 'stored completions',
  ChatCompletionDeleted: 'stored completions',
  ChatCompletionUpdateParams: 'stored completions',
  ChatCompletionListParams: 'stored completions',
  // Custom tools and allowed-tools choices (OpenAI only): not in the spec.
  ChatCompletionCustomTool: 'custom tools',
  ChatCompletionMessageCustomToolCall: 'custom tools',
  ChatCompletionNamedToolChoiceCustom: 'custom tools',
  CustomToolInputFormat: 'custom tools',
  ChatCompletionAllowedToolChoice: 'allowed-tools choice',
  ChatCompletionAllowedTools: 'allowed-tools choice',
  // Audio output: the `audio` and `modalities` parameters are typed, the reply's audio is not
  // (read it with extras()).
  ChatCompletionAudio: 'audio output',
  'ChatCompletionAssistantMessageParam.Audio': 'audio output',
  'ChatCompletionAudioParam.ID': 'a custom voice, { id } inline in ChatCompletionAudioParam["voice"]',
  // Moderated completions and prompt-cache options (OpenAI only, newer than the spec's sources).
  'ChatCompletion.Moderation': 'moderated completions',
  'ChatCompletionChunk.Moderation': 'moderated completions',
  'ChatCompletionCreateParams.Moderation': 'moderated completions',
  'ChatCompletionCreateParams.PromptCacheOptions': 'prompt-cache options',
  'ChatCompletionContentPart.File.PromptCacheBreakpoint': 'prompt-cache options',
  'ChatCompletionContentPartImage.PromptCacheBreakpoint': 'prompt-cache options',
  'ChatCompletionContentPartInputAudio.PromptCacheBreakpoint': 'prompt-cache options',
  'ChatCompletionContentPartText.PromptCacheBreakpoint': 'prompt-cache options',
  // Declared at the top level only (ChatCompletionCreateParamsNonStreaming, ...).
  'ChatCompletionCreateParams.ChatCompletionCreateParamsNonStreaming': 'top-level name only',
  'ChatCompletionCreateParams.ChatCompletionCreateParamsStreaming': 'top-level name only',
  'CompletionCreateParams.CompletionCreateParamsNonStreaming': 'top-level name only',
  'CompletionCreateParams.CompletionCreateParamsStreaming': 'top-level name only',
  // Models: one page, no deletion; openai's model ids are not this service's slugs.
  ModelsPage: 'PagePromise<ModelList, Model>',
  ModelDeleted: 'no model deletion',
  AllModels: "OpenAI's model ids (model is a string)",
  ChatModel: "OpenAI's model ids (model is a string)",
  ResponsesModel: 'Responses API',
  // Other APIs of OpenAI's.
  ComparisonFilter: 'file search',
  CompoundFilter: 'file search',
  OAuthErrorCode: 'OAuth',
  Reasoning: 'Responses API',
  ResponseFormatTextGrammar: 'Responses API',
  ResponseFormatTextPython: 'Responses API',
};

/** Request fields openai types and this SDK does not, by type. */
const SKIPPED_FIELDS: Record<string, string[]> = {
  ChatCompletionCreateParamsBase: ['moderation', 'prompt_cache_options', 'prompt_cache_retention'],
  ChatCompletionAssistantMessageParam: ['audio'],
  ChatCompletionContentPartText: ['prompt_cache_breakpoint'],
  ChatCompletionContentPartImage: ['prompt_cache_breakpoint'],
  ChatCompletionContentPartInputAudio: ['prompt_cache_breakpoint'],
  'ChatCompletionContentPart.File': ['prompt_cache_breakpoint'],
};
/** Request fields both type that take values of openai's this SDK does not, and why. */
const SKIPPED_VALUES: Record<string, string> = {
  'ChatCompletionCreateParamsBase.messages': 'custom tool calls in assistant messages',
  'ChatCompletionAssistantMessageParam.tool_calls': 'custom tool calls',
  'ChatCompletionCreateParamsBase.tools': 'custom tools',
  'ChatCompletionCreateParamsBase.tool_choice': 'custom tools, allowed-tools choice',
};
/** The request types whose fields are compared (openai's name; the SDK has the same name). */
const REQUEST_TYPES = [
  'ChatCompletionCreateParamsBase',
  'CompletionCreateParamsBase',
  'ChatCompletionStreamOptions',
  'ChatCompletionSystemMessageParam',
  'ChatCompletionDeveloperMessageParam',
  'ChatCompletionUserMessageParam',
  'ChatCompletionAssistantMessageParam',
  'ChatCompletionToolMessageParam',
  'ChatCompletionFunctionMessageParam',
  'ChatCompletionContentPartText',
  'ChatCompletionContentPartImage',
  'ChatCompletionContentPartInputAudio',
  'ChatCompletionContentPart.File',
  'ChatCompletionContentPartRefusal',
  'ChatCompletionFunctionTool',
  'FunctionDefinition',
  'ChatCompletionNamedToolChoice',
  'ChatCompletionFunctionCallOption',
  'ChatCompletionPredictionContent',
  'ChatCompletionAudioParam',
  'ChatCompletionCreateParams.Function',
  'ChatCompletionCreateParams.WebSearchOptions',
  'ChatCompletionCreateParams.WebSearchOptions.UserLocation',
  'ChatCompletionCreateParams.WebSearchOptions.UserLocation.Approximate',
  'ResponseFormatJSONSchema.JSONSchema',
];

const program = ts.createProgram([...MODULES.map((m) => path.join(openai, m)), path.join(openai, 'client.d.ts'), path.join(root, 'src/index.ts')], {
  strict: true,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
  skipLibCheck: true,
  types: [],
});
const checker = program.getTypeChecker();
const resolve = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
const exportsOf = (file: string): Map<string, ts.Symbol> => {
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${file}: not a module`);
  return new Map(checker.getExportsOfModule(module).map((s) => [s.name, resolve(s)]));
};
const theirs = new Map(MODULES.flatMap((m) => [...exportsOf(path.join(openai, m))]));
const ours = exportsOf(path.join(root, 'src/index.ts'));

/** The symbol of a dotted name (`A.B.C`): a module export, then namespace members. */
function lookup(exports: ReadonlyMap<string, ts.Symbol>, dotted: string): ts.Symbol | undefined {
  const [first, ...rest] = dotted.split('.');
  let symbol = exports.get(first!);
  for (const part of rest) {
    const member = symbol?.exports?.get(part as ts.__String);
    symbol = member && resolve(member);
  }
  return symbol;
}

/**
 * openai's type names (from MODULES, nested namespace members included, `A.B`) that model-inference-sdk
 * does not have. A missing name's own members are not listed again.
 */
function missingNames(): string[] {
  const out: string[] = [];
  const visit = (symbol: ts.Symbol, name: string): void => {
    if (lookup(ours, name) === undefined) return void out.push(name);
    // A class's namespace only re-exports the module's names (`Completions.ChatCompletion`).
    if (symbol.flags & ts.SymbolFlags.Class) return;
    symbol.exports?.forEach((member, key) => {
      if (member.flags & (ts.SymbolFlags.Type | ts.SymbolFlags.Namespace)) visit(resolve(member), `${name}.${String(key)}`);
    });
  };
  for (const [name, symbol] of theirs) visit(symbol, name);
  return out;
}

function fields(symbol: ts.Symbol): string[] {
  return checker.getDeclaredTypeOfSymbol(symbol).getProperties().map((p) => p.name);
}

/** True when `null` is one of the type's values. */
function admitsNull(type: ts.Type): boolean {
  return type.isUnion() ? type.types.some(admitsNull) : (type.flags & ts.TypeFlags.Null) !== 0;
}

/** How a field may be left out or set: `optional`, `nullable`, both, or `required`. */
function presence(field: ts.Symbol): string {
  const optional = (field.flags & ts.SymbolFlags.Optional) !== 0;
  const nullable = admitsNull(checker.getTypeOfSymbol(field));
  return [optional && 'optional', nullable && 'nullable'].filter(Boolean).join(' ') || 'required';
}

describe("the openai client's names (installed openai package)", () => {
  it('finds the names to compare', () => {
    expect(theirs.size).toBeGreaterThan(50);
    expect(lookup(theirs, 'ChatCompletionChunk.Choice.Delta.ToolCall.Function')).toBeDefined();
    expect(lookup(ours, 'ChatCompletionChunk.Choice.Delta.ToolCall.Function')).toBeDefined();
  });

  it('every type name and nested name exists in model-inference-sdk, but those skipped for a reason', () => {
    expect(missingNames().sort()).toEqual(Object.keys(SKIPPED).sort());
  });

  it('every request field exists in model-inference-sdk, but those skipped for a reason', () => {
    const missing: Record<string, string[]> = {};
    for (const name of REQUEST_TYPES) {
      const their = lookup(theirs, name);
      const our = lookup(ours, name);
      if (!their || !our) throw new Error(`${name}: not found (${their ? 'model-inference-sdk' : 'openai'})`);
      const own = new Set(fields(our));
      const absent = fields(their).filter((field) => !own.has(field));
      if (absent.length > 0) missing[name] = absent.sort();
    }
    expect(missing).toEqual(SKIPPED_FIELDS);
  });

  it('every request field both have is optional and takes null exactly where openai\'s does', () => {
    // `max_tokens: opts.maxTokens ?? null` compiles against both, `tools: null` against neither,
    // and a field openai requires is required here too.
    const differ: string[] = [];
    for (const name of REQUEST_TYPES) {
      const their = checker.getDeclaredTypeOfSymbol(lookup(theirs, name)!);
      const our = checker.getDeclaredTypeOfSymbol(lookup(ours, name)!);
      for (const field of their.getProperties()) {
        const own = our.getProperty(field.name);
        if (!own || presence(own) === presence(field)) continue;
        differ.push(`${name}.${field.name}: openai ${presence(field)}, model-inference-sdk ${presence(own)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('every request field both have takes every value openai\'s takes, but those skipped for a reason', () => {
    // Token-array prompts, nulls, open enums: openai's field type is assignable to this SDK's.
    const narrower: string[] = [];
    for (const name of REQUEST_TYPES) {
      const their = checker.getDeclaredTypeOfSymbol(lookup(theirs, name)!);
      const our = checker.getDeclaredTypeOfSymbol(lookup(ours, name)!);
      for (const field of their.getProperties()) {
        const own = our.getProperty(field.name);
        if (own && !checker.isTypeAssignableTo(checker.getTypeOfSymbol(field), checker.getTypeOfSymbol(own))) narrower.push(`${name}.${field.name}`);
      }
    }
    expect(narrower.sort()).toEqual(Object.keys(SKIPPED_VALUES).sort());
  });

  it('every type name both have takes null exactly where openai\'s does (ReasoningEffort, ...)', () => {
    const differ: string[] = [];
    for (const [name, symbol] of theirs) {
      const own = lookup(ours, name);
      if (!own || !(symbol.flags & ts.SymbolFlags.TypeAlias)) continue;
      const [their, our] = [symbol, own].map((s) => admitsNull(checker.getDeclaredTypeOfSymbol(s)));
      if (their !== our) differ.push(`${name}: null ${their ? 'in openai only' : 'in model-inference-sdk only'}`);
    }
    expect(differ).toEqual([]);
  });
});

/** openai's namespaces on its client class, which `import { Client as OpenAI }` must have too. */
const CLIENT_NAMESPACES = ['', 'Chat', 'Chat.Completions', 'Completions', 'Models'];
/** openai's error classes on its client class that `Client` does not carry, and why. */
const SKIPPED_STATICS: Record<string, string> = {
  OpenAIError: 'the base class is InferenceError (a difference the migration guide lists)',
  InvalidWebhookSignatureError: 'no webhooks',
};

describe("the openai client's default export: names through the class (import { Client as OpenAI })", () => {
  const theirClass = exportsOf(path.join(openai, 'client.d.ts')).get('OpenAI');
  const ourClass = ours.get('Client');
  const files = new Set(MODULES.map((m) => path.join(openai, m)));
  /** The members of a namespace on a class (`''` is the class's own), by name. */
  const membersOf = (symbol: ts.Symbol | undefined, dotted: string): Map<string, ts.Symbol> => {
    let at = symbol;
    for (const part of dotted.split('.').filter(Boolean)) {
      const member = at?.exports?.get(part as ts.__String);
      at = member && resolve(member);
    }
    return new Map([...(at?.exports ?? new Map<ts.__String, ts.Symbol>())].map(([key, member]) => [String(key), member]));
  };

  it('finds the names to compare', () => {
    expect(membersOf(theirClass, 'Chat.Completions').has('ChatCompletionTool')).toBe(true);
    expect(membersOf(ourClass, 'Chat.Completions').has('ChatCompletionTool')).toBe(true);
  });

  it("every type name of openai's client namespaces for these resources resolves through Client, but those skipped for a reason", () => {
    const missing: string[] = [];
    for (const namespace of CLIENT_NAMESPACES) {
      const own = membersOf(ourClass, namespace);
      for (const [name, member] of membersOf(theirClass, namespace)) {
        const target = resolve(member);
        // Types of the resources compared here; resource classes and statics are not type names.
        const isType = target.flags & (ts.SymbolFlags.Type | ts.SymbolFlags.Namespace) && !(target.flags & ts.SymbolFlags.Class);
        if (!isType || !target.declarations?.some((d) => files.has(d.getSourceFile().fileName))) continue;
        if (!own.has(name) && !(name in SKIPPED)) missing.push(namespace ? `OpenAI.${namespace}.${name}` : `OpenAI.${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every error class openai carries as a static is a static of Client, the class the package exports, but those skipped', () => {
    const theirs = [...membersOf(theirClass, '')].filter(([name, s]) => s.flags & ts.SymbolFlags.Property && name.endsWith('Error')).map(([name]) => name);
    expect(theirs.length).toBeGreaterThan(10);
    const differ: string[] = [];
    for (const name of theirs) {
      if (name in SKIPPED_STATICS) continue;
      const own = membersOf(ourClass, '').get(name);
      const exported = ours.get(name);
      if (!own || !(own.flags & ts.SymbolFlags.Property) || !exported) differ.push(`${name}: missing`);
      else if (checker.getTypeOfSymbol(own) !== checker.getTypeOfSymbol(exported)) differ.push(`${name}: not the exported class`);
    }
    expect(differ).toEqual([]);
  });
});
