// Code written for the official `openai` client carries over with one changed line (issue 23).
// Each file of carry-over/ is written the openai way (`import OpenAI from 'openai'`). For each:
//
//   1. it compiles as written against `openai`, and with only its import lines swapped against this
//      repository's src/, both under strict + noUncheckedIndexedAccess + exactOptionalPropertyTypes
//      (one program): `import OpenAI from 'openai'` becomes `import { Client as OpenAI } from
//      'model-inference-sdk'`, an import from 'openai/helpers/zod' one from
//      'model-inference-sdk/helpers/zod', and one from 'openai/lib/…' (ChatCompletionStream,
//      RunnableToolFunction …) one from 'model-inference-sdk';
//   2. both run against the local mock server and print the same lines.
//
// The constructor stays `new OpenAI()`: the key and base URL come from the environment, which
// each client reads under its own names (OPENAI_* and INFERENCE_*; the guide lists the difference).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMockServer, type MockServer } from '../../src/testing';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = path.resolve(here, '../..');
const examples = path.join(here, 'carry-over');
const OPENAI_IMPORT = "import OpenAI from 'openai';";
const SDK_IMPORT = "import { Client as OpenAI } from 'model-inference-sdk';";
/** The other import lines a file may have, and what each becomes: the zod helpers' entry, and openai's lib/ names. */
const OTHER_IMPORTS: [RegExp, string][] = [
  [/^(import \{[^}]*\} from )'openai\/helpers\/zod';$/, "$1'model-inference-sdk/helpers/zod';"],
  [/^(import (?:type )?\{[^}]*\} from )'openai\/lib\/\w+';$/, "$1'model-inference-sdk';"],
];

/** A streamed chunk of a scripted reply, with one choice. */
const chunkOf = (id: string, delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
  id,
  object: 'chat.completion.chunk',
  created: 1,
  model: 'mock/echo',
  choices: [{ index: 0, delta, finish_reason: finish, ...extra }],
});
/** A token logprob. */
const lp = (token: string, logprob: number) => ({ token, logprob, bytes: null, top_logprobs: [] });
/** The model calls get_weather for Paris, then answers (a JSON reply or a stream, as asked). */
const toolRound = [{ reply: { tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } }, { reply: { content: 'It is 21 degrees in Paris.' } }];

