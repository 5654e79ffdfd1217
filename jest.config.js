/** Type errors are caught by `npm run typecheck`; jest only transpiles, which keeps the suite fast. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }],
  },
  // The examples require the package by name, as users do; in tests that name is the source.
  moduleNameMapper: {
    '^express-odata-v2$': '<rootDir>/lib/index.ts',
    '^express-odata-v2/sql$': '<rootDir>/lib/sql/index.ts',
    '^express-odata-v2/testing$': '<rootDir>/lib/testing/index.ts',
    '^express-odata-v2/fiori$': '<rootDir>/lib/fiori/index.ts',
  },
  // Specs against a PostgreSQL server run in `npm run test:postgres` (jest.postgres.config.js),
  // specs in a browser in `npm run test:browser` (jest.browser.config.js).
  testPathIgnorePatterns: ['/node_modules/', '\\.pg\\.spec\\.ts$', '\\.browser\\.spec\\.ts$'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 20000,
  // Coverage of lib/ measured at 95.9% statements, 89.0% branches, 92.7% functions, 97.7% lines;
  // the thresholds sit just below so that a drop fails the run.
  collectCoverageFrom: ['lib/**/*.ts'],
  coverageReporters: ['text-summary'],
  coverageThreshold: { global: { statements: 94, branches: 86, functions: 90, lines: 96 } },
};
