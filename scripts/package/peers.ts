// The smoke of check:package for zod, an optional peer dependency (check.ts runs it in the project
// the tarball was installed into, which has no zod):
//
//   1. without zod: the main entry loads (check.ts's smoke has just streamed a chat through it),
//      and importing `model-inference-sdk/helpers/zod` or `/schemas`, from ESM and from CJS, throws
//      an InferenceError that says what to install;
//   2. zod installed, at the lowest version the peer range allows: `/schemas` parses the packed
//      mock server's responses as the SDK returns them (ESM and CJS).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { quietNpmEnv, root } from './artifact';

const NO_ZOD = (load: (entry: string) => string) => `
const results = [];
for (const entry of ['model-inference-sdk/helpers/zod', 'model-inference-sdk/schemas']) {
  try {
    ${load('entry')};
    results.push([entry, 'loaded']);
  } catch (error) {
    results.push([entry, error.name, error.message, error instanceof InferenceError]);
  }
}
console.log(JSON.stringify(results));
`;
const NO_ZOD_ESM = `import { InferenceError } from 'model-inference-sdk';\n${NO_ZOD((e) => `await import(${e})`)}`;
const NO_ZOD_CJS = `const { InferenceError } = require('model-inference-sdk');\n${NO_ZOD((e) => `require(${e})`)}`;

/** Importing the entries that need zod, without zod: a clear error, from ESM and from CJS. */
export function smokeWithoutZod(dir: string): void {
  if (existsSync(path.join(dir, 'node_modules', 'zod'))) {
    throw new Error('an install of the tarball brought zod: it must be an optional peer dependency');
  }
  console.log('  the install brought no zod (an optional peer); the main entry streamed a chat without it (above)');
  writeFileSync(path.join(dir, 'no-zod.mjs'), NO_ZOD_ESM);
  writeFileSync(path.join(dir, 'no-zod.cjs'), NO_ZOD_CJS);
  for (const file of ['no-zod.mjs', 'no-zod.cjs']) {
    const out = execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', env: quietNpmEnv, timeout: 60_000 });
    const results = JSON.parse(out.trim().split('\n').at(-1) ?? '[]') as [string, string, string?, boolean?][];
    for (const [entry, name, message, typed] of results) {
      console.log(`  node ${file}: ${entry} without zod: ${name}: ${message ?? ''}`.slice(0, 200));
      if (name !== 'InferenceError' || typed !== true || !message?.includes('npm install zod@^4')) {
        throw new Error(`${file}: ${entry} without zod should throw an InferenceError saying \`npm install zod@^4\`; got ${name}: ${message ?? ''}`);
      }
    }
    if (results.length !== 2) throw new Error(`${file}: expected 2 results, got ${out}`);
  }
}

/** The lowest zod the peer range allows (`^4.3.0` → `4.3.0`): what the schemas must work with. */
export function zodFloor(): string {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { peerDependencies?: Record<string, string> };
  const floor = /^\^(\d+\.\d+\.\d+)$/.exec(pkg.peerDependencies?.['zod'] ?? '')?.[1];
  if (floor === undefined) throw new Error(`package.json's peerDependencies.zod should be a ^x.y.z range, is ${pkg.peerDependencies?.['zod']}`);
  return floor;
}

const SCHEMAS = (load: string) => `
${load}
(async () => {
  const server = await startMockServer();
  const failures = [];
  const check = (what, schema, value) => {
    const result = schema.safeParse(value);
    if (!result.success) failures.push(what + ': ' + JSON.stringify(result.error.issues));
  };
  try {
    const client = new Client({ apiKey: server.apiKey, baseURL: server.url });
    const messages = [{ role: 'user', content: 'hi' }];
    check('models.list', schemas.zModelList, await client.models.list());
    check('models.retrieve', schemas.zModel, await client.models.retrieve('mock/reasoner'));
    check('chat completion', schemas.zChatCompletion, await client.chat.completions.create({ model: 'mock/reasoner', messages }));
    let chunks = 0;
    for await (const chunk of await client.chat.completions.create({ model: 'mock/reasoner', messages, stream: true })) {
      check('chunk', schemas.zChatCompletionChunk, chunk);
      chunks++;
    }
    check('legacy completion', schemas.zCompletion, await client.completions.create({ model: 'mock/echo', prompt: 'Once' }));
    const broken = schemas.zModel.safeParse({ id: 'x', object: 'model', context_length: 'lots' });
    if (broken.success) failures.push('a model with a text context_length passed');
    console.log(JSON.stringify({ failures, chunks, count: Object.keys(schemas).length }));
  } finally {
    await server.close();
  }
})();
`;

/** `/schemas` from the tarball, with zod installed, on the packed mock server's responses. */
export function smokeSchemas(dir: string): void {
  writeFileSync(path.join(dir, 'schemas.mjs'), SCHEMAS(`import { Client } from 'model-inference-sdk';\nimport * as schemas from 'model-inference-sdk/schemas';\nimport { startMockServer } from 'model-inference-sdk/testing';`));
  writeFileSync(path.join(dir, 'schemas.cjs'), SCHEMAS(`const { Client } = require('model-inference-sdk');\nconst schemas = require('model-inference-sdk/schemas');\nconst { startMockServer } = require('model-inference-sdk/testing');`));
  for (const file of ['schemas.mjs', 'schemas.cjs']) {
    const out = execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', env: quietNpmEnv, timeout: 60_000 });
    const { failures, chunks, count } = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { failures: string[]; chunks: number; count: number };
    if (failures.length > 0 || chunks < 2) throw new Error(`${file}: ${failures.join('; ') || `only ${chunks} chunks`}`);
    console.log(`  node ${file}: ${count} schemas; models list, model, chat completion, ${chunks} chunks and a legacy completion parse; a broken model does not`);
  }
}
