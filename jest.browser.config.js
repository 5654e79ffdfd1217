/**
 * `npm run test:browser`: the specs named *.browser.spec.ts, in Debian's Chromium (headless,
 * driven by playwright-core) against SAPUI5 1.146.0 from the pinned packages, served by SAP's
 * development server that the global setup starts. One worker: a browser and SAPUI5's sources
 * are the heaviest thing on the machine.
 */
const base = require('./jest.config.js');

module.exports = {
  testEnvironment: base.testEnvironment,
  roots: base.roots,
  transform: base.transform,
  moduleNameMapper: base.moduleNameMapper,
  moduleFileExtensions: base.moduleFileExtensions,
  testMatch: ['**/*.browser.spec.ts'],
  globalSetup: '<rootDir>/spec/helpers/browser-global-setup.ts',
  globalTeardown: '<rootDir>/spec/helpers/browser-global-teardown.ts',
  maxWorkers: 1,
  testTimeout: 120000,
};
