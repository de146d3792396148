// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import wallsPlugin from './scripts/lint/walls.mjs';

// The walls of src/ (docs/architecture.md): one folder per concept, on floors; a folder imports
// only the floors below it (and its own files), never one above.
//
//   cli/ ─────────────► index, testing, batch (the public entries only, as a user's program would; and util/suggest, util/mask)
//   otel/ ────────────► 'model-inference-sdk' (the public entry, as a user imports it), @opentelemetry/api
//   proxy/ ───────────► 'model-inference-sdk', and three leaf files: cost/tokens, util/mask, util/suggest
//   batch/ ───────────► 'model-inference-sdk', the leaf file cost/decimal, node:fs (file.ts)
//   testing/ ─────────► anything but cli and otel
//   index, client, helpers/, schemas/ (the entries)
//   chat/             client.chat.completions with its helpers
//   tools/            runTools()
//   parse/            parse(), stream parsing, partial JSON
//   resources/        one file per endpoint, and the call they make
//   hooks/            running the hooks option
//   stream/           SSE, Stream, ChatCompletionStream and its events
//   core/             the request spine: request, retry, response, validation
//   options/          option types (the hooks option's among them), defaults, checks, env
//   schema/           schemas → JSON Schema
//   cost/             exact decimals, cost estimates and totals, token estimates
//   util/             leaf helpers
//   errors/           the error hierarchy
//   generated/ ───────► zod only
//
// No node: import outside testing and cli (the core runs on every runtime), and no import cycles,
// lazy imports and type-only imports included.
// test/lint-walls.test.ts proves each rule fires on a deliberate violation.
// Each wall: the globs of `no-restricted-imports` (static imports, `import type`, `export … from`),
// and the same paths as a pattern for lazy `import()` and `import('…').T` types, which that rule
// does not see (`no-restricted-syntax` below): a wall that a lazy import could cross is no wall.
const NODE = { group: ['node:*'], lazy: '^node:', message: 'The SDK runs on every runtime: web-standard APIs only (node: is for src/testing and src/cli).' };
const ENTRIES = { group: ['**/index', '**/client', '**/helpers/*'], lazy: '(^|\\x2F)(index|client)$|(^|\\x2F)helpers\\x2F', message: 'Only the public entries import the client and the entry points.' };
const TESTING = { group: ['**/testing', '**/testing/*'], lazy: '(^|\\x2F)testing(\\x2F|$)', message: 'The SDK does not depend on its testing kit.' };
const CLI = { group: ['**/cli/*'], lazy: '(^|\\x2F)cli\\x2F', message: 'Nothing depends on the CLI.' };
const OTEL = { group: ['**/otel', '**/otel/*', '**/proxy', '**/proxy/*', '**/batch', '**/batch/*'], lazy: '(^|\\x2F)(otel|proxy|batch)(\\x2F|$)', message: 'Nothing depends on the otel entry (model-inference-sdk/otel), the proxy entry (model-inference-sdk/proxy) or the batch entry (model-inference-sdk/batch): they are built on the public one.' };

/** The SDK's floors, from the ground up: a folder of src/ and what it is, for the walls' messages. */
const FLOORS = [
  ['errors', 'the error hierarchy'],
  ['util', 'the leaf helpers'],
  ['cost', 'cost and token estimates'],
  ['schema', 'the schema conversion'],
  ['options', 'the options'],
  ['core', 'the request spine'],
  ['stream', 'the streams'],
  ['hooks', 'the hook runner'],
  ['resources', 'the resources'],
  ['parse', 'parse()'],
  ['tools', 'runTools()'],
  ['chat', 'client.chat.completions'],
];

/** The wall against importing floor `name`: its folder, wherever the import stands. */
const floor = ([name, what]) => ({
  group: [`**/${name}/*`, `**/${name}/**`],
  lazy: `(^|\\x2F)${name}\\x2F`,
  message: `${name}/ (${what}) is a floor above: every import in src/ points down (docs/architecture.md).`,
});
/** The walls of floor `i`: every floor above it, and the entries, the testing kit, the CLI, otel, node:. */
const floorWalls = (i) => walls(NODE, ENTRIES, TESTING, CLI, OTEL, ...FLOORS.slice(i + 1).map(floor));

/**
 * The rules of a part of src/ with these walls: `no-restricted-imports` for what it sees, and
 * `no-restricted-syntax` for lazy imports and import types, with the same paths as a regex (a
 * selector's regex cannot hold a slash: `\x2F` stands for one). A wall is globs (`group`, with
 * `lazy` their regex) or one `regex`.
 * @param {...({ group: string[], lazy: string, message: string } | { regex: string, message: string })} walls
 */
