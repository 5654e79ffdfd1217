/**
 * The one-way layer order, enforced: `util, errors, edm, uri, protocol, handlers, service, http`,
 * where a module may import only from its own layer or layers listed before it (errors are the
 * bottom layer because every layer throws them). `format` and `batch` sit beside the chain with
 * their own allowances (the table below).
 * `sql` (the subpath export `express-odata-v2/sql`) sits beside the core: it reads the model, the
 * typed AST and the provider kit (whose data loader checks seed data as it checks MemoryProvider's),
 * never `providers` (its sibling, not a floor below it), and nothing in the core imports it (only
 * `cli` does). `evaluate` (the exact in-memory evaluator, exported as every provider's fallback) sits just above
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
  // protocol: the provider contract's RequestContext. Never providers: MemoryProvider is a sibling (the kit checks seed data for both).
  sql: ['util', 'errors', 'edm', 'uri', 'protocol', 'provider', 'evaluate'],
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
      for (const name of namedModules(source)) {
        const target = relative(LIB, resolve(LIB, dirname(file), name));
        const to = layerOf(target.endsWith('.ts') ? target : target + '.ts');
        if (to !== from && !ALLOWED[from].includes(to)) violations.push(`${file} imports ${name} (${from} -> ${to})`);
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
        return namedModules(source).some((name) => layerOf(relative(LIB, resolve(LIB, dirname(file), name))) === subpath);
      });
      expect(importers).toEqual([]);
    },
  );
});

/**
 * Every relative module path a source names: static imports and re-exports (`from '…'`),
 * side-effect imports (`import '…'`), `import('…')` and `require('…')`, in single or double quotes.
 */
function namedModules(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s+|^\s*import\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)(['"])(\.[^'"]*)\1/gm)].map((match) => match[2]);
}

/** The SQL engines' folders (lib-relative). */
const ENGINES = ['sql/postgres/', 'sql/sqlite/'];
/** The public index: it exports `pglite()`, `postgres()` and `sqlite()` from the engines' entry points. */
const ENGINE_ENTRY = 'sql/index.ts';

/** A lib-relative file's imports of an engine folder it may not name (see the rules below), as `file -> target`. */
function engineViolations(file: string, source: string): string[] {
  const own = ENGINES.find((engine) => file.startsWith(engine));
  return namedModules(source)
    .map((name) => {
      const target = relative(LIB, resolve(LIB, dirname(file), name));
      return target.endsWith('.ts') ? target : `${target}.ts`;
    })
    .filter((target) => {
      const engine = ENGINES.find((candidate) => target.startsWith(candidate));
      // Neutral code names no engine (the public index excepted); an engine names no other engine.
      return engine !== undefined && engine !== own && file !== ENGINE_ENTRY;
    })
    .map((target) => `${file} -> ${target}`);
}

describe('lib/sql and lib/providers', () => {
  it('lib/sql never names lib/providers (static imports, import() and require alike): the provider kit holds what both need', () => {
    const violations = listFiles(join(LIB, 'sql'))
      .map((file) => relative(LIB, file))
      .flatMap((file) =>
        namedModules(readFileSync(join(LIB, file), 'utf8'))
          .filter((name) => layerOf(relative(LIB, resolve(LIB, dirname(file), name))) === 'providers')
          .map((name) => `${file} names ${name}`),
      );
    expect(violations).toEqual([]);
  });
});

describe('the SQL engines', () => {
  const files = listFiles(LIB).map((f) => relative(LIB, f));

  it.each(ENGINES)('has the engine folder lib/%s', (engine) => {
    expect(files.filter((file) => file.startsWith(engine)).length).toBeGreaterThan(0);
  });

  it('no engine-neutral module names an engine folder, and no engine names another (static imports, import() and require alike); only the public index exports the engines', () => {
    const violations = files.flatMap((file) => engineViolations(file, readFileSync(join(LIB, file), 'utf8')));
    expect(violations).toEqual([]);
  });

  it('catches every form of naming an engine module: the rule above can fail', () => {
    const forms = [
      "import { POSTGRES_VALUES } from '../postgres/values';",
      'export { sqlite } from "../sqlite/database";',
      "import '../sqlite/functions';",
      "const engine = await import('../postgres/engine');",
      "const codec = require( '../sqlite/values' );",
    ];
    for (const form of forms) expect(engineViolations('sql/read/query.ts', form)).toHaveLength(1);
    expect(engineViolations('sql/read/query.ts', forms.join('\n'))).toEqual([
      'sql/read/query.ts -> sql/postgres/values.ts',
      'sql/read/query.ts -> sql/sqlite/database.ts',
      'sql/read/query.ts -> sql/sqlite/functions.ts',
      'sql/read/query.ts -> sql/postgres/engine.ts',
      'sql/read/query.ts -> sql/sqlite/values.ts',
    ]);
    // An engine may name its own folder and neutral code; the SQLite engine may not name PostgreSQL's.
    expect(engineViolations('sql/sqlite/engine.ts', "import { SQLITE_DDL } from './ddl';\nimport type { SqlEngine } from '../engine';")).toEqual([]);
    expect(engineViolations('sql/sqlite/engine.ts', "const pg = require('../postgres/values');")).toEqual(['sql/sqlite/engine.ts -> sql/postgres/values.ts']);
    // A module path in a string or comment that is not an import names nothing.
    expect(engineViolations('sql/read/query.ts', "const note = 'see ../postgres/values'; // imported from nowhere")).toEqual([]);
    expect(engineViolations(ENGINE_ENTRY, forms.join('\n'))).toEqual([]);
  });
});
