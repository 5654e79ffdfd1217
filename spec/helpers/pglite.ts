/**
 * PGlite for specs. Instances start from a data directory dumped once per PGlite version into the
 * temp folder (a fresh `initdb` costs ~3 s, loading the dump ~0.6 s), and one instance serves
 * every spec file of a jest worker in turn: each file gets it emptied (every schema dropped, the
 * session reset), so each works in a database of its own without starting one.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import type * as PGliteModule from '@electric-sql/pglite';
import type { PGlite as PGliteInstance } from '@electric-sql/pglite';

// Node's own loader, as lib/sql/postgres/pglite.ts does: PGlite's dynamic import() fails inside Jest's sandbox.
const nodeModule = process.getBuiltinModule('module');
const nodeRequire = nodeModule.createRequire(__filename);
const { PGlite } = nodeRequire('@electric-sql/pglite') as typeof PGliteModule;

/** The worker's shared instance, in Node's module cache (which outlives a spec file's registry). */
const worker = nodeRequire('./pglite-worker.js') as { instance: SharedInstance | undefined; leased: boolean };

/** The shared instance, with what its own properties were when it started (a spec's spy may replace one). */
interface SharedInstance {
  readonly instance: PGliteInstance;
  readonly own: ReadonlyMap<string, PropertyDescriptor | undefined>;
  /** Close it for good (its close() only hands it back). */
  readonly shutDown: () => Promise<void>;
}

/**
 * Empty the database and the session: what a fresh instance would be. The public schema comes back
 * as initdb makes it (owner, privileges, comment); the roles a spec created go too (roles belong
 * to the cluster, not to a schema), so the next file finds only the ones initdb made.
 */
const RESET = `
  do $$
  declare name text;
  begin
    for name in select nspname from pg_namespace
      where nspname not in ('pg_catalog', 'information_schema') and nspname !~ '^pg_(toast|temp_)'
    loop
      execute format('drop schema %I cascade', name);
    end loop;
    for name in select rolname from pg_roles where rolname !~ '^pg_' and rolname <> current_user loop
      execute format('drop owned by %I cascade', name);
      execute format('drop role %I', name);
    end loop;
  end $$;
  create schema public authorization pg_database_owner;
  grant usage on schema public to public;
  comment on schema public is 'standard public schema';
`;

// The package exports no package.json: read it next to its dist/ folder.
const MANIFEST = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
const VERSION = (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { version: string }).version;
const CACHE = join(tmpdir(), `express-odata-v2-pglite-${VERSION}.tar`);

/**
 * An empty in-memory PGlite (close it in afterAll). The first one a spec file opens is the worker's
 * shared instance, emptied, whose close() only hands it back; one opened while that is in use is
 * a fresh instance of its own.
 */
export async function openTestPGlite(): Promise<PGliteInstance> {
  await ensureCachedDump();
  if (worker.leased) return freshInstance();
  worker.leased = true;
  try {
    worker.instance ??= await shareable();
    const { instance, own } = worker.instance;
    restoreOwnProperties(instance, own);
    // One statement each: DISCARD ALL refuses to run in the implicit transaction of a multi-statement query.
    await instance.exec('rollback');
    await instance.exec('discard all');
    await instance.exec(RESET);
    return instance;
  } catch (error) {
    worker.leased = false;
    throw error;
  }
}

async function freshInstance(): Promise<PGliteInstance> {
  const instance = new PGlite({ loadDataDir: new Blob([readFileSync(CACHE)]) });
  await instance.waitReady;
  return instance;
}

/** A fresh instance whose close() hands it back to the worker instead of closing it. */
async function shareable(): Promise<SharedInstance> {
  const instance = await freshInstance();
  const shutDown = instance.close.bind(instance);
  Object.defineProperty(instance, 'close', {
    value: async () => {
      worker.leased = false;
    },
  });
  const own = new Map<string, PropertyDescriptor | undefined>();
  for (const name of ['query', 'exec', 'transaction', 'close']) own.set(name, Object.getOwnPropertyDescriptor(instance, name));
  closeWhenTheWorkerEnds();
  return { instance, own, shutDown };
}

/**
 * A jest worker ends by removing its last 'message' listener and waiting for its event loop to
 * empty, which a PGlite loaded from a dump never lets happen until it is closed: jest would kill
 * the worker half a second later and warn of leaking tests. Close the instance at that moment.
 */
function closeWhenTheWorkerEnds(): void {
  // The real process: a spec's `process` is jest's copy of it, whose listeners the worker never sees.
  const jestWorker = process.getBuiltinModule('process');
  if (jestWorker.send === undefined) return;
  const ended = (event: string | symbol): void => {
    if (event !== 'message' || jestWorker.listenerCount('message') > 0) return;
    jestWorker.off('removeListener', ended);
    void closeSharedPGlite();
  };
  jestWorker.on('removeListener', ended);
}

/**
 * Close the worker's shared instance, if this process has one: jest's global teardown
 * (spec/helpers/pglite-teardown.ts), for runs in band, where the tests run in jest's own process
 * and the instance would keep it alive. A worker process closes its own (closeWhenTheWorkerEnds).
 */
export async function closeSharedPGlite(): Promise<void> {
  const shared = worker.instance;
  worker.instance = undefined;
  worker.leased = false;
  await shared?.shutDown();
}

/** Undo what a previous spec file's spies left on the instance's methods. */
function restoreOwnProperties(instance: PGliteInstance, own: ReadonlyMap<string, PropertyDescriptor | undefined>): void {
  for (const [name, descriptor] of own) {
    if (descriptor === undefined) Reflect.deleteProperty(instance, name);
    else Object.defineProperty(instance, name, descriptor);
  }
}

/**
 * A PGlite database in `folder` (which must not exist), made from the cached dump, with `sql` run
 * in it; closed again, for a process to open (the command line's `--db <folder>`).
 */
export async function createTestPGliteFolder(folder: string, sql: string): Promise<void> {
  await ensureCachedDump();
  const instance = new PGlite(folder, { loadDataDir: new Blob([readFileSync(CACHE)]) });
  await instance.waitReady;
  try {
    await instance.exec(sql);
  } finally {
    await instance.close();
  }
}

/** Make the cached dump once per PGlite version. */
async function ensureCachedDump(): Promise<void> {
  if (existsSync(CACHE)) return;
  const instance = new PGlite();
  await instance.waitReady;
  const dump = await instance.dumpDataDir('none');
  await instance.close();
  const partial = `${CACHE}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, CACHE); // atomic: a concurrent worker sees the whole file or none
}

/** Fill `dataDir` with a fresh, empty database (from the same dump), for a PGlite another process opens there. */
export async function prepareTestDataDir(dataDir: string): Promise<void> {
  await ensureCachedDump();
  const instance = new PGlite(dataDir, { loadDataDir: new Blob([readFileSync(CACHE)]) });
  await instance.waitReady;
  await instance.close();
}
