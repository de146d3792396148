// `npm run check:package`: the artifact users install, checked as they will get it.
//
//   1. build if dist/ is stale, `npm pack`, and check the tarball holds exactly what users need, in
//      at most 300 kB, with no script that would run at a user's install
//   2. publint (strict) on the tarball
//   3. @arethetypeswrong/cli on the tarball (node10, node16 CJS/ESM, bundler)
//   4. every relative link in the packed Markdown (README, docs/) resolves inside the
//      tarball, anchors included: the README on npm and in node_modules has no dead link
//   5. the docs match package.json: getting-started names its dependencies, the README its scripts
//   6. gzip size ceilings (size.ts), with the biggest contributors
//   7. install the tarball into a temp dir and run a smoke there: ESM import and CJS require of
//      the entries against the packed mock server (model-inference-sdk/otel with @opentelemetry/api, its
//      optional peer, installed beside it; model-inference-sdk/proxy on Node's http in front of it);
//      without zod (an optional peer) a chat streams through the main entry and helpers/zod and
//      schemas say what to install, then with the lowest zod the peer range allows, /schemas
//      parses the mock's responses (peers.ts); names as written in the source (`console.log` of an
//      error says `APIError`), tsc (nodenext, skipLibCheck off) on a consumer file and tsc (commonjs,
//      node10) on the README's parse() and runTools() code, and the bin: `npx model-inference-sdk
//      --version` and a chat against the packed mock server (smoke.ts runs it; the programs it
//      writes are in smoke-sources.ts, the compiler and editor checks in consumer-types.ts)
//
// publint and attw are installed on demand in scripts/package/ (`npm run check:package` does it).
// Every step runs even after a failure; exits 1 if any failed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { bin, ensureBuilt, installTarball, pack, quietNpmEnv, root, type Packed } from './artifact';
import { deadLinks } from './links';
import { CEILINGS, TARGET_STREAMING_CHAT, measureSizes } from './size';
import { installOptionalPeer, smoke } from './smoke';

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Every file in the tarball must match one of these; anything else is a leak (tests, src, maps). */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE(\.md)?$/,
  // The guides the README links to (not the contributors' architecture and performance pages).
  /^docs\/(?!architecture\.md$|performance\.md$)[\w-]+\.md$/,
  // Entries, their types, and the chunks they share (one graph per module format).
  /^dist\/(testing\/|helpers\/|schemas\/|otel\/|proxy\/|batch\/)?[\w.-]+\.(js|cjs|d\.ts|d\.cts)$/,
];

/**
 * The packed tarball's ceiling (issue 21: it had doubled to 441 kB with the CLI's own copy of the
 * core). Raised from 300 kB to 345 kB for model-inference-sdk/proxy (issue 32: its ESM, CJS and
 * declarations and docs/route.md, ~31 kB packed; main was at 302 959 B before it), then to
 * 365 kB for model-inference-sdk/schemas (issue 28: 358 481 B packed; its ESM and CJS builds
 * and its declarations, 87 kB unpacked, which carry every schema's inferred zod type and its
 * docs, are ~15 kB packed), then to 385 kB for the rate limiter and fallbacks (issues 31 and
 * 32: their chunks in ESM and CJS, their declarations and their docs, +20.5 kB packed: 355 937 B
 * over main's 335 420 B before the schemas), then to 410 kB for a readable CommonJS build (issue 30:
 * jest prints the line of a failure's top frame, and a whitespace-minified line is tens of kilobytes;
 * keeping the CJS files' line breaks and indentation is +25.7 kB packed, 404 825 B over 379 109 B,
 * +116 kB unpacked; the ES build stays minified), then to 440 kB for model-inference-sdk/batch
 * (issue 31: its ESM and CJS builds, its declarations, the CLI's batch command and docs/batch.md,
 * +22 kB packed: 426 864 B over 404 825 B), then to 450 kB for issues 29 and 30 (the hardening
 * round, `asResponse()` keeping the value, openai's statics and final tool calls: their code in
 * ESM and CJS, their declarations and docs, +16 kB packed: 443 130 B), then to 460 kB for the
 * strict-mode schemas, `await using`, rejected argument errors and `stream()` starting at once
 * (issues 28 and 30: code in both builds, declarations, docs; 449 751 B packed).
 */
const MAX_PACKED_BYTES = 460_000;