/** Replies a file needs that the mock's built-in model does not give, queued before each run. */
const SCRIPTS: Record<string, (server: MockServer) => void> = {
  'stream-parse.ts': (server) => {
    const json = '{"city":"Paris","celsius":21}';
    const pieces = json.match(/.{1,6}/g)!.map((piece) => chunkOf('chatcmpl-sp', { content: piece }));
    server.enqueue(
      { events: [chunkOf('chatcmpl-sp', { role: 'assistant', content: '' }), ...pieces, chunkOf('chatcmpl-sp', {}, 'stop'), '[DONE]'] },
      {
        events: [
          chunkOf('chatcmpl-tc', { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
          chunkOf('chatcmpl-tc', { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
          chunkOf('chatcmpl-tc', { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
          chunkOf('chatcmpl-tc', {}, 'tool_calls'),
          '[DONE]',
        ],
      },
    );
  },
  'stream-events.ts': (server) => {
    // (No logprobs on the first chunk: openai@6 counts those twice.)
    server.enqueue({
      events: [
        chunkOf('chatcmpl-se', { role: 'assistant', content: '' }),
        chunkOf('chatcmpl-se', { content: 'Hi' }, null, { logprobs: { content: [lp('Hi', -0.1)], refusal: null } }),
        chunkOf('chatcmpl-se', { content: ' there' }, null, { logprobs: { content: [lp(' there', -0.2)], refusal: null } }),
        chunkOf('chatcmpl-se', { refusal: 'No' }, null, { logprobs: { content: null, refusal: [lp('No', -0.3)] } }),
        chunkOf('chatcmpl-se', {}, 'stop'),
        { ...chunkOf('chatcmpl-se', {}), choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } },
        '[DONE]',
      ],
    });
  },
  'runner-stream.ts': (server) => {
    server.enqueue(...toolRound, ...toolRound, ...toolRound);
  },
  'function-call.ts': (server) => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id: 'chatcmpl-fc',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'mock/echo',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    server.enqueue(
      {
        body: {
          id: 'chatcmpl-fc',
          object: 'chat.completion',
          created: 1,
          model: 'mock/echo',
          choices: [{ index: 0, message: { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' } }, finish_reason: 'function_call', logprobs: null }],
        },
      },
      { reply: { content: 'It is 21 degrees in Paris.' } },
      {
        events: [
          chunk({ role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '' } }),
          chunk({ function_call: { arguments: '{"city":' } }),
          chunk({ function_call: { arguments: '"Paris"}' } }),
          chunk({}, 'function_call'),
          '[DONE]',
        ],
      },
    );
  },
};

/** Lines a file's output must hold, so that two empty outputs cannot pass as equal. */
const EXPECTED: Record<string, string[]> = {
  'stream-listeners.ts': ['heard: You said: listened to', 'final: You said: listened to'],
  'argument-errors.ts': [
    'create: caught by .catch() true ; thrown from the call false',
    'completions.create: rejected',
    'stream: done() rejected ; error events 1',
    'runTools: done() rejected',
  ],
  'client-options.ts': ['You said: Hello docs', '60000 1', 'true'],
  'chat.ts': ['assistant You said: Say this is a test', 'finish: stop', 'request id: string', 'You said: Later', 'chat.completion 200 string'],
  'streaming.ts': ['You said: Tell me a story', 'You said: Count to three', 'You said: streamed', 'You said: not streamed', 'true stop', 'stopped after 2'],
  'legacy-completions.ts': ['You said: Tell me a story'],
  'models.ts': ['mock/echo, mock/reasoner, mock/sleeping', 'first page: 3', 'mock/echo model mock'],
  'errors.ts': ['not found (404)', 'authentication (401)', 'connection'],
  'function-call.ts': ['finish: function_call', 'call: get_weather Paris', 'It is 21 degrees in Paris.', 'streamed call: get_weather {"city":"Paris"}'],
  'tools.ts': ['tool call: get_weather Paris', 'runner call: get_weather {"city":"Paris"}', 'final: string'],
  'stream-parse.ts': ['done: Paris 21', 'last partial: {"city":"Paris","celsius":21}', 'parsed: Paris 21', 'arguments done: get_weather {"city":"Paris"}', 'final call: get_weather Paris'],
  'stream-events.ts': [
    'chunk: Hi so far: Hi',
    'chunk: - so far: Hi there',
    'logprobs done: 2 -0.1 -0.2',
    'refusal logprob: No',
    'refusal logprobs done: 1',
    'chatCompletion: stop',
    'message: assistant Hi there',
    'finalContent: Hi there',
    'totalUsage: 7',
    'tokens: Hi| there',
  ],
  'browser-stream.ts': ['content done: You said: Hello browser', 'streamed: You said: Hello browser', 'final: You said: Hello browser stop'],
  'runner-stream.ts': [
    'call: get_weather {"city":"Paris"}',
    'answer: It is 21 degrees in Paris.',
    'result: {"city":"Paris","celsius":21}',
    'streamed: It is 21 degrees in Paris.',
    'final: It is 21 degrees in Paris.',
    'body lines with content: true',
  ],
};

const files = readdirSync(examples).filter((f) => f.endsWith('.ts')).sort();
let swappedDir: string;
let diagnostics: Map<string, string[]>;
let server: MockServer;
const savedEnv = { ...process.env };

/** Every diagnostic of each root file, by path, in one program (src/ is checked once for all). */
function compile(paths: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram(paths, {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    typeRoots: [path.join(root, 'node_modules', '@types')],
    skipLibCheck: true,
    noEmit: true,
    baseUrl: root,
    paths: { 'model-inference-sdk': ['src/index.ts'], 'model-inference-sdk/helpers/zod': ['src/helpers/zod.ts'] },
  });
  const out = new Map<string, string[]>();
  for (const file of paths) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${file}: not in the program`);
    const found = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    out.set(
      file,
      found.map((d) => {
        const { line } = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : { line: -1 };
        return `${path.basename(file)}:${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    );
  }
  return out;
}

/** What a file prints with console.log, run once (its module is imported fresh). */
async function run(file: string): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
  try {
    await import(pathToFileURL(file).href);
  } finally {
    spy.mockRestore();
  }
  return lines;
}

beforeAll(async () => {
  server = await startMockServer();
  Object.assign(process.env, {
    OPENAI_API_KEY: server.apiKey,
    OPENAI_BASE_URL: server.url,
    INFERENCE_API_KEY: server.apiKey,
    INFERENCE_BASE_URL: server.url,
  });
  // The swapped copies live beside the originals (inside this folder), so that `openai` and the
  // SDK resolve from them the same way.
  swappedDir = mkdtempSync(path.join(here, '.carry-over-'));
  for (const file of files) {
    const lines = readFileSync(path.join(examples, file), 'utf8').split('\n');
    if (lines.filter((line) => line === OPENAI_IMPORT).length !== 1) throw new Error(`carry-over/${file}: needs exactly one \`${OPENAI_IMPORT}\``);
    const swapped = lines.map((line) => {
      if (line === OPENAI_IMPORT) return SDK_IMPORT;
      if (!/from 'openai/.test(line)) return line;
      const rule = OTHER_IMPORTS.find(([pattern]) => pattern.test(line));
      if (!rule) throw new Error(`carry-over/${file}: an import of openai the harness does not swap: ${line}`);
      return line.replace(rule[0], rule[1]);
    });
    writeFileSync(path.join(swappedDir, file), swapped.join('\n'));
  }
  diagnostics = compile(files.flatMap((f) => [path.join(examples, f), path.join(swappedDir, f)]));
}, 180_000);

afterAll(async () => {
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'INFERENCE_API_KEY', 'INFERENCE_BASE_URL']) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
  if (swappedDir) rmSync(swappedDir, { recursive: true, force: true });
  await server?.close();
});

describe('openai code carries over with the import line changed (carry-over/)', () => {
  it('has the example files, each with expected output', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  describe.each(files)('%s', (file) => {
    it('compiles as written against openai', () => {
      expect(diagnostics.get(path.join(examples, file))).toEqual([]);
    });

    it("compiles with `import { Client as OpenAI } from 'model-inference-sdk'`", () => {
      expect(diagnostics.get(path.join(swappedDir, file))).toEqual([]);
    });

    it('prints the same against the mock server with either client', async () => {
      SCRIPTS[file]?.(server);
      const theirs = await run(path.join(examples, file));
      SCRIPTS[file]?.(server);
      const ours = await run(path.join(swappedDir, file));
      for (const line of EXPECTED[file] ?? []) expect(theirs).toContain(line);
      expect(ours).toEqual(theirs);
    });
  });
});
