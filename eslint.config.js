// @ts-check
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

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
// No node: import outside testing and cli (the core runs on every runtime), and no import cycles.
// test/lint-walls.test.ts proves each rule fires on a deliberate violation.
const NODE = { group: ['node:*'], message: 'The SDK runs on every runtime: web-standard APIs only (node: is for src/testing and src/cli).' };
const ENTRIES = { group: ['**/index', '**/client', '**/helpers/*'], message: 'Only the public entries import the client and the entry points.' };
const TESTING = { group: ['**/testing', '**/testing/*'], message: 'The SDK does not depend on its testing kit.' };
const CLI = { group: ['**/cli/*'], message: 'Nothing depends on the CLI.' };
const OTEL = { group: ['**/otel', '**/otel/*'], message: 'Nothing depends on the otel entry (model-inference-sdk/otel): it is built on the public one.' };
const LIB = { group: ['**/lib/*'], message: 'The core and the resources do not depend on the helpers (lib/): the client adds them on top.' };
const RESOURCES = { group: ['**/resources/*'], message: 'The core does not depend on the resources.' };

/** `no-restricted-imports` with these walls. @param {...{ group: string[], message: string }} walls */
const walls = (...walls) => /** @type {const} */ (['error', { patterns: walls }]);

export default tseslint.config(
  { ignores: ['dist/', 'docs/api/', 'coverage/', '.runtimes/', '.cache/', '**/node_modules/', 'test/fixtures/lint-walls/'] },
  {
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    ignores: ['src/generated/**'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The core: src/*.ts but the entries, and src/stream/.
  { files: ['src/*.ts', 'src/stream/**'], ignores: ['src/index.ts', 'src/client.ts'], rules: { 'no-restricted-imports': walls(NODE, ENTRIES, TESTING, CLI, OTEL, LIB, RESOURCES) } },
  { files: ['src/resources/**'], rules: { 'no-restricted-imports': walls(NODE, ENTRIES, TESTING, CLI, OTEL, LIB) } },
  { files: ['src/lib/**'], rules: { 'no-restricted-imports': walls(NODE, ENTRIES, TESTING, CLI, OTEL) } },
  { files: ['src/index.ts', 'src/client.ts', 'src/helpers/**'], rules: { 'no-restricted-imports': walls(NODE, TESTING, CLI, OTEL) } },
  { files: ['src/testing/**'], rules: { 'no-restricted-imports': walls(CLI, OTEL) } },
  {
    // model-inference-sdk/otel, an entry built on the public one: it imports the SDK as its users do
    // (`from 'model-inference-sdk'`: the same classes, none of the SDK's code in its own chunks), and the
    // package's version from package.json.
    files: ['src/otel/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NODE,
            { regex: '^\\.\\./(?!\\.\\./package\\.json$)', message: "model-inference-sdk/otel is built on the public entry: it imports the SDK from 'model-inference-sdk', as a user's code does, nothing of src/." },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!index$|testing$)', message: 'The CLI is a user of the package: it imports the public entries only (../index, ../testing).' },
          ],
        },
      ],
    },
  },
  {
    // Generated code imports zod and its own files, nothing of the SDK: only the import rules run here.
    // The recommended rules do not (see `ignores` above); among them, @typescript-eslint/no-namespace
    // would reject the type-only `declare namespace`s that give openai's nested names
    // (`ChatCompletion.Choice`, from `x-openai-names` in the spec). Hand-written code keeps the rule.
    files: ['src/generated/**'],
    languageOptions: { parser: tseslint.parser },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [NODE, { regex: '^\\.\\./', message: 'Generated code imports nothing of the SDK (zod and its own files only).' }] },
      ],
    },
  },
  {
    // No import cycles anywhere in the package's source.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts'] })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts'],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Plain JavaScript (bench drivers, runtime probes): TypeScript checks undefined names in .ts;
    // here the globals differ per runtime, so no-undef would only guess.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    rules: { 'no-undef': 'off' },
  },
);
