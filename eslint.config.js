// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'docs/api/', 'coverage/', 'src/generated/', '.runtimes/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Runtime-agnostic core: no Node built-ins outside the testing kit, scripts and tests.
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'src/ (outside src/testing) must use web-standard APIs only.' }] }],
    },
  },
  {
    files: ['src/testing/**', 'src/cli/**', 'test/**', 'scripts/**', 'examples/**', 'bench/**', '*.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Plain JavaScript (bench drivers, runtime probes): TypeScript checks undefined names in .ts;
    // here the globals differ per runtime, so no-undef would only guess.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    rules: { 'no-undef': 'off' },
  },
);
