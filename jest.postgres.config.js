/**
 * `npm run test:postgres`: the specs named *.pg.spec.ts, against the PostgreSQL server at
 * DATABASE_URL, or a throwaway server this run starts and removes (spec/helpers/postgres-server.ts).
 * Each spec file works in a database of its own, so files run in parallel.
 */
const base = require('./jest.config.js');

module.exports = {
  testEnvironment: base.testEnvironment,
  roots: base.roots,
  transform: base.transform,
  moduleNameMapper: base.moduleNameMapper,
  moduleFileExtensions: base.moduleFileExtensions,
  testMatch: ['**/*.pg.spec.ts'],
  globalSetup: '<rootDir>/spec/helpers/postgres-global-setup.ts',
  globalTeardown: '<rootDir>/spec/helpers/postgres-global-teardown.ts',
  testTimeout: 60000,
};
