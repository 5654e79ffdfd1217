/**
 * `npm run test:package`: the package as users get it, in spec/package/. The tarball `npm pack`
 * makes (packed once for the lane by spec/package/global-setup.ts), installed into fresh apps; the
 * TypeScript blocks of the docs compiled against its declarations; the executable and the example
 * servers run as processes. What runs in a child process is invisible to coverage, so this lane
 * runs without it, after `npm run build`.
 */
const base = require('./jest.config.js');

module.exports = {
  testEnvironment: base.testEnvironment,
  roots: ['<rootDir>/spec/package'],
  testMatch: ['**/*.spec.ts'],
  transform: base.transform,
  moduleNameMapper: base.moduleNameMapper,
  moduleFileExtensions: base.moduleFileExtensions,
  globalSetup: '<rootDir>/spec/package/global-setup.ts',
  globalTeardown: '<rootDir>/spec/package/global-teardown.ts',
  testTimeout: base.testTimeout,
};
