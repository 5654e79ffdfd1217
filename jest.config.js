/** Type errors are caught by `npm run typecheck`; jest only transpiles, which keeps the suite fast. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 20000,
};
