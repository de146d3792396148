// Fails when a public export has no `@example` in its TSDoc, or when an example generated from
// spec/openapi.yaml does not compile or does not parse.
//
//   npm run check:examples        (tsx scripts/check-examples.ts)
//
// 1. Presence. The entry points are the source files behind package.json `exports` (`./dist/x.js`
//    -> `src/x.ts`). Every export of each, aliases resolved, needs an `@example` tag in the doc
//    comment of its declaration: on the class for a class, on the first overload or the
//    implementation for a function, on any declaration otherwise (interfaces may merge). Only the
//    comment directly above a declaration counts, not a file's `@module` comment before it.
// 2. Generated examples. scripts/generate.ts writes the spec's `example` of every component schema
//    into src/generated/ as fenced ```ts blocks. Each block of types.gen.ts is type-checked as its
//    own module under tsconfig.json's options (it imports from 'model-inference-sdk', which the paths
//    mapping resolves to src/index.ts), so an example that does not match its type fails here. The
//    blocks of zod.gen.ts are type-checked the same way and then run with tsx: each calls
//    `zX.parse(...)`, which throws when the generated schema rejects the example.
//
// Only the example modules' own diagnostics are reported; `npm run typecheck` covers the rest.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const generatedDir = path.join(root, 'src', 'generated');
const generatedFiles = ['types.gen.ts', 'zod.gen.ts'] as const;
const generatedPath = (name: (typeof generatedFiles)[number]) => path.join(generatedDir, name);
/** Directory of the (never written) example modules, so `./zod.gen` resolves from them. */
const virtualDir = path.join(generatedDir, '__examples__');

const relative = (file: string): string => path.relative(root, file).split(path.sep).join('/');

/** Source entry files of package.json `exports` (`./dist/testing/index.js` -> src/testing/index.ts). */
function entryFiles(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    exports?: Record<string, unknown>;
  };
  const entries = new Set<string>();
  const visit = (target: unknown): void => {
    if (typeof target === 'string') {
      // `<entry>.load.js` is the loader scripts/peer-entries.mjs writes around an entry: its source is the entry's.
      const match = /^\.\/dist\/(.+?)(?:\.load)?\.(?:c|m)?js$/.exec(target);
      if (match?.[1] === undefined) return;
      const source = path.join(root, 'src', `${match[1]}.ts`);
      if (!existsSync(source))
        throw new Error(`exports target ${target}: ${relative(source)} not found`);
      entries.add(source);
    } else if (typeof target === 'object' && target !== null) {
      for (const value of Object.values(target)) visit(value);
    }
  };
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    if (subpath !== './package.json') visit(target);
  }
  if (entries.size === 0) throw new Error('package.json `exports` names no ./dist/*.js entry');
  return [...entries].sort();
}

/** The doc comment directly above a declaration (the last JSDoc block attached to it). */
function docComment(node: ts.Node): ts.JSDoc | undefined {
  return ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc).at(-1);
}

function hasExample(node: ts.Node): boolean {
  return (docComment(node)?.tags ?? []).some((tag) => tag.tagName.text === 'example');
}

/** The declarations of a symbol whose doc comment must carry the `@example`. */
function documentedDeclarations(symbol: ts.Symbol): ts.Declaration[] {
  const declarations = symbol.declarations ?? [];
  if (symbol.flags & ts.SymbolFlags.Class) return declarations.filter(ts.isClassDeclaration);
  if (symbol.flags & ts.SymbolFlags.Function) {
    const functions = declarations.filter(ts.isFunctionDeclaration);
    const implementation = functions.find((f) => f.body !== undefined);
    return [functions[0], implementation].filter(
      (d): d is ts.FunctionDeclaration => d !== undefined,
    );
  }
  return declarations;
}

function kindOf(symbol: ts.Symbol): string {
  const f = symbol.flags;
  if (f & ts.SymbolFlags.Class) return 'class';
  if (f & ts.SymbolFlags.Function) return 'function';
  if (f & ts.SymbolFlags.Interface) return 'interface';
  if (f & ts.SymbolFlags.TypeAlias) return 'type';
  if (f & ts.SymbolFlags.Enum) return 'enum';
  if (f & ts.SymbolFlags.Variable) return 'const';
  return 'export';
}

interface Missing {
  location: string;
  name: string;
  kind: string;
  entry: string;
}

function missingExamples(program: ts.Program, entries: readonly string[]): Missing[] {
  const checker = program.getTypeChecker();
  const missing = new Map<string, Missing>();
  for (const entry of entries) {
    const source = program.getSourceFile(entry);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`${relative(entry)}: not a module`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declarations = documentedDeclarations(symbol);
      if (declarations.some(hasExample)) continue;
      const first = declarations[0] ?? symbol.declarations?.[0];
      let location = '<no declaration>';
      if (first !== undefined) {
        const file = first.getSourceFile();
        const at = ts.getNameOfDeclaration(first) ?? first;
        const { line } = file.getLineAndCharacterOfPosition(at.getStart(file));
        location = `${relative(file.fileName)}:${line + 1}`;
      }
      const key = `${location} ${exported.name}`;
      if (!missing.has(key)) {
        missing.set(key, {
          location,
          name: exported.name,
          kind: kindOf(symbol),
          entry: relative(entry),
        });
      }
    }
  }
  return [...missing.values()].sort(
    (a, b) =>
      a.location.localeCompare(b.location, 'en', { numeric: true }) || a.name.localeCompare(b.name),
  );
}

