// ESLint flat config. TypeScript (lib/, spec/, bench/, examples/) is linted with type information
// (typescript-eslint's recommended-type-checked set plus the rules below); the CommonJS examples,
// bench scripts and config files with ESLint's recommended JavaScript rules.
// Every rule turned off or relaxed here says why on its line.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The ways to read the wall clock or a timer that no spec may use, as selectors with their names. */
const CLOCK_READINGS = [
  ["CallExpression[callee.object.name='Date'][callee.property.name='now']", 'Date.now()'],
  ["NewExpression[callee.name='Date'][arguments.length=0]", 'new Date() without an argument'],
  ["CallExpression[callee.name='Date']", 'Date() called as a function'],
  ["CallExpression[callee.object.name='performance'][callee.property.name='now']", 'performance.now()'],
  ["MemberExpression[object.name='process'][property.name='hrtime']", 'process.hrtime'],
];
const CLOCK_ADVICE =
  'use jest fake timers (jest.now()) or an injected clock for timer behaviour, counters or event order for work bounds, and bench/ for timing.';

export default defineConfig(
  {
    // Build output, coverage, the generated API reference, and hand-written declaration shims
    // (spec/types/express4.d.ts describes a foreign package; its shape is not ours to lint).
    ignores: ['dist/**', 'coverage/**', 'docs/api/**', '**/*.d.ts'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  {
    rules: {
      // The XML and JSON escapers and the header checks match control characters on purpose
      // (XML 1.0 Char, RFC 9110 field values).
      'no-control-regex': 'off',
      // Off as eslint-config-prettier has it: Prettier breaks long member chains before a computed
      // access, which this rule reports; with semicolons everywhere, no ASI hazard can come of it.
      'no-unexpected-multiline': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // @ts-expect-error only in the type tests (spec/types/ and spec/**/*.types.spec.ts, below); never @ts-ignore or @ts-nocheck.
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-expect-error': true, 'ts-ignore': true, 'ts-nocheck': true, 'ts-check': false }],
      // A `!` needs an `eslint-disable-next-line ... -- <reason>` comment saying why the value is there.
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Relaxed: relaying a caught `unknown` reason unchanged (a wrapper's reject(error)) is right;
      // new rejections are still Errors.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // Off: `async` without `await` is how provider methods, handlers and operation writers return
      // the Promise their contract asks for and turn a synchronous throw into a rejection.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['spec/**/*.ts'],
    rules: {
      // Off in specs: supertest's `response.body` and JSON.parse results are `any`, and the specs
      // assert on them with expect(), which checks the shape at run time.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Off in specs: `expect(provider.method)` and jest.spyOn pass methods unbound on purpose.
      '@typescript-eslint/unbound-method': 'off',
      // Off in specs: they stringify entity values they built themselves, typed as the wide value union.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // No clock readings in specs: a spec that judges a result by the time it took fails when the
    // machine is busy. Timer behaviour is tested with jest's fake timers (`jest.now()` reads their
    // clock) or an injected clock, work bounds with counters and event order; a hang is caught by
    // jest's timeout, and timing lives in bench/. Helpers that must read the clock are listed in
    // `ignores` with their reason (none today). The plain JavaScript helpers (child processes, the
    // SAPUI5 server) are specs' code too.
    files: ['spec/**/*.ts', 'spec/**/*.js', 'spec/**/*.mjs'],
    ignores: [],
    rules: {
      'no-restricted-syntax': ['error', ...CLOCK_READINGS.map(([selector, what]) => ({ selector, message: `${what} reads the clock: ${CLOCK_ADVICE}` }))],
    },
  },
  {
    // The type tests compile against the built package (dist/), which a lint run must not need:
    // tsc checks their types (npm run test:types), ESLint only the rules that need no types.
    files: ['spec/types/**/*.ts'],
    extends: [tseslint.configs.disableTypeChecked],
    rules: {
      // The type tests assert what must not compile with @ts-expect-error (tsc fails an unused one).
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-expect-error': false, 'ts-ignore': true, 'ts-nocheck': true, 'ts-check': false }],
    },
  },
  {
    // Type tests of internal tables beside the specs (spec/**/*.types.spec.ts): compiled by `npm run
    // typecheck` and run by jest, they assert what must not compile with @ts-expect-error too.
    files: ['spec/**/*.types.spec.ts'],
    rules: {
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-expect-error': 'allow-with-description', 'ts-ignore': true, 'ts-nocheck': true, 'ts-check': false }],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node } },
  },
);
