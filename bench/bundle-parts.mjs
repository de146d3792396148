// @ts-check
/**
 * Where the one-file bundle's bytes go: the same construct + streaming chat as the bundle metric,
 * built from src/, then rebuilt with whole parts of the SDK replaced by stubs, one more part at
 * each step. Each step's gzip size is what a client without those parts could weigh at best, so
 * the last rows show which features a 16 KiB one-file bundle would have to give up.
 *
 * A stub keeps every export name (so the rest still builds) and drops the code: each export
 * becomes a read of an unknown global, which the bundler cannot remove but which costs a few bytes.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The parts, in the order they are taken away (paths under src/, matched as prefixes). */
const STEPS = [
  { part: '`parse()`, `runTools()`, partial JSON (methods of `client.chat.completions`)', paths: ['parse/completion', 'tools/runner', 'parse/partial-json', 'parse/json-lead', 'errors/output'] },
  { part: 'the hook runner, the preflight check, debug logging (each behind `import()`)', paths: ['hooks/runner', 'core/preflight', 'core/debug'] },
  { part: "the stream's events (`on('content.delta')`…) and sending a reply's message back", paths: ['stream/chat-events', 'resources/sent-messages'] },
  { part: 'option checks with their messages ("did you mean `baseURL`?")', paths: ['options/check'] },
  { part: 'the normalizer (every response read into one shape)', paths: ['generated/normalize.gen'] },
];

/** @param {string} source the module's text @returns {string} a module with the same export names and no code */
function stub(source) {
  const names = new Set(
    [...source.matchAll(/export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|const|let)\s+(\w+)/g)].map((m) => /** @type {string} */ (m[1])),
  );
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const item of (m[1] ?? '').split(',')) {
      const name = item.trim().split(/\s+as\s+/).pop();
      if (name && !name.startsWith('type ')) names.add(name);
    }
  }
  return [...names].map((n) => `export const ${n} = globalThis.__stub_${n};`).join('\n');
}

/**
 * @param {import('esbuild').BuildOptions} options the one-file build of the bundle metric, its
 *   entry importing `Client` from the SDK's source
 * @returns {Promise<{ part: string; gzip: number }[]>} the full build first, then one row per step
 */
export async function bundleParts(options) {
  /** @param {string[]} dropped */
  const size = async (dropped) => {
    const plugin = {
      name: 'stub-parts',
      /** @param {import('esbuild').PluginBuild} b */
      setup(b) {
        b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
          const rel = args.path.slice(args.path.lastIndexOf('/src/') + 5);
          if (!dropped.some((p) => rel.startsWith(p))) return undefined;
          return { contents: stub(readFileSync(args.path, 'utf8')), loader: 'ts' };
        });
      },
    };
    const result = await build({ ...options, write: false, plugins: [plugin] });
    return result.outputFiles.reduce((total, file) => total + gzipSync(file.contents).length, 0);
  };
  const rows = [{ part: 'as published (built from src/)', gzip: await size([]) }];
  /** @type {string[]} */
  const dropped = [];
  for (const step of STEPS) {
    dropped.push(...step.paths);
    rows.push({ part: step.part, gzip: await size([...dropped]) });
  }
  return rows;
}
