// Code written for the official `openai` client carries over with one changed line (issue 23).
// Each file of carry-over/ is written the openai way (`import OpenAI from 'openai'`). For each:
//
//   1. it compiles as written against `openai`, and with only its import line swapped to
//      `import { Client as OpenAI } from 'model-inference-sdk'` against this repository's src/,
//      both under strict + noUncheckedIndexedAccess + exactOptionalPropertyTypes (one program);
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

/** Replies a file needs that the mock's built-in model does not give, queued before each run. */
const SCRIPTS: Record<string, (server: MockServer) => void> = {
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
  'client-options.ts': ['You said: Hello docs', '60000 1', 'true'],
  'chat.ts': ['assistant You said: Say this is a test', 'finish: stop', 'request id: string', 'You said: Later', 'chat.completion 200 string'],
  'streaming.ts': ['You said: Tell me a story', 'You said: Count to three', 'You said: streamed', 'You said: not streamed', 'true stop', 'stopped after 2'],
  'legacy-completions.ts': ['You said: Tell me a story'],
  'models.ts': ['mock/echo, mock/reasoner, mock/sleeping', 'first page: 3', 'mock/echo model mock'],
  'errors.ts': ['not found (404)', 'authentication (401)', 'connection'],
  'function-call.ts': ['finish: function_call', 'call: get_weather Paris', 'It is 21 degrees in Paris.', 'streamed call: get_weather {"city":"Paris"}'],
  'tools.ts': ['tool call: get_weather Paris', 'runner call: get_weather {"city":"Paris"}', 'final: string'],
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
    paths: { 'model-inference-sdk': ['src/index.ts'] },
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
    const source = readFileSync(path.join(examples, file), 'utf8');
    if (source.split('\n').filter((line) => line === OPENAI_IMPORT).length !== 1 || (source.match(/from 'openai/g) ?? []).length !== 1) {
      throw new Error(`carry-over/${file}: needs exactly one import, \`${OPENAI_IMPORT}\``);
    }
    writeFileSync(path.join(swappedDir, file), source.replace(OPENAI_IMPORT, SDK_IMPORT));
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
