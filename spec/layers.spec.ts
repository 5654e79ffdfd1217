/**
 * The one-way layer order, enforced: `util, errors, edm, uri, protocol, handlers, service, http`,
 * where a module may import only from its own layer or layers listed before it (errors are the
 * bottom layer because every layer throws them). `format` and `batch` sit beside the chain with
 * their own allowances (the table below).
 * `sql` (the subpath export `express-odata-v2/sql`) sits beside the core: it reads the model, the
 * typed AST and the provider contract (and loads seed data through MemoryProvider), and nothing
 * in the core imports it (only `cli` does). `evaluate` (the exact in-memory evaluator, exported as every provider's fallback) sits just above
 * the provider contract. `testing` (the subpath export `express-odata-v2/testing`,
 * the conformance suite) uses only the public surface, as a provider author does, and nothing
 * imports it either. `fiori` (the subpath export `express-odata-v2/fiori`, the Fiori preview)
 * reads the model only, and nothing in the core imports it. `cli` (the `express-odata-v2`
 * executable) sits on top and uses only the public surfaces of the core, `sql` and `fiori`, as a
 * user's program does.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative, resolve, dirname } from 'path';

const LIB = resolve(__dirname, '..', 'lib');

/** Layer of a lib-relative file path. */
function layerOf(file: string): string {
  const [top] = file.split('/');
  if (top.endsWith('.ts')) return top.replace(/\.ts$/, '');
  return top;
}

/** What each layer may import (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  util: [],
  errors: ['util'],
  edm: ['util', 'errors'],
  uri: ['util', 'errors', 'edm'],
  protocol: ['util', 'errors', 'edm', 'uri'],
  provider: ['util', 'errors', 'edm', 'uri', 'protocol'],
  // the exact in-memory evaluator: any provider's fallback, beside the contract it evaluates for.
  evaluate: ['util', 'errors', 'edm', 'uri', 'protocol', 'provider'],
  result: ['util', 'errors', 'edm', 'uri', 'provider'],
  format: ['util', 'errors', 'edm', 'uri', 'protocol', 'provider', 'result'],
  providers: ['util', 'errors', 'edm', 'uri', 'protocol', 'provider', 'evaluate'],
  options: ['util', 'errors', 'edm', 'uri', 'protocol', 'provider'],
  handlers: ['util', 'errors', 'edm', 'uri', 'protocol', 'provider', 'evaluate', 'result', 'format', 'options'],
  // batch is a multiplexer that takes the pipeline as a function; the service's $batch row calls it.
  batch: ['util', 'errors', 'edm', 'uri', 'protocol', 'format', 'options'],
  service: ['util', 'errors', 'edm', 'uri', 'protocol', 'provider', 'evaluate', 'result', 'format', 'options', 'handlers', 'batch'],
  http: ['util', 'errors', 'edm', 'uri', 'protocol', 'format', 'options', 'service', 'batch'],
  middleware: ['util', 'errors', 'edm', 'uri', 'protocol', 'provider', 'evaluate', 'format', 'options', 'service', 'batch', 'http'],
  // protocol: the provider contract's RequestContext; providers: `seed` checks data as MemoryProvider does.
  sql: ['util', 'errors', 'edm', 'uri', 'protocol', 'provider', 'evaluate', 'providers'],
  // util besides the public surface: its generic helpers read caught values without trusting them.
  testing: ['index', 'util'],
  // the Fiori preview (the subpath export `express-odata-v2/fiori`) reads the model only.
  fiori: ['util', 'edm'],
  index: Object.keys({}),
  cli: ['index', 'sql', 'util', 'fiori'],
};

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

describe('layer order', () => {
  const files = listFiles(LIB).map((f) => relative(LIB, f));

  it('knows the layer of every module in lib/', () => {
    const unknown = files.filter((f) => !(layerOf(f) in ALLOWED));
    expect(unknown).toEqual([]);
  });

  it('has no import that points against the layer order', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      if (from === 'index') continue; // the public surface re-exports everything
      const source = readFileSync(join(LIB, file), 'utf8');
      for (const match of source.matchAll(/from\s+'(\.[^']*)'/g)) {
        const target = relative(LIB, resolve(LIB, dirname(file), match[1]));
        const to = layerOf(target.endsWith('.ts') ? target : target + '.ts');
        if (to !== from && !ALLOWED[from].includes(to)) violations.push(`${file} imports ${match[1]} (${from} -> ${to})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it.each(['sql', 'testing', 'fiori'])(
    'keeps lib/%s out of the core: no module outside it imports it (lib/sql and lib/fiori: but the command line), not even the public surface',
    (subpath) => {
      const importers = files.filter((file) => {
        if (layerOf(file) === subpath || (subpath !== 'testing' && layerOf(file) === 'cli')) return false;
        const source = readFileSync(join(LIB, file), 'utf8');
        return [...source.matchAll(/from\s+'(\.[^']*)'/g)].some((match) => layerOf(relative(LIB, resolve(LIB, dirname(file), match[1]))) === subpath);
      });
      expect(importers).toEqual([]);
    },
  );
});

/** Every module path a file names: static imports and re-exports, `import()` and `require()`. */
function namedModules(source: string): string[] {
  return [...source.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)'(\.[^']*)'/g)].map((match) => match[1]);
}

describe('the SQL engines', () => {
  const files = listFiles(join(LIB, 'sql')).map((f) => relative(LIB, f));
  const ENGINE = 'sql/sqlite/';
  // The PostgreSQL engine's modules (until they move into a folder of their own).
  const POSTGRES = new Set(['sql/postgres-dialect.ts', 'sql/postgres-temporal.ts', 'sql/pglite.ts', 'sql/postgres.ts', 'sql/values.ts', 'sql/type-parsers.ts']);
  const targetsOf = (file: string): string[] =>
    namedModules(readFileSync(join(LIB, file), 'utf8')).map((name) => {
      const target = relative(LIB, resolve(LIB, dirname(file), name));
      return target.endsWith('.ts') ? target : `${target}.ts`;
    });

  it('no engine-neutral module of lib/sql names the SQLite engine (static imports, import() and require alike); only the entry exports sqlite()', () => {
    const violations = files
      .filter((file) => !file.startsWith(ENGINE) && file !== 'sql/index.ts')
      .flatMap((file) =>
        targetsOf(file)
          .filter((target) => target.startsWith(ENGINE))
          .map((target) => `${file} -> ${target}`),
      );
    expect(violations).toEqual([]);
  });

  it('the SQLite engine names no module of the PostgreSQL engine', () => {
    const violations = files
      .filter((file) => file.startsWith(ENGINE))
      .flatMap((file) =>
        targetsOf(file)
          .filter((target) => POSTGRES.has(target))
          .map((target) => `${file} -> ${target}`),
      );
    expect(violations).toEqual([]);
    // The rule reads real files: each PostgreSQL module it names exists.
    for (const module of POSTGRES) expect(files).toContain(module);
  });

  it('the neutral read and write code decodes through the engine codec, never the PostgreSQL one', () => {
    const violations = files
      .filter((file) => /^sql\/(read|write|compile|mapping|schema)\//.test(file))
      .flatMap((file) =>
        targetsOf(file)
          .filter((target) => target === 'sql/values.ts')
          .map((target) => `${file} -> ${target}`),
      );
    expect(violations).toEqual([]);
  });
});
