/**
 * The fast lane's specs (`npm test`): everything in-process, with coverage. Specs against a
 * PostgreSQL server (*.pg.spec.ts) are `npm run test:postgres` (jest.postgres.config.js); specs of
 * the package as users get it (spec/package/: the tarball, the executable and the example servers
 * as processes) are `npm run test:package` (jest.package.config.js); specs in Chromium
 * (*.browser.spec.ts) are `npm run test:browser` (jest.browser.config.js).
 *
 * Type errors are caught by `tsc -b` (npm run typecheck); jest only strips the types, with SWC
 * (ES2022 class fields, as tsc emits them for the target in tsconfig.json).
 */
const transform = {
  '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022', transform: { useDefineForClassFields: true } } }],
};

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  transform,
  // The examples require the package by name, as users do; in tests that name is the source.
  moduleNameMapper: {
    '^express-odata-v2$': '<rootDir>/lib/index.ts',
    '^express-odata-v2/sql$': '<rootDir>/lib/sql/index.ts',
    '^express-odata-v2/testing$': '<rootDir>/lib/testing/index.ts',
    '^express-odata-v2/fiori$': '<rootDir>/lib/fiori/index.ts',
  },
  testPathIgnorePatterns: ['/node_modules/', '\\.pg\\.spec\\.ts$', '\\.browser\\.spec\\.ts$', '<rootDir>/spec/package/'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // A run in band (one spec file, or --runInBand) holds the shared PGlite instance in jest's own process.
  globalTeardown: '<rootDir>/spec/helpers/pglite-teardown.ts',
  testTimeout: 20000,
  // Coverage of lib/ measured at 95.9% statements, 89.0% branches, 92.7% functions, 97.7% lines;
  // the thresholds sit just below so that a drop fails the run.
  collectCoverageFrom: ['lib/**/*.ts'],
  coverageReporters: ['text-summary'],
  coverageThreshold: { global: { statements: 94, branches: 86, functions: 90, lines: 96 } },
};
