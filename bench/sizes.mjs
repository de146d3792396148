// @ts-check
// The size metrics of `npm run bench` (run.mjs): each client's streaming chat bundled (split and in
// one file, gzip), where the SDK's one-file bytes go, and what an install of each brings.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { bundleParts } from './bundle-parts.mjs';

// ---------------------------------------------------------------------------------------------
// Bundle: construct + one streaming chat, bundled for the browser by esbuild, minified, gzipped

/** @param {string} sdkEntry */
const streamingChat = (sdkEntry) => ({
  floor: `
    const response = await fetch('https://example.test/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    const decoder = new TextDecoder();
    let rest = '';
    for await (const bytes of response.body) {
      const lines = (rest + decoder.decode(bytes, { stream: true })).split('\\n');
      rest = lines.pop();
      for (const line of lines) {
        if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
        console.log(JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? '');
      }
    }`,
  openai: `
    import OpenAI from 'openai';
    const client = new OpenAI({ apiKey: 'k', baseURL: 'https://example.test/v1', dangerouslyAllowBrowser: true });
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
    for await (const chunk of stream) console.log(chunk.choices[0]?.delta?.content ?? '');`,
  sdk: `
    import { Client } from ${JSON.stringify(sdkEntry)};
    const client = new Client({ apiKey: 'k', baseURL: 'https://example.test/v1', dangerouslyAllowBrowser: true });
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
    for await (const chunk of stream) console.log(chunk.choices[0]?.delta.content ?? '');`,
});

/**
 * esbuild's options for one client's streaming chat: bundled for the browser, minified,
 * tree-shaken, written to memory.
 * @param {string} name @param {string} contents
 */
/** @param {string} root */
const options = (root) => (/** @type {string} */ name, /** @type {string} */ contents) =>
  /** @type {const} */ ({
    stdin: { contents, resolveDir: join(root, 'bench'), loader: 'js', sourcefile: `${name}-entry.js` },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    treeShaking: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });

/**
 * What a Worker or a Lambda ships: one file, no code splitting, so everything the code may load
 * (validation included) is in it.
 * @param {ReturnType<typeof options>} bundleOptions @param {string} name @param {string} contents
 */
async function singleFile(bundleOptions, name, contents) {
  const result = await build(bundleOptions(name, contents));
  return result.outputFiles.reduce((total, file) => total + gzipSync(file.contents).length, 0);
}

/**
 * The streaming chat of each client, split as a bundler splits it and in one file, and the SDK's
 * built from src/ with parts taken away.
 * @param {string} root the repository @param {string} sdkEntry the dist snapshot's index.js
 */
export async function bundleSizes(root, sdkEntry) {
  const STREAMING_CHAT = streamingChat(sdkEntry);
  const bundleOptions = options(root);
  /** @type {Record<string, any>} */
  const sizes = {};
  for (const [name, contents] of Object.entries(STREAMING_CHAT)) {
    const outdir = mkdtempSync(join(tmpdir(), 'bench-bundle-'));
    try {
      const result = await build({ ...bundleOptions(name, contents), splitting: true, outdir });
      const gz = Object.fromEntries(result.outputFiles.map((f) => [relative(root, f.path), gzipSync(f.contents).length]));
      const outputs = result.metafile.outputs;
      const entry = Object.keys(outputs).find((k) => outputs[k]?.entryPoint !== undefined) ?? '';
      // What loads before anything runs: the entry and the chunks it imports statically.
      const initial = new Set([entry]);
      for (const file of initial) {
        for (const imported of outputs[file]?.imports ?? []) if (imported.kind === 'import-statement') initial.add(imported.path);
      }
      const total = Object.values(gz).reduce((a, b) => a + b, 0);
      const first = [...initial].reduce((a, f) => a + (gz[f] ?? 0), 0);
      /** @type {Record<string, number>} */
      const inputs = {};
      for (const output of Object.values(outputs)) {
        for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
          const key = file.replace(/^.*node_modules\/(zod\/v4\/[^/]+|@[^/]+\/[^/]+|[^/]+).*$/, '$1').replace(/^\.cache\/bench\//, '');
          inputs[key] = (inputs[key] ?? 0) + bytesInOutput;
        }
      }
      sizes[name] = { single: await singleFile(bundleOptions, name, contents), total, initial: first, files: result.outputFiles.length, inputs };
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }
  // Where the bytes go: the same chat built from src/ with parts taken away one by one.
  sizes.parts = await bundleParts(bundleOptions('sdk-src', STREAMING_CHAT.sdk.replace(JSON.stringify(sdkEntry), JSON.stringify(join(root, 'src/index.ts')))));
  process.stderr.write(' bundle\n');
  return sizes;
}

// ---------------------------------------------------------------------------------------------
// Installed size: the packed tarball installed into an empty project, every file counted

/** @param {string} dir */
function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** npm through the shared lock when there is one (several sessions share this machine's cache). */
function npm(/** @type {string[]} */ npmArgs, /** @type {string} */ cwd) {
  const lock = existsSync('/usr/bin/flock') ? ['/usr/bin/flock', '/tmp/npm.lock'] : [];
  const [command = 'npm', ...rest] = [...lock, 'npm', ...npmArgs];
  return execFileSync(command, rest, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * @param {string} root the repository @param {string} snapshot the dist snapshot packed
 * @param {string} openaiVersion the version of openai the bench installed
 */
export function installedSizes(root, snapshot, openaiVersion) {
  const work = mkdtempSync(join(tmpdir(), 'bench-install-'));
  try {
    // Pack from a staging copy: the manifest, the docs it ships and the dist snapshot.
    const stage = join(work, 'stage');
    mkdirSync(stage);
    for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'docs', 'spec']) {
      if (existsSync(join(root, file))) cpSync(join(root, file), join(stage, file), { recursive: true });
    }
    cpSync(snapshot, join(stage, 'dist'), { recursive: true });
    const tarball = join(work, npm(['pack', '--silent', '--ignore-scripts', '--pack-destination', work], stage).trim().split('\n').pop() ?? '');
    /** @param {string} name @param {string} spec */
    const install = (name, spec) => {
      const dir = join(work, name);
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), '{"private":true}');
      npm(['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', '--no-package-lock', spec], dir);
      return bytesUnder(join(dir, 'node_modules'));
    };
    const sizes = { floor: 0, openai: install('openai', `openai@${openaiVersion}`), sdk: install('sdk', tarball), tarball: statSync(tarball).size };
    process.stderr.write(' install\n');
    return sizes;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
