// A consumer's compiler and editor against the installed tarball: `await using` with and without
// the disposable lib, the README's code under module commonjs + node10, and go-to-definition.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { bin, root } from './artifact';

// The README's parse() and runTools() code, compiled as a project on the oldest settings users
// still have: `module: commonjs` with `moduleResolution: node10`. There `types` and `typesVersions`
// pick the declarations; when the main entry's and helpers/zod's were two copies, `parsed` was `{}`
// (TS2339) and a zodFunction() tool was not a tool (TS2322).
const NODE10_CONSUMER = `
import * as z from 'zod';
import { Client, type ChatCompletion } from 'model-inference-sdk';
import { zodFunction, zodResponseFormat } from 'model-inference-sdk/helpers/zod';
import { startMockServer } from 'model-inference-sdk/testing';

declare function lookup(city: string): Promise<{ celsius: number }>;

export async function readme(client: Client): Promise<[string, number, string | null]> {
  const completion = await client.chat.completions.parse({
    model: 'acme/chat-1',
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    response_format: zodResponseFormat(z.object({ city: z.string(), celsius: z.number() }), 'weather'),
  });
  const parsed = completion.choices[0]?.message.parsed; // { city: string; celsius: number } | null
  const city: string = parsed?.city ?? '';
  const celsius: number = parsed?.celsius ?? 0;
  const plain: ChatCompletion = completion;

  const runner = client.chat.completions.runTools({
    model: 'acme/chat-1',
    messages: [{ role: 'user', content: 'Is it warmer in Paris or Oslo?' }],
    tools: [zodFunction({ name: 'get_weather', parameters: z.object({ city: z.string() }), function: ({ city }) => lookup(city) })],
  });
  void plain;
  void startMockServer;
  return [city, celsius, await runner.finalContent()];
}
`;

// `await using` (issue 28): a stream and a runner are AsyncDisposable where the lib has
// `esnext.disposable`, and the types still compile where it has not and no @types/node declares
// Symbol.asyncDispose (a browser project; the SDK's .d.ts declares the symbol's type itself).
const DISPOSE_SMOKE = `
import { Client } from 'model-inference-sdk';
const client = new Client({ apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1' });
export async function f() {
  await using stream = await client.chat.completions.create({ model: 'm', messages: [], stream: true });
  await using runner = client.chat.completions.runTools({ model: 'm', messages: [], tools: [] });
  const both: AsyncDisposable[] = [stream, runner];
  return both;
}
`;
const NO_DISPOSABLE_LIB = `
import { Client } from 'model-inference-sdk';
const client = new Client({ apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1' });
export const stream = client.chat.completions.create({ model: 'm', messages: [], stream: true });
`;

export function disposableTypes(dir: string): void {
  writeFileSync(path.join(dir, 'dispose.mts'), DISPOSE_SMOKE);
  writeFileSync(path.join(dir, 'no-disposable.mts'), NO_DISPOSABLE_LIB);
  const tsc = (lib: string[], file: string) => {
    const compilerOptions = { noEmit: true, strict: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib, types: [] };
    writeFileSync(path.join(dir, 'tsconfig.dispose.json'), JSON.stringify({ compilerOptions, files: [file] }));
    execFileSync(bin('tsc', 'root'), ['-p', 'tsconfig.dispose.json'], { cwd: dir, stdio: 'inherit' });
  };
  tsc(['es2022', 'esnext.disposable', 'dom'], 'dispose.mts');
  tsc(['es2022', 'dom'], 'no-disposable.mts');
  console.log('  tsc (skipLibCheck false, no @types/node): `await using` a stream and a runner (lib esnext.disposable): ok; lib es2022 alone: ok');
}

export function commonjsNode10(dir: string): void {
  const project = path.join(dir, 'node10');
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'consumer.ts'), NODE10_CONSUMER);
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'commonjs',
        moduleResolution: 'node10',
        target: 'es2022',
        lib: ['es2022', 'dom', 'dom.iterable'],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        noEmit: true,
        ignoreDeprecations: '5.0',
        // As `tsc --init` writes it; zod's own CJS declarations need it.
        esModuleInterop: true,
        types: ['node'],
        typeRoots: [path.join(root, 'node_modules/@types')],
      },
      files: ['consumer.ts'],
    }),
  );
  execFileSync(bin('tsc', 'root'), ['-p', project], { cwd: project, stdio: 'inherit' });
  console.log("  tsc (module commonjs, moduleResolution node10) on the README's parse() and runTools(): ok, parsed typed");
}

/**
 * Go-to-definition in an editor, as TypeScript's language service answers it for a consumer of the
 * tarball: every symbol must land in a file with a readable name (not a `zod-<hash>.d.ts` chunk).
 */
export function goToDefinition(dir: string): void {
  const source = [
    "import { APIError, Client, type ChatCompletion } from 'model-inference-sdk';",
    "import { zodResponseFormat } from 'model-inference-sdk/helpers/zod';",
    "import { startMockServer } from 'model-inference-sdk/testing';",
    'export const used: [typeof APIError, typeof Client, ChatCompletion | undefined, typeof zodResponseFormat, typeof startMockServer] = [APIError, Client, undefined, zodResponseFormat, startMockServer];',
  ].join('\n');
  const landings: string[] = [];
  for (const ext of ['mts', 'cts']) {
    const file = path.join(dir, `definitions.${ext}`);
    writeFileSync(file, source);
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      types: [],
    };
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => [file],
      getScriptVersion: () => '1',
      getScriptSnapshot: (name) =>
        ts.sys.fileExists(name) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(name) ?? '') : undefined,
      getCurrentDirectory: () => dir,
      getCompilationSettings: () => options,
      getDefaultLibFileName: ts.getDefaultLibFilePath,
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    };
    const service = ts.createLanguageService(host);
    for (const name of ['APIError', 'Client', 'ChatCompletion', 'zodResponseFormat', 'startMockServer']) {
      const at = source.lastIndexOf(name);
      const found = service.getDefinitionAtPosition(file, at) ?? [];
      const target = found[0]?.fileName;
      if (target === undefined) throw new Error(`${ext}: go to definition of ${name} found nothing`);
      const shown = path.relative(path.join(dir, 'node_modules', 'model-inference-sdk'), target);
      landings.push(`${name} -> ${shown}`);
      if (!/^dist\/(?:[\w]+\/)?[a-z]+\.d\.c?ts$/.test(shown)) {
        throw new Error(`${ext}: go to definition of ${name} lands in ${shown}, not a readable file name`);
      }
    }
    service.dispose();
  }
  console.log(`  go to definition: ${[...new Set(landings)].join(', ')}`);
}
