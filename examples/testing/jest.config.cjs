// Runs the jest example: `npm run examples:testing` (builds dist/ if stale, installs jest into this folder).
/* global module, __dirname */
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testMatch: ['<rootDir>/jest/**/*.test.cjs'],
  testEnvironment: 'node',
  // Only because this example lives inside the SDK's own repository: point the package name at the
  // build. In your project, delete this: `model-inference-sdk` resolves from node_modules.
  moduleNameMapper: {
    '^model-inference-sdk$': '<rootDir>/../../dist/index.cjs',
    '^model-inference-sdk/testing$': '<rootDir>/../../dist/testing/index.cjs',
  },
};