const walls = (...walls) => ({
  'no-restricted-imports': /** @type {const} */ ([
    'error',
    { patterns: walls.map((wall) => ('group' in wall ? { group: wall.group, message: wall.message } : { regex: wall.regex, message: wall.message })) },
  ]),
  'no-restricted-syntax': /** @type {const} */ ([
    'error',
    ...walls.flatMap((wall) => {
      const lazy = 'group' in wall ? wall.lazy : wall.regex.replaceAll('/', '\\x2F');
      return [
        { selector: `ImportExpression > Literal[value=/${lazy}/]`, message: `${wall.message} (a lazy import() crosses the wall too)` },
        { selector: `TSImportType Literal[value=/${lazy}/]`, message: `${wall.message} (an import('…') type crosses the wall too)` },
      ];
    }),
  ]),
});

export default tseslint.config(
  { ignores: ['dist/', 'docs/api/', 'coverage/', '.runtimes/', '.cache/', '**/node_modules/', 'test/fixtures/lint-walls/'] },
  {
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    ignores: ['src/generated/**', 'test/generated/**'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...FLOORS.map(([name], i) => ({ files: [`src/${name}/**`], rules: floorWalls(i) })),
  { files: ['src/index.ts', 'src/client.ts', 'src/helpers/**', 'src/schemas/**'], rules: walls(NODE, TESTING, CLI, OTEL) },
  { files: ['src/testing/**'], rules: walls(CLI, OTEL) },
  {
    // model-inference-sdk/otel, an entry built on the public one: it imports the SDK as its users do
    // (`from 'model-inference-sdk'`: the same classes, none of the SDK's code in its own chunks), and the
    // package's version from package.json.
    files: ['src/otel/**'],
    rules: walls(NODE, {
      regex: '^\\.\\./(?!\\.\\./package\\.json$)',
      message: "model-inference-sdk/otel is built on the public entry: it imports the SDK from 'model-inference-sdk', as a user's code does, nothing of src/.",
    }),
  },
  {
    // model-inference-sdk/proxy, an entry built on the public one like otel; besides, three leaf files
    // bundled with it (as with the CLI's util/suggest): the token estimate the client's limiter uses
    // (cost/tokens: requestedCompletionTokens is not public), the key masking (util/mask), and the one
    // "did you mean" rule (util/suggest). Web-standard: no node:, the Node adapter is structural.
    files: ['src/proxy/**'],
    rules: walls(NODE, {
      regex: '^\\.\\./(?!cost/tokens$|util/mask$|util/suggest$)',
      message: "model-inference-sdk/proxy is built on the public entry: it imports the SDK from 'model-inference-sdk' (and ../cost/tokens, ../util/mask, ../util/suggest), nothing else of src/.",
    }),
  },
  {
    // model-inference-sdk/batch, an entry built on the public one like proxy; besides, the exact
    // decimals of cost/decimal (a leaf file) to compare a total with `maxCost`. Its file runner
    // (file.ts) reads and writes files with node:fs: the entry is for Node, Bun and Deno.
    files: ['src/batch/**'],
    rules: walls({
      regex: '^\\.\\./(?!cost/decimal$)',
      message: "model-inference-sdk/batch is built on the public entry: it imports the SDK from 'model-inference-sdk' (and ../cost/decimal), nothing else of src/.",
    }),
  },
  {
    files: ['src/cli/**'],
    // ../util/suggest too: the one "did you mean" rule, a pure function, so that a name misspelt in code
    // and on the command line get the same suggestion; and ../util/mask, so that what the CLI prints
    // masks the key in the same forms as the SDK's errors (secretForms). Both leaf files, as the proxy's.
    rules: walls({ regex: '^\\.\\./(?!index$|testing$|batch/index$|util/suggest$|util/mask$)', message: 'The CLI is a user of the package: it imports the public entries only (../index, ../testing, ../batch/index; and ../util/suggest, ../util/mask).' }),
  },
  {
    // Generated code imports zod and its own files, nothing of the SDK: only the import rules run here.
    // The recommended rules do not (see `ignores` above); among them, @typescript-eslint/no-namespace
    // would reject the type-only `declare namespace`s that give openai's nested names
    // (`ChatCompletion.Choice`, from `x-openai-names` in the spec). Hand-written code keeps the rule.
    files: ['src/generated/**'],
    languageOptions: { parser: tseslint.parser },
    rules: walls(NODE, { regex: '^\\.\\./', message: 'Generated code imports nothing of the SDK (zod and its own files only).' }),
  },
  {
    // No import cycles anywhere in the package's source, counting type-only and lazy imports
    // (scripts/lint/walls.mjs: import-x/no-cycle skips type-only imports).
    files: ['src/**/*.ts'],
    plugins: { walls: wallsPlugin },
    rules: { 'walls/no-cycle': 'error' },
  },
  {
    // Plain JavaScript (bench drivers, runtime probes): TypeScript checks undefined names in .ts;
    // here the globals differ per runtime, so no-undef would only guess.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    rules: { 'no-undef': 'off' },
  },
);
