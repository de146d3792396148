// A test that fails on purpose, run by jest/failure-frame.test.cjs to see how a failure inside the
// SDK reads under jest. Not part of the example suite (jest.config.cjs matches jest/ only).
/* global module, __dirname */
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testMatch: ['<rootDir>/*.fails.cjs'],
  testEnvironment: 'node',
  moduleNameMapper: { '^model-inference-sdk$': '<rootDir>/../../../dist/index.cjs' },
};