/** Scripts npm runs at an install (`prepare` for a git or folder install): none may be packed. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

const steps: { name: string; ok: boolean; ms: number }[] = [];

async function step(name: string, body: () => void | Promise<void>): Promise<void> {
  console.log(`\n=== ${name}`);
  const started = Date.now();
  try {
    await body();
    steps.push({ name, ok: true, ms: Date.now() - started });
  } catch (error) {
    console.log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
    steps.push({ name, ok: false, ms: Date.now() - started });
  }
}

/** Targets of `exports`, `main`, `module`, `types`, `typesVersions`: each must be in the tarball. */
function declaredFiles(pkg: Record<string, unknown>): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.startsWith('./')) found.add(value.slice(2));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const key of ['exports', 'main', 'module', 'types', 'typesVersions']) walk(pkg[key]);
  return [...found].sort();
}

async function main(): Promise<number> {
  let packed: Packed | undefined;

  await step('build and pack', () => {
    ensureBuilt();
    packed = pack();
    console.log(
      `${path.relative(root, packed.tarball)}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`,
    );
    for (const f of packed.files) console.log(`  ${String(f.size).padStart(7)}  ${f.path}`);
    const names = packed.files.map((f) => f.path);
    const unexpected = names.filter((n) => !ALLOWED.some((re) => re.test(n)));
    if (unexpected.length > 0)
      throw new Error(
        `files users do not need are in the tarball: ${unexpected.join(', ')} (fix "files" in package.json)`,
      );
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const missing = declaredFiles(pkg).filter((f) => f !== 'package.json' && !names.includes(f));
    if (missing.length > 0)
      throw new Error(
        `package.json points at files missing from the tarball: ${missing.join(', ')}`,
      );
    if (pkg['sideEffects'] !== false)
      throw new Error('package.json should say "sideEffects": false');
    if (packed.size > MAX_PACKED_BYTES)
      throw new Error(`the tarball is ${packed.size} bytes packed, over the ${MAX_PACKED_BYTES} B ceiling: is some code in it twice?`);
    console.log(`  ${packed.size} B packed, within the ${MAX_PACKED_BYTES} B ceiling`);
    const inTarball = JSON.parse(execFileSync('tar', ['-xzOf', packed.tarball, 'package/package.json'], { encoding: 'utf8' })) as { scripts?: Record<string, string> };
    const runAtInstall = INSTALL_SCRIPTS.filter((name) => inTarball.scripts?.[name] !== undefined);
    if (runAtInstall.length > 0) throw new Error(`the packed package.json has scripts that run at a user's install: ${runAtInstall.join(', ')}`);
    const here = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    if (here.scripts?.['prepare'] === undefined) throw new Error('package.json lost its `prepare` script after packing (postpack should put it back)');
    console.log('  the packed package.json has no install-time script; the clone keeps `prepare`');
  });
  if (!packed) return report();
  const tarball = packed.tarball;

  await step('publint (strict, on the tarball)', async () => {
    const buffer = readFileSync(tarball);
    const result = await publint({
      pack: {
        tarball: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength),
      },
      strict: true,
      level: 'suggestion',
    });
    if (result.pkg['name'] !== 'model-inference-sdk')
      throw new Error('publint did not read the package.json in the tarball');
    for (const message of result.messages)
      console.log(`  ${message.type}: ${formatMessage(message, result.pkg, { color: false })}`);
    if (result.messages.length > 0)
      throw new Error(`publint: ${result.messages.length} problem(s)`);
    console.log('  no problems');
  });

  await step('are the types wrong (attw, on the tarball)', () => {
    // Exits non-zero on any problem in any resolution mode; its table is the explanation.
    execFileSync(bin('attw', 'tools'), [tarball, '--format', 'table-flipped', '--no-color', '--no-emoji'], {
      stdio: 'inherit',
      env: quietNpmEnv,
    });
  });

  await step('links in the packed Markdown resolve inside the tarball', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-inference-sdk-links-'));
    try {
      execFileSync('tar', ['-xzf', tarball, '-C', dir]);
      const { checked, dead } = deadLinks(path.join(dir, 'package'));
      console.log(`  ${checked.links} relative links in ${checked.files.length} Markdown files: ${checked.files.join(", ")}`);
      if (!checked.files.includes('README.md')) throw new Error('README.md is not in the tarball');
      for (const link of dead) console.log(`  dead: ${link.file}:${link.line}: ${link.target} (${link.why})`);
      if (dead.length > 0) throw new Error(`${dead.length} dead link(s) in the packed Markdown`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  await step('the docs match package.json: its dependencies, its scripts', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      scripts?: Record<string, string>;
    };
    // The README's development section lists every script (`prepare` runs by itself; `npm test`).
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const development = readme.slice(readme.indexOf('## Development'));
    const undocumented = Object.keys(pkg.scripts ?? {}).filter(
      (name) => !['prepare', 'prepack', 'postpack'].includes(name) && !development.includes(name === 'test' ? '`npm test`' : `\`npm run ${name}\``),
    );
    console.log(`  README.md, Development: ${Object.keys(pkg.scripts ?? {}).length - undocumented.length} of the scripts`);
    if (undocumented.length > 0) throw new Error(`README.md's Development section does not list: ${undocumented.join(', ')}`);

    const names = Object.keys(pkg.dependencies ?? {});
    const guide = readFileSync(path.join(root, 'docs', 'getting-started.md'), 'utf8');
    const words = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    const count = /\b(\w+) dependenc(?:y|ies)\b/.exec(guide)?.[1];
    const missing = names.filter((name) => !guide.includes(`\`${name}\``));
    console.log(`  package.json: ${names.join(', ')}; the guide says "${count ?? '?'} dependencies"`);
    if (missing.length > 0) throw new Error(`docs/getting-started.md does not name ${missing.join(', ')}`);
    if (count !== words[names.length]) {
      throw new Error(`docs/getting-started.md says "${count} dependencies", package.json has ${names.length}`);
    }
  });

  await step(
    'gzip size ceilings (esbuild, platform browser, minified, deps included)',
    async () => {
      const sizes = await measureSizes();
      const rows = [
        {
          name: 'construct + one streaming chat',
          m: sizes.streamingChat,
          ceiling: CEILINGS.streamingChat,
        },
        { name: 'whole entry (export *)', m: sizes.wholeEntry, ceiling: CEILINGS.wholeEntry },
        { name: 'model-inference-sdk/proxy (export *)', m: sizes.proxyEntry, ceiling: CEILINGS.proxyEntry },
        { name: 'schemas entry, zod/mini included', m: sizes.schemas, ceiling: CEILINGS.schemas },
      ];
      for (const { name, m, ceiling } of rows) {
        console.log(
          `  ${name.padEnd(32)} ${String(m.minified).padStart(7)} B minified  ${String(m.gzip).padStart(6)} B gzip` +
            `  (ceiling ${ceiling} B)  + ${m.lazyGzip} B gzip in import() chunks`,
        );
      }
      for (const warning of sizes.streamingChat.warnings) {
        // The bare imports tsup writes between chunks (to keep their order) meet `sideEffects:
        // false`; esbuild warns about them here, bundling dist/ from the repository, but not for
        // a package under node_modules, where users have it (checked by bundling the tarball).
        if (/marked as having no side effects/.test(warning)) continue;
        console.log(`  note: esbuild warns every user who bundles the SDK: ${warning}`);
      }
      const chat = sizes.streamingChat.gzip;
      console.log(
        `  streaming chat vs the ${TARGET_STREAMING_CHAT} B (12 KiB) target: ${chat > TARGET_STREAMING_CHAT ? `${chat - TARGET_STREAMING_CHAT} B over` : 'within'};` +
          ` zod is ~${chat - sizes.withoutZod} B of it, eventsource-parser ~${chat - sizes.withoutParser} B`,
      );
      console.log(
        '  biggest contributors (minified bytes loaded up front, same bundle built from src/):',
      );
      for (const c of sizes.contributors.slice(0, 12))
        console.log(`    ${String(c.bytes).padStart(6)}  ${c.name}`);
      const over = rows.filter(({ m, ceiling }) => m.gzip > ceiling);
      if (over.length > 0) {
        const why = over.map(
          ({ name, m, ceiling }) =>
            `${name}: ${m.gzip} B gzip > ceiling ${ceiling} B (${kib(m.gzip)})`,
        );
        throw new Error(why.join('; '));
      }
    },
  );

  await step('install the tarball in a temp dir and run a smoke there', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-inference-sdk-smoke-'));
    try {
      installTarball(dir, tarball);
      installOptionalPeer(dir, '@opentelemetry/api');
      await smoke(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  return report();
}

function report(): number {
  console.log('\n=== check:package summary');
  for (const s of steps)
    console.log(`  ${s.ok ? 'ok  ' : 'FAIL'}  ${s.name}  (${(s.ms / 1000).toFixed(1)} s)`);
  const failed = steps.filter((s) => !s.ok).length;
  console.log(`\n${steps.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