interface ExampleModule {
  /** Virtual path of the module (under src/generated/__examples__/, never written). */
  fileName: string;
  /** Where the example comes from, for messages. */
  origin: string;
  /** The fenced block as written in the comment. */
  snippet: string;
  /** The module type-checked: the snippet, plus the import of its schema for zod examples. */
  code: string;
  /** zod examples only: the schema the code parses with. */
  zodSchema?: string;
}

/** Every fenced ```ts block of the `@example` tags of src/generated/, one module each. */
function generatedExamples(): ExampleModule[] {
  const modules: ExampleModule[] = [];
  for (const name of generatedFiles) {
    const fileName = generatedPath(name);
    const text = readFileSync(fileName, 'utf8');
    const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
    for (const statement of file.statements) {
      const declared = ts.isTypeAliasDeclaration(statement)
        ? statement.name.text
        : ts.isVariableStatement(statement)
          ? statement.declarationList.declarations[0]?.name.getText(file)
          : undefined;
      if (declared === undefined) continue;
      const tags = (docComment(statement)?.tags ?? []).filter((t) => t.tagName.text === 'example');
      const { line } = file.getLineAndCharacterOfPosition(statement.getStart(file));
      const origin = `${relative(fileName)}:${line + 1} ${declared}`;
      const blocks = tags.flatMap((tag) => {
        const comment = ts.getTextOfJSDocComment(tag.comment) ?? '';
        return [...comment.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
      });
      if (blocks.length === 0) {
        throw new Error(`${origin}: no \`\`\`ts block in an @example (run \`npm run generate\`)`);
      }
      blocks.forEach((snippet, i) => {
        const isZod = name === 'zod.gen.ts';
        modules.push({
          fileName: path.join(virtualDir, `${name.replace('.gen.ts', '')}.${declared}.${i}.ts`),
          origin,
          snippet,
          // The zod examples import from 'model-inference-sdk/schemas' (tsconfig's paths: src/schemas/).
          code: isZod ? `${snippet}\nexport {};\n` : snippet,
          ...(isZod ? { zodSchema: declared } : {}),
        });
      });
    }
  }
  return modules;
}

function createProgram(
  rootNames: readonly string[],
  virtual: ReadonlyMap<string, string>,
): ts.Program {
  const configPath = path.join(root, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (parsed === undefined) throw new Error('tsconfig.json: cannot be read');
  const host = ts.createCompilerHost(parsed.options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, language, onError, createNew) => {
    const text = virtual.get(f);
    return text !== undefined
      ? ts.createSourceFile(f, text, language, true)
      : getSourceFile.call(host, f, language, onError, createNew);
  };
  return ts.createProgram({ rootNames, options: parsed.options, host });
}

/** Runs the zod examples (each parses its example with its schema) in one tsx process. */
function runZodExamples(modules: readonly ExampleModule[]): string | undefined {
  const schemas = modules.flatMap((m) => (m.zodSchema === undefined ? [] : [m.zodSchema]));
  const source = [
    `import { ${[...new Set(schemas)].join(', ')} } from ${JSON.stringify(path.join(generatedDir, 'zod.gen.ts'))};`,
    'const failures: string[] = [];',
    // Each snippet's own import (of model-inference-sdk/schemas) is the one above.
    ...modules.map(
      (m) =>
        `try {\n${m.snippet.replace(/^import .*\n/gm, '')}} catch (error) {\n  failures.push(${JSON.stringify(m.origin)} + ': ' + String(error));\n}`,
    ),
    "if (failures.length > 0) {\n  console.error(failures.join('\\n'));\n  process.exitCode = 1;\n}",
    '',
  ].join('\n');
  const tmp = mkdtempSync(path.join(tmpdir(), 'model-inference-sdk-examples-'));
  try {
    const file = path.join(tmp, 'zod-examples.ts');
    writeFileSync(file, source);
    execFileSync(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return undefined;
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer };
    return `${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}`.trim();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function main(): number {
  const entries = entryFiles();
  const examples = generatedExamples();
  const virtual = new Map(examples.map((m) => [m.fileName, m.code]));
  const program = createProgram([...entries, ...virtual.keys()], virtual);
  let failed = false;

  const missing = missingExamples(program, entries);
  if (missing.length > 0) {
    failed = true;
    console.error(
      `check-examples: ${missing.length} public export(s) without an @example in their TSDoc:`,
    );
    for (const m of missing) console.error(`  ${m.location}  ${m.kind} ${m.name}  (${m.entry})`);
  }

  const diagnostics = examples.flatMap((m) => {
    const file = program.getSourceFile(m.fileName);
    if (file === undefined) return [`${m.origin}: example module not loaded`];
    return ts.getPreEmitDiagnostics(program, file).map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n    ');
      const at =
        d.start === undefined ? '' : `:${file.getLineAndCharacterOfPosition(d.start).line + 1}`;
      return `${m.origin} (example line${at}): TS${d.code} ${text}`;
    });
  });
  if (diagnostics.length > 0) {
    failed = true;
    console.error(
      'check-examples: generated examples that do not compile (fix the spec `example`):',
    );
    for (const d of diagnostics) console.error(`  ${d}`);
  } else {
    const zodFailure = runZodExamples(examples.filter((m) => m.zodSchema !== undefined));
    if (zodFailure !== undefined) {
      failed = true;
      console.error('check-examples: generated zod examples that do not parse:');
      console.error(zodFailure.replace(/^/gm, '  '));
    } else {
      console.log(`check-examples: ${examples.length} generated examples compile and parse.`);
    }
  }

  if (failed) return 1;
  console.log(
    `check-examples: every export of ${entries.map(relative).join(', ')} has an @example.`,
  );
  return 0;
}

process.exitCode = main();
