/**
 * Every ```ts block of README.md and docs/*.md compiles as a user's module would: against the
 * package entry (`model-inference-sdk`, `model-inference-sdk/testing`, …), under the strictest settings users
 * run (`strict`, `noUncheckedIndexedAccess`, `exactOptionalPropertyTypes`), with no cast needed
 * to read a response. What a snippet uses without declaring (`client`, `messages`, …) is declared
 * once below, with the types a user's program would give them.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const virtual = path.join(root, 'test', '__snippets__');

/** The names snippets use without declaring them, as a user's surrounding code would declare them. */
const GLOBALS = `
import type * as z from 'zod';
import type { RequestHandler } from 'msw';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionRunner, ChatCompletionStream, ChatCompletionChunk, Client, RunnableZodTool } from 'model-inference-sdk';
import type { MockServer } from 'model-inference-sdk/testing';
declare global {
  const client: Client;
  const messages: ChatCompletionMessageParam[];
  /** A model slug. */
  const model: string;
  const body: ChatCompletionCreateParamsNonStreaming;
  const stream: ChatCompletionStream;
  const runner: ChatCompletionRunner;
  const server: MockServer;
  const output: { textContent: string };
  /** Something of the user's that a request stands for. */
  const order: { id: string };
  const yourOtherHandlers: RequestHandler[];
  const Weather: z.ZodObject<{ city: z.ZodString; celsius: z.ZodNumber }>;
  type Weather = z.infer<typeof Weather>;
  const City: z.ZodObject<{ name: z.ZodString; population: z.ZodNumber }>;
  const getWeather: RunnableZodTool<'get_weather', { city: string; unit?: 'c' | 'f' | undefined }>;
  const getTime: RunnableZodTool<'get_time', { zone: string }>;
  function enough(chunk: ChatCompletionChunk): boolean;
  function render(value: unknown): void;
  function run(call: unknown): Promise<string>;
  function lookup(city: string): Promise<{ celsius: number }>;
  function fetchWeather(city: string, unit: 'c' | 'f' | undefined, init: { signal: AbortSignal }): Promise<string>;
  const Deno: { env: { get(name: string): string | undefined } };
}
export {};
`;
/**
 * undici, which the proxy guide imports, lives with the third-party checks (test/third-party/);
 * where that folder is not installed, the little of it the guide uses is declared here.
 */
const UNDICI = path.join(root, 'test', 'third-party', 'node_modules', 'undici');
const UNDICI_STUB = `declare module 'undici' {
  export class ProxyAgent { constructor(options: string | { uri: string; token?: string; proxyTunnel?: boolean }); close(): Promise<void>; }
  export class EnvHttpProxyAgent { constructor(); close(): Promise<void>; }
}
`;

/**
 * redis, which the route guide's store imports, lives with the third-party checks too; the little
 * of it the guide uses is declared where that folder is not installed.
 */
const REDIS = path.join(root, 'test', 'third-party', 'node_modules', 'redis');
const REDIS_STUB = `declare module 'redis' {
  interface Multi { incrBy(key: string, amount: number): Multi; pExpire(key: string, ms: number, mode?: 'NX' | 'XX' | 'GT' | 'LT'): Multi; exec(): Promise<unknown[]>; }
  export function createClient(options?: { url?: string }): { connect(): Promise<{ multi(): Multi }> };
}
`;

/** A user's module the testing guide imports (\`./app\`). */
const APP = `import type { Client } from 'model-inference-sdk';
export declare function summarize(client: Client, text: string): Promise<string>;
`;
interface Snippet {
  file: string;
  line: number;
  code: string;
}

function snippets(): Snippet[] {
  const files = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const out: Snippet[] = [];
  for (const file of files) {
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.trim() !== '```ts') continue;
      const start = i + 1;
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== '```') i++;
      out.push({ file, line: start + 1, code: lines.slice(start, i + 1).join('\n') });
      i++;
    }
  }
  return out;
}

describe('documentation snippets', () => {
  const all = snippets();

  it('are many (the README and every guide)', () => {
    expect(all.length).toBeGreaterThan(40);
    expect(all.some((s) => s.file === 'README.md')).toBe(true);
  });

  it('compile under strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes, without casts', () => {
    const undici = existsSync(UNDICI);
    const redis = existsSync(REDIS);
    const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    // Deno's `npm:` specifier resolves to the package, as it does in Deno.
    const options: ts.CompilerOptions = {
      ...config.options,
      noEmit: true,
      types: ['node'],
      paths: { ...config.options.paths, 'npm:model-inference-sdk': ['./src/index.ts'], ...(undici ? { undici: [UNDICI] } : {}), ...(redis ? { redis: [REDIS] } : {}) },
    };
    expect(options.strict && options.noUncheckedIndexedAccess && options.exactOptionalPropertyTypes).toBe(true);

    const sources = new Map<string, string>([
      [path.join(virtual, 'globals.d.ts'), GLOBALS],
      [path.join(virtual, 'app.ts'), APP],
    ]);
    if (!undici) sources.set(path.join(virtual, 'undici.d.ts'), UNDICI_STUB);
    if (!redis) sources.set(path.join(virtual, 'redis.d.ts'), REDIS_STUB);
    const where = new Map<string, Snippet>();
    all.forEach((snippet, n) => {
      const name = path.join(virtual, `${snippet.file.replace(/[/.]/g, '_')}_${n}.ts`);
      sources.set(name, `${snippet.code}\nexport {};\n`);
      where.set(name, snippet);
    });
    const host = ts.createCompilerHost(options);
    const read = host.readFile.bind(host);
    const exists = host.fileExists.bind(host);
    const getSource = host.getSourceFile.bind(host);
    host.readFile = (file) => sources.get(file) ?? read(file);
    host.fileExists = (file) => sources.has(file) || exists(file);
    const dirExists = host.directoryExists?.bind(host);
    host.directoryExists = (dir) => dir === virtual || (dirExists ? dirExists(dir) : true);
    host.getSourceFile = (file, language, onError) => {
      const text = sources.get(file);
      return text === undefined ? getSource(file, language, onError) : ts.createSourceFile(file, text, language);
    };
    const program = ts.createProgram([...sources.keys()], options, host);
    const problems: string[] = [];
    for (const [name, snippet] of where) {
      const source = program.getSourceFile(name)!;
      for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
        const { line } = source.getLineAndCharacterOfPosition(d.start ?? 0);
        problems.push(`${snippet.file}:${snippet.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      }
    }
    // The snippets read responses the way the types promise: no cast of a response (or to any).
    const casts = all.filter((s) => /\bas (?:any|unknown|\{|ChatCompletion\w*|Completion\w*|Model\w*|ParsedChatCompletion\w*)\b/.test(s.code)).map((s) => `${s.file}:${s.line}`);
    expect(problems).toEqual([]);
    expect(casts).toEqual([]);
  }, 60_000);
});
