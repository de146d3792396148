// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import wallsPlugin from './scripts/lint/walls.mjs';

// The walls of src/ (docs/architecture.md): every import points down.
//
//   cli ─────────────► index, testing (the public entries only, as a user's program would)
//   otel/ ───────────► 'model-inference-sdk' (the public entry, as a user imports it), @opentelemetry/api
//   testing ─────────► anything but cli and otel
//   index, client, helpers/ (the entries) ─► anything but testing, cli and otel
//   lib/ (helpers built on the client) ─────► resources, core, generated
//   resources/ ──────► core, generated
//   core (src/*.ts, stream/) ─► generated
//   generated/ ──────► zod only
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
const OTEL = { group: ['**/otel', '**/otel/*'], lazy: '(^|\\x2F)otel(\\x2F|$)', message: 'Nothing depends on the otel entry (model-inference-sdk/otel): it is built on the public one.' };
const LIB = { group: ['**/lib/*', '**/lib/**'], lazy: '(^|\\x2F)lib\\x2F', message: 'The core and the resources do not depend on the helpers (lib/): the client adds them on top.' };
const RESOURCES = { group: ['**/resources/*'], lazy: '(^|\\x2F)resources\\x2F', message: 'The core does not depend on the resources.' };

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
  // The core: src/*.ts but the entries, and src/stream/.
  { files: ['src/*.ts', 'src/stream/**'], ignores: ['src/index.ts', 'src/client.ts'], rules: walls(NODE, ENTRIES, TESTING, CLI, OTEL, LIB, RESOURCES) },
  { files: ['src/resources/**'], rules: walls(NODE, ENTRIES, TESTING, CLI, OTEL, LIB) },
  { files: ['src/lib/**'], rules: walls(NODE, ENTRIES, TESTING, CLI, OTEL) },
  { files: ['src/index.ts', 'src/client.ts', 'src/helpers/**'], rules: walls(NODE, TESTING, CLI, OTEL) },
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
    files: ['src/cli/**'],
    // ../suggest too: the one "did you mean" rule, a pure function, so that a name misspelt in code
    // and on the command line get the same suggestion.
    rules: walls({ regex: '^\\.\\./(?!index$|testing$|suggest$)', message: 'The CLI is a user of the package: it imports the public entries only (../index, ../testing; and ../suggest).' }),
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
