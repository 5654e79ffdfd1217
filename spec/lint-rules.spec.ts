/**
 * The lint rule that keeps clock readings out of the specs (eslint.config.mjs): ESLint, with the
 * project's config, reports every way of reading the clock in a file under spec/, with its advice,
 * and none of the ways of making a time from a value, nor jest's fake clock, nor anything in lib/
 * (which may read the clock). The type-aware rules are switched off here: they need the whole
 * program, and this rule needs none of it.
 */
import { resolve } from 'path';
import type * as ESLintModule from 'eslint';
import type * as TypeScriptESLintModule from 'typescript-eslint';

const ROOT = resolve(__dirname, '..');

// Node's own loader: ESLint loads eslint.config.mjs with import(), which jest's sandbox refuses.
const load = process.getBuiltinModule('module').createRequire(__filename);
const { ESLint } = load('eslint') as typeof ESLintModule;
const tseslint = load('typescript-eslint') as typeof TypeScriptESLintModule;

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, project: null } } },
    { files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked },
  ],
});

const ADVICE = 'use jest fake timers (jest.now()) or an injected clock for timer behaviour, counters or event order for work bounds, and bench/ for timing.';

/** The messages of the clock rule for `expression` in a file at `path` (relative to the root). */
async function clockFindings(expression: string, path: string): Promise<string[]> {
  const [result] = await eslint.lintText(`export declare const text: string;\nexport const value = ${expression};\n`, { filePath: resolve(ROOT, path) });
  const other = result.messages.filter((message) => message.ruleId !== 'no-restricted-syntax');
  if (other.length > 0) throw new Error(`unexpected findings: ${JSON.stringify(other)}`);
  return result.messages.map((message) => message.message);
}

describe('no clock readings in specs (no-restricted-syntax in eslint.config.mjs)', () => {
  it.each([
    ['Date.now()', 'Date.now()'],
    ['new Date()', 'new Date() without an argument'],
    ['Date()', 'Date() called as a function'],
    ['performance.now()', 'performance.now()'],
    ['process.hrtime()', 'process.hrtime'],
    ['process.hrtime.bigint()', 'process.hrtime'],
  ])('reports %s in a spec', async (expression, what) => {
    expect(await clockFindings(expression, 'spec/e2e/probe.spec.ts')).toEqual([`${what} reads the clock: ${ADVICE}`]);
  });

  it('reports it in spec helpers as well', async () => {
    expect(await clockFindings('Date.now() - 1', 'spec/helpers/probe.ts')).toHaveLength(1);
  });

  it.each(['spec/helpers/probe.js', 'spec/browser/probe.mjs'])('reports it in the plain JavaScript of %s', async (path) => {
    const [result] = await eslint.lintText('void performance.now();\n', { filePath: resolve(ROOT, path) });
    expect(result.messages.map((message) => message.message)).toEqual([`performance.now() reads the clock: ${ADVICE}`]);
  });

  it.each(['new Date(0)', "new Date('2000-01-01T00:00:00Z')", 'Date.UTC(2000, 0, 1)', 'Date.parse(text)', 'jest.now()', 'new Date(jest.now())'])(
    'leaves %s alone',
    async (expression) => {
      expect(await clockFindings(expression, 'spec/e2e/probe.spec.ts')).toEqual([]);
    },
  );

  it('leaves lib/ alone: the library reads the clock where its behaviour needs it', async () => {
    expect(await clockFindings('Date.now()', 'lib/probe.ts')).toEqual([]);
  });
});
