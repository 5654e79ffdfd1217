/** Type errors are caught by `npm run typecheck`; jest only transpiles, which keeps the suite fast. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }],
  },
  // The examples require the package by name, as users do; in tests that name is the source.
  moduleNameMapper: { "^express-odata-v2$": "<rootDir>/lib/index.ts" },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 20000,
};
